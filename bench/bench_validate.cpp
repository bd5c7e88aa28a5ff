// validate/LIBRARY/FILE: is the whole document valid JSON? Each library is
// asked the way its users would ask it (validators.hpp, shared with
// scaling/):
//   fastjson:  fj_parser_validate() with a reused parser (RFC 8259, UTF-8)
//   simdjson:  DOM parser.parse() of a copy padded once, reused parser
//              (builds its tape; UTF-8 checked)
//   rapidjson: Reader::Parse<kParseValidateEncodingFlag> with a handler that
//              accepts every event (SAX: no tree; UTF-8 checked)
//   cjson:     cJSON_ParseWithLength() + cJSON_Delete() (cJSON has no
//              validate-only mode; it does not check UTF-8)
//   yajl:      yajl_parse() + yajl_complete_parse() without callbacks (UTF-8
//              checked: yajl's default)
//   jansson:   json_loadb() + json_decref() (a tree; no validate-only mode;
//              UTF-8 checked; flags JSON_DECODE_ANY | JSON_ALLOW_NUL, without
//              which it rejects scalar documents and "\u0000")
//   json-c:    json_tokener_parse_ex() with a reused tokener +
//              json_object_put() (a tree; flags JSON_TOKENER_STRICT |
//              JSON_TOKENER_VALIDATE_UTF8, depth limit 1024: by default it
//              accepts comments, single quotes and trailing commas, does not
//              check UTF-8 and stops at depth 32; it accepts NaN even so)
// jansson and json-c are reached through C files (dom_jansson.c,
// dom_jsonc.c): their headers clash with each other.
// Before timing, every library must accept the document and reject a copy
// with one byte broken (a '}' or ']' turned into a ','), so a library that
// accepts anything cannot win; the trees of jansson and json-c must also hold
// what fastjson reads (the count of values of each kind, key and string
// bytes, the sum of the numbers). Bytes per second are the document's size.
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
#include "validators.hpp"

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

namespace {

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
  for (const auto &f : fjbench::corpus())
    fjbench::register_validators("validate", f);
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
