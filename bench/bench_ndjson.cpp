// Document streams against simdjson's iterate_many (On-Demand document
// streams), over NDJSON held in memory:
//   ndjson/LIBRARY/INPUT: every document of the stream is walked whole: keys
//       and strings unescaped, numbers read (int64 when they are integers,
//       else double), literals read.
//   ndjson-first/LIBRARY/INPUT: only the first element or field value of each
//       document is read (mostly stage 1 and finding the documents).
// Inputs: amazon_cellphones.ndjson from the corpus, and twitter.ndjson: the
// 100 statuses of twitter.json, minified, one per line.
// Each run computes a checksum of what it read; before timing, the checksums
// of the two libraries must agree. Bytes per second are the input's size.
// simdjson needs its input padded: the padded copy is made once, outside the
// timing; fastjson reads the plain buffer. Both reuse one parser and use
// batches of 1 MB (simdjson's default batch size).
#include "corpus.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "fastjson.h"

#ifdef FJ_BENCH_SIMDJSON
#include <simdjson.h>
#endif

namespace {

const size_t batch_size = 1000000;

struct checksum {
  double num = 0;
  uint64_t docs = 0, values = 0, string_bytes = 0;
  bool operator==(const checksum &o) const {
    return std::memcmp(&num, &o.num, sizeof num) == 0 && docs == o.docs && values == o.values &&
           string_bytes == o.string_bytes;
  }
  std::string str() const {
    char b[160];
    std::snprintf(b, sizeof b, "num=%.17g docs=%llu values=%llu bytes=%llu", num,
                  (unsigned long long)docs, (unsigned long long)values,
                  (unsigned long long)string_bytes);
    return b;
  }
};

std::map<std::string, checksum> &reference() {
  static std::map<std::string, checksum> r;
  return r;
}

void check(const std::string &name, const char *lib, const checksum &c) {
  auto it = reference().find(name);
  if (it == reference().end())
    reference()[name] = c;
  else if (!(it->second == c))
    fjbench::fail(name + ": " + lib + " read " + c.str() + ", expected " + it->second.str());
}

struct input {
  std::string name, data;
};

fj_error append(void *ctx, const void *bytes, size_t len) {
  static_cast<std::string *>(ctx)->append(static_cast<const char *>(bytes), len);
  return FJ_OK;
}

// The inputs: the corpus's NDJSON file and twitter.json's statuses, one per line.
const std::vector<input> &inputs() {
  static std::vector<input> in = [] {
    std::vector<input> out;
    const char *env = std::getenv("FJ_DATA_DIR");
    std::string dir = std::string(env && *env ? env : FJ_DATA_DIR) + "/corpus/";
    std::ifstream f(dir + "amazon_cellphones.ndjson", std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    if (!s.str().empty()) out.push_back({"amazon_cellphones.ndjson", s.str()});
    for (const auto &file : fjbench::corpus()) {
      if (file.name != "twitter.json") continue;
      fj_parser *p, *q;
      fj_value root, statuses, st;
      fj_object o;
      fj_array a;
      const char *raw;
      size_t n;
      std::string nd;
      if (fj_parser_new(&p, nullptr) || fj_parser_new(&q, nullptr)) fjbench::fail("parser");
      if (fj_parser_parse(p, file.data.data(), file.data.size(), &root) ||
          fj_value_get_object(&root, &o) || fj_object_find(&o, "statuses", &statuses) ||
          fj_value_get_array(&statuses, &a))
        fjbench::fail("twitter.json: no statuses");
      while (fj_array_next(&a, &st) == FJ_OK) {
        if (fj_value_get_raw(&st, &raw, &n) || fj_minify(q, raw, n, fj_sink{append, &nd}))
          fjbench::fail("twitter.json: status");
        nd += '\n';
      }
      fj_parser_free(p);
      fj_parser_free(q);
      out.push_back({"twitter.ndjson", nd});
    }
    return out;
  }();
  return in;
}

// ---- fastjson -------------------------------------------------------------------

void fj_walk(fj_value *v, checksum &c) {
  c.values++;
  switch (fj_value_type(v)) { // the getters below check the handle
  case FJ_TYPE_ARRAY: {
    fj_array a;
    fj_value e;
    fj_error err;
    if (fj_value_get_array(v, &a)) fjbench::fail("fastjson: array");
    while ((err = fj_array_next(&a, &e)) == FJ_OK)
      fj_walk(&e, c);
    if (err != FJ_END) fjbench::fail("fastjson: array element");
    break;
  }
  case FJ_TYPE_OBJECT: {
    fj_object o;
    fj_value e;
    fj_error err;
    const char *s;
    size_t n;
    if (fj_value_get_object(v, &o)) fjbench::fail("fastjson: object");
    while ((err = fj_object_next_key(&o, &s, &n, &e)) == FJ_OK) { // key read as it goes
      c.string_bytes += n;
      fj_walk(&e, c);
    }
    if (err != FJ_END) fjbench::fail("fastjson: field");
    break;
  }
  case FJ_TYPE_NUMBER: { // one call, as simdjson's get_number() below
    fj_number n;
    if (fj_value_get_number(v, &n)) fjbench::fail("fastjson: number");
    switch (n.kind) {
    case FJ_NUMBER_INT64: c.num += double(n.i); break;
    case FJ_NUMBER_UINT64: c.num += double(n.u); break;
    default: c.num += n.d; break;
    }
    break;
  }
  case FJ_TYPE_STRING: {
    const char *s;
    size_t n;
    if (fj_value_get_string(v, &s, &n)) fjbench::fail("fastjson: string");
    c.string_bytes += n;
    break;
  }
  case FJ_TYPE_BOOL: {
    bool b;
    if (fj_value_get_bool(v, &b)) fjbench::fail("fastjson: bool");
    c.num += b ? 2 : 1;
    break;
  }
  case FJ_TYPE_NULL: c.num += 4; break;
  }
}

// The first element or field value of a container (the root itself otherwise).
void fj_first(fj_value *root, checksum &c) {
  fj_type t;
  fj_value v = *root;
  if (fj_value_get_type(root, &t)) fjbench::fail("fastjson: type");
  if (t == FJ_TYPE_ARRAY) {
    fj_array a;
    if (fj_value_get_array(root, &a) || fj_array_next(&a, &v)) fjbench::fail("fastjson: first");
  } else if (t == FJ_TYPE_OBJECT) {
    fj_object o;
    if (fj_value_get_object(root, &o) || fj_object_next(&o, nullptr, &v))
      fjbench::fail("fastjson: first");
  }
  const char *raw;
  size_t n;
  if (fj_value_get_type(&v, &t)) fjbench::fail("fastjson: first type");
  if (t == FJ_TYPE_STRING) {
    if (fj_value_get_string(&v, &raw, &n)) fjbench::fail("fastjson: first string");
    c.string_bytes += n;
  }
  c.values++;
}

template <void (*Visit)(fj_value *, checksum &)>
checksum fj_stream_all(fj_parser *p, const std::string &in) {
  checksum c;
  fj_stream_options o{};
  o.format = FJ_STREAM_NDJSON;
  o.batch_size = batch_size;
  o.use_parser = p;
  fj_stream *s;
  fj_document d;
  fj_error err;
  if (fj_stream_new_buffer(&s, in.data(), in.size(), &o)) fjbench::fail("fastjson: stream");
  while ((err = fj_stream_next(s, &d)) == FJ_OK) {
    c.docs++;
    Visit(&d.root, c);
  }
  if (err != FJ_END) fjbench::fail(std::string("fastjson: ") + fj_error_name(err));
  fj_stream_free(s);
  return c;
}

template <void (*Visit)(fj_value *, checksum &)>
void fastjson_ndjson(benchmark::State &state, const input *in, std::string task) {
  fj_parser *p;
  if (fj_parser_new(&p, nullptr)) fjbench::fail("fastjson: parser");
  check(task + "/" + in->name, "fastjson", fj_stream_all<Visit>(p, in->data));
  for (auto _ : state) {
    checksum c = fj_stream_all<Visit>(p, in->data);
    benchmark::DoNotOptimize(c);
  }
  fj_parser_free(p);
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(in->data.size()));
  state.counters["doc_bytes"] = double(in->data.size()); // the report's size column
}

// ---- simdjson iterate_many -------------------------------------------------------
#ifdef FJ_BENCH_SIMDJSON
namespace od = simdjson::ondemand;

void sj_walk(od::value v, checksum &c);

void sj_walk_type(od::value v, od::json_type t, checksum &c) {
  c.values++;
  switch (t) {
  case od::json_type::array: {
    od::array a;
    if (v.get_array().get(a)) fjbench::fail("simdjson: array");
    for (auto e : a) {
      od::value x;
      if (std::move(e).get(x)) fjbench::fail("simdjson: element");
      sj_walk(x, c);
    }
    break;
  }
  case od::json_type::object: {
    od::object o;
    if (v.get_object().get(o)) fjbench::fail("simdjson: object");
    for (auto f : o) {
      od::field fld;
      std::string_view k;
      if (std::move(f).get(fld) || fld.unescaped_key().get(k)) fjbench::fail("simdjson: key");
      c.string_bytes += k.size();
      sj_walk(fld.value(), c);
    }
    break;
  }
  case od::json_type::number: {
    od::number n;
    if (v.get_number().get(n)) fjbench::fail("simdjson: number");
    if (n.get_number_type() == od::number_type::signed_integer)
      c.num += double(n.get_int64());
    else if (n.get_number_type() == od::number_type::unsigned_integer)
      c.num += double(n.get_uint64());
    else
      c.num += n.get_double();
    break;
  }
  case od::json_type::string: {
    std::string_view s;
    if (v.get_string().get(s)) fjbench::fail("simdjson: string");
    c.string_bytes += s.size();
    break;
  }
  case od::json_type::boolean: {
    bool b;
    if (v.get_bool().get(b)) fjbench::fail("simdjson: bool");
    c.num += b ? 2 : 1;
    break;
  }
  case od::json_type::null: c.num += 4; break;
  }
}

void sj_walk(od::value v, checksum &c) {
  od::json_type t;
  if (v.type().get(t)) fjbench::fail("simdjson: type");
  sj_walk_type(v, t, c);
}

void sj_visit_all(od::document_reference &doc, checksum &c) {
  od::value root;
  if (doc.get_value().get(root)) fjbench::fail("simdjson: root");
  sj_walk(root, c);
}

void sj_visit_first(od::document_reference &doc, checksum &c) {
  od::json_type t;
  if (doc.type().get(t)) fjbench::fail("simdjson: type");
  od::value v;
  if (t == od::json_type::array) {
    od::array a;
    if (doc.get_array().get(a)) fjbench::fail("simdjson: first");
    for (auto e : a) {
      if (std::move(e).get(v)) fjbench::fail("simdjson: first");
      break;
    }
  } else {
    od::object o;
    if (doc.get_object().get(o)) fjbench::fail("simdjson: first");
    for (auto f : o) {
      od::field fld;
      if (std::move(f).get(fld)) fjbench::fail("simdjson: first");
      v = fld.value();
      break;
    }
  }
  if (v.type().get(t)) fjbench::fail("simdjson: first type");
  if (t == od::json_type::string) {
    std::string_view s;
    if (v.get_string().get(s)) fjbench::fail("simdjson: first string");
    c.string_bytes += s.size();
  }
  c.values++;
}

template <void (*Visit)(od::document_reference &, checksum &)>
checksum sj_stream_all(od::parser &parser, const simdjson::padded_string &in) {
  checksum c;
  od::document_stream stream;
  if (parser.iterate_many(in, batch_size).get(stream)) fjbench::fail("simdjson: iterate_many");
  for (auto it = stream.begin(); it != stream.end(); ++it) {
    od::document_reference doc;
    if ((*it).get(doc)) fjbench::fail("simdjson: document");
    c.docs++;
    Visit(doc, c);
  }
  return c;
}

template <void (*Visit)(od::document_reference &, checksum &)>
void simdjson_ndjson(benchmark::State &state, const input *in, std::string task) {
  simdjson::padded_string padded(in->data);
  od::parser parser;
  check(task + "/" + in->name, "simdjson", sj_stream_all<Visit>(parser, padded));
  for (auto _ : state) {
    checksum c = sj_stream_all<Visit>(parser, padded);
    benchmark::DoNotOptimize(c);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(in->data.size()));
  state.counters["doc_bytes"] = double(in->data.size()); // the report's size column
}
#endif

void register_ndjson() {
  for (const auto &in : inputs()) {
    benchmark::RegisterBenchmark(("ndjson/fastjson/" + in.name).c_str(), fastjson_ndjson<fj_walk>,
                                 &in, std::string("ndjson"));
#ifdef FJ_BENCH_SIMDJSON
    benchmark::RegisterBenchmark(("ndjson/simdjson/" + in.name).c_str(),
                                 simdjson_ndjson<sj_visit_all>, &in, std::string("ndjson"));
#endif
    benchmark::RegisterBenchmark(("ndjson-first/fastjson/" + in.name).c_str(),
                                 fastjson_ndjson<fj_first>, &in, std::string("ndjson-first"));
#ifdef FJ_BENCH_SIMDJSON
    benchmark::RegisterBenchmark(("ndjson-first/simdjson/" + in.name).c_str(),
                                 simdjson_ndjson<sj_visit_first>, &in,
                                 std::string("ndjson-first"));
#endif
  }
}

fjbench::registrar r(register_ndjson);

} // namespace
