// validate/LIBRARY/FILE: is the whole document valid JSON? Each library is
// asked the way its users would ask it:
//   fastjson:  fj_parser_validate() with a reused parser (RFC 8259, UTF-8)
//   simdjson:  DOM parser.parse() of a padded copy, reused parser (builds its
//              tape; UTF-8 checked)
//   rapidjson: Reader::Parse<kParseValidateEncodingFlag> with a handler that
//              accepts every event (SAX: no tree; UTF-8 checked)
//   cjson:     cJSON_ParseWithLength() + cJSON_Delete() (cJSON has no
//              validate-only mode; it does not check UTF-8)
//   yajl:      yajl_parse() + yajl_complete_parse() without callbacks (UTF-8
//              checked: yajl's default)
// Before timing, every library must accept the document and reject a copy
// with one byte broken (a '}' or ']' turned into a ','), so a library that
// accepts anything cannot win. Bytes per second are the document's size.
//
// parse_double/LIBRARY/canada.json: the number texts of canada.json
// (extracted once with fastjson's cursor) converted to doubles; bytes per
// second are the total length of the texts, items the count:
//   fastjson: fj__parse_double (private, src/ondemand/number.h)
//   strtod:   the C library's, "C" locale
//   simdjson: simdjson's own number parser, builtin::numberparsing::
//             parse_double (the function its DOM and On-Demand parsers call;
//             not public API, but in its single header). It needs padding,
//             which the texts get.
// All three must give the identical bits for every number.
#include "corpus.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fastjson.h"

extern "C" {
#include "ondemand/number.h"
}

#ifdef FJ_BENCH_SIMDJSON
#include <simdjson.h>
#endif
#ifdef FJ_BENCH_RAPIDJSON
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#endif
#ifdef FJ_BENCH_CJSON
#include <cjson/cJSON.h>
#endif
#ifdef FJ_BENCH_YAJL
#include <yajl/yajl_parse.h>
#endif

namespace {

// One validator: set up once per benchmark, then asked about documents.
struct validator {
  virtual ~validator() = default;
  virtual bool valid(const std::string &json) = 0;
};

struct fastjson_validator : validator {
  fj_parser *p = nullptr;
  fastjson_validator() {
    if (fj_parser_new(&p, nullptr)) fjbench::fail("fj_parser_new");
  }
  ~fastjson_validator() override { fj_parser_free(p); }
  bool valid(const std::string &json) override {
    return fj_parser_validate(p, json.data(), json.size()) == FJ_OK;
  }
};

#ifdef FJ_BENCH_SIMDJSON
struct simdjson_validator : validator {
  simdjson::dom::parser parser;
  simdjson::padded_string padded; // the document being benchmarked, padded once
  bool valid(const std::string &json) override {
    if (padded.size() != json.size() || std::memcmp(padded.data(), json.data(), json.size()))
      padded = simdjson::padded_string(json);
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
    if (!h) fjbench::fail("yajl_alloc");
    bool ok = yajl_parse(h, reinterpret_cast<const unsigned char *>(json.data()), json.size()) ==
                  yajl_status_ok &&
              yajl_complete_parse(h) == yajl_status_ok;
    yajl_free(h);
    return ok;
  }
};
#endif

// The document with its last closing bracket turned into a comma.
std::string broken(const std::string &json) {
  std::string b = json;
  size_t at = b.find_last_of("]}");
  if (at == std::string::npos) fjbench::fail("no bracket to break");
  b[at] = ',';
  return b;
}

template <class V> void validate(benchmark::State &state, const char *lib, const fjbench::file *f) {
  V v;
  if (!v.valid(f->data)) fjbench::fail(std::string(lib) + " rejects " + f->name);
  if (v.valid(broken(f->data)))
    fjbench::fail(std::string(lib) + " accepts a broken copy of " + f->name);
  if (!v.valid(f->data)) fjbench::fail(std::string(lib) + " rejects " + f->name);
  for (auto _ : state) {
    bool ok = v.valid(f->data);
    if (!ok) fjbench::fail(std::string(lib) + " rejects " + f->name);
    benchmark::DoNotOptimize(ok);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(f->data.size()));
}

// ---- parse_double ---------------------------------------------------------------

// Number texts, each followed by a ',' (simdjson wants a JSON delimiter after
// a number, strtod any non-number byte), then padding, in one buffer.
struct numbers {
  std::string buf;
  std::vector<uint32_t> start, len;
  size_t text_bytes = 0;
};

void collect(const fj_value *v, numbers &out) {
  fj_type t;
  if (fj_value_get_type(v, &t)) fjbench::fail("canada.json: type");
  if (t == FJ_TYPE_ARRAY) {
    fj_array a;
    fj_value e;
    fj_error err;
    if (fj_value_get_array(v, &a)) fjbench::fail("canada.json: array");
    while ((err = fj_array_next(&a, &e)) == FJ_OK)
      collect(&e, out);
    if (err != FJ_END) fjbench::fail("canada.json: array");
  } else if (t == FJ_TYPE_OBJECT) {
    fj_object o;
    fj_value e;
    fj_error err;
    if (fj_value_get_object(v, &o)) fjbench::fail("canada.json: object");
    while ((err = fj_object_next(&o, nullptr, &e)) == FJ_OK)
      collect(&e, out);
    if (err != FJ_END) fjbench::fail("canada.json: object");
  } else if (t == FJ_TYPE_NUMBER) {
    const char *s;
    size_t n;
    if (fj_value_get_raw(v, &s, &n)) fjbench::fail("canada.json: number");
    out.start.push_back(uint32_t(out.buf.size()));
    out.len.push_back(uint32_t(n));
    out.text_bytes += n;
    out.buf.append(s, n);
    out.buf.append(1, ',');
  }
}

const numbers &canada_numbers() {
  static numbers nums = [] {
    numbers out;
    for (const auto &f : fjbench::corpus()) {
      if (f.name != "canada.json") continue;
      fj_parser *p;
      fj_value root;
      if (fj_parser_new(&p, nullptr) || fj_parser_parse(p, f.data.data(), f.data.size(), &root))
        fjbench::fail("canada.json: parse");
      collect(&root, out);
      fj_parser_free(p);
    }
    out.buf.append(64, '\0'); // padding for simdjson's parser
    return out;
  }();
  return nums;
}

double parse_fastjson(const char *s, size_t n) {
  double d;
  size_t used;
  if (fj__parse_double(reinterpret_cast<const uint8_t *>(s), reinterpret_cast<const uint8_t *>(s) + n,
                       &d, &used) != FJ_OK ||
      used != n)
    fjbench::fail("fastjson: bad number " + std::string(s, n));
  return d;
}

double parse_strtod(const char *s, size_t n) {
  char *end;
  double d = std::strtod(s, &end);
  if (end != s + n) fjbench::fail("strtod: bad number " + std::string(s, n));
  return d;
}

#ifdef FJ_BENCH_SIMDJSON
double parse_simdjson(const char *s, size_t n) {
  double d;
  if (simdjson::builtin::numberparsing::parse_double(reinterpret_cast<const uint8_t *>(s)).get(d))
    fjbench::fail("simdjson: bad number " + std::string(s, n));
  return d;
}
#endif

template <double (*Parse)(const char *, size_t)>
void parse_double(benchmark::State &state) {
  const numbers &nums = canada_numbers();
  const char *base = nums.buf.data();
  const size_t count = nums.start.size();
  // the same bits as strtod (correctly rounded in glibc) for every number
  for (size_t i = 0; i < count; i++) {
    double a = Parse(base + nums.start[i], nums.len[i]);
    double b = parse_strtod(base + nums.start[i], nums.len[i]);
    if (std::memcmp(&a, &b, sizeof a) != 0)
      fjbench::fail("parse_double differs from strtod on " +
                    std::string(base + nums.start[i], nums.len[i]));
  }
  for (auto _ : state) {
    double sum = 0;
    for (size_t i = 0; i < count; i++)
      sum += Parse(base + nums.start[i], nums.len[i]);
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(nums.text_bytes));
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(count));
}

void register_validate() {
  for (const auto &f : fjbench::corpus()) {
    const std::string tail = "/" + f.name;
    benchmark::RegisterBenchmark(("validate/fastjson" + tail).c_str(),
                                 validate<fastjson_validator>, "fastjson", &f);
#ifdef FJ_BENCH_SIMDJSON
    benchmark::RegisterBenchmark(("validate/simdjson" + tail).c_str(),
                                 validate<simdjson_validator>, "simdjson", &f);
#endif
#ifdef FJ_BENCH_RAPIDJSON
    benchmark::RegisterBenchmark(("validate/rapidjson" + tail).c_str(),
                                 validate<rapidjson_validator>, "rapidjson", &f);
#endif
#ifdef FJ_BENCH_CJSON
    benchmark::RegisterBenchmark(("validate/cjson" + tail).c_str(), validate<cjson_validator>,
                                 "cjson", &f);
#endif
#ifdef FJ_BENCH_YAJL
    benchmark::RegisterBenchmark(("validate/yajl" + tail).c_str(), validate<yajl_validator>,
                                 "yajl", &f);
#endif
  }
  bool have_canada = false;
  for (const auto &f : fjbench::corpus())
    have_canada |= f.name == "canada.json";
  if (!have_canada) return;
  benchmark::RegisterBenchmark("parse_double/fastjson/canada.json", parse_double<parse_fastjson>);
  benchmark::RegisterBenchmark("parse_double/strtod/canada.json", parse_double<parse_strtod>);
#ifdef FJ_BENCH_SIMDJSON
  benchmark::RegisterBenchmark("parse_double/simdjson/canada.json", parse_double<parse_simdjson>);
#endif
}

fjbench::registrar reg(register_validate);

} // namespace
