/* Tests for src/write/dtoa.c (shortest round-trip doubles, Schubfach) with
 * glibc's printf and strtod as the oracles:
 *  - round trip: the text read back with strtod is the same double, bit for
 *    bit;
 *  - shortest: no decimal with fewer significant digits reads back to it.
 *    If any N-digit decimal reads back, the correctly rounded one "%.{N}g"
 *    does -- except where the rounding interval is lopsided (below a power
 *    of two), so there the N-digit decimals rounded down and up are both
 *    tried (glibc's printf honours fesetround). If N digits read back, N + 1
 *    do too. So for the data files and special values N is searched from 1
 *    to 17, and for the random patterns checking that D - 1 digits do not
 *    read back is the same proof of minimality;
 *  - closest: the digits equal the closest N-digit decimal that reads back
 *    (ties to even), found the same way;
 *  - notation: the text matches the JSON number grammar (RFC 8259 section 6)
 *    and the documented rule (fixed for exponents in [-6, 21), else 'e').
 * Inputs: every line of the parse-number-fxx/f64 files in FJ_DATA_DIR
 * ("HHHH HHHHHHHH HHHHHHHHHHHHHHHH decimal": the 3rd column is the f64 bit
 * pattern), special values, and 10 million random bit patterns (fixed-seed
 * splitmix64). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <fenv.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fastjson/writer.h"
#include "test_util.h"
#include "write/dtoa.h"

#ifndef FJ_DATA_DIR
#define FJ_DATA_DIR "data"
#endif

/* splitmix64 (Steele, Lea, Flood 2014): a reproducible PRNG. */
static uint64_t rng_state = UINT64_C(0x5DEECE66D2545F49);
static uint64_t rng(void) {
  uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static double from_bits(uint64_t b) {
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}
static uint64_t to_bits(double d) {
  uint64_t b;
  memcpy(&b, &d, sizeof b);
  return b;
}
static bool is_finite_bits(uint64_t b) { return ((b >> 52) & 0x7FF) != 0x7FF; }

/* The n-significant-digit decimal of |v| rounded in the current rounding
 * mode, printed by glibc (which honours the mode) as "%.{n-1}e". */
static void print_digits(double v, int n, char *buf, size_t cap) {
  snprintf(buf, cap, "%.*e", n - 1, fabs(v));
}

static bool reads_back(const char *s, double v) {
  return to_bits(strtod(s, NULL)) == to_bits(fabs(v));
}

/* Below a power of two the lower neighbour is twice as close as the upper
 * one: the rounding interval is lopsided there, and the nearest n-digit
 * decimal can lie outside it while the other neighbour lies inside. */
static bool lopsided(uint64_t bits) {
  return (bits & ((UINT64_C(1) << 52) - 1)) == 0 && ((bits >> 52) & 0x7FF) > 1;
}

/* The n-digit decimal that reads back to v and is closest to it, into
 * `out`; false if no n-digit decimal reads back to v. Any such decimal lies
 * between v's neighbours below and above it with n digits (the rounding
 * interval is convex and holds v), so those two -- rounded down and up --
 * are the only candidates; the nearest of them wins when it reads back, as
 * it is then the closest at all (ties: glibc rounds to even, as Schubfach). */
static bool closest_n_digits(double v, uint64_t bits, int n, char *out, size_t cap) {
  print_digits(v, n, out, cap);
  if (reads_back(out, v)) return true;
  if (!lopsided(bits)) return false; /* symmetric: the farther one is out too */
  char down[400], up[400];
  fesetround(FE_DOWNWARD);
  print_digits(v, n, down, sizeof down);
  fesetround(FE_UPWARD);
  print_digits(v, n, up, sizeof up);
  fesetround(FE_TONEAREST);
  const char *other = strcmp(out, down) == 0 ? up : down;
  if (!reads_back(other, v)) return false;
  snprintf(out, cap, "%s", other);
  return true;
}

static int digit_count(uint64_t d) {
  int n = 1;
  while (d >= 10) {
    d /= 10;
    n++;
  }
  return n;
}

/* The JSON number grammar, and our notation rule: fixed iff the decimal
 * exponent x is in [-6, 21), an integral fixed number ends in ".0". */
static bool json_number_ok(const char *s, int x) {
  const char *p = s;
  if (*p == '-') p++;
  if (*p == '0') {
    p++;
  } else {
    if (!(*p >= '1' && *p <= '9')) return false;
    while (isdigit((unsigned char)*p))
      p++;
  }
  bool frac = false, exp = false;
  if (*p == '.') {
    p++;
    if (!isdigit((unsigned char)*p)) return false;
    while (isdigit((unsigned char)*p))
      p++;
    frac = true;
  }
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-') p++;
    if (!isdigit((unsigned char)*p)) return false;
    while (isdigit((unsigned char)*p))
      p++;
    exp = true;
  }
  if (*p) return false;
  bool fixed = x >= -6 && x < 21;
  return fixed ? (!exp && frac) : exp;
}

/* The text of -1^neg * d * 10^(x - digits + 1) by the documented rule,
 * made independently of dtoa.c's printing: fixed notation for x in
 * [-6, 21) ("0.00ddd", "dd.ddd", "ddd00.0"), else d[.ddd]e[-]x. */
static void layout(char *out, int neg, uint64_t d, int x) {
  char dig[24];
  int n = snprintf(dig, sizeof dig, "%" PRIu64, d);
  char *p = out;
  if (neg) *p++ = '-';
  if (x >= 0 && x < 21 && n <= x + 1)
    sprintf(p, "%s%.*s.0", dig, x + 1 - n, "000000000000000000000");
  else if (x >= 0 && x < 21)
    sprintf(p, "%.*s.%s", x + 1, dig, dig + x + 1);
  else if (x < 0 && x >= -6)
    sprintf(p, "0.%.*s%s", -x - 1, "000000", dig);
  else if (n > 1)
    sprintf(p, "%c.%se%d", dig[0], dig + 1, x);
  else
    sprintf(p, "%ce%d", dig[0], x);
}

typedef struct stats {
  uint64_t checked, mismatches;
} stats;

/* Checks one double; `full`: search the shortest %.{N}g from 1 and compare
 * digits with the correctly rounded ones, else only test N - 1. */
static void check(uint64_t bits, bool full, stats *st) {
  if (!is_finite_bits(bits)) return;
  double v = from_bits(bits);
  char buf[FJ_DTOA_BUF + 8];
  memset(buf, 'x', sizeof buf);
  size_t len = fj__dtoa(buf, v);
  bool ok = len > 0 && len <= 25;
  buf[len] = 0;
  st->checked++;
  char *end;
  double back = strtod(buf, &end);
  ok = ok && *end == 0 && to_bits(back) == bits;
  int digits = 1, x = 0;
  uint64_t d = 0;
  int e = 0;
  if ((bits << 1) != 0) {
    fj__dtoa_decimal(v, &d, &e);
    digits = digit_count(d);
    x = e + digits - 1;
    ok = ok && d % 10 != 0 && digits <= 17;
    char ref[400];
    if (full) { /* the shortest length and the closest digits, searched from 1 */
      int shortest = 1;
      while (shortest < 17 && !closest_n_digits(v, bits, shortest, ref, sizeof ref))
        shortest++;
      if (shortest == 17) closest_n_digits(v, bits, 17, ref, sizeof ref);
      ok = ok && digits == shortest;
      uint64_t rd = 0;
      for (const char *p = ref; *p && *p != 'e'; p++)
        if (isdigit((unsigned char)*p)) rd = rd * 10 + (uint64_t)(*p - '0');
      int rx = atoi(strchr(ref, 'e') + 1);
      while (rd % 10 == 0 && rd)
        rd /= 10;
      ok = ok && rd == d && rx == x;
    } else { /* minimal: no decimal with one digit fewer reads back */
      ok = ok && (digits == 1 || !closest_n_digits(v, bits, digits - 1, ref, sizeof ref));
    }
  }
  ok = ok && json_number_ok(buf, x);
  if ((bits << 1) != 0) { /* and the exact text, laid out from those digits */
    char want[64];
    layout(want, bits >> 63, d, x);
    ok = ok && strcmp(buf, want) == 0;
  }
  if (!ok) {
    if (st->mismatches < 20)
      print_message("mismatch: bits %016" PRIx64 " (%.17g) -> \"%s\" digits %" PRIu64 " e%d\n",
                    bits, v, buf, d, e);
    st->mismatches++;
  }
}

/* The f64 bit pattern of a data line: fxx files hold
 * "HHHH HHHHHHHH HHHHHHHHHHHHHHHH decimal" (f16, f32, f64), f64 files
 * "HHHHHHHHHHHHHHHH decimal". */
static bool parse_bits(const char *line, uint64_t *bits) {
  char tok[3][64];
  int n = sscanf(line, "%63s %63s %63s", tok[0], tok[1], tok[2]);
  const char *hex = NULL;
  if (n == 3 && strlen(tok[0]) == 4 && strlen(tok[1]) == 8 && strlen(tok[2]) == 16)
    hex = tok[2];
  else if (n >= 2 && strlen(tok[0]) == 16)
    hex = tok[0];
  if (!hex || strspn(hex, "0123456789abcdefABCDEF") != 16) return false;
  *bits = strtoull(hex, NULL, 16);
  return true;
}

/* Every line of every file of the data folder's numbers/fxx and f64. */
static void test_data_files(void **state) {
  (void)state;
  const char *dirs[] = {FJ_DATA_DIR "/numbers/fxx", FJ_DATA_DIR "/numbers/f64"};
  stats st = {0, 0};
  size_t files = 0, lines = 0;
  for (size_t di = 0; di < 2; di++) {
    size_t count;
    char **names = fj_test_list_dir(dirs[di], ".txt", &count);
    for (size_t i = 0; i < count; i++) {
      char path[1024];
      snprintf(path, sizeof path, "%s/%s", dirs[di], names[i]);
      FILE *f = fopen(path, "r");
      assert_non_null(f);
      files++;
      char line[4096];
      while (fgets(line, sizeof line, f)) {
        uint64_t bits;
        if (!parse_bits(line, &bits)) continue;
        lines++;
        check(bits, true, &st);
      }
      fclose(f);
    }
    fj_test_free_list(names, count);
  }
  if (files == 0) {
    print_message("no number files under %s/numbers; skipped\n", FJ_DATA_DIR);
    skip();
  }
  print_message("data files: %zu files, %zu lines, %" PRIu64 " finite doubles checked, %" PRIu64
                " mismatches\n",
                files, lines, st.checked, st.mismatches);
  assert_int_equal(st.mismatches, 0);
}

static void expect_text(double v, const char *want) {
  char buf[FJ_DTOA_BUF + 1];
  size_t n = fj__dtoa(buf, v);
  buf[n] = 0;
  if (strcmp(buf, want) != 0) print_message("%.17g: got \"%s\", want \"%s\"\n", v, buf, want);
  assert_string_equal(buf, want);
}

static void test_notation(void **state) {
  (void)state;
  expect_text(0.0, "0.0");
  expect_text(-0.0, "-0.0");
  expect_text(1.0, "1.0");
  expect_text(-1.0, "-1.0");
  expect_text(0.1, "0.1");
  expect_text(0.3, "0.3");
  expect_text(2.0 / 3.0, "0.6666666666666666");
  expect_text(123.456, "123.456");
  expect_text(-65.613617, "-65.613617");
  expect_text(-65.613616999999977, "-65.61361699999998");
  expect_text(1e20, "100000000000000000000.0");
  expect_text(123456789012345680.0, "123456789012345680.0");
  expect_text(1e21, "1e21");
  expect_text(1.5e21, "1.5e21");
  expect_text(1e-6, "0.000001");
  expect_text(1.25e-6, "0.00000125");
  expect_text(1e-7, "1e-7");
  expect_text(-1.5e-7, "-1.5e-7");
  expect_text(5e-324, "5e-324");
  expect_text(1e-323, "1e-323");
  expect_text(DBL_MIN, "2.2250738585072014e-308");
  expect_text(DBL_MAX, "1.7976931348623157e308");
  expect_text(-DBL_MAX, "-1.7976931348623157e308");
  expect_text(9007199254740992.0, "9007199254740992.0");
  expect_text(9007199254740993.0, "9007199254740992.0"); /* 2^53 + 1 rounds to 2^53 */
  expect_text(1e23, "1e23");
  expect_text(5e-7, "5e-7");
  expect_text(4.35, "4.35");
  /* the public wrapper */
  char b[FJ_DOUBLE_MAX_CHARS];
  size_t n;
  assert_int_equal(fj_format_double(2.5, b, sizeof b, &n), FJ_OK);
  assert_int_equal(n, 3);
  assert_memory_equal(b, "2.5", 3);
  assert_int_equal(fj_format_double(NAN, b, sizeof b, &n), FJ_ERR_NUMBER_RANGE);
  assert_int_equal(fj_format_double(INFINITY, b, sizeof b, &n), FJ_ERR_NUMBER_RANGE);
  assert_int_equal(fj_format_double(1.0, b, 8, &n), FJ_ERR_BUFFER_TOO_SMALL);
  assert_int_equal(fj_format_double(1.0, NULL, 32, &n), FJ_ERR_INVALID_ARG);
  /* errors write nothing: neither the buffer nor the length */
  memset(b, 'x', sizeof b);
  n = 77;
  assert_int_equal(fj_format_double(NAN, b, sizeof b, &n), FJ_ERR_NUMBER_RANGE);
  assert_int_equal(fj_format_double(1.0, b, FJ_DOUBLE_MAX_CHARS - 1, &n), FJ_ERR_BUFFER_TOO_SMALL);
  assert_int_equal(n, 77);
  for (size_t i = 0; i < sizeof b; i++)
    assert_int_equal(b[i], 'x');
}

/* +-0, subnormals (the smallest 200000 exhaustively, the largest, random
 * ones), DBL_MIN/DBL_MAX and their neighbours, every power of ten and of two
 * and their neighbours, integers up to 2^53. */
static void test_special(void **state) {
  (void)state;
  stats st = {0, 0};
  check(0, true, &st);
  check(UINT64_C(1) << 63, true, &st);
  for (uint64_t t = 1; t <= 200000; t++)
    check(t, true, &st);
  for (uint64_t t = 0; t < 1000; t++)
    check((UINT64_C(1) << 52) - 1 - t, true, &st);
  for (int i = 0; i < 100000; i++)
    check(rng() & ((UINT64_C(1) << 52) - 1), true, &st);
  const double edges[] = {DBL_MIN, DBL_MAX, DBL_EPSILON, 1.0, 2.0};
  for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
    for (int delta = -3; delta <= 3; delta++) {
      uint64_t b = to_bits(edges[i]) + (uint64_t)(int64_t)delta;
      check(b, true, &st);
      check(b | (UINT64_C(1) << 63), true, &st);
    }
  for (int p = -324; p <= 308; p++) { /* powers of ten, as strtod reads them */
    char s[16];
    snprintf(s, sizeof s, "1e%d", p);
    uint64_t b = to_bits(strtod(s, NULL));
    for (int delta = -2; delta <= 2; delta++)
      check(b + (uint64_t)(int64_t)delta, true, &st);
  }
  for (uint64_t e = 1; e < 2047; e++) /* powers of two: the irregular spacing below them */
    for (int delta = -2; delta <= 2; delta++)
      check((e << 52) + (uint64_t)(int64_t)delta, true, &st);
  for (uint64_t i = 0; i <= 100000; i++)
    check(to_bits((double)i), true, &st);
  for (int i = 0; i < 100000; i++) { /* random integers below 2^53 */
    uint64_t n = rng() >> (11 + rng() % 53);
    check(to_bits((double)n), true, &st);
  }
  print_message("special values: %" PRIu64 " doubles checked, %" PRIu64 " mismatches\n", st.checked,
                st.mismatches);
  assert_int_equal(st.mismatches, 0);
}

/* 10 million random bit patterns (every exponent equally likely). */
static void test_random(void **state) {
  (void)state;
  const char *kernel = getenv("FASTJSON_KERNEL");
  if (kernel && *kernel && strcmp(kernel, "auto") != 0) {
    print_message("dtoa does not use stage 1: the random run is left to the default test\n");
    skip();
  }
  stats st = {0, 0};
  uint64_t n = 10000000;
  const char *env = getenv("FJ_DTOA_RANDOM");
  if (env) n = strtoull(env, NULL, 10);
  uint64_t skipped = 0;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t b = rng();
    if (!is_finite_bits(b)) {
      skipped++;
      continue;
    }
    check(b, false, &st);
  }
  print_message("random: %" PRIu64 " bit patterns, %" PRIu64 " finite doubles checked, %" PRIu64
                " mismatches (%" PRIu64 " NaN/inf patterns skipped)\n",
                n, st.checked, st.mismatches, skipped);
  assert_int_equal(st.mismatches, 0);
}

/* Short decimals below 1 (k / 10^j: 1 to 9 significant digits, 0 to 8
 * zeros after the point; marine_ik's kind of numbers), which fj__dtoa
 * strips and prints without branches on their length. */
static void test_short_below_one(void **state) {
  (void)state;
  stats st = {0, 0};
  double pow10 = 1;
  for (int j = 1; j <= 9; j++) {
    pow10 *= 10;
    for (uint64_t i = 0; i < 100000; i++) {
      uint64_t k = 1 + rng() % (uint64_t)(pow10 - 1); /* fewer digits too */
      double v = (double)k / pow10;
      check(to_bits(v), false, &st);
      check(to_bits(-v), false, &st);
      check(to_bits(v) + 1, false, &st); /* neighbours: up to 17 digits */
    }
  }
  print_message("short below one: %" PRIu64 " checked, %" PRIu64 " mismatches\n", st.checked,
                st.mismatches);
  assert_int_equal(st.mismatches, 0);
}

/* Decimals below 2^32 with 0 to 6 places, as strtod reads them (prices,
 * coordinates: the printer's six-places path), their neighbours (which it
 * must turn away) and their negatives: each checked against strtod and
 * laid out from Schubfach's digits (fj__dtoa_decimal, the other path). */
static void test_six_places(void **state) {
  (void)state;
  stats st = {0, 0};
  for (int places = 0; places <= 6; places++) {
    for (uint64_t i = 0; i < 100000; i++) {
      uint32_t ip = (uint32_t)(rng() >> (i % 2 ? 32 : 50)); /* large and small integer parts */
      uint32_t f = (uint32_t)(rng() % 1000000u);
      char text[40];
      snprintf(text, sizeof text, "%u.%06u", ip, f);
      text[strlen(text) - (size_t)(6 - places)] = 0; /* keep `places` places */
      uint64_t b = to_bits(strtod(text, NULL));
      check(b, false, &st);
      check(b | UINT64_C(1) << 63, false, &st);
      check(b + 1, false, &st);
      if (b) check(b - 1, false, &st);
    }
  }
  print_message("six places: %" PRIu64 " checked, %" PRIu64 " mismatches\n", st.checked,
                st.mismatches);
  assert_int_equal(st.mismatches, 0);
}

/* The bits strtod reads from a random decimal of m significant digits
 * (the first not 0) whose first digit is at 10^x. */
static uint64_t random_decimal(int m, int x) {
  uint64_t k = 0;
  for (int j = 0; j < m; j++)
    k = k * 10 + (uint64_t)(j == 0 ? 1 + rng() % 9 : rng() % 10);
  char s[48];
  snprintf(s, sizeof s, "%" PRIu64 "e%d", k, x - m + 1);
  return to_bits(strtod(s, NULL));
}

/* Decimals below 1 of 1 to 16 significant digits (those of up to 14 or
 * 15 take the printer's short-decimal tests, of 12 then of 15 digits:
 * mesh's %.12g coordinates), at every decimal exponent the tests cover and
 * past it, as strtod reads them; their neighbours, which the tests must
 * turn away; and the decimals next to each power of ten, where the places
 * they pick change.
 * Every eighth, and every one next to a power of ten, is checked in full
 * against the shortest %.{N}g that reads back. */
static void test_short_decimals(void **state) {
  (void)state;
  stats st = {0, 0};
  for (int m = 1; m <= 16; m++)
    for (int x = -12; x <= -1; x++)
      for (int i = 0; i < 2000; i++) {
        uint64_t b = random_decimal(m, x);
        check(b, i % 8 == 0, &st);
        check(b + 1, false, &st);
        check(b - 1, false, &st);
      }
  for (int x = -12; x <= 0; x++) /* 10^x - j 10^(x-15) and + j 10^(x-14), j < 1000 */
    for (int j = 0; j < 1000; j++) {
      char s[48];
      snprintf(s, sizeof s, "%" PRId64 "e%d", INT64_C(1000000000000000) - j, x - 15);
      check(to_bits(strtod(s, NULL)), true, &st);
      snprintf(s, sizeof s, "%" PRId64 "e%d", INT64_C(100000000000000) + j, x - 14);
      check(to_bits(strtod(s, NULL)), true, &st);
      /* the same for 12 digits, where the printer first tries 12 */
      snprintf(s, sizeof s, "%" PRId64 "e%d", INT64_C(1000000000000) - j, x - 12);
      check(to_bits(strtod(s, NULL)), true, &st);
      snprintf(s, sizeof s, "%" PRId64 "e%d", INT64_C(100000000000) + j, x - 11);
      check(to_bits(strtod(s, NULL)), true, &st);
    }
  print_message("short decimals: %" PRIu64 " checked, %" PRIu64 " mismatches\n", st.checked,
                st.mismatches);
  assert_int_equal(st.mismatches, 0);
}

/* Decimals of 1 to 17 significant digits at every decimal exponent x from
 * -9 to 23, as strtod reads them: each layout of the notation rule (and
 * each of the printer's cases: the digits' count against x + 1, integers
 * past 17 digits, points after 1 to 16 digits, zeros after "0."). */
static void test_layouts(void **state) {
  (void)state;
  stats st = {0, 0};
  for (int m = 1; m <= 17; m++)
    for (int x = -9; x <= 23; x++)
      for (int i = 0; i < 400; i++) {
        uint64_t b = random_decimal(m, x);
        check(b, false, &st);
        check(b | (UINT64_C(1) << 63), false, &st);
      }
  print_message("layouts: %" PRIu64 " checked, %" PRIu64 " mismatches\n", st.checked,
                st.mismatches);
  assert_int_equal(st.mismatches, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_short_below_one), cmocka_unit_test(test_six_places),
      cmocka_unit_test(test_short_decimals),  cmocka_unit_test(test_layouts),
      cmocka_unit_test(test_notation),        cmocka_unit_test(test_special),
      cmocka_unit_test(test_data_files),      cmocka_unit_test(test_random),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
