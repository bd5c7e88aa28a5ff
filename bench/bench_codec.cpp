// Struct codecs (issue 7): JSON to C structs and back, for the models of
// bench/models (schemas; payloads from gen_payloads.py, and the statuses of
// the corpus file twitter.json).
//
//   read_struct/LIBRARY/MODEL: a document into the structs fastjson-gen
//       declares; strings, arrays and children go to an fj_arena (reset,
//       keeping its largest block, in every iteration, for every library).
//       fastjson-gen   the generated fj_read_<Type>() (reused parser)
//       fastjson-desc  fj_desc_read() with descriptor tables (no generator;
//                      records only: the expr models are unions, which the
//                      tables cannot describe)
//       simdjson       On-Demand, a hand-written reader: fields looked up by
//                      key (obj["key"]) in the document's order, as
//                      simdjson's documentation asks (the generated payloads
//                      are in schema order; twitter's statuses in their own,
//                      the same in every status); abc by design in the
//                      reverse of its document's, where every lookup wraps
//       rapidjson      DOM (Document::Parse) then FindMember in that order
//       cjson          cJSON_ParseWithLength, then
//                      cJSON_GetObjectItemCaseSensitive in that order
//   write_struct/LIBRARY/MODEL: the decoded struct back to compact JSON
//       fastjson-gen   the generated fj_write_<Type>() into a reused fj_buffer
//       fastjson-desc  fj_desc_write()
//       rapidjson      Writer<StringBuffer> (reused) fed by hand from the struct
//       cjson          a cJSON tree built from the struct, cJSON_PrintUnformatted
//
// Every reader's result is checked before timing and again after it: a hash
// of the whole struct (every integer, double bit pattern, string byte, count
// and has-flag) must equal the one of fastjson-gen's result. cJSON keeps
// numbers as doubles and prints them with 15 significant digits, so its
// hash takes every number through a double rounded to 14 significant digits
// (the others' hashes are exact).
// Every writer's output is read back (fastjson-gen's reader; cJSON's own for
// cJSON) and must hash like the struct it was written from. A mismatch
// stops the program instead of reporting a speed.
//
// Bytes per second: the payload's size for read_struct/, the size of
// fastjson-gen's output (the same for every library) for write_struct/.
#include "corpus.hpp"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "fastjson.h"
#include "fastjson/codec.h"

#include "abc.h"
#include "company.h"
#include "document.h"
#include "expr_field.h"
#include "expr_nested.h"
#include "flat.h"
#include "twitter.h"

#ifdef FJ_BENCH_SIMDJSON
#include <simdjson.h>
#endif
#ifdef FJ_BENCH_RAPIDJSON
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#endif
#ifdef FJ_BENCH_CJSON
#include <cjson/cJSON.h>
#endif

namespace {

// ---- helpers ----------------------------------------------------------------

std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fjbench::fail("cannot open " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The payload of a model: generated files, or the corpus for twitter.
const std::string &payload(const char *model) {
  static std::vector<std::pair<std::string, std::string>> cache;
  for (auto &c : cache)
    if (c.first == model) return c.second;
  std::string data;
  if (std::strcmp(model, "twitter") == 0) {
    for (const auto &f : fjbench::corpus())
      if (f.name == "twitter.json") data = f.data;
    if (data.empty()) fjbench::fail("no twitter.json in the corpus");
  } else {
    data = slurp(std::string(FJ_CODEC_PAYLOADS) + "/" + model + ".json");
  }
  cache.emplace_back(model, std::move(data));
  return cache.back().second;
}

bool put_str(fj_arena *a, const char *s, size_t n, fj_str &out) {
  char *d = static_cast<char *>(fj_arena_alloc(a, n + 1));
  if (!d) return false;
  std::memcpy(d, s, n);
  d[n] = '\0';
  out.data = d;
  out.len = n;
  return true;
}

template <class E> E *alloc_items(fj_arena *a, size_t n) {
  if (!n) return nullptr;
  void *p = fj_arena_alloc(a, n * sizeof(E));
  if (p) std::memset(p, 0, n * sizeof(E));
  return static_cast<E *>(p);
}

int enum_index(std::string_view s, const char *const *values, int n) {
  for (int i = 0; i < n; i++)
    if (s == values[i]) return i;
  return -1;
}

const char *const flat_levels[] = {"low", "medium", "high"};
const char *const doc_statuses[] = {"draft", "sent", "paid", "void"};
const char *const ops[] = {"+", "-", "*", "/"};

// ---- the check: a hash of a decoded struct -----------------------------------

struct hasher {
  bool lossy; // cJSON: numbers as doubles, 14 significant digits
  uint64_t h = 1469598103934665603ull;
  void mix(uint64_t x) {
    h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 1099511628211ull;
  }
  void dbl(double x) {
    if (lossy) { // cJSON prints numbers with 15 significant digits (17 only when those differ
                 // by more than its epsilon): compared at 14
      char t[40];
      int n = std::snprintf(t, sizeof t, "%.14g", x);
      for (int k = 0; k < n; k++) mix(uint8_t(t[k]));
      return;
    }
    uint64_t b;
    std::memcpy(&b, &x, 8);
    mix(b);
  }
  void i(int64_t x) { lossy ? dbl(double(x)) : mix(uint64_t(x)); }
  void u(uint64_t x) { lossy ? dbl(double(x)) : mix(x); }
  void b(bool x) { mix(x ? 0x7777 : 0x5555); }
  void n(size_t x) { mix(x * 31 + 17); }
  void s(fj_str x) {
    n(x.len);
    for (size_t k = 0; k < x.len; k++) mix(uint8_t(x.data[k]));
  }
};

void hash(hasher &h, const Flat &x) {
  h.u(x.id), h.s(x.name), h.b(x.active), h.dbl(x.score), h.i(x.count), h.i(x.balance);
  h.s(x.email), h.dbl(x.ratio), h.n(size_t(x.level)), h.b(x.has_nickname);
  if (x.has_nickname) h.s(x.nickname);
  h.b(x.has_retries), h.i(x.has_retries ? x.retries : 0);
  h.b(x.has_verified), h.b(x.has_verified && x.verified);
}

void hash(hasher &h, const Address &x) { h.s(x.street), h.s(x.city), h.s(x.zip), h.s(x.country); }

void hash(hasher &h, const Company &x) {
  h.s(x.name), h.i(x.founded), hash(h, x.headquarters), h.n(x.departments.count);
  for (size_t d = 0; d < x.departments.count; d++) {
    const Department &dp = x.departments.items[d];
    h.s(dp.name), h.dbl(dp.budget), h.n(dp.employees.count);
    for (size_t e = 0; e < dp.employees.count; e++) {
      const Employee &em = dp.employees.items[e];
      h.i(em.id), h.s(em.name), h.s(em.title), h.dbl(em.salary), h.b(em.active);
      h.n(em.skills.count);
      for (size_t k = 0; k < em.skills.count; k++) h.s(em.skills.items[k]);
      hash(h, em.address);
    }
  }
}

void hash(hasher &h, const Document &x) {
  h.u(x.id), h.n(size_t(x.status)), h.s(x.meta.author), h.i(x.meta.created);
  h.n(x.meta.tags.count);
  for (size_t k = 0; k < x.meta.tags.count; k++) h.s(x.meta.tags.items[k]);
  h.b(x.meta.has_attributes), h.n(x.meta.attributes.count);
  for (size_t k = 0; k < x.meta.attributes.count; k++)
    h.s(x.meta.attributes.keys[k]), h.s(x.meta.attributes.values[k]);
  h.n(x.items.count);
  for (size_t k = 0; k < x.items.count; k++)
    h.s(x.items.items[k].sku), h.i(x.items.items[k].qty), h.dbl(x.items.items[k].price);
  h.b(x.has_note);
  if (x.has_note) h.s(x.note);
}

void hash(hasher &h, const Expr &x) {
  h.n(size_t(x.kind));
  switch (x.kind) {
  case Expr_num: h.dbl(x.as.num.value); break;
  case Expr_neg: hash(h, *x.as.neg.arg); break;
  case Expr_bin:
    h.n(size_t(x.as.bin.op)), hash(h, *x.as.bin.left), hash(h, *x.as.bin.right);
    break;
  }
}

void hash(hasher &h, const Tree &x) {
  h.n(size_t(x.kind));
  switch (x.kind) {
  case Tree_num: h.dbl(x.as.num); break;
  case Tree_neg: hash(h, *x.as.neg); break;
  case Tree_bin:
    h.n(size_t(x.as.bin.op)), hash(h, *x.as.bin.left), hash(h, *x.as.bin.right);
    break;
  }
}

// abc: 26 fields a..z; field k is an int64 (k % 3 == 0), a string (1) or a double (2)
#define ABC_FIELDS(X)                                                                              \
  X(a, 0) X(b, 1) X(c, 2) X(d, 0) X(e, 1) X(f, 2) X(g, 0) X(h, 1) X(i, 2) X(j, 0) X(k, 1) X(l, 2)  \
      X(m, 0) X(n, 1) X(o, 2) X(p, 0) X(q, 1) X(r, 2) X(s, 0) X(t, 1) X(u, 2) X(v, 0) X(w, 1)      \
          X(x, 2) X(y, 0) X(z, 1)

void hash_abc_i(hasher &h, int64_t v) { h.i(v); }
void hash_abc_i(hasher &h, fj_str v) { h.s(v); }
void hash_abc_i(hasher &h, double v) { h.dbl(v); }

void hash(hasher &h, const Abc &x) {
#define X(name, kind) hash_abc_i(h, x.name);
  ABC_FIELDS(X)
#undef X
}

void hash(hasher &h, const User &x) {
  h.u(x.id), h.s(x.screen_name), h.s(x.name), h.i(x.followers_count), h.i(x.friends_count);
  h.b(x.verified), h.b(x.has_location), h.b(x.has_lang);
  if (x.has_location) h.s(x.location);
  if (x.has_lang) h.s(x.lang);
}

void hash(hasher &h, const Twitter &x) {
  h.n(x.statuses.count);
  for (size_t k = 0; k < x.statuses.count; k++) {
    const Status &s = x.statuses.items[k];
    h.u(s.id), h.s(s.text), h.s(s.created_at), hash(h, s.user);
    h.n(s.entities.hashtags.count);
    for (size_t t = 0; t < s.entities.hashtags.count; t++) {
      const Hashtag &ht = s.entities.hashtags.items[t];
      h.s(ht.text), h.n(ht.indices.count);
      for (size_t i = 0; i < ht.indices.count; i++) h.i(ht.indices.items[i]);
    }
    h.i(s.retweet_count), h.b(s.favorited), h.b(s.has_in_reply_to_screen_name);
    if (s.has_in_reply_to_screen_name) h.s(s.in_reply_to_screen_name);
  }
}

template <class T> uint64_t hash_of(const T &x, bool lossy) {
  hasher h{lossy};
  hash(h, x);
  return h.h;
}

// ---- hand-written readers, once per model over a small adaptor per library ----
//
// An adaptor L has: val and obj handles; field(o, key, v) (false: missing or
// an error), opt_field(o, key, v) (-1 error, 0 absent, 1 present),
// object(v, o), is_null(v), i64/u64/dbl/boolean/str(v, out), and
// array(v, a, items, count, fn) that counts, allocates and calls fn(v, item)
// per element, and only_field(v, fn) for a one-key object.

template <class L> bool rd_i32(typename L::val &v, int32_t &out) {
  int64_t x;
  if (!L::i64(v, x) || x < INT32_MIN || x > INT32_MAX) return false;
  out = int32_t(x);
  return true;
}

template <class L> bool rd_str(typename L::val &v, fj_arena *a, fj_str &out) {
  std::string_view s;
  return L::str(v, s) && put_str(a, s.data(), s.size(), out);
}

template <class L, class E> bool rd_enum(typename L::val &v, const char *const *values, int n, E &out) {
  std::string_view s;
  if (!L::str(v, s)) return false;
  int i = enum_index(s, values, n);
  out = E(i);
  return i >= 0;
}

#define REQ(key, expr)                                                                             \
  do {                                                                                             \
    if (!L::field(o, key, f) || !(expr)) return false;                                             \
  } while (0)

template <class L> bool rd(typename L::val &v, fj_arena *a, Flat &x) {
  typename L::obj o;
  typename L::val f;
  std::memset(&x, 0, sizeof x);
  if (!L::object(v, o)) return false;
  REQ("id", L::u64(f, x.id));
  REQ("name", rd_str<L>(f, a, x.name));
  REQ("active", L::boolean(f, x.active));
  REQ("score", L::dbl(f, x.score));
  REQ("count", rd_i32<L>(f, x.count));
  REQ("balance", L::i64(f, x.balance));
  REQ("email", rd_str<L>(f, a, x.email));
  REQ("ratio", L::dbl(f, x.ratio));
  REQ("level", rd_enum<L>(f, flat_levels, 3, x.level));
  if (!L::field(o, "nickname", f)) return false;
  if (!L::is_null(f)) {
    if (!rd_str<L>(f, a, x.nickname)) return false;
    x.has_nickname = true;
  }
  int r = L::opt_field(o, "retries", f);
  if (r < 0 || (r && !rd_i32<L>(f, x.retries))) return false;
  if (!r) x.retries = 3;
  x.has_retries = true;
  r = L::opt_field(o, "verified", f);
  if (r < 0 || (r && !L::boolean(f, x.verified))) return false;
  x.has_verified = true; // default false
  return true;
}

template <class L> bool rd(typename L::val &v, fj_arena *a, Address &x) {
  typename L::obj o;
  typename L::val f;
  if (!L::object(v, o)) return false;
  REQ("street", rd_str<L>(f, a, x.street));
  REQ("city", rd_str<L>(f, a, x.city));
  REQ("zip", rd_str<L>(f, a, x.zip));
  REQ("country", rd_str<L>(f, a, x.country));
  return true;
}

template <class L> bool rd(typename L::val &v, fj_arena *a, Employee &x) {
  typename L::obj o;
  typename L::val f;
  if (!L::object(v, o)) return false;
  REQ("id", L::i64(f, x.id));
  REQ("name", rd_str<L>(f, a, x.name));
  REQ("title", rd_str<L>(f, a, x.title));
  REQ("salary", L::dbl(f, x.salary));
  REQ("active", L::boolean(f, x.active));
  REQ("skills", L::array(f, a, x.skills.items, x.skills.count,
                         [a](typename L::val &e, fj_str &s) { return rd_str<L>(e, a, s); }));
  REQ("address", rd<L>(f, a, x.address));
  return true;
}

template <class L> bool rd(typename L::val &v, fj_arena *a, Department &x) {
  typename L::obj o;
  typename L::val f;
  if (!L::object(v, o)) return false;
  REQ("name", rd_str<L>(f, a, x.name));
  REQ("budget", L::dbl(f, x.budget));
  REQ("employees", L::array(f, a, x.employees.items, x.employees.count,
                            [a](typename L::val &e, Employee &em) { return rd<L>(e, a, em); }));
  return true;
}

template <class L> bool rd(typename L::val &v, fj_arena *a, Company &x) {
  typename L::obj o;
  typename L::val f;
  if (!L::object(v, o)) return false;
  REQ("name", rd_str<L>(f, a, x.name));
  REQ("founded", rd_i32<L>(f, x.founded));
  REQ("headquarters", rd<L>(f, a, x.headquarters));
  REQ("departments", L::array(f, a, x.departments.items, x.departments.count,
                              [a](typename L::val &e, Department &d) { return rd<L>(e, a, d); }));
  return true;
}

template <class L> bool rd(typename L::val &v, fj_arena *a, Document &x) {
  typename L::obj o;
  typename L::val f;
  std::memset(&x, 0, sizeof x);
  if (!L::object(v, o)) return false;
  REQ("id", L::u64(f, x.id));
  REQ("status", rd_enum<L>(f, doc_statuses, 4, x.status));
  {
    if (!L::field(o, "meta", f)) return false;
    typename L::obj m;
    typename L::val g;
    if (!L::object(f, m)) return false;
    if (!L::field(m, "author", g) || !rd_str<L>(g, a, x.meta.author)) return false;
    if (!L::field(m, "created", g) || !L::i64(g, x.meta.created)) return false;
    if (!L::field(m, "tags", g) ||
        !L::array(g, a, x.meta.tags.items, x.meta.tags.count,
                  [a](typename L::val &e, fj_str &s) { return rd_str<L>(e, a, s); }))
      return false;
    // the payload has no attributes (an optional string map): only checked absent
    if (L::opt_field(m, "attributes", g) != 0) return false;
  }
  REQ("items",
      L::array(f, a, x.items.items, x.items.count, [a](typename L::val &e, Document_items_item &it) {
        typename L::obj io;
        typename L::val g;
        return L::object(e, io) && L::field(io, "sku", g) && rd_str<L>(g, a, it.sku) &&
               L::field(io, "qty", g) && rd_i32<L>(g, it.qty) && L::field(io, "price", g) &&
               L::dbl(g, it.price);
      }));
  int r = L::opt_field(o, "note", f);
  if (r < 0) return false;
  if (r && !L::is_null(f)) {
    if (!rd_str<L>(f, a, x.note)) return false;
    x.has_note = true;
  }
  return true;
}

template <class T> T *alloc_one(fj_arena *a) { return alloc_items<T>(a, 1); }

template <class L> bool rd(typename L::val &v, fj_arena *a, Expr &x) {
  typename L::obj o;
  typename L::val f;
  std::string_view type;
  if (!L::object(v, o) || !L::field(o, "type", f) || !L::str(f, type)) return false;
  if (type == "num") {
    x.kind = Expr_num;
    REQ("value", L::dbl(f, x.as.num.value));
  } else if (type == "neg") {
    x.kind = Expr_neg;
    x.as.neg.arg = alloc_one<Expr>(a);
    REQ("arg", x.as.neg.arg && rd<L>(f, a, *x.as.neg.arg));
  } else if (type == "bin") {
    x.kind = Expr_bin;
    x.as.bin.left = alloc_one<Expr>(a);
    x.as.bin.right = alloc_one<Expr>(a);
    REQ("op", rd_enum<L>(f, ops, 4, x.as.bin.op));
    REQ("left", x.as.bin.left && rd<L>(f, a, *x.as.bin.left));
    REQ("right", x.as.bin.right && rd<L>(f, a, *x.as.bin.right));
  } else {
    return false;
  }
  return true;
}

template <class L> bool rd(typename L::val &v, fj_arena *a, Tree &x) {
  return L::only_field(v, [&](std::string_view key, typename L::val &f) {
    if (key == "num") {
      x.kind = Tree_num;
      return L::dbl(f, x.as.num);
    }
    if (key == "neg") {
      x.kind = Tree_neg;
      x.as.neg = alloc_one<Tree>(a);
      return x.as.neg && rd<L>(f, a, *x.as.neg);
    }
    if (key != "bin") return false;
    x.kind = Tree_bin;
    typename L::obj o;
    typename L::val g;
    TreeBinary &b = x.as.bin;
    b.left = alloc_one<Tree>(a);
    b.right = alloc_one<Tree>(a);
    return b.left && b.right && L::object(f, o) && L::field(o, "op", g) &&
           rd_enum<L>(g, ops, 4, b.op) && L::field(o, "left", g) && rd<L>(g, a, *b.left) &&
           L::field(o, "right", g) && rd<L>(g, a, *b.right);
  });
}

template <class L> bool rd_abc(typename L::val &v, fj_arena *, int64_t &x) { return L::i64(v, x); }
template <class L> bool rd_abc(typename L::val &v, fj_arena *a, fj_str &x) {
  return rd_str<L>(v, a, x);
}
template <class L> bool rd_abc(typename L::val &v, fj_arena *, double &x) { return L::dbl(v, x); }

template <class L> bool rd(typename L::val &v, fj_arena *a, Abc &x) {
  typename L::obj o;
  typename L::val f;
  if (!L::object(v, o)) return false;
#define X(name, kind)                                                                              \
  if (!L::field(o, #name, f) || !rd_abc<L>(f, a, x.name)) return false;
  ABC_FIELDS(X)
#undef X
  return true;
}

// User and Status read their fields in twitter.json's order (the same in
// every status), as simdjson's documentation asks of On-Demand code; in
// schema order, a simdjson reader wraps around at 5 of the 16 lookups.
template <class L> bool rd(typename L::val &v, fj_arena *a, User &x) {
  typename L::obj o;
  typename L::val f;
  if (!L::object(v, o)) return false;
  REQ("id", L::u64(f, x.id));
  REQ("name", rd_str<L>(f, a, x.name));
  REQ("screen_name", rd_str<L>(f, a, x.screen_name));
  int r = L::opt_field(o, "location", f);
  if (r < 0 || (r && !rd_str<L>(f, a, x.location))) return false;
  x.has_location = r > 0;
  REQ("followers_count", L::i64(f, x.followers_count));
  REQ("friends_count", L::i64(f, x.friends_count));
  REQ("verified", L::boolean(f, x.verified));
  r = L::opt_field(o, "lang", f);
  if (r < 0 || (r && !rd_str<L>(f, a, x.lang))) return false;
  x.has_lang = r > 0;
  return true;
}

template <class L> bool rd(typename L::val &v, fj_arena *a, Status &x) {
  typename L::obj o;
  typename L::val f;
  if (!L::object(v, o)) return false;
  REQ("created_at", rd_str<L>(f, a, x.created_at));
  REQ("id", L::u64(f, x.id));
  REQ("text", rd_str<L>(f, a, x.text));
  int r = L::opt_field(o, "in_reply_to_screen_name", f);
  if (r < 0) return false;
  x.has_in_reply_to_screen_name = false;
  if (r && !L::is_null(f)) {
    if (!rd_str<L>(f, a, x.in_reply_to_screen_name)) return false;
    x.has_in_reply_to_screen_name = true;
  }
  REQ("user", rd<L>(f, a, x.user));
  REQ("retweet_count", L::i64(f, x.retweet_count));
  {
    if (!L::field(o, "entities", f)) return false;
    typename L::obj eo;
    typename L::val g;
    if (!L::object(f, eo) || !L::field(eo, "hashtags", g)) return false;
    Hashtag_array &hs = x.entities.hashtags;
    if (!L::array(g, a, hs.items, hs.count, [a](typename L::val &e, Hashtag &ht) {
          typename L::obj ho;
          typename L::val k;
          return L::object(e, ho) && L::field(ho, "text", k) && rd_str<L>(k, a, ht.text) &&
                 L::field(ho, "indices", k) &&
                 L::array(k, a, ht.indices.items, ht.indices.count,
                          [](typename L::val &i, int32_t &out) { return rd_i32<L>(i, out); });
        }))
      return false;
  }
  REQ("favorited", L::boolean(f, x.favorited));
  return true;
}

template <class L> bool rd(typename L::val &v, fj_arena *a, Twitter &x) {
  typename L::obj o;
  typename L::val f;
  if (!L::object(v, o)) return false;
  REQ("statuses", L::array(f, a, x.statuses.items, x.statuses.count,
                           [a](typename L::val &e, Status &s) { return rd<L>(e, a, s); }));
  return true;
}
#undef REQ

// ---- adaptors ------------------------------------------------------------------

#ifdef FJ_BENCH_SIMDJSON
namespace od = simdjson::ondemand;
struct SJ {
  using val = od::value;
  using obj = od::object;
  static bool field(obj &o, const char *k, val &v) { return !o[k].get(v); }
  static int opt_field(obj &o, const char *k, val &v) {
    auto r = o[k];
    if (r.error() == simdjson::NO_SUCH_FIELD) return 0;
    return std::move(r).get(v) ? -1 : 1;
  }
  static bool object(val &v, obj &o) { return !v.get_object().get(o); }
  static bool is_null(val &v) {
    bool b = false;
    return !v.is_null().get(b) && b;
  }
  static bool i64(val &v, int64_t &x) { return !v.get_int64().get(x); }
  static bool u64(val &v, uint64_t &x) { return !v.get_uint64().get(x); }
  static bool dbl(val &v, double &x) { return !v.get_double().get(x); }
  static bool boolean(val &v, bool &x) { return !v.get_bool().get(x); }
  static bool str(val &v, std::string_view &s) { return !v.get_string().get(s); }
  template <class E, class F> static bool array(val &v, fj_arena *a, E *&items, size_t &count, F fn) {
    od::array arr;
    if (v.get_array().get(arr) || arr.count_elements().get(count)) return false;
    items = alloc_items<E>(a, count);
    if (count && !items) return false;
    size_t i = 0;
    for (auto e : arr) {
      val ev;
      if (i >= count || std::move(e).get(ev) || !fn(ev, items[i])) return false;
      i++;
    }
    return i == count;
  }
  template <class F> static bool only_field(val &v, F fn) {
    obj o;
    if (v.get_object().get(o)) return false;
    int n = 0;
    for (auto field : o) {
      od::field fl;
      std::string_view k;
      if (std::move(field).get(fl) || fl.unescaped_key().get(k)) return false;
      val fv = fl.value();
      if (n++ || !fn(k, fv)) return false;
    }
    return n == 1;
  }
};
#endif

#ifdef FJ_BENCH_RAPIDJSON
struct RJ {
  using val = const rapidjson::Value *;
  using obj = const rapidjson::Value *;
  static bool field(obj &o, const char *k, val &v) {
    auto m = o->FindMember(k);
    if (m == o->MemberEnd()) return false;
    v = &m->value;
    return true;
  }
  static int opt_field(obj &o, const char *k, val &v) { return field(o, k, v) ? 1 : 0; }
  static bool object(val &v, obj &o) {
    o = v;
    return v->IsObject();
  }
  static bool is_null(val &v) { return v->IsNull(); }
  static bool i64(val &v, int64_t &x) { return v->IsInt64() && (x = v->GetInt64(), true); }
  static bool u64(val &v, uint64_t &x) { return v->IsUint64() && (x = v->GetUint64(), true); }
  static bool dbl(val &v, double &x) { return v->IsNumber() && (x = v->GetDouble(), true); }
  static bool boolean(val &v, bool &x) { return v->IsBool() && (x = v->GetBool(), true); }
  static bool str(val &v, std::string_view &s) {
    if (!v->IsString()) return false;
    s = std::string_view(v->GetString(), v->GetStringLength());
    return true;
  }
  template <class E, class F> static bool array(val &v, fj_arena *a, E *&items, size_t &count, F fn) {
    if (!v->IsArray()) return false;
    count = v->Size();
    items = alloc_items<E>(a, count);
    if (count && !items) return false;
    size_t i = 0;
    for (const auto &e : v->GetArray()) {
      val ev = &e;
      if (!fn(ev, items[i++])) return false;
    }
    return true;
  }
  template <class F> static bool only_field(val &v, F fn) {
    if (!v->IsObject() || v->MemberCount() != 1) return false;
    const auto &m = *v->MemberBegin();
    val fv = &m.value;
    return fn(std::string_view(m.name.GetString(), m.name.GetStringLength()), fv);
  }
};
#endif

#ifdef FJ_BENCH_CJSON
struct CJ {
  using val = const cJSON *;
  using obj = const cJSON *;
  static bool field(obj &o, const char *k, val &v) {
    return (v = cJSON_GetObjectItemCaseSensitive(o, k)) != nullptr;
  }
  static int opt_field(obj &o, const char *k, val &v) { return field(o, k, v) ? 1 : 0; }
  static bool object(val &v, obj &o) {
    o = v;
    return cJSON_IsObject(v);
  }
  static bool is_null(val &v) { return cJSON_IsNull(v); }
  // cJSON keeps numbers as doubles: integers are that double, converted
  static bool i64(val &v, int64_t &x) {
    if (!cJSON_IsNumber(v)) return false;
    double d = v->valuedouble;
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) || d != std::floor(d))
      return false;
    x = int64_t(d);
    return true;
  }
  static bool u64(val &v, uint64_t &x) {
    if (!cJSON_IsNumber(v)) return false;
    double d = v->valuedouble;
    if (!(d >= 0 && d <= 18446744073709551616.0) || d != std::floor(d)) return false;
    x = d >= 18446744073709551616.0 ? UINT64_MAX : uint64_t(d);
    return true;
  }
  static bool dbl(val &v, double &x) { return cJSON_IsNumber(v) && (x = v->valuedouble, true); }
  static bool boolean(val &v, bool &x) { return cJSON_IsBool(v) && (x = cJSON_IsTrue(v), true); }
  static bool str(val &v, std::string_view &s) {
    if (!cJSON_IsString(v)) return false;
    s = std::string_view(v->valuestring);
    return true;
  }
  template <class E, class F> static bool array(val &v, fj_arena *a, E *&items, size_t &count, F fn) {
    if (!cJSON_IsArray(v)) return false;
    count = size_t(cJSON_GetArraySize(v));
    items = alloc_items<E>(a, count);
    if (count && !items) return false;
    size_t i = 0;
    for (const cJSON *e = v->child; e; e = e->next) {
      val ev = e;
      if (!fn(ev, items[i++])) return false;
    }
    return true;
  }
  template <class F> static bool only_field(val &v, F fn) {
    if (!cJSON_IsObject(v) || !v->child || v->child->next) return false;
    val fv = v->child;
    return fn(std::string_view(fv->string), fv);
  }
};
#endif

// ---- hand-written writers ---------------------------------------------------------

#ifdef FJ_BENCH_RAPIDJSON
using RW = rapidjson::Writer<rapidjson::StringBuffer>;
#define K(w, key) w.Key(key, rapidjson::SizeType(sizeof key - 1))
void rstr(RW &w, fj_str s) { w.String(s.data, rapidjson::SizeType(s.len)); }

void wr(RW &w, const Flat &x) {
  w.StartObject();
  K(w, "id"), w.Uint64(x.id);
  K(w, "name"), rstr(w, x.name);
  K(w, "active"), w.Bool(x.active);
  K(w, "score"), w.Double(x.score);
  K(w, "count"), w.Int(x.count);
  K(w, "balance"), w.Int64(x.balance);
  K(w, "email"), rstr(w, x.email);
  K(w, "ratio"), w.Double(x.ratio);
  K(w, "level"), w.String(flat_levels[x.level]);
  K(w, "nickname");
  if (x.has_nickname)
    rstr(w, x.nickname);
  else
    w.Null();
  if (x.has_retries) K(w, "retries"), w.Int(x.retries);
  if (x.has_verified) K(w, "verified"), w.Bool(x.verified);
  w.EndObject();
}

void wr(RW &w, const Address &x) {
  w.StartObject();
  K(w, "street"), rstr(w, x.street);
  K(w, "city"), rstr(w, x.city);
  K(w, "zip"), rstr(w, x.zip);
  K(w, "country"), rstr(w, x.country);
  w.EndObject();
}

void wr(RW &w, const Company &x) {
  w.StartObject();
  K(w, "name"), rstr(w, x.name);
  K(w, "founded"), w.Int(x.founded);
  K(w, "headquarters"), wr(w, x.headquarters);
  K(w, "departments"), w.StartArray();
  for (size_t d = 0; d < x.departments.count; d++) {
    const Department &dp = x.departments.items[d];
    w.StartObject();
    K(w, "name"), rstr(w, dp.name);
    K(w, "budget"), w.Double(dp.budget);
    K(w, "employees"), w.StartArray();
    for (size_t e = 0; e < dp.employees.count; e++) {
      const Employee &em = dp.employees.items[e];
      w.StartObject();
      K(w, "id"), w.Int64(em.id);
      K(w, "name"), rstr(w, em.name);
      K(w, "title"), rstr(w, em.title);
      K(w, "salary"), w.Double(em.salary);
      K(w, "active"), w.Bool(em.active);
      K(w, "skills"), w.StartArray();
      for (size_t k = 0; k < em.skills.count; k++) rstr(w, em.skills.items[k]);
      w.EndArray();
      K(w, "address"), wr(w, em.address);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

void wr(RW &w, const Document &x) {
  w.StartObject();
  K(w, "id"), w.Uint64(x.id);
  K(w, "status"), w.String(doc_statuses[x.status]);
  K(w, "meta"), w.StartObject();
  K(w, "author"), rstr(w, x.meta.author);
  K(w, "created"), w.Int64(x.meta.created);
  K(w, "tags"), w.StartArray();
  for (size_t k = 0; k < x.meta.tags.count; k++) rstr(w, x.meta.tags.items[k]);
  w.EndArray();
  if (x.meta.has_attributes) {
    K(w, "attributes"), w.StartObject();
    for (size_t k = 0; k < x.meta.attributes.count; k++)
      w.Key(x.meta.attributes.keys[k].data, rapidjson::SizeType(x.meta.attributes.keys[k].len)),
          rstr(w, x.meta.attributes.values[k]);
    w.EndObject();
  }
  w.EndObject();
  K(w, "items"), w.StartArray();
  for (size_t k = 0; k < x.items.count; k++) {
    w.StartObject();
    K(w, "sku"), rstr(w, x.items.items[k].sku);
    K(w, "qty"), w.Int(x.items.items[k].qty);
    K(w, "price"), w.Double(x.items.items[k].price);
    w.EndObject();
  }
  w.EndArray();
  if (x.has_note) K(w, "note"), rstr(w, x.note);
  w.EndObject();
}

void wr(RW &w, const Expr &x) {
  w.StartObject();
  switch (x.kind) {
  case Expr_num:
    K(w, "type"), w.String("num", 3);
    K(w, "value"), w.Double(x.as.num.value);
    break;
  case Expr_neg:
    K(w, "type"), w.String("neg", 3);
    K(w, "arg"), wr(w, *x.as.neg.arg);
    break;
  case Expr_bin:
    K(w, "type"), w.String("bin", 3);
    K(w, "op"), w.String(ops[x.as.bin.op], 1);
    K(w, "left"), wr(w, *x.as.bin.left);
    K(w, "right"), wr(w, *x.as.bin.right);
    break;
  }
  w.EndObject();
}

void wr(RW &w, const Tree &x) {
  w.StartObject();
  switch (x.kind) {
  case Tree_num: K(w, "num"), w.Double(x.as.num); break;
  case Tree_neg: K(w, "neg"), wr(w, *x.as.neg); break;
  case Tree_bin:
    K(w, "bin"), w.StartObject();
    K(w, "op"), w.String(ops[x.as.bin.op], 1);
    K(w, "left"), wr(w, *x.as.bin.left);
    K(w, "right"), wr(w, *x.as.bin.right);
    w.EndObject();
    break;
  }
  w.EndObject();
}

void wr_abc(RW &w, int64_t v) { w.Int64(v); }
void wr_abc(RW &w, fj_str v) { rstr(w, v); }
void wr_abc(RW &w, double v) { w.Double(v); }

void wr(RW &w, const Abc &x) {
  w.StartObject();
#define X(name, kind) K(w, #name), wr_abc(w, x.name);
  ABC_FIELDS(X)
#undef X
  w.EndObject();
}

void wr(RW &w, const User &x) {
  w.StartObject();
  K(w, "id"), w.Uint64(x.id);
  K(w, "screen_name"), rstr(w, x.screen_name);
  K(w, "name"), rstr(w, x.name);
  K(w, "followers_count"), w.Int64(x.followers_count);
  K(w, "friends_count"), w.Int64(x.friends_count);
  K(w, "verified"), w.Bool(x.verified);
  if (x.has_location) K(w, "location"), rstr(w, x.location);
  if (x.has_lang) K(w, "lang"), rstr(w, x.lang);
  w.EndObject();
}

void wr(RW &w, const Twitter &x) {
  w.StartObject();
  K(w, "statuses"), w.StartArray();
  for (size_t k = 0; k < x.statuses.count; k++) {
    const Status &s = x.statuses.items[k];
    w.StartObject();
    K(w, "id"), w.Uint64(s.id);
    K(w, "text"), rstr(w, s.text);
    K(w, "created_at"), rstr(w, s.created_at);
    K(w, "user"), wr(w, s.user);
    K(w, "entities"), w.StartObject();
    K(w, "hashtags"), w.StartArray();
    for (size_t t = 0; t < s.entities.hashtags.count; t++) {
      const Hashtag &ht = s.entities.hashtags.items[t];
      w.StartObject();
      K(w, "text"), rstr(w, ht.text);
      K(w, "indices"), w.StartArray();
      for (size_t i = 0; i < ht.indices.count; i++) w.Int(ht.indices.items[i]);
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    K(w, "retweet_count"), w.Int64(s.retweet_count);
    K(w, "favorited"), w.Bool(s.favorited);
    if (s.has_in_reply_to_screen_name) K(w, "in_reply_to_screen_name"), rstr(w, s.in_reply_to_screen_name);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}
#undef K
#endif

#ifdef FJ_BENCH_CJSON
cJSON *cstr(fj_str s) { return cJSON_CreateString(s.data); }
cJSON *cnum(double d) { return cJSON_CreateNumber(d); }
void add(cJSON *o, const char *k, cJSON *v) { cJSON_AddItemToObject(o, k, v); }

cJSON *cj(const Flat &x) {
  cJSON *o = cJSON_CreateObject();
  add(o, "id", cnum(double(x.id)));
  add(o, "name", cstr(x.name));
  add(o, "active", cJSON_CreateBool(x.active));
  add(o, "score", cnum(x.score));
  add(o, "count", cnum(x.count));
  add(o, "balance", cnum(double(x.balance)));
  add(o, "email", cstr(x.email));
  add(o, "ratio", cnum(x.ratio));
  add(o, "level", cJSON_CreateString(flat_levels[x.level]));
  add(o, "nickname", x.has_nickname ? cstr(x.nickname) : cJSON_CreateNull());
  if (x.has_retries) add(o, "retries", cnum(x.retries));
  if (x.has_verified) add(o, "verified", cJSON_CreateBool(x.verified));
  return o;
}

cJSON *cj(const Address &x) {
  cJSON *o = cJSON_CreateObject();
  add(o, "street", cstr(x.street));
  add(o, "city", cstr(x.city));
  add(o, "zip", cstr(x.zip));
  add(o, "country", cstr(x.country));
  return o;
}

cJSON *cj(const Company &x) {
  cJSON *o = cJSON_CreateObject();
  add(o, "name", cstr(x.name));
  add(o, "founded", cnum(x.founded));
  add(o, "headquarters", cj(x.headquarters));
  cJSON *ds = cJSON_CreateArray();
  for (size_t d = 0; d < x.departments.count; d++) {
    const Department &dp = x.departments.items[d];
    cJSON *dj = cJSON_CreateObject();
    add(dj, "name", cstr(dp.name));
    add(dj, "budget", cnum(dp.budget));
    cJSON *es = cJSON_CreateArray();
    for (size_t e = 0; e < dp.employees.count; e++) {
      const Employee &em = dp.employees.items[e];
      cJSON *ej = cJSON_CreateObject();
      add(ej, "id", cnum(double(em.id)));
      add(ej, "name", cstr(em.name));
      add(ej, "title", cstr(em.title));
      add(ej, "salary", cnum(em.salary));
      add(ej, "active", cJSON_CreateBool(em.active));
      cJSON *sk = cJSON_CreateArray();
      for (size_t k = 0; k < em.skills.count; k++) cJSON_AddItemToArray(sk, cstr(em.skills.items[k]));
      add(ej, "skills", sk);
      add(ej, "address", cj(em.address));
      cJSON_AddItemToArray(es, ej);
    }
    add(dj, "employees", es);
    cJSON_AddItemToArray(ds, dj);
  }
  add(o, "departments", ds);
  return o;
}

cJSON *cj(const Document &x) {
  cJSON *o = cJSON_CreateObject();
  add(o, "id", cnum(double(x.id)));
  add(o, "status", cJSON_CreateString(doc_statuses[x.status]));
  cJSON *m = cJSON_CreateObject();
  add(m, "author", cstr(x.meta.author));
  add(m, "created", cnum(double(x.meta.created)));
  cJSON *tags = cJSON_CreateArray();
  for (size_t k = 0; k < x.meta.tags.count; k++) cJSON_AddItemToArray(tags, cstr(x.meta.tags.items[k]));
  add(m, "tags", tags);
  if (x.meta.has_attributes) {
    cJSON *at = cJSON_CreateObject();
    for (size_t k = 0; k < x.meta.attributes.count; k++)
      add(at, x.meta.attributes.keys[k].data, cstr(x.meta.attributes.values[k]));
    add(m, "attributes", at);
  }
  add(o, "meta", m);
  cJSON *items = cJSON_CreateArray();
  for (size_t k = 0; k < x.items.count; k++) {
    cJSON *it = cJSON_CreateObject();
    add(it, "sku", cstr(x.items.items[k].sku));
    add(it, "qty", cnum(x.items.items[k].qty));
    add(it, "price", cnum(x.items.items[k].price));
    cJSON_AddItemToArray(items, it);
  }
  add(o, "items", items);
  if (x.has_note) add(o, "note", cstr(x.note));
  return o;
}

cJSON *cj(const Expr &x) {
  cJSON *o = cJSON_CreateObject();
  switch (x.kind) {
  case Expr_num:
    add(o, "type", cJSON_CreateString("num"));
    add(o, "value", cnum(x.as.num.value));
    break;
  case Expr_neg:
    add(o, "type", cJSON_CreateString("neg"));
    add(o, "arg", cj(*x.as.neg.arg));
    break;
  case Expr_bin:
    add(o, "type", cJSON_CreateString("bin"));
    add(o, "op", cJSON_CreateString(ops[x.as.bin.op]));
    add(o, "left", cj(*x.as.bin.left));
    add(o, "right", cj(*x.as.bin.right));
    break;
  }
  return o;
}

cJSON *cj(const Tree &x) {
  cJSON *o = cJSON_CreateObject();
  switch (x.kind) {
  case Tree_num: add(o, "num", cnum(x.as.num)); break;
  case Tree_neg: add(o, "neg", cj(*x.as.neg)); break;
  case Tree_bin: {
    cJSON *b = cJSON_CreateObject();
    add(b, "op", cJSON_CreateString(ops[x.as.bin.op]));
    add(b, "left", cj(*x.as.bin.left));
    add(b, "right", cj(*x.as.bin.right));
    add(o, "bin", b);
    break;
  }
  }
  return o;
}

cJSON *cj_abc(int64_t v) { return cnum(double(v)); }
cJSON *cj_abc(fj_str v) { return cstr(v); }
cJSON *cj_abc(double v) { return cnum(v); }

cJSON *cj(const Abc &x) {
  cJSON *o = cJSON_CreateObject();
#define X(name, kind) add(o, #name, cj_abc(x.name));
  ABC_FIELDS(X)
#undef X
  return o;
}

cJSON *cj(const User &x) {
  cJSON *o = cJSON_CreateObject();
  add(o, "id", cnum(double(x.id)));
  add(o, "screen_name", cstr(x.screen_name));
  add(o, "name", cstr(x.name));
  add(o, "followers_count", cnum(double(x.followers_count)));
  add(o, "friends_count", cnum(double(x.friends_count)));
  add(o, "verified", cJSON_CreateBool(x.verified));
  if (x.has_location) add(o, "location", cstr(x.location));
  if (x.has_lang) add(o, "lang", cstr(x.lang));
  return o;
}

cJSON *cj(const Twitter &x) {
  cJSON *o = cJSON_CreateObject();
  cJSON *sts = cJSON_CreateArray();
  for (size_t k = 0; k < x.statuses.count; k++) {
    const Status &s = x.statuses.items[k];
    cJSON *sj = cJSON_CreateObject();
    add(sj, "id", cnum(double(s.id)));
    add(sj, "text", cstr(s.text));
    add(sj, "created_at", cstr(s.created_at));
    add(sj, "user", cj(s.user));
    cJSON *ent = cJSON_CreateObject(), *hs = cJSON_CreateArray();
    for (size_t t = 0; t < s.entities.hashtags.count; t++) {
      const Hashtag &ht = s.entities.hashtags.items[t];
      cJSON *hj = cJSON_CreateObject(), *ind = cJSON_CreateArray();
      add(hj, "text", cstr(ht.text));
      for (size_t i = 0; i < ht.indices.count; i++) cJSON_AddItemToArray(ind, cnum(ht.indices.items[i]));
      add(hj, "indices", ind);
      cJSON_AddItemToArray(hs, hj);
    }
    add(ent, "hashtags", hs);
    add(sj, "entities", ent);
    add(sj, "retweet_count", cnum(double(s.retweet_count)));
    add(sj, "favorited", cJSON_CreateBool(s.favorited));
    if (s.has_in_reply_to_screen_name) add(sj, "in_reply_to_screen_name", cstr(s.in_reply_to_screen_name));
    cJSON_AddItemToArray(sts, sj);
  }
  add(o, "statuses", sts);
  return o;
}
#endif

// ---- descriptor tables ------------------------------------------------------------

constexpr uint32_t R = FJ_FIELD_REQUIRED, N = FJ_FIELD_NULLABLE;
constexpr size_t NO = FJ_NO_HAS_FLAG;

fj_field_desc fd(const char *name, size_t off, fj_field_type t, uint32_t flags, size_t has = NO,
                 const fj_record_desc *rec = nullptr, fj_field_type elem = FJ_FIELD_BOOL,
                 size_t elem_size = 0, const char *const *ev = nullptr, size_t ec = 0) {
  // the key's length measured once, here, as fj_field_desc.name_len suggests
  return fj_field_desc{name, off, t, flags, has, rec, elem, elem_size, ev, ec, nullptr,
                       std::strlen(name)};
}

template <size_t K> fj_record_desc rec(const char *name, size_t size, const fj_field_desc (&f)[K]) {
  return fj_record_desc{name, size, f, K, -1, -1};
}

#define OFF(T, m) offsetof(T, m)
const fj_field_desc flat_f[] = {
    fd("id", OFF(Flat, id), FJ_FIELD_UINT64, R),
    fd("name", OFF(Flat, name), FJ_FIELD_STRING, R),
    fd("active", OFF(Flat, active), FJ_FIELD_BOOL, R),
    fd("score", OFF(Flat, score), FJ_FIELD_DOUBLE, R),
    fd("count", OFF(Flat, count), FJ_FIELD_INT32, R),
    fd("balance", OFF(Flat, balance), FJ_FIELD_INT64, R),
    fd("email", OFF(Flat, email), FJ_FIELD_STRING, R),
    fd("ratio", OFF(Flat, ratio), FJ_FIELD_DOUBLE, R),
    fd("level", OFF(Flat, level), FJ_FIELD_ENUM, R, NO, nullptr, FJ_FIELD_BOOL, 0, flat_levels, 3),
    fd("nickname", OFF(Flat, nickname), FJ_FIELD_STRING, R | N, OFF(Flat, has_nickname)),
    fd("retries", OFF(Flat, retries), FJ_FIELD_INT32, 0, OFF(Flat, has_retries)),
    fd("verified", OFF(Flat, verified), FJ_FIELD_BOOL, 0, OFF(Flat, has_verified))};
const fj_record_desc flat_d = rec("Flat", sizeof(Flat), flat_f);

const fj_field_desc address_f[] = {fd("street", OFF(Address, street), FJ_FIELD_STRING, R),
                                   fd("city", OFF(Address, city), FJ_FIELD_STRING, R),
                                   fd("zip", OFF(Address, zip), FJ_FIELD_STRING, R),
                                   fd("country", OFF(Address, country), FJ_FIELD_STRING, R)};
const fj_record_desc address_d = rec("Address", sizeof(Address), address_f);
const fj_field_desc employee_f[] = {
    fd("id", OFF(Employee, id), FJ_FIELD_INT64, R),
    fd("name", OFF(Employee, name), FJ_FIELD_STRING, R),
    fd("title", OFF(Employee, title), FJ_FIELD_STRING, R),
    fd("salary", OFF(Employee, salary), FJ_FIELD_DOUBLE, R),
    fd("active", OFF(Employee, active), FJ_FIELD_BOOL, R),
    fd("skills", OFF(Employee, skills), FJ_FIELD_ARRAY, R, NO, nullptr, FJ_FIELD_STRING,
       sizeof(fj_str)),
    fd("address", OFF(Employee, address), FJ_FIELD_RECORD, R, NO, &address_d)};
const fj_record_desc employee_d = rec("Employee", sizeof(Employee), employee_f);
const fj_field_desc department_f[] = {
    fd("name", OFF(Department, name), FJ_FIELD_STRING, R),
    fd("budget", OFF(Department, budget), FJ_FIELD_DOUBLE, R),
    fd("employees", OFF(Department, employees), FJ_FIELD_ARRAY, R, NO, &employee_d,
       FJ_FIELD_RECORD, sizeof(Employee))};
const fj_record_desc department_d = rec("Department", sizeof(Department), department_f);
const fj_field_desc company_f[] = {
    fd("name", OFF(Company, name), FJ_FIELD_STRING, R),
    fd("founded", OFF(Company, founded), FJ_FIELD_INT32, R),
    fd("headquarters", OFF(Company, headquarters), FJ_FIELD_RECORD, R, NO, &address_d),
    fd("departments", OFF(Company, departments), FJ_FIELD_ARRAY, R, NO, &department_d,
       FJ_FIELD_RECORD, sizeof(Department))};
const fj_record_desc company_d = rec("Company", sizeof(Company), company_f);

// Document without meta.attributes (a map, which tables cannot describe;
// the payload has none, so the result is the same)
const fj_field_desc item_f[] = {fd("sku", OFF(Document_items_item, sku), FJ_FIELD_STRING, R),
                                fd("qty", OFF(Document_items_item, qty), FJ_FIELD_INT32, R),
                                fd("price", OFF(Document_items_item, price), FJ_FIELD_DOUBLE, R)};
const fj_record_desc item_d = rec("Document_items_item", sizeof(Document_items_item), item_f);
const fj_field_desc meta_f[] = {fd("author", OFF(Document_meta, author), FJ_FIELD_STRING, R),
                                fd("created", OFF(Document_meta, created), FJ_FIELD_INT64, R),
                                fd("tags", OFF(Document_meta, tags), FJ_FIELD_ARRAY, R, NO,
                                   nullptr, FJ_FIELD_STRING, sizeof(fj_str))};
const fj_record_desc meta_d = rec("Document_meta", sizeof(Document_meta), meta_f);
const fj_field_desc document_f[] = {
    fd("id", OFF(Document, id), FJ_FIELD_UINT64, R),
    fd("status", OFF(Document, status), FJ_FIELD_ENUM, R, NO, nullptr, FJ_FIELD_BOOL, 0,
       doc_statuses, 4),
    fd("meta", OFF(Document, meta), FJ_FIELD_RECORD, R, NO, &meta_d),
    fd("items", OFF(Document, items), FJ_FIELD_ARRAY, R, NO, &item_d, FJ_FIELD_RECORD,
       sizeof(Document_items_item)),
    fd("note", OFF(Document, note), FJ_FIELD_STRING, N, OFF(Document, has_note))};
const fj_record_desc document_d = rec("Document", sizeof(Document), document_f);

const fj_field_desc abc_f[] = {
#define X(name, kind)                                                                              \
  fd(#name, OFF(Abc, name), kind == 0 ? FJ_FIELD_INT64 : kind == 1 ? FJ_FIELD_STRING : FJ_FIELD_DOUBLE, R),
    ABC_FIELDS(X)
#undef X
};
const fj_record_desc abc_d = rec("Abc", sizeof(Abc), abc_f);

const fj_field_desc hashtag_f[] = {fd("text", OFF(Hashtag, text), FJ_FIELD_STRING, R),
                                   fd("indices", OFF(Hashtag, indices), FJ_FIELD_ARRAY, R, NO,
                                      nullptr, FJ_FIELD_INT32, sizeof(int32_t))};
const fj_record_desc hashtag_d = rec("Hashtag", sizeof(Hashtag), hashtag_f);
const fj_field_desc entities_f[] = {fd("hashtags", OFF(Status_entities, hashtags), FJ_FIELD_ARRAY,
                                       R, NO, &hashtag_d, FJ_FIELD_RECORD, sizeof(Hashtag))};
const fj_record_desc entities_d = rec("Status_entities", sizeof(Status_entities), entities_f);
const fj_field_desc user_f[] = {
    fd("id", OFF(User, id), FJ_FIELD_UINT64, R),
    fd("screen_name", OFF(User, screen_name), FJ_FIELD_STRING, R),
    fd("name", OFF(User, name), FJ_FIELD_STRING, R),
    fd("followers_count", OFF(User, followers_count), FJ_FIELD_INT64, R),
    fd("friends_count", OFF(User, friends_count), FJ_FIELD_INT64, R),
    fd("verified", OFF(User, verified), FJ_FIELD_BOOL, R),
    fd("location", OFF(User, location), FJ_FIELD_STRING, 0, OFF(User, has_location)),
    fd("lang", OFF(User, lang), FJ_FIELD_STRING, 0, OFF(User, has_lang))};
const fj_record_desc user_d = rec("User", sizeof(User), user_f);
const fj_field_desc status_f[] = {
    fd("id", OFF(Status, id), FJ_FIELD_UINT64, R),
    fd("text", OFF(Status, text), FJ_FIELD_STRING, R),
    fd("created_at", OFF(Status, created_at), FJ_FIELD_STRING, R),
    fd("user", OFF(Status, user), FJ_FIELD_RECORD, R, NO, &user_d),
    fd("entities", OFF(Status, entities), FJ_FIELD_RECORD, R, NO, &entities_d),
    fd("retweet_count", OFF(Status, retweet_count), FJ_FIELD_INT64, R),
    fd("favorited", OFF(Status, favorited), FJ_FIELD_BOOL, R),
    fd("in_reply_to_screen_name", OFF(Status, in_reply_to_screen_name), FJ_FIELD_STRING, N,
       OFF(Status, has_in_reply_to_screen_name))};
const fj_record_desc status_d = rec("Status", sizeof(Status), status_f);
const fj_field_desc twitter_f[] = {fd("statuses", OFF(Twitter, statuses), FJ_FIELD_ARRAY, R, NO,
                                      &status_d, FJ_FIELD_RECORD, sizeof(Status))};
const fj_record_desc twitter_d = rec("Twitter", sizeof(Twitter), twitter_f);
#undef OFF

// ---- the models ---------------------------------------------------------------------

template <class T> struct model;
#define MODEL(T, file, desc)                                                                       \
  template <> struct model<T> {                                                                    \
    static constexpr const char *name = file;                                                      \
    static const fj_record_desc *table() { return desc; }                                          \
    static fj_error read(fj_parser *p, const std::string &j, fj_arena *a, T *out,                  \
                         fj_decode_error *err) {                                                   \
      return fj_read_##T(p, j.data(), j.size(), a, 0, out, err);                                   \
    }                                                                                              \
    static fj_error write(fj_writer *w, const T *in) { return fj_write_##T(w, in); }               \
  };
MODEL(Flat, "flat", &flat_d)
MODEL(Company, "company", &company_d)
MODEL(Document, "document", &document_d)
MODEL(Expr, "expr_field", nullptr)
MODEL(Tree, "expr_nested", nullptr)
MODEL(Abc, "abc", &abc_d)
MODEL(Twitter, "twitter", &twitter_d)
#undef MODEL

struct parser_holder {
  fj_parser *p = nullptr;
  parser_holder() {
    if (fj_parser_new(&p, nullptr)) fjbench::fail("fj_parser_new");
  }
  ~parser_holder() { fj_parser_free(p); }
};

// fastjson-gen's reading of a model: the reference every other result must hash to.
template <class T> struct reference {
  fj_arena arena;
  T value;
  uint64_t exact, lossy;
  reference() {
    fj_arena_init(&arena, nullptr);
    fj_decode_error err;
    const std::string &j = payload(model<T>::name);
    if (model<T>::read(nullptr, j, &arena, &value, &err))
      fjbench::fail(std::string("fastjson-gen cannot read ") + model<T>::name + ": " + err.message);
    exact = hash_of(value, false);
    lossy = hash_of(value, true);
  }
  static const reference &get() {
    static reference r;
    return r;
  }
};

template <class T> void expect(const char *task, const char *lib, const T &x, bool lossy) {
  const reference<T> &r = reference<T>::get();
  if (hash_of(x, lossy) != (lossy ? r.lossy : r.exact))
    fjbench::fail(std::string(task) + "/" + lib + "/" + model<T>::name +
                  ": the result differs from fastjson-gen's");
}

// ---- read_struct -------------------------------------------------------------------

template <class T> bool gen_read(fj_parser *p, const std::string &j, fj_arena *a, T *out) {
  fj_decode_error err;
  return model<T>::read(p, j, a, out, &err) == FJ_OK;
}

template <class T> void read_gen(benchmark::State &state) {
  const std::string &j = payload(model<T>::name);
  parser_holder h;
  fj_arena a;
  fj_arena_init(&a, nullptr);
  T x;
  if (!gen_read(h.p, j, &a, &x)) fjbench::fail(std::string("fastjson-gen: ") + model<T>::name);
  expect("read_struct", "fastjson-gen", x, false);
  bool ok = true;
  for (auto _ : state) {
    fj_arena_reset(&a);
    ok &= gen_read(h.p, j, &a, &x);
    benchmark::DoNotOptimize(x);
  }
  if (!ok) fjbench::fail(std::string("fastjson-gen fails on ") + model<T>::name);
  expect("read_struct", "fastjson-gen", x, false);
  fj_arena_free(&a);
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(j.size()));
}

template <class T> void read_desc(benchmark::State &state) {
  const std::string &j = payload(model<T>::name);
  parser_holder h;
  fj_arena a;
  fj_arena_init(&a, nullptr);
  T x;
  fj_decode_error err;
  if (fj_desc_read(h.p, j.data(), j.size(), &a, 0, model<T>::table(), &x, &err))
    fjbench::fail(std::string("fj_desc_read: ") + err.message);
  expect("read_struct", "fastjson-desc", x, false);
  bool ok = true;
  for (auto _ : state) {
    fj_arena_reset(&a);
    ok &= fj_desc_read(h.p, j.data(), j.size(), &a, 0, model<T>::table(), &x, &err) == FJ_OK;
    benchmark::DoNotOptimize(x);
  }
  if (!ok) fjbench::fail(std::string("fj_desc_read fails on ") + model<T>::name);
  expect("read_struct", "fastjson-desc", x, false);
  fj_arena_free(&a);
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(j.size()));
}

#ifdef FJ_BENCH_SIMDJSON
template <class T>
bool sj_read(od::parser &parser, const simdjson::padded_string &j, fj_arena *a, T &x) {
  od::document doc;
  od::value root;
  return !parser.iterate(j).get(doc) && !doc.get_value().get(root) && rd<SJ>(root, a, x);
}

template <class T> void read_simdjson(benchmark::State &state) {
  const std::string &j = payload(model<T>::name);
  simdjson::padded_string padded(j);
  od::parser parser;
  fj_arena a;
  fj_arena_init(&a, nullptr);
  T x;
  if (!sj_read(parser, padded, &a, x)) fjbench::fail(std::string("simdjson: ") + model<T>::name);
  expect("read_struct", "simdjson", x, false);
  bool ok = true;
  for (auto _ : state) {
    fj_arena_reset(&a);
    ok &= sj_read(parser, padded, &a, x);
    benchmark::DoNotOptimize(x);
  }
  if (!ok) fjbench::fail(std::string("simdjson fails on ") + model<T>::name);
  expect("read_struct", "simdjson", x, false);
  fj_arena_free(&a);
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(j.size()));
}
#endif

#ifdef FJ_BENCH_RAPIDJSON
template <class T> bool rj_read(const std::string &j, fj_arena *a, T &x) {
  rapidjson::Document d;
  d.Parse(j.data(), j.size());
  if (d.HasParseError()) return false;
  RJ::val root = &d;
  return rd<RJ>(root, a, x);
}

template <class T> void read_rapidjson(benchmark::State &state) {
  const std::string &j = payload(model<T>::name);
  fj_arena a;
  fj_arena_init(&a, nullptr);
  T x;
  if (!rj_read(j, &a, x)) fjbench::fail(std::string("rapidjson: ") + model<T>::name);
  expect("read_struct", "rapidjson", x, false);
  bool ok = true;
  for (auto _ : state) {
    fj_arena_reset(&a);
    ok &= rj_read(j, &a, x);
    benchmark::DoNotOptimize(x);
  }
  if (!ok) fjbench::fail(std::string("rapidjson fails on ") + model<T>::name);
  expect("read_struct", "rapidjson", x, false);
  fj_arena_free(&a);
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(j.size()));
}
#endif

#ifdef FJ_BENCH_CJSON
template <class T> bool cj_read(const char *j, size_t n, fj_arena *a, T &x) {
  cJSON *root = cJSON_ParseWithLength(j, n);
  if (!root) return false;
  CJ::val v = root;
  bool ok = rd<CJ>(v, a, x);
  cJSON_Delete(root);
  return ok;
}

template <class T> void read_cjson(benchmark::State &state) {
  const std::string &j = payload(model<T>::name);
  fj_arena a;
  fj_arena_init(&a, nullptr);
  T x;
  if (!cj_read(j.data(), j.size(), &a, x)) fjbench::fail(std::string("cjson: ") + model<T>::name);
  expect("read_struct", "cjson", x, true);
  bool ok = true;
  for (auto _ : state) {
    fj_arena_reset(&a);
    ok &= cj_read(j.data(), j.size(), &a, x);
    benchmark::DoNotOptimize(x);
  }
  if (!ok) fjbench::fail(std::string("cjson fails on ") + model<T>::name);
  expect("read_struct", "cjson", x, true);
  fj_arena_free(&a);
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(j.size()));
}
#endif

// ---- write_struct ------------------------------------------------------------------

// Reads an output back with fastjson-gen and checks it against the reference.
template <class T> void expect_output(const char *lib, const char *json, size_t len) {
  fj_arena a;
  fj_arena_init(&a, nullptr);
  T y;
  fj_decode_error err;
  if (model<T>::read(nullptr, std::string(json, len), &a, &y, &err))
    fjbench::fail(std::string("write_struct/") + lib + "/" + model<T>::name +
                  ": output does not read back: " + err.message);
  expect("write_struct", lib, y, false);
  fj_arena_free(&a);
}

// the output size of fastjson-gen: bytes per second of every writer
template <class T> size_t output_size() {
  static size_t n = [] {
    fj_buffer b = {};
    fj_writer *w;
    if (fj_writer_new(&w, nullptr, fj_sink_buffer(&b)) ||
        model<T>::write(w, &reference<T>::get().value) || fj_writer_finish(w))
      fjbench::fail("fastjson-gen cannot write");
    fj_writer_free(w);
    size_t len = b.len;
    fj_buffer_free(&b);
    return len;
  }();
  return n;
}

template <class T, bool Desc> void write_fastjson(benchmark::State &state) {
  const T &x = reference<T>::get().value;
  const char *lib = Desc ? "fastjson-desc" : "fastjson-gen";
  fj_buffer b = {};
  fj_writer *w;
  if (fj_writer_new(&w, nullptr, fj_sink_buffer(&b))) fjbench::fail("fj_writer_new");
  bool ok = true;
  for (auto _ : state) {
    b.len = 0;
    fj_writer_reset(w, fj_sink_buffer(&b));
    fj_error e = Desc ? fj_desc_write(w, model<T>::table(), &x) : model<T>::write(w, &x);
    ok &= e == FJ_OK && fj_writer_finish(w) == FJ_OK;
    benchmark::DoNotOptimize(b.data);
    benchmark::ClobberMemory();
  }
  if (!ok) fjbench::fail(std::string(lib) + " cannot write " + model<T>::name);
  expect_output<T>(lib, reinterpret_cast<const char *>(b.data), b.len);
  fj_writer_free(w);
  fj_buffer_free(&b);
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(output_size<T>()));
}

#ifdef FJ_BENCH_RAPIDJSON
template <class T> void write_rapidjson(benchmark::State &state) {
  const T &x = reference<T>::get().value;
  rapidjson::StringBuffer sb;
  RW w(sb);
  for (auto _ : state) {
    sb.Clear();
    w.Reset(sb);
    wr(w, x);
    benchmark::DoNotOptimize(sb.GetString());
    benchmark::ClobberMemory();
  }
  if (!w.IsComplete()) fjbench::fail(std::string("rapidjson cannot write ") + model<T>::name);
  expect_output<T>("rapidjson", sb.GetString(), sb.GetSize());
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(output_size<T>()));
}
#endif

#ifdef FJ_BENCH_CJSON
template <class T> void write_cjson(benchmark::State &state) {
  const T &x = reference<T>::get().value;
  char *out = nullptr;
  for (auto _ : state) {
    cJSON_free(out);
    cJSON *tree = cj(x);
    out = cJSON_PrintUnformatted(tree);
    cJSON_Delete(tree);
    benchmark::DoNotOptimize(out);
  }
  // numbers went through doubles: read back with cJSON, compared as such
  fj_arena a;
  fj_arena_init(&a, nullptr);
  T y;
  if (!out || !cj_read(out, std::strlen(out), &a, y))
    fjbench::fail(std::string("write_struct/cjson: output does not read back: ") + model<T>::name);
  expect("write_struct", "cjson", y, true);
  fj_arena_free(&a);
  cJSON_free(out);
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(output_size<T>()));
}
#endif

template <class T> void register_model() {
  std::string m = model<T>::name;
  auto reg = [&](const char *task, const char *lib, void (*fn)(benchmark::State &)) {
    benchmark::RegisterBenchmark((std::string(task) + "/" + lib + "/" + m).c_str(), fn);
  };
  reg("read_struct", "fastjson-gen", read_gen<T>);
  if (model<T>::table()) reg("read_struct", "fastjson-desc", read_desc<T>);
#ifdef FJ_BENCH_SIMDJSON
  reg("read_struct", "simdjson", read_simdjson<T>);
#endif
#ifdef FJ_BENCH_RAPIDJSON
  reg("read_struct", "rapidjson", read_rapidjson<T>);
#endif
#ifdef FJ_BENCH_CJSON
  reg("read_struct", "cjson", read_cjson<T>);
#endif
  reg("write_struct", "fastjson-gen", write_fastjson<T, false>);
  if (model<T>::table()) reg("write_struct", "fastjson-desc", write_fastjson<T, true>);
#ifdef FJ_BENCH_RAPIDJSON
  reg("write_struct", "rapidjson", write_rapidjson<T>);
#endif
#ifdef FJ_BENCH_CJSON
  reg("write_struct", "cjson", write_cjson<T>);
#endif
}

void register_codec() {
  register_model<Flat>();
  register_model<Company>();
  register_model<Document>();
  register_model<Expr>();
  register_model<Tree>();
  register_model<Abc>();
  register_model<Twitter>();
}

fjbench::registrar reg_codec(register_codec);

} // namespace
