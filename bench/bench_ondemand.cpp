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
// the string lengths and sampled bytes, the value counts). Before the first
// row of an input is timed, fastjson and simdjson both read it twice: with
// that checksum, and with an exact one that also hashes every number's value
// (its bits) and every byte of every string, in order. Both pairs must
// agree, whichever rows a filter keeps, so a library that skips work or
// reads a wrong value stops the program instead of reporting a speed. Each
// row then checks its own first result against them.
// Bytes per second are the document's size.
//
// simdjson is used as a distribution build sees it: its stage 1 dispatches
// at run time, its On-Demand stage 2 is compiled into this file with this
// file's flags (the distribution's defaults: simdjson's "fallback" kernel).
#include "walk.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "fastjson.h"

#ifdef FJ_BENCH_SIMDJSON
#include <simdjson.h>
#endif

namespace {

using namespace fjbench;

std::string visit_task(bool doubles) { return doubles ? "visit_double/" : "visit/"; }

// ---- fastjson --------------------------------------------------------------

template <bool Doubles, class C = checksum>
C fj_visit_doc(fj_parser *p, const std::string &json, const std::string &name) {
  C c;
  fj_value root;
  if (fj_parser_parse(p, json.data(), json.size(), &root) || !fj_visit<Doubles, C>(&root, c))
    fjbench::fail("fastjson cannot walk " + name);
  return c;
}

// query/twitter.json
template <class C = checksum> C fj_query_twitter(fj_parser *p, const std::string &json) {
  C c;
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
    c.int64(i);
    if (fj_object_find(&t, "user", &user) || fj_value_get_object(&user, &u) ||
        fj_object_find(&u, "id", &v) || fj_value_get_int64(&v, &i))
      fjbench::fail("fastjson: user id");
    c.int64(i);
    if (fj_object_find(&u, "screen_name", &v) || fj_value_get_string(&v, &s, &n))
      fjbench::fail("fastjson: screen_name");
    c.string(s, n);
    if (fj_object_find(&t, "retweet_count", &v) || fj_value_get_int64(&v, &i))
      fjbench::fail("fastjson: retweet_count");
    c.int64(i);
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

template <class C = checksum> C fj_query_abc(fj_parser *p, const std::string &json) {
  C c;
  fj_value root, v;
  fj_object o;
  if (fj_parser_parse(p, json.data(), json.size(), &root) || fj_value_get_object(&root, &o))
    fjbench::fail("fastjson: abc");
  for (int k = 0; k < 26; k++) {
    if (fj_object_find(&o, abc_keys[k], &v)) fjbench::fail("fastjson: abc key");
    if (k % 2 == 0) {
      int64_t i;
      if (fj_value_get_int64(&v, &i)) fjbench::fail("fastjson: abc int");
      c.int64(i);
    } else {
      const char *s;
      size_t n;
      if (fj_value_get_string(&v, &s, &n)) fjbench::fail("fastjson: abc string");
      c.string(s, n);
    }
  }
  return c;
}

// ---- simdjson On-Demand -------------------------------------------------------
#ifdef FJ_BENCH_SIMDJSON
template <bool Doubles, class C = checksum>
C sj_visit_doc(od::parser &parser, const simdjson::padded_string &json, const std::string &name) {
  C c;
  od::document doc;
  od::value root;
  if (parser.iterate(json).get(doc) || doc.get_value().get(root) || !sj_visit<Doubles, C>(root, c))
    fjbench::fail("simdjson cannot walk " + name);
  return c;
}

template <class C = checksum>
C sj_query_twitter(od::parser &parser, const simdjson::padded_string &json) {
  C c;
  od::document doc;
  od::array statuses;
  if (parser.iterate(json).get(doc) || doc["statuses"].get_array().get(statuses))
    fjbench::fail("simdjson: no statuses");
  for (auto e : statuses) {
    od::object t, u;
    int64_t i;
    std::string_view s;
    if (e.get_object().get(t) || t["id"].get_int64().get(i)) fjbench::fail("simdjson: tweet id");
    c.int64(i);
    if (t["user"].get_object().get(u) || u["id"].get_int64().get(i))
      fjbench::fail("simdjson: user id");
    c.int64(i);
    if (u["screen_name"].get_string().get(s)) fjbench::fail("simdjson: screen_name");
    c.string(s.data(), s.size());
    if (t["retweet_count"].get_int64().get(i)) fjbench::fail("simdjson: retweet_count");
    c.int64(i);
  }
  return c;
}

template <class C = checksum>
C sj_query_abc(od::parser &parser, const simdjson::padded_string &json) {
  C c;
  od::document doc;
  od::object o;
  if (parser.iterate(json).get(doc) || doc.get_object().get(o)) fjbench::fail("simdjson: abc");
  for (int k = 0; k < 26; k++) {
    if (k % 2 == 0) {
      int64_t i;
      if (o[abc_keys[k]].get_int64().get(i)) fjbench::fail("simdjson: abc int");
      c.int64(i);
    } else {
      std::string_view s;
      if (o[abc_keys[k]].get_string().get(s)) fjbench::fail("simdjson: abc string");
      c.string(s.data(), s.size());
    }
  }
  return c;
}

#endif

// ---- the rows -----------------------------------------------------------------

template <bool Doubles> const checksum &visit_reference(const fjbench::file *f) {
  auto fj = [f] {
    fj_parser_holder h;
    return reads{fj_visit_doc<Doubles>(h.p, f->data, f->name),
                 fj_visit_doc<Doubles, exact_checksum>(h.p, f->data, f->name)};
  };
#ifdef FJ_BENCH_SIMDJSON
  auto sj = [f] {
    simdjson::padded_string json(f->data);
    od::parser parser;
    return reads{sj_visit_doc<Doubles>(parser, json, f->name),
                 sj_visit_doc<Doubles, exact_checksum>(parser, json, f->name)};
  };
#else
  auto sj = [] { return reads{}; };
#endif
  return reference(visit_task(Doubles) + f->name, fj, sj);
}

template <bool Doubles> void fastjson_visit(benchmark::State &state, const fjbench::file *f) {
  const checksum &want = visit_reference<Doubles>(f);
  fj_parser_holder h;
  expect("fastjson", visit_task(Doubles) + f->name, want,
         fj_visit_doc<Doubles>(h.p, f->data, f->name));
  for (auto _ : state) {
    checksum c = fj_visit_doc<Doubles>(h.p, f->data, f->name);
    benchmark::DoNotOptimize(c);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(f->data.size()));
}

// The queries: fastjson's and simdjson's functions for one document.
struct twitter_query {
  template <class C> static C fastjson(fj_parser *p, const std::string &json) {
    return fj_query_twitter<C>(p, json);
  }
#ifdef FJ_BENCH_SIMDJSON
  template <class C> static C simdjson(od::parser &parser, const simdjson::padded_string &json) {
    return sj_query_twitter<C>(parser, json);
  }
#endif
};

struct abc_query {
  template <class C> static C fastjson(fj_parser *p, const std::string &json) {
    return fj_query_abc<C>(p, json);
  }
#ifdef FJ_BENCH_SIMDJSON
  template <class C> static C simdjson(od::parser &parser, const simdjson::padded_string &json) {
    return sj_query_abc<C>(parser, json);
  }
#endif
};

template <class Q> const checksum &query_reference(const std::string *json, const std::string &input) {
  auto fj = [json] {
    fj_parser_holder h;
    return reads{Q::template fastjson<checksum>(h.p, *json),
                 Q::template fastjson<exact_checksum>(h.p, *json)};
  };
#ifdef FJ_BENCH_SIMDJSON
  auto sj = [json] {
    simdjson::padded_string padded(*json);
    od::parser parser;
    return reads{Q::template simdjson<checksum>(parser, padded),
                 Q::template simdjson<exact_checksum>(parser, padded)};
  };
#else
  auto sj = [] { return reads{}; };
#endif
  return reference("query/" + input, fj, sj);
}

template <class Q>
void fastjson_query(benchmark::State &state, const std::string *json, std::string input) {
  const checksum &want = query_reference<Q>(json, input);
  fj_parser_holder h;
  expect("fastjson", "query/" + input, want, Q::template fastjson<checksum>(h.p, *json));
  for (auto _ : state) {
    checksum c = Q::template fastjson<checksum>(h.p, *json);
    benchmark::DoNotOptimize(c);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(json->size()));
}

#ifdef FJ_BENCH_SIMDJSON
template <bool Doubles> void simdjson_visit(benchmark::State &state, const fjbench::file *f) {
  const checksum &want = visit_reference<Doubles>(f);
  simdjson::padded_string json(f->data);
  od::parser parser;
  expect("simdjson", visit_task(Doubles) + f->name, want,
         sj_visit_doc<Doubles>(parser, json, f->name));
  for (auto _ : state) {
    checksum c = sj_visit_doc<Doubles>(parser, json, f->name);
    benchmark::DoNotOptimize(c);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(f->data.size()));
}

template <class Q>
void simdjson_query(benchmark::State &state, const std::string *json, std::string input) {
  const checksum &want = query_reference<Q>(json, input);
  simdjson::padded_string padded(*json);
  od::parser parser;
  expect("simdjson", "query/" + input, want, Q::template simdjson<checksum>(parser, padded));
  for (auto _ : state) {
    checksum c = Q::template simdjson<checksum>(parser, padded);
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
    benchmark::RegisterBenchmark("query/fastjson/twitter.json", fastjson_query<twitter_query>,
                                 &f.data, f.name);
#ifdef FJ_BENCH_SIMDJSON
    benchmark::RegisterBenchmark("query/simdjson/twitter.json", simdjson_query<twitter_query>,
                                 &f.data, f.name);
#endif
  }
  benchmark::RegisterBenchmark("query/fastjson/abc", fastjson_query<abc_query>, &abc_document(),
                               "abc");
#ifdef FJ_BENCH_SIMDJSON
  benchmark::RegisterBenchmark("query/simdjson/abc", simdjson_query<abc_query>, &abc_document(),
                               "abc");
#endif
}

fjbench::registrar reg(register_ondemand);

} // namespace
