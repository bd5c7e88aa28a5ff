// The on-demand cursor against simdjson On-Demand (both parse the document
// again in every iteration, stage 1 included):
//   visit/LIBRARY/FILE: walk the whole document; every key and string is
//       unescaped, every number is read once as the type its text calls for
//       (fj_value_get_number, simdjson's get_number: int64 when it is one,
//       else uint64 or double; both are counted as doubles), literals are read.
//   visit_double/LIBRARY/FILE: the same walk over the number-heavy files,
//       every number read as a double (fj_value_get_double, simdjson's
//       get_double()): what a reader of coordinates calls.
//   query/LIBRARY/twitter.json: for each element of "statuses", read "id",
//       "user"."id", "user"."screen_name" and "retweet_count" (in document
//       order, by key lookup).
//   query/LIBRARY/abc: an object of 26 fields "z".."a" (written in reverse
//       alphabetical order; small ints and short strings alternate), read by
//       key in alphabetical order: every lookup is out of order and wraps
//       around (fj_object_find vs simdjson's obj["key"]).
// Each benchmark computes a checksum of what it read (the sum of the numbers,
// the string lengths and bytes, the value counts); before timing, the
// checksums of the libraries must agree, so a library that skips work or
// reads wrong values stops the program instead of reporting a speed.
// Bytes per second are the document's size.
//
// simdjson is used as a distribution build sees it: its stage 1 dispatches
// at run time, its On-Demand stage 2 is compiled into this file with this
// file's flags (the distribution's defaults: simdjson's "fallback" kernel).
#include "corpus.hpp"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fastjson.h"

#ifdef FJ_BENCH_SIMDJSON
#include <simdjson.h>
#endif

namespace {

// What a walk or query read. Numbers are summed as doubles in document
// order, so two libraries that read the same values get the same sum.
struct checksum {
  double num = 0;
  uint64_t ints = 0, doubles = 0, strings = 0, string_bytes = 0, byte_sum = 0, literals = 0,
           containers = 0;
  void string(const char *s, size_t n) {
    strings++;
    string_bytes += n;
    if (n) byte_sum += uint8_t(s[0]) + 3u * uint8_t(s[n - 1]) + 7u * uint8_t(s[n / 2]);
  }
  bool operator==(const checksum &o) const {
    return std::memcmp(&num, &o.num, sizeof num) == 0 && ints == o.ints && doubles == o.doubles &&
           strings == o.strings && string_bytes == o.string_bytes && byte_sum == o.byte_sum &&
           literals == o.literals && containers == o.containers;
  }
  std::string str() const {
    char b[256];
    std::snprintf(b, sizeof b,
                  "num=%.17g ints=%llu doubles=%llu strings=%llu bytes=%llu sum=%llu lit=%llu "
                  "cont=%llu",
                  num, (unsigned long long)ints, (unsigned long long)doubles,
                  (unsigned long long)strings, (unsigned long long)string_bytes,
                  (unsigned long long)byte_sum, (unsigned long long)literals,
                  (unsigned long long)containers);
    return b;
  }
};

std::string visit_task(bool doubles) { return doubles ? "visit_double/" : "visit/"; }

// The first library's checksum per benchmark input; the others must match.
std::map<std::string, checksum> &reference() {
  static std::map<std::string, checksum> r;
  return r;
}

void check(const std::string &input, const char *lib, const checksum &c) {
  auto it = reference().find(input);
  if (it == reference().end()) {
    reference()[input] = c;
    return;
  }
  if (!(it->second == c))
    fjbench::fail(std::string(lib) + " reads " + input + " differently:\n  " + c.str() +
                  "\n  reference: " + it->second.str());
}

// ---- fastjson --------------------------------------------------------------

// Doubles: every number read as a double (visit_double/), else as its kind.
template <bool Doubles> bool fj_visit(const fj_value *v, checksum &c) {
  // the type the handle carries (inline, as simdjson's type() is); the
  // getters below check the handle
  switch (fj_value_type(v)) {
  case FJ_TYPE_ARRAY: {
    fj_array a;
    fj_value e;
    fj_error err;
    if (fj_value_get_array(v, &a)) return false;
    c.containers++;
    while ((err = fj_array_next(&a, &e)) == FJ_OK)
      if (!fj_visit<Doubles>(&e, c)) return false;
    return err == FJ_END;
  }
  case FJ_TYPE_OBJECT: {
    fj_object o;
    fj_value e;
    fj_error err;
    const char *s;
    size_t n;
    if (fj_value_get_object(v, &o)) return false;
    c.containers++;
    // the key unescaped as it is stepped over (simdjson: unescaped_key())
    while ((err = fj_object_next_key(&o, &s, &n, &e)) == FJ_OK) {
      c.string(s, n);
      if (!fj_visit<Doubles>(&e, c)) return false;
    }
    return err == FJ_END;
  }
  case FJ_TYPE_NUMBER: { // one call, as simdjson's get_number() below
    if (Doubles) {
      double d;
      if (fj_value_get_double(v, &d)) return false;
      c.doubles++, c.num += d;
      return true;
    }
    fj_number num;
    if (fj_value_get_number(v, &num)) return false;
    switch (num.kind) {
    case FJ_NUMBER_INT64: c.ints++, c.num += double(num.i); break;
    case FJ_NUMBER_UINT64: c.doubles++, c.num += double(num.u); break;
    default: c.doubles++, c.num += num.d; break;
    }
    return true;
  }
  case FJ_TYPE_STRING: {
    const char *s;
    size_t n;
    if (fj_value_get_string(v, &s, &n)) return false;
    c.string(s, n);
    return true;
  }
  case FJ_TYPE_BOOL: {
    bool b;
    if (fj_value_get_bool(v, &b)) return false;
    c.literals += b ? 2 : 1;
    return true;
  }
  case FJ_TYPE_NULL: {
    bool b;
    if (fj_value_is_null(v, &b) || !b) return false;
    c.literals += 4;
    return true;
  }
  }
  return false;
}

struct fj_parser_holder {
  fj_parser *p = nullptr;
  fj_parser_holder() {
    if (fj_parser_new(&p, nullptr)) fjbench::fail("fj_parser_new");
  }
  ~fj_parser_holder() { fj_parser_free(p); }
};

template <bool Doubles>
checksum fj_visit_doc(fj_parser *p, const std::string &json, const std::string &name) {
  checksum c;
  fj_value root;
  if (fj_parser_parse(p, json.data(), json.size(), &root) || !fj_visit<Doubles>(&root, c))
    fjbench::fail("fastjson cannot walk " + name);
  return c;
}

template <bool Doubles> void fastjson_visit(benchmark::State &state, const fjbench::file *f) {
  fj_parser_holder h;
  check(visit_task(Doubles) + f->name, "fastjson", fj_visit_doc<Doubles>(h.p, f->data, f->name));
  for (auto _ : state) {
    checksum c = fj_visit_doc<Doubles>(h.p, f->data, f->name);
    benchmark::DoNotOptimize(c);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(f->data.size()));
}

// query/twitter.json
checksum fj_query_twitter(fj_parser *p, const std::string &json) {
  checksum c;
  fj_value root, statuses, tweet, v, user;
  fj_object o, t, u;
  fj_array a;
  fj_error err;
  int64_t i;
  const char *s;
  size_t n;
  if (fj_parser_parse(p, json.data(), json.size(), &root) || fj_value_get_object(&root, &o) ||
      fj_object_find(&o, "statuses", &statuses) || fj_value_get_array(&statuses, &a))
    fjbench::fail("fastjson: no statuses");
  while ((err = fj_array_next(&a, &tweet)) == FJ_OK) {
    if (fj_value_get_object(&tweet, &t) || fj_object_find(&t, "id", &v) ||
        fj_value_get_int64(&v, &i))
      fjbench::fail("fastjson: tweet id");
    c.ints++, c.num += double(i);
    if (fj_object_find(&t, "user", &user) || fj_value_get_object(&user, &u) ||
        fj_object_find(&u, "id", &v) || fj_value_get_int64(&v, &i))
      fjbench::fail("fastjson: user id");
    c.ints++, c.num += double(i);
    if (fj_object_find(&u, "screen_name", &v) || fj_value_get_string(&v, &s, &n))
      fjbench::fail("fastjson: screen_name");
    c.string(s, n);
    if (fj_object_find(&t, "retweet_count", &v) || fj_value_get_int64(&v, &i))
      fjbench::fail("fastjson: retweet_count");
    c.ints++, c.num += double(i);
  }
  if (err != FJ_END) fjbench::fail("fastjson: statuses");
  return c;
}

// query/abc: the document and the keys in reading order
const std::string &abc_document() {
  static std::string doc = [] {
    std::string d = "{";
    for (char k = 'z'; k >= 'a'; k--) {
      d += std::string("\"") + k + "\":";
      if ((k - 'a') % 2 == 0)
        d += std::to_string((k - 'a') * 37 + 1);
      else
        d += std::string("\"value-") + k + "\"";
      d += k == 'a' ? "}" : ", ";
    }
    return d;
  }();
  return doc;
}

const char *const abc_keys[26] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m",
                                  "n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z"};

checksum fj_query_abc(fj_parser *p, const std::string &json) {
  checksum c;
  fj_value root, v;
  fj_object o;
  if (fj_parser_parse(p, json.data(), json.size(), &root) || fj_value_get_object(&root, &o))
    fjbench::fail("fastjson: abc");
  for (int k = 0; k < 26; k++) {
    if (fj_object_find(&o, abc_keys[k], &v)) fjbench::fail("fastjson: abc key");
    if (k % 2 == 0) {
      int64_t i;
      if (fj_value_get_int64(&v, &i)) fjbench::fail("fastjson: abc int");
      c.ints++, c.num += double(i);
    } else {
      const char *s;
      size_t n;
      if (fj_value_get_string(&v, &s, &n)) fjbench::fail("fastjson: abc string");
      c.string(s, n);
    }
  }
  return c;
}

template <checksum (*Query)(fj_parser *, const std::string &)>
void fastjson_query(benchmark::State &state, const std::string *json, std::string input) {
  fj_parser_holder h;
  check("query/" + input, "fastjson", Query(h.p, *json));
  for (auto _ : state) {
    checksum c = Query(h.p, *json);
    benchmark::DoNotOptimize(c);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(json->size()));
}

// ---- simdjson On-Demand -------------------------------------------------------
#ifdef FJ_BENCH_SIMDJSON
namespace od = simdjson::ondemand;

template <bool Doubles> bool sj_visit(od::value v, checksum &c);

template <bool Doubles> bool sj_visit_array(od::array a, checksum &c) {
  c.containers++;
  for (auto e : a) {
    od::value v;
    if (std::move(e).get(v) || !sj_visit<Doubles>(v, c)) return false;
  }
  return true;
}

template <bool Doubles> bool sj_visit_object(od::object o, checksum &c) {
  c.containers++;
  for (auto f : o) { // auto, not const auto &: get() consumes the result
    od::field fld;
    std::string_view k;
    if (std::move(f).get(fld) || fld.unescaped_key().get(k)) return false;
    c.string(k.data(), k.size());
    if (!sj_visit<Doubles>(fld.value(), c)) return false;
  }
  return true;
}

template <bool Doubles> bool sj_visit(od::value v, checksum &c) {
  od::json_type t;
  if (v.type().get(t)) return false;
  switch (t) {
  case od::json_type::array: {
    od::array a;
    return !v.get_array().get(a) && sj_visit_array<Doubles>(a, c);
  }
  case od::json_type::object: {
    od::object o;
    return !v.get_object().get(o) && sj_visit_object<Doubles>(o, c);
  }
  case od::json_type::number: {
    if (Doubles) {
      double d;
      if (v.get_double().get(d)) return false;
      c.doubles++, c.num += d;
      return true;
    }
    od::number n;
    if (v.get_number().get(n)) return false;
    switch (n.get_number_type()) {
    case od::number_type::signed_integer: c.ints++, c.num += double(n.get_int64()); break;
    case od::number_type::unsigned_integer: c.doubles++, c.num += double(n.get_uint64()); break;
    default: c.doubles++, c.num += n.get_double(); break;
    }
    return true;
  }
  case od::json_type::string: {
    std::string_view s;
    if (v.get_string().get(s)) return false;
    c.string(s.data(), s.size());
    return true;
  }
  case od::json_type::boolean: {
    bool b;
    if (v.get_bool().get(b)) return false;
    c.literals += b ? 2 : 1;
    return true;
  }
  case od::json_type::null: {
    bool b;
    if (v.is_null().get(b) || !b) return false;
    c.literals += 4;
    return true;
  }
  }
  return false;
}

template <bool Doubles>
checksum sj_visit_doc(od::parser &parser, const simdjson::padded_string &json,
                      const std::string &name) {
  checksum c;
  od::document doc;
  od::value root;
  if (parser.iterate(json).get(doc) || doc.get_value().get(root) || !sj_visit<Doubles>(root, c))
    fjbench::fail("simdjson cannot walk " + name);
  return c;
}

template <bool Doubles> void simdjson_visit(benchmark::State &state, const fjbench::file *f) {
  simdjson::padded_string json(f->data);
  od::parser parser;
  check(visit_task(Doubles) + f->name, "simdjson", sj_visit_doc<Doubles>(parser, json, f->name));
  for (auto _ : state) {
    checksum c = sj_visit_doc<Doubles>(parser, json, f->name);
    benchmark::DoNotOptimize(c);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(f->data.size()));
}

checksum sj_query_twitter(od::parser &parser, const simdjson::padded_string &json) {
  checksum c;
  od::document doc;
  od::array statuses;
  if (parser.iterate(json).get(doc) || doc["statuses"].get_array().get(statuses))
    fjbench::fail("simdjson: no statuses");
  for (auto e : statuses) {
    od::object t, u;
    int64_t i;
    std::string_view s;
    if (e.get_object().get(t) || t["id"].get_int64().get(i)) fjbench::fail("simdjson: tweet id");
    c.ints++, c.num += double(i);
    if (t["user"].get_object().get(u) || u["id"].get_int64().get(i))
      fjbench::fail("simdjson: user id");
    c.ints++, c.num += double(i);
    if (u["screen_name"].get_string().get(s)) fjbench::fail("simdjson: screen_name");
    c.string(s.data(), s.size());
    if (t["retweet_count"].get_int64().get(i)) fjbench::fail("simdjson: retweet_count");
    c.ints++, c.num += double(i);
  }
  return c;
}

checksum sj_query_abc(od::parser &parser, const simdjson::padded_string &json) {
  checksum c;
  od::document doc;
  od::object o;
  if (parser.iterate(json).get(doc) || doc.get_object().get(o)) fjbench::fail("simdjson: abc");
  for (int k = 0; k < 26; k++) {
    if (k % 2 == 0) {
      int64_t i;
      if (o[abc_keys[k]].get_int64().get(i)) fjbench::fail("simdjson: abc int");
      c.ints++, c.num += double(i);
    } else {
      std::string_view s;
      if (o[abc_keys[k]].get_string().get(s)) fjbench::fail("simdjson: abc string");
      c.string(s.data(), s.size());
    }
  }
  return c;
}

template <checksum (*Query)(od::parser &, const simdjson::padded_string &)>
void simdjson_query(benchmark::State &state, const std::string *json, std::string input) {
  simdjson::padded_string padded(*json);
  od::parser parser;
  check("query/" + input, "simdjson", Query(parser, padded));
  for (auto _ : state) {
    checksum c = Query(parser, padded);
    benchmark::DoNotOptimize(c);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(json->size()));
}
#endif

void register_ondemand() {
  for (const auto &f : fjbench::corpus()) {
    benchmark::RegisterBenchmark(("visit/fastjson/" + f.name).c_str(), fastjson_visit<false>, &f);
#ifdef FJ_BENCH_SIMDJSON
    benchmark::RegisterBenchmark(("visit/simdjson/" + f.name).c_str(), simdjson_visit<false>, &f);
#endif
  }
  for (const auto &f : fjbench::corpus()) {
    if (f.name != "canada.json" && f.name != "marine_ik.json" && f.name != "mesh.json" &&
        f.name != "numbers.json")
      continue;
    benchmark::RegisterBenchmark(("visit_double/fastjson/" + f.name).c_str(),
                                 fastjson_visit<true>, &f);
#ifdef FJ_BENCH_SIMDJSON
    benchmark::RegisterBenchmark(("visit_double/simdjson/" + f.name).c_str(),
                                 simdjson_visit<true>, &f);
#endif
  }
  for (const auto &f : fjbench::corpus()) {
    if (f.name != "twitter.json") continue;
    benchmark::RegisterBenchmark("query/fastjson/twitter.json", fastjson_query<fj_query_twitter>,
                                 &f.data, f.name);
#ifdef FJ_BENCH_SIMDJSON
    benchmark::RegisterBenchmark("query/simdjson/twitter.json", simdjson_query<sj_query_twitter>,
                                 &f.data, f.name);
#endif
  }
  benchmark::RegisterBenchmark("query/fastjson/abc", fastjson_query<fj_query_abc>, &abc_document(),
                               "abc");
#ifdef FJ_BENCH_SIMDJSON
  benchmark::RegisterBenchmark("query/simdjson/abc", simdjson_query<sj_query_abc>, &abc_document(),
                               "abc");
#endif
}

fjbench::registrar reg(register_ondemand);

} // namespace
