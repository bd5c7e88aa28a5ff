// The walks, checksums and cross-check shared by the cursor benchmarks
// (bench_ondemand.cpp: visit, query; bench_ndjson.cpp: document streams).
//
// A checksum is what a walk or query read: the sum of the numbers, the
// string lengths and sampled bytes, the value counts; the timed loops compute
// it. exact_checksum adds a hash of everything read, in order (each number's
// kind and bits, each string's every byte); it is computed before timing
// only. reference() has fastjson and simdjson read an input both ways and
// stops the program unless they agree; each row then checks its own first
// result against the agreed checksum.
#ifndef FJ_BENCH_WALK_HPP
#define FJ_BENCH_WALK_HPP

#include "corpus.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "fastjson.h"

#ifdef FJ_BENCH_SIMDJSON
#include <simdjson.h>
#endif

namespace fjbench {

// What a walk or query read. Numbers are summed as doubles in document
// order, so two libraries that read the same values get the same sum.
struct checksum {
  double num = 0;
  uint64_t ints = 0, doubles = 0, strings = 0, string_bytes = 0, byte_sum = 0, literals = 0,
           containers = 0;
  void int64(int64_t i) { ints++, num += double(i); }
  void uint64(uint64_t u) { doubles++, num += double(u); } // counted as doubles by both
  void dbl(double d) { doubles++, num += d; }
  void string(const char *s, size_t n) {
    strings++;
    string_bytes += n;
    if (n) byte_sum += uint8_t(s[0]) + 3u * uint8_t(s[n - 1]) + 7u * uint8_t(s[n / 2]);
  }
  void literal(unsigned weight) { literals += weight; }
  void container() { containers++; }
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

// The checksum plus a hash of everything read, in order: each number's kind
// and exact value, each string's every byte. Computed before timing only.
struct exact_checksum : checksum {
  uint64_t hash = 0xcbf29ce484222325u;
  void mix(uint64_t x) { hash = (hash ^ x) * 0x100000001b3u; }
  void int64(int64_t i) { checksum::int64(i), mix(1), mix(uint64_t(i)); }
  void uint64(uint64_t u) { checksum::uint64(u), mix(2), mix(u); }
  void dbl(double d) {
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    checksum::dbl(d), mix(3), mix(bits);
  }
  void string(const char *s, size_t n) {
    checksum::string(s, n), mix(4), mix(n);
    for (size_t i = 0; i < n; i++)
      mix(uint8_t(s[i]));
  }
  void literal(unsigned weight) { checksum::literal(weight), mix(5), mix(weight); }
  void container() { checksum::container(), mix(6); }
  bool operator==(const exact_checksum &o) const {
    return checksum::operator==(o) && hash == o.hash;
  }
  std::string str() const {
    char b[32];
    std::snprintf(b, sizeof b, " hash=%016llx", (unsigned long long)hash);
    return checksum::str() + b;
  }
};

// ---- fastjson --------------------------------------------------------------

// Doubles: every number read as a double (visit_double/), else as its kind.
template <bool Doubles, class C> bool fj_visit(const fj_value *v, C &c) {
  // the type the handle carries (inline, as simdjson's type() is); the
  // getters below check the handle
  switch (fj_value_type(v)) {
  case FJ_TYPE_ARRAY: {
    fj_array a;
    fj_value e;
    fj_error err;
    if (fj_value_get_array(v, &a)) return false;
    c.container();
    while ((err = fj_array_next(&a, &e)) == FJ_OK)
      if (!fj_visit<Doubles, C>(&e, c)) return false;
    return err == FJ_END;
  }
  case FJ_TYPE_OBJECT: {
    fj_object o;
    fj_value e;
    fj_error err;
    const char *s;
    size_t n;
    if (fj_value_get_object(v, &o)) return false;
    c.container();
    // the key unescaped as it is stepped over (simdjson: unescaped_key())
    while ((err = fj_object_next_key(&o, &s, &n, &e)) == FJ_OK) {
      c.string(s, n);
      if (!fj_visit<Doubles, C>(&e, c)) return false;
    }
    return err == FJ_END;
  }
  case FJ_TYPE_NUMBER: { // one call, as simdjson's get_number() below
    if (Doubles) {
      double d;
      if (fj_value_get_double(v, &d)) return false;
      c.dbl(d);
      return true;
    }
    fj_number num;
    if (fj_value_get_number(v, &num)) return false;
    switch (num.kind) {
    case FJ_NUMBER_INT64: c.int64(num.i); break;
    case FJ_NUMBER_UINT64: c.uint64(num.u); break;
    default: c.dbl(num.d); break;
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
    c.literal(b ? 2 : 1);
    return true;
  }
  case FJ_TYPE_NULL: {
    bool b;
    if (fj_value_is_null(v, &b) || !b) return false;
    c.literal(4);
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

#ifdef FJ_BENCH_SIMDJSON
namespace od = simdjson::ondemand;

template <bool Doubles, class C> bool sj_visit(od::value v, C &c);

template <bool Doubles, class C> bool sj_visit_array(od::array a, C &c) {
  c.container();
  for (auto e : a) {
    od::value v;
    if (std::move(e).get(v) || !sj_visit<Doubles, C>(v, c)) return false;
  }
  return true;
}

template <bool Doubles, class C> bool sj_visit_object(od::object o, C &c) {
  c.container();
  for (auto f : o) { // auto, not const auto &: get() consumes the result
    od::field fld;
    std::string_view k;
    if (std::move(f).get(fld) || fld.unescaped_key().get(k)) return false;
    c.string(k.data(), k.size());
    if (!sj_visit<Doubles, C>(fld.value(), c)) return false;
  }
  return true;
}

template <bool Doubles, class C> bool sj_visit(od::value v, C &c) {
  od::json_type t;
  if (v.type().get(t)) return false;
  switch (t) {
  case od::json_type::array: {
    od::array a;
    return !v.get_array().get(a) && sj_visit_array<Doubles, C>(a, c);
  }
  case od::json_type::object: {
    od::object o;
    return !v.get_object().get(o) && sj_visit_object<Doubles, C>(o, c);
  }
  case od::json_type::number: {
    if (Doubles) {
      double d;
      if (v.get_double().get(d)) return false;
      c.dbl(d);
      return true;
    }
    od::number n;
    if (v.get_number().get(n)) return false;
    switch (n.get_number_type()) {
    case od::number_type::signed_integer: c.int64(n.get_int64()); break;
    case od::number_type::unsigned_integer: c.uint64(n.get_uint64()); break;
    default: c.dbl(n.get_double()); break;
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
    c.literal(b ? 2 : 1);
    return true;
  }
  case od::json_type::null: {
    bool b;
    if (v.is_null().get(b) || !b) return false;
    c.literal(4);
    return true;
  }
  }
  return false;
}
#endif

// A task on one input for both libraries: the cheap and the exact checksum
// of each (fastjson's and simdjson's read of the same document).
struct reads {
  checksum cheap;
  exact_checksum exact;
};

// The checksum every row of `input` must compute, after fastjson's and
// simdjson's reads of it (fj(), sj(): their reads) were found to agree;
// once per input, by whichever of its rows runs first.
inline std::map<std::string, checksum> &agreed() {
  static std::map<std::string, checksum> known;
  return known;
}

template <class FJ, class SJ>
const checksum &reference(const std::string &input, FJ fj, [[maybe_unused]] SJ sj) {
  std::map<std::string, checksum> &known = agreed();
  auto it = known.find(input);
  if (it != known.end()) return it->second;
  reads a = fj();
#ifdef FJ_BENCH_SIMDJSON
  reads b = sj();
  if (!(a.cheap == b.cheap) || !(a.exact == b.exact))
    fjbench::fail("fastjson and simdjson read " + input + " differently:\n  fastjson: " +
                  a.exact.str() + "\n  simdjson: " + b.exact.str() +
                  "\n  (timed checksums: " + a.cheap.str() + " / " + b.cheap.str() + ")");
#endif
  return known[input] = a.cheap;
}

inline void expect(const char *lib, const std::string &input, const checksum &want, const checksum &got) {
  if (!(want == got))
    fjbench::fail(std::string(lib) + " reads " + input + " differently in its benchmark:\n  " +
                  got.str() + "\n  reference: " + want.str());
}

} // namespace fjbench

#endif
