// The validators of validate/ (bench_validate.cpp) and scaling/
// (bench_scaling.cpp): each library asked whether a whole document is valid
// JSON, the way its users would ask it (bench_validate.cpp's header says how
// each library is called), with the checks every one of them must pass before
// it is timed. TASK/LIBRARY/NAME is registered for each library compiled in.
#pragma once

#include "corpus.hpp"
#include "dom_peers.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "fastjson.h"

#ifdef FJ_BENCH_SIMDJSON
#include <simdjson.h>
#endif
#ifdef FJ_BENCH_RAPIDJSON
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#endif
#ifdef FJ_BENCH_CJSON
#include <cjson/cJSON.h>
#endif
#ifdef FJ_BENCH_YAJL
#include <yajl/yajl_parse.h>
#endif

namespace fjbench {

// One validator: set up once per benchmark, then asked about documents.
struct validator {
  virtual ~validator() = default;
  virtual bool valid(const std::string &json) = 0;
  // A check beyond accepting and rejecting, before timing: an empty string
  // if the library read the document right, else what is wrong.
  virtual std::string check(const std::string &) { return {}; }
};

struct fastjson_validator : validator {
  fj_parser *p = nullptr;
  fastjson_validator() {
    if (fj_parser_new(&p, nullptr)) fail("fj_parser_new");
  }
  ~fastjson_validator() override { fj_parser_free(p); }
  bool valid(const std::string &json) override {
    return fj_parser_validate(p, json.data(), json.size()) == FJ_OK;
  }
};

#ifdef FJ_BENCH_SIMDJSON
struct simdjson_validator : validator {
  simdjson::dom::parser parser;
  const std::string *last = nullptr; // the document `padded` copies, padded once
  simdjson::padded_string padded;
  bool valid(const std::string &json) override {
    if (last != &json || padded.size() != json.size()) {
      padded = simdjson::padded_string(json);
      last = &json;
    }
    simdjson::dom::element e;
    return parser.parse(padded).get(e) == simdjson::SUCCESS;
  }
};
#endif

#ifdef FJ_BENCH_RAPIDJSON
struct rapidjson_validator : validator {
  rapidjson::Reader reader;
  bool valid(const std::string &json) override {
    rapidjson::BaseReaderHandler<> handler;
    rapidjson::MemoryStream ms(json.data(), json.size());
    return !reader.Parse<rapidjson::kParseValidateEncodingFlag>(ms, handler).IsError();
  }
};
#endif

#ifdef FJ_BENCH_CJSON
struct cjson_validator : validator {
  bool valid(const std::string &json) override {
    cJSON *root = cJSON_ParseWithLength(json.data(), json.size());
    if (!root) return false;
    cJSON_Delete(root);
    return true;
  }
};
#endif

#ifdef FJ_BENCH_YAJL
struct yajl_validator : validator {
  bool valid(const std::string &json) override {
    yajl_handle h = yajl_alloc(nullptr, nullptr, nullptr);
    if (!h) fail("yajl_alloc");
    bool ok = yajl_parse(h, reinterpret_cast<const unsigned char *>(json.data()), json.size()) ==
                  yajl_status_ok &&
              yajl_complete_parse(h) == yajl_status_ok;
    yajl_free(h);
    return ok;
  }
};
#endif

// ---- the DOM peers reached through C (dom_peers.h) ----------------------------------

// What fastjson reads in the document, counted like the DOM peers count
// their trees (fjb_counts).
inline void fastjson_count(const fj_value *v, fjb_counts &c, int depth = 0) {
  fj_type t;
  if (fj_value_get_type(v, &t)) fail("fastjson_count: type");
  switch (t) {
  case FJ_TYPE_OBJECT: {
    fj_object o;
    fj_value k, e;
    fj_error err;
    const char *s;
    size_t n;
    if (fj_value_get_object(v, &o)) fail("fastjson_count: object");
    c.objects++;
    while ((err = fj_object_next(&o, &k, &e)) == FJ_OK) {
      if (fj_value_get_string(&k, &s, &n)) fail("fastjson_count: key");
      c.keys++;
      c.key_bytes += n;
      fastjson_count(&e, c, depth + 1);
    }
    if (err != FJ_END) fail("fastjson_count: object");
    break;
  }
  case FJ_TYPE_ARRAY: {
    fj_array a;
    fj_value e;
    fj_error err;
    if (fj_value_get_array(v, &a)) fail("fastjson_count: array");
    c.arrays++;
    while ((err = fj_array_next(&a, &e)) == FJ_OK)
      fastjson_count(&e, c, depth + 1);
    if (err != FJ_END) fail("fastjson_count: array");
    break;
  }
  case FJ_TYPE_STRING: {
    const char *s;
    size_t n;
    if (fj_value_get_string(v, &s, &n)) fail("fastjson_count: string");
    c.strings++;
    c.string_bytes += n;
    break;
  }
  case FJ_TYPE_NUMBER: {
    fj_number x;
    if (fj_value_get_number(v, &x)) fail("fastjson_count: number");
    c.numbers++;
    c.number_sum += x.kind == FJ_NUMBER_INT64    ? double(x.i)
                    : x.kind == FJ_NUMBER_UINT64 ? double(x.u)
                                                 : x.d;
    break;
  }
  case FJ_TYPE_BOOL: {
    bool b;
    if (fj_value_get_bool(v, &b)) fail("fastjson_count: bool");
    (b ? c.trues : c.falses)++;
    break;
  }
  case FJ_TYPE_NULL: c.nulls++; break;
  }
  if (depth == 0)
    c.root = t == FJ_TYPE_OBJECT   ? FJB_BEGIN_OBJECT
             : t == FJ_TYPE_ARRAY  ? FJB_BEGIN_ARRAY
             : t == FJ_TYPE_STRING ? FJB_STRING
             : t == FJ_TYPE_NUMBER ? FJB_DOUBLE
             : t == FJ_TYPE_NULL   ? FJB_NULL
             : c.trues             ? FJB_TRUE
                                   : FJB_FALSE;
}

inline fjb_counts fastjson_counts(const std::string &json) {
  fj_parser *p;
  fj_value root;
  fjb_counts c{};
  if (fj_parser_new(&p, nullptr) || fj_parser_parse(p, json.data(), json.size(), &root))
    fail("fastjson_counts: parse");
  fastjson_count(&root, c);
  fj_parser_free(p);
  return c;
}

// The differences between two counts, or an empty string.
inline std::string counts_differ(const fjb_counts &a, const fjb_counts &b) {
  std::string d;
  auto field = [&](const char *name, uint64_t x, uint64_t y) {
    if (x != y)
      d += std::string(d.empty() ? "" : ", ") + name + " " + std::to_string(x) + " vs " +
           std::to_string(y);
  };
  field("root kind", a.root, b.root);
  field("objects", a.objects, b.objects);
  field("arrays", a.arrays, b.arrays);
  field("keys", a.keys, b.keys);
  field("key bytes", a.key_bytes, b.key_bytes);
  field("strings", a.strings, b.strings);
  field("string bytes", a.string_bytes, b.string_bytes);
  field("numbers", a.numbers, b.numbers);
  field("trues", a.trues, b.trues);
  field("falses", a.falses, b.falses);
  field("nulls", a.nulls, b.nulls);
  if (std::memcmp(&a.number_sum, &b.number_sum, sizeof a.number_sum) != 0)
    d += std::string(d.empty() ? "" : ", ") + "sum of the numbers " + std::to_string(a.number_sum) +
         " vs " + std::to_string(b.number_sum);
  return d;
}

// jansson, json-c: the tree built and freed; before timing, what the tree
// holds (values of each kind, key and string bytes, the sum of the numbers in
// document order) must equal what fastjson reads.
template <const fjb_dom_lib *Lib> struct dom_validator : validator {
  fjb_dom *d;
  dom_validator() : d(Lib->create()) {
    if (!d) fail(std::string(Lib->name) + ": out of memory");
  }
  ~dom_validator() override { Lib->destroy(d); }
  dom_validator(const dom_validator &) = delete;
  dom_validator &operator=(const dom_validator &) = delete;
  // std::string's bytes are followed by a '\0', as Lib->parse wants
  bool valid(const std::string &json) override { return Lib->parse(d, json.data(), json.size()); }
  std::string check(const std::string &json) override {
    fjb_counts mine{};
    if (!Lib->count(d, json.data(), json.size(), &mine)) return "rejected";
    std::string diff = counts_differ(mine, fastjson_counts(json));
    return diff.empty() ? diff : "reads other values than fastjson (" + diff + ")";
  }
};

// Copies of the document with one error each, every one of which a JSON
// parser must reject (RFC 8259): its last closing bracket turned into a
// comma; the separator nearest its middle (a ',' or ':' outside strings)
// turned into a space; an unknown escape "\\x" put at the start of the
// string nearest its middle; the document cut off at its middle.
inline std::vector<std::string> broken(const std::string &json, const std::string &name) {
  std::vector<std::string> out;
  std::string b = json;
  size_t at = b.find_last_of("]}");
  if (at == std::string::npos) fail("no bracket to break in " + name);
  b[at] = ',';
  out.push_back(b);
  // the structure outside strings, from the middle on
  size_t sep = std::string::npos, quote = std::string::npos;
  bool in_string = false, escaped = false;
  for (size_t i = 0; i < json.size(); i++) {
    char c = json[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
      if (i >= json.size() / 2 && quote == std::string::npos) quote = i;
    } else if ((c == ',' || c == ':') && i >= json.size() / 2 && sep == std::string::npos) {
      sep = i;
    }
  }
  if (sep != std::string::npos) {
    b = json;
    b[sep] = ' ';
    out.push_back(b);
  }
  if (quote != std::string::npos) {
    b = json;
    b.insert(quote + 1, "\\x");
    out.push_back(b);
  }
  out.push_back(json.substr(0, json.size() / 2));
  return out;
}

// Before timing, the library must accept the document, reject every broken
// copy, and pass its own check; in the timed loop, accept the
// document every time. Bytes per second are the document's size.
// The checks run once per library and document, not again in every
// repetition (a DOM library takes seconds on the 100 MB scaling document).
template <class V> void validate(benchmark::State &state, const char *lib, const file *f) {
  static std::set<const file *> checked; // one set per validator type
  V v;
  if (!v.valid(f->data)) fail(std::string(lib) + " rejects " + f->name);
  if (checked.insert(f).second) {
    int k = 0;
    for (const std::string &b : broken(f->data, f->name)) {
      if (v.valid(b))
        fail(std::string(lib) + " accepts broken copy " + std::to_string(k) + " of " + f->name);
      k++;
    }
    std::string wrong = v.check(f->data);
    if (!wrong.empty()) fail(std::string(lib) + " on " + f->name + ": " + wrong);
    if (!v.valid(f->data)) fail(std::string(lib) + " rejects " + f->name);
  }
  for (auto _ : state) {
    bool ok = v.valid(f->data);
    if (!ok) fail(std::string(lib) + " rejects " + f->name);
    benchmark::DoNotOptimize(ok);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(f->data.size()));
  state.counters["doc_bytes"] = double(f->data.size());
}

// TASK/LIBRARY/NAME for every library compiled in.
inline void register_validators(const std::string &task, const file &f) {
  auto reg = [&](const char *lib, void (*fn)(benchmark::State &, const char *, const file *)) {
    benchmark::RegisterBenchmark((task + "/" + lib + "/" + f.name).c_str(), fn, lib, &f);
  };
  reg("fastjson", validate<fastjson_validator>);
#ifdef FJ_BENCH_SIMDJSON
  reg("simdjson", validate<simdjson_validator>);
#endif
#ifdef FJ_BENCH_RAPIDJSON
  reg("rapidjson", validate<rapidjson_validator>);
#endif
#ifdef FJ_BENCH_CJSON
  reg("cjson", validate<cjson_validator>);
#endif
#ifdef FJ_BENCH_YAJL
  reg("yajl", validate<yajl_validator>);
#endif
#ifdef FJ_BENCH_JANSSON
  reg(fjb_jansson.name, validate<dom_validator<&fjb_jansson>>);
#endif
#ifdef FJ_BENCH_JSONC
  reg(fjb_jsonc.name, validate<dom_validator<&fjb_jsonc>>);
#endif
}

} // namespace fjbench
