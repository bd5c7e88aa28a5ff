/* Tests for src/ondemand/number.c against outside oracles:
 *  - the parse-number-fxx / parse-number-f64 test vectors in FJ_DATA_DIR
 *    (expected bit patterns computed by other, correctly rounded parsers);
 *  - glibc strtod / strtoll / strtoull on random inputs (fixed-seed PRNG);
 *  - the RFC 8259 grammar, via a small independent matcher written here.
 * The entry points call the active kernel's build of the conversion (on
 * x86-64 the avx2 and avx512 kernels have their own): CMake runs this file
 * once per kernel (FASTJSON_KERNEL), and test_kernel_variants compares every
 * supported kernel's build with strtod in any one run.
 * Every input is copied to a malloc'ed buffer of exactly its length, so
 * AddressSanitizer catches any read at or past `end`.
 */
#define _POSIX_C_SOURCE 200809L /* strdup, opendir under -std=c11 */
#include <dirent.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "ondemand/number.h"
#include "ondemand/number_tables.h"
#include "scan/stage1.h"

#ifndef FJ_DATA_DIR
#define FJ_DATA_DIR "data"
#endif

/* ---------------------------------------------------------------------- */
/* Helpers                                                                */
/* ---------------------------------------------------------------------- */

/* splitmix64 (Steele, Lea, Flood 2014): a reproducible PRNG. */
static uint64_t rng_state = UINT64_C(0x243F6A8885A308D3);
static uint64_t rng(void) {
  uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}
static unsigned rng_below(unsigned n) { return (unsigned)(rng() % n); }

static uint64_t dbits(double d) {
  uint64_t b;
  memcpy(&b, &d, sizeof b);
  return b;
}

/* Exact-size heap copies so that ASan flags reads past the end. */
static fj_error parse_double_str(const char *s, double *out, size_t *len) {
  size_t n = strlen(s);
  uint8_t *buf = malloc(n ? n : 1);
  assert_non_null(buf);
  memcpy(buf, s, n);
  fj_error e = fj__parse_double(buf, buf + n, out, len);
  free(buf);
  return e;
}
static fj_error scan_str(const char *s, size_t *len, int *is_int) {
  size_t n = strlen(s);
  uint8_t *buf = malloc(n ? n : 1);
  assert_non_null(buf);
  memcpy(buf, s, n);
  fj_error e = fj__number_scan(buf, buf + n, len, is_int);
  free(buf);
  return e;
}
static fj_error parse_i64_str(const char *s, int64_t *out, size_t *len) {
  size_t n = strlen(s);
  uint8_t *buf = malloc(n ? n : 1);
  assert_non_null(buf);
  memcpy(buf, s, n);
  fj_error e = fj__parse_int64(buf, buf + n, out, len);
  free(buf);
  return e;
}
static fj_error parse_u64_str(const char *s, uint64_t *out, size_t *len) {
  size_t n = strlen(s);
  uint8_t *buf = malloc(n ? n : 1);
  assert_non_null(buf);
  memcpy(buf, s, n);
  fj_error e = fj__parse_uint64(buf, buf + n, out, len);
  free(buf);
  return e;
}

/* Independent grammar matcher, written as the RFC's ABNF rules:
 * number = [ minus ] int [ frac ] [ exp ]. Returns 1 when the whole string
 * matches. */
static int match_digits(const char **s, int min) {
  int n = 0;
  while (**s >= '0' && **s <= '9')
    (*s)++, n++;
  return n >= min;
}
static int match_int(const char **s) {
  if (**s == '0') return (*s)++, 1;
  if (**s < '1' || **s > '9') return 0;
  return match_digits(s, 1);
}
static int json_number_ok(const char *s) {
  if (*s == '-') s++;
  if (!match_int(&s)) return 0;
  if (*s == '.' && (s++, !match_digits(&s, 1))) return 0;
  if (*s == 'e' || *s == 'E') {
    s++;
    if (*s == '+' || *s == '-') s++;
    if (!match_digits(&s, 1)) return 0;
  }
  return *s == '\0';
}

/* strtod as the oracle: returns FJ_OK or FJ_ERR_NUMBER_RANGE (overflow). */
static fj_error oracle_double(const char *s, double *out) {
  errno = 0;
  char *endp;
  *out = strtod(s, &endp);
  assert_true(*endp == '\0');
  if (errno == ERANGE && isinf(*out)) return FJ_ERR_NUMBER_RANGE;
  return FJ_OK;
}

static long mismatches;

/* Parses s followed by 8 random bytes that cannot continue a number (so the
 * 8-bytes-at-a-time digit loop also sees real delimiters and high bytes). */
static fj_error parse_double_padded(const char *s, double *out, size_t *len) {
  static const char stop[] = ",]} \t\r\nx\":/\xfa\xff\x80";
  size_t n = strlen(s);
  uint8_t *buf = malloc(n + 8);
  assert_non_null(buf);
  memcpy(buf, s, n);
  for (int i = 0; i < 8; i++)
    buf[n + i] = (uint8_t)stop[rng_below(sizeof stop - 1)];
  fj_error e = fj__parse_double(buf, buf + n + 8, out, len);
  free(buf);
  return e;
}

/* Parses s followed by `follow` and then spaces up to 32 bytes past s:
 * room for the short-decimal path, which wants 24 readable bytes. */
static fj_error parse_double_roomy(const char *s, const char *follow, double *out, size_t *len) {
  size_t n = strlen(s), f = strlen(follow);
  uint8_t *buf = malloc(n + 32);
  assert_non_null(buf);
  assert_true(f <= 32);
  memcpy(buf, s, n);
  memset(buf + n, ' ', 32);
  memcpy(buf + n, follow, f);
  fj_error e = fj__parse_double(buf, buf + n + 32, out, len);
  free(buf);
  return e;
}

/* Compares our parse of s with strtod. Returns 1 on agreement. */
static int check_vs_strtod(const char *s) {
  double want, got = 0;
  size_t len = 0;
  fj_error ew = oracle_double(s, &want);
  fj_error eg = parse_double_str(s, &got, &len);
  int ok = ew == eg && len == strlen(s) && (eg != FJ_OK || dbits(got) == dbits(want));
  double got2 = 0;
  size_t len2 = 0;
  ok = ok && parse_double_padded(s, &got2, &len2) == eg && len2 == len && dbits(got2) == dbits(got);
  static const char *const follow[] = {",", "}", "]", " ", "\n", "x"};
  got2 = 0, len2 = 0;
  ok = ok && parse_double_roomy(s, follow[rng_below(6)], &got2, &len2) == eg && len2 == len &&
       dbits(got2) == dbits(got);
  if (!ok && mismatches++ < 20)
    printf("MISMATCH %s: got %s %016" PRIX64 " want %s %016" PRIX64 "\n", s, fj_error_name(eg),
           dbits(got), fj_error_name(ew), dbits(want));
  return ok;
}

/* ---------------------------------------------------------------------- */
/* 1. Test vectors from the data folder                                   */
/* ---------------------------------------------------------------------- */

/* Rewrites a non-JSON decimal from the vectors into JSON form when that is
 * a plain spelling change (".5" -> "0.5", "1.e2" -> "1.0e2"). */
static void jsonify(const char *s, char *out, size_t cap) {
  size_t o = 0;
  if (*s == '.') out[o++] = '0';
  for (; *s && o + 2 < cap; s++) {
    out[o++] = *s;
    if (*s == '.' && !(s[1] >= '0' && s[1] <= '9')) out[o++] = '0';
  }
  out[o] = '\0';
}

typedef struct vec_counts {
  long checked, rewritten, skipped, bad;
} vec_counts;

/* Checks one vector: decimal text s, expected bits. */
static void check_vector(const char *s, uint64_t want, vec_counts *c) {
  size_t len;
  int is_int;
  char json[1200];
  const char *text = s;
  if (!json_number_ok(s)) {
    if (scan_str(s, &len, &is_int) != FJ_ERR_BAD_NUMBER) {
      c->bad++;
      printf("grammar: accepted non-JSON %s\n", s);
    }
    jsonify(s, json, sizeof json);
    if (!json_number_ok(json)) {
      c->skipped++;
      return;
    }
    text = json;
    c->rewritten++;
  }
  for (int neg = 0; neg < 2; neg++) {
    char buf[1300];
    snprintf(buf, sizeof buf, "%s%s", neg ? "-" : "", text);
    double got = 0, got2 = 0;
    size_t len2 = 0;
    fj_error e = parse_double_str(buf, &got, &len);
    uint64_t w = want | ((uint64_t)neg << 63);
    int ok = parse_double_padded(buf, &got2, &len2) == e && len2 == len &&
             dbits(got2) == dbits(got) && len == strlen(buf) &&
             (want == UINT64_C(0x7FF0000000000000) ? e == FJ_ERR_NUMBER_RANGE
                                                   : e == FJ_OK && dbits(got) == w);
    if (!ok) {
      if (c->bad++ < 20)
        printf("vector %s: got %s %016" PRIX64 " want %016" PRIX64 "\n", buf, fj_error_name(e),
               dbits(got), w);
    }
  }
  c->checked++;
}

/* Parses a line "HEX... HEX decimal": the f64 bits are the second-to-last
 * field in both file formats. */
static int parse_line(char *line, uint64_t *bits, char **dec) {
  char *f[4];
  int n = 0;
  for (char *tok = strtok(line, " \r\n"); tok && n < 4; tok = strtok(NULL, " \r\n"))
    f[n++] = tok;
  if (n < 2) return 0;
  *bits = strtoull(f[n - 2], NULL, 16);
  *dec = f[n - 1];
  return 1;
}

static void check_vector_file(const char *path, const char *name) {
  FILE *fp = fopen(path, "r");
  assert_non_null(fp);
  static char line[4096];
  vec_counts c = {0, 0, 0, 0};
  while (fgets(line, sizeof line, fp)) {
    uint64_t bits;
    char *dec;
    if (parse_line(line, &bits, &dec)) check_vector(dec, bits, &c);
  }
  fclose(fp);
  printf("  %-45s %6ld checked (%ld rewritten to JSON form), %ld skipped, %ld mismatches\n", name,
         c.checked, c.rewritten, c.skipped, c.bad);
  assert_int_equal(c.bad, 0);
  assert_true(c.checked > 0);
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int check_vector_dir(const char *sub) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/numbers/%s", FJ_DATA_DIR, sub);
  DIR *d = opendir(dir);
  if (!d) return 0;
  char *names[64];
  int n = 0;
  for (struct dirent *de; (de = readdir(d)) != NULL && n < 64;) {
    size_t l = strlen(de->d_name);
    if (l > 4 && strcmp(de->d_name + l - 4, ".txt") == 0) names[n++] = strdup(de->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof names[0], cmp_names);
  for (int i = 0; i < n; i++) {
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    check_vector_file(path, names[i]);
    free(names[i]);
  }
  return n;
}

static void test_vectors(void **state) {
  (void)state;
  DIR *d = opendir(FJ_DATA_DIR "/numbers");
  if (!d) {
    printf("data folder %s/numbers missing: skipping\n", FJ_DATA_DIR);
    skip();
  }
  closedir(d);
  int files = check_vector_dir("fxx") + check_vector_dir("f64");
  assert_true(files >= 2);
}

/* ---------------------------------------------------------------------- */
/* 2. Random inputs against strtod                                        */
/* ---------------------------------------------------------------------- */

/* A random JSON number: 1..25 digits, a random decimal point, and an
 * exponent putting the value anywhere from below the subnormals to above
 * the overflow threshold (occasionally absurd exponents). */
static void random_decimal(char *out) {
  char *o = out;
  if (rng() & 1) *o++ = '-';
  int nd = 1 + (int)rng_below(25);
  int point = (int)rng_below((unsigned)nd + 1); /* digits before '.'; 0 -> "0." */
  if (point == 0) *o++ = '0';
  for (int i = 0; i < nd; i++) {
    if (i == point && point > 0) *o++ = '.';
    if (i == 0 && point == 0) *o++ = '.';
    int dig = (int)rng_below(10);
    if (i == 0 && point > 1 && dig == 0) dig = 1 + (int)rng_below(9);
    /* runs of 0s and 9s reach carries and halfway-like patterns */
    if (rng_below(4) == 0) dig = (rng() & 1) ? 0 : 9;
    if (i == 0 && point > 1 && dig == 0) dig = 9;
    *o++ = (char)('0' + dig);
  }
  unsigned kind = rng_below(16);
  if (kind != 0) {
    int mag = (int)rng_below(700) - 360; /* target decimal magnitude */
    long e = mag - point;
    if (kind == 1) e = (long)(rng() % 4000000000u) - 2000000000L;
    o += sprintf(o, "%s%ld", (rng() & 1) ? "e" : "E", e);
  }
  *o = '\0';
}

static double random_double(void) {
  uint64_t b;
  do
    b = rng();
  while (((b >> 52) & 0x7FF) == 0x7FF);
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}

static void test_random_vs_strtod(void **state) {
  (void)state;
  char s[128];
  long n = 0, ok = 0;
  mismatches = 0;
  for (long i = 0; i < 2000000; i++, n++) {
    random_decimal(s);
    assert_true(json_number_ok(s));
    ok += check_vs_strtod(s);
  }
  printf("  random decimal strings: %ld checked, %ld mismatches\n", n, n - ok);
  long nd = 0, okd = 0;
  for (long i = 0; i < 500000; i++) {
    double d = random_double();
    snprintf(s, sizeof s, "%.17g", d);
    okd += check_vs_strtod(s), nd++;
    snprintf(s, sizeof s, "%.*g", 1 + (int)rng_below(16), d);
    okd += check_vs_strtod(s), nd++;
  }
  printf("  random doubles via %%.17g and %%.{1..16}g: %ld checked, %ld mismatches\n", nd,
         nd - okd);
  assert_int_equal(n - ok, 0);
  assert_int_equal(nd - okd, 0);
}

/* The short-decimal path's shape and its edges: '-'?, 1 to 3 integer
 * digits, '.', 1 to 17 fraction digits (15 is its limit), with room after
 * them, followed by a delimiter or by what turns it away (an exponent,
 * more digits, a second point). Prices, coordinates, ratios. */
static void test_short_decimals_vs_strtod(void **state) {
  (void)state;
  static const char *const follow[] = {",", "}", "]", " ", "\t", "\n", "\r", ":"};
  static const char *const other[] = {"e5", "E-3", "e+0", "5", ".5", "x", "-", "\"", "e"};
  long n = 0, bad = 0;
  for (long i = 0; i < 400000; i++) {
    char s[64], *o = s;
    if (rng() & 1) *o++ = '-';
    int id = 1 + (int)rng_below(3), fd = 1 + (int)rng_below(20);
    if (rng_below(4) == 0) id = 1; /* "0." more often: up to 19 digits */
    for (int k = 0; k < id; k++)
      *o++ = (char)('0' + (k == 0 && id > 1 ? 1 + rng_below(9) : rng_below(10)));
    *o++ = '.';
    for (int k = 0; k < fd; k++) /* runs of 0s and 9s: carries, w near 2^53 */
      *o++ = (char)('0' + (rng_below(4) == 0 ? ((rng() & 1) ? 0 : 9) : rng_below(10)));
    *o = '\0';
    double want, got = 0;
    size_t len = 0;
    fj_error ew = oracle_double(s, &want);
    fj_error e = parse_double_roomy(s, follow[rng_below(8)], &got, &len);
    int ok = e == ew && len == strlen(s) && dbits(got) == dbits(want);
    /* turned away from the short path: the general one reads the longer text */
    char t[80];
    const char *x = other[rng_below(9)];
    snprintf(t, sizeof t, "%s%s", s, x);
    double tw = 0, tg = 0;
    size_t tl = 0, gl = 0;
    fj_error te = parse_double_str(t, &tw, &tl);
    ok = ok && parse_double_roomy(s, x, &tg, &gl) == te && gl == tl && dbits(tg) == dbits(tw);
    if (!ok && bad++ < 20)
      printf("MISMATCH %s (then %s): got %s %016" PRIX64 " len %zu, want %016" PRIX64 "\n", s, x,
             fj_error_name(e), dbits(got), len, dbits(want));
    n++;
  }
  printf("  short decimals: %ld checked, %ld mismatches\n", n, bad);
  assert_int_equal(bad, 0);
}

/* Exact halfway points between adjacent doubles (printed exactly by glibc
 * from a long double), and their truncations to 17..40 digits: the inputs
 * that need the exact fallback. */
static void test_halfway_vs_strtod(void **state) {
  (void)state;
  if (LDBL_MANT_DIG < 55) {
    printf("long double too narrow for exact midpoints: skipping\n");
    skip();
  }
  static char s[1200];
  long n = 0, ok = 0;
  mismatches = 0;
  for (int i = 0; i < 20000; i++) {
    double d = fabs(random_double());
    if (i % 4 == 0) d = ldexp((double)(rng() >> 12), -1074); /* subnormal */
    double up = nextafter(d, INFINITY);
    if (isinf(up)) continue;
    long double mid = ((long double)d + (long double)up) / 2;
    snprintf(s, sizeof s, "%.780Le", mid);
    ok += check_vs_strtod(s), n++;
    /* truncate the significand to k digits, keep the exponent */
    char *e = strchr(s, 'e');
    char expo[16];
    snprintf(expo, sizeof expo, "%s", e);
    int k = 17 + (int)rng_below(24);
    snprintf(s + 1 + k, sizeof s - 1 - (size_t)k, "%s", expo); /* s = "d.ddd" */
    ok += check_vs_strtod(s), n++;
  }
  printf("  halfway points and truncations: %ld checked, %ld mismatches\n", n, n - ok);
  assert_int_equal(n - ok, 0);
}

/* Hand-picked hard cases, still judged by strtod. */
static void test_special_doubles(void **state) {
  (void)state;
  static const char *cases[] = {
      "0",
      "-0",
      "0.0",
      "-0.0e-5",
      "0e99999999999999999999",
      "1",
      "-1",
      "1e400",
      "-1e400",
      "1.8e308",
      "1.7976931348623157e308",
      "1.7976931348623158e308",
      "1.7976931348623159e308",
      "2.2250738585072011e-308",
      "2.2250738585072014e-308",
      "4.9406564584124654e-324",
      "2.4703282292062327e-324",
      "2.4703282292062328e-324",
      "1e-2147483649",
      "1e-2147483648",
      "1e99999999999999999999",
      "1e-99999999999999999999",
      "9007199254740993",
      "9007199254740992.5",
      "9007199254740993.0000000000000000001",
      "123456789012345678901234567890",
      "0.000000000000000000000000000000000000001",
      "7.2057594037927933e16",
      "1e23",
      "8.5e-323",
      "1.00000000000000011102230246251565404236316680908203125",
      "1.00000000000000011102230246251565404236316680908203124",
      "1.00000000000000011102230246251565404236316680908203126",
  };
  mismatches = 0;
  long bad = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    bad += !check_vs_strtod(cases[i]);
  /* "-0" must be negative zero */
  double d;
  size_t len;
  assert_int_equal(parse_double_str("-0", &d, &len), FJ_OK);
  assert_true(d == 0 && signbit(d));
  /* long inputs: 800 random digits; "1" + 10000 zeros + "e-10000" */
  static char big[12000];
  for (int rep = 0; rep < 200; rep++) {
    int nd = 700 + (int)rng_below(400);
    char *o = big;
    *o++ = (char)('1' + rng_below(9));
    *o++ = '.';
    for (int i = 1; i < nd; i++)
      *o++ = (char)('0' + rng_below(10));
    sprintf(o, "e%d", (int)rng_below(640) - 330);
    bad += !check_vs_strtod(big);
  }
  big[0] = '1';
  memset(big + 1, '0', 10000);
  strcpy(big + 10001, "e-10000");
  bad += !check_vs_strtod(big);
  assert_int_equal(parse_double_str(big, &d, &len), FJ_OK);
  assert_true(d == 1.0);
  assert_int_equal(bad, 0);
}

/* ---------------------------------------------------------------------- */
/* 3. Integers against strtoll / strtoull                                 */
/* ---------------------------------------------------------------------- */

static fj_error oracle_i64(const char *s, int64_t *out) {
  errno = 0;
  long long v = strtoll(s, NULL, 10);
  *out = v;
  return errno == ERANGE ? FJ_ERR_NUMBER_RANGE : FJ_OK;
}

/* strtoull accepts "-1" as 2^64 - 1, so negate by hand. */
static fj_error oracle_u64(const char *s, uint64_t *out) {
  int neg = *s == '-';
  errno = 0;
  unsigned long long v = strtoull(s + neg, NULL, 10);
  if (errno == ERANGE || (neg && v != 0)) return FJ_ERR_NUMBER_RANGE;
  *out = v;
  return FJ_OK;
}

static long check_integer(const char *s) {
  int64_t wi = 0, gi = 0;
  uint64_t wu = 0, gu = 0;
  size_t li = 0, lu = 0;
  fj_error ewi = oracle_i64(s, &wi), egi = parse_i64_str(s, &gi, &li);
  fj_error ewu = oracle_u64(s, &wu), egu = parse_u64_str(s, &gu, &lu);
  /* again with a delimiter and more bytes after the number */
  char padded[80];
  int64_t gi2 = 0;
  size_t li2 = 0;
  snprintf(padded, sizeof padded, "%s,\"abcdefgh\"", s);
  uint8_t *buf = malloc(strlen(padded));
  assert_non_null(buf);
  memcpy(buf, padded, strlen(padded));
  fj_error egi2 = fj__parse_int64(buf, buf + strlen(padded), &gi2, &li2);
  free(buf);
  int ok = ewi == egi && ewu == egu && li == strlen(s) && lu == strlen(s) && (egi || gi == wi) &&
           (egu || gu == wu) && egi2 == egi && li2 == li && gi2 == gi;
  /* the fast path fj__integer_text, alone and followed by more bytes: an
   * integer whose magnitude fits in 64 bits (strtoull says), or nothing */
  int neg = *s == '-';
  errno = 0;
  unsigned long long wm = strtoull(s + neg, NULL, 10);
  int fits = errno != ERANGE;
  for (int padded_run = 0; padded_run < 2; padded_run++) {
    size_t n = padded_run ? strlen(padded) : strlen(s);
    uint8_t *b = malloc(n);
    assert_non_null(b);
    memcpy(b, padded_run ? padded : s, n);
    uint64_t m = 0;
    int gneg = -1;
    size_t gl = 0;
    int got = fj__integer_text(b, b + n, &m, &gneg, &gl);
    free(b);
    if (got != fits || (got && (m != wm || gneg != neg || gl != strlen(s)))) {
      printf("integer %s: fj__integer_text %d %" PRIu64 " neg %d len %zu (want %d %llu)\n", s, got,
             m, gneg, gl, fits, wm);
      ok = 0;
    }
  }
  if (!ok)
    printf("integer %s: i64 %s %" PRId64 " (want %s %" PRId64 "), u64 %s %" PRIu64
           " (want %s %" PRIu64 ")\n",
           s, fj_error_name(egi), gi, fj_error_name(ewi), wi, fj_error_name(egu), gu,
           fj_error_name(ewu), wu);
  return !ok;
}

static void test_integers(void **state) {
  (void)state;
  static const char *edges[] = {"0",
                                "-0",
                                "1",
                                "-1",
                                "9",
                                "10",
                                "9223372036854775806",
                                "9223372036854775807",
                                "9223372036854775808",
                                "9223372036854775809",
                                "-9223372036854775807",
                                "-9223372036854775808",
                                "-9223372036854775809",
                                "-9223372036854775810",
                                "18446744073709551614",
                                "18446744073709551615",
                                "18446744073709551616",
                                "18446744073709551617",
                                "-18446744073709551615",
                                "-18446744073709551616",
                                "99999999999999999999",
                                "100000000000000000000",
                                "1000000000000000000000000",
                                "9999999999999999999",
                                "10000000000000000000",
                                "-10000000000000000000",
                                "12345678901234567890123",
                                "1234",
                                "12345",
                                "-12345678",
                                "123456789",
                                "28446744073709551615",
                                "18446744073709551605",
                                "18446744083709551615",
                                "-18446744073709551614"};
  long bad = 0, n = 0;
  for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++, n++)
    bad += check_integer(edges[i]);
  char s[64];
  for (int i = 0; i < 200000; i++, n++) {
    uint64_t v = rng() >> rng_below(64);
    const char *sign = (rng() & 1) ? "-" : "";
    if (i & 1) {
      snprintf(s, sizeof s, "%s%" PRIu64, sign, v);
    } else { /* random digit strings of 1..22 digits */
      int nd = 1 + (int)rng_below(22);
      char *o = s + sprintf(s, "%s", sign);
      for (int k = 0; k < nd; k++)
        *o++ = (char)((k == 0 ? '1' + rng_below(9) : '0' + rng_below(10)));
      *o = '\0';
    }
    bad += check_integer(s);
  }
  printf("  integers: %ld checked against strtoll/strtoull, %ld mismatches\n", n, bad);
  assert_int_equal(bad, 0);
  /* valid numbers that are not integers; and the length on range errors */
  int64_t i64;
  uint64_t u64;
  size_t len;
  assert_int_equal(parse_i64_str("1.0", &i64, &len), FJ_ERR_NOT_INTEGER);
  assert_int_equal(len, 3);
  assert_int_equal(parse_u64_str("1e5", &u64, &len), FJ_ERR_NOT_INTEGER);
  assert_int_equal(len, 3);
  assert_int_equal(parse_u64_str("-1E+5", &u64, &len), FJ_ERR_NOT_INTEGER);
  assert_int_equal(len, 5);
  assert_int_equal(parse_i64_str("01", &i64, &len), FJ_ERR_BAD_NUMBER);
  assert_int_equal(parse_i64_str("1.", &i64, &len), FJ_ERR_BAD_NUMBER);
  assert_int_equal(parse_i64_str("-", &i64, &len), FJ_ERR_BAD_NUMBER);
  assert_int_equal(parse_i64_str("42,", &i64, &len), FJ_OK);
  assert_int_equal(len, 2);
  assert_int_equal(i64, 42);
}

/* ---------------------------------------------------------------------- */
/* 4. Grammar                                                             */
/* ---------------------------------------------------------------------- */

typedef struct grammar_case {
  const char *text;
  fj_error want;
  size_t len; /* number length when valid, offending offset when not */
  int is_int;
} grammar_case;

static void test_grammar(void **state) {
  (void)state;
  static const grammar_case cases[] = {
      {"0", FJ_OK, 1, 1},
      {"-0", FJ_OK, 2, 1},
      {"7", FJ_OK, 1, 1},
      {"-123", FJ_OK, 4, 1},
      {"0.5", FJ_OK, 3, 0},
      {"-0.0", FJ_OK, 4, 0},
      {"1e5", FJ_OK, 3, 0},
      {"1E5", FJ_OK, 3, 0},
      {"1e+5", FJ_OK, 4, 0},
      {"1e-5", FJ_OK, 4, 0},
      {"1.25e-007", FJ_OK, 9, 0},
      {"0e0", FJ_OK, 3, 0},
      {"10", FJ_OK, 2, 1},
      {"1x", FJ_OK, 1, 1},
      {"1.5.3", FJ_OK, 3, 0},
      {"0]", FJ_OK, 1, 1},
      {"-1,", FJ_OK, 2, 1},
      {"1e5e5", FJ_OK, 3, 0},
      {"", FJ_ERR_BAD_NUMBER, 0, 0},
      {"-", FJ_ERR_BAD_NUMBER, 1, 0},
      {"+1", FJ_ERR_BAD_NUMBER, 0, 0},
      {".5", FJ_ERR_BAD_NUMBER, 0, 0},
      {"1.", FJ_ERR_BAD_NUMBER, 2, 0},
      {"1.e5", FJ_ERR_BAD_NUMBER, 2, 0},
      {"01", FJ_ERR_BAD_NUMBER, 1, 0},
      {"-01", FJ_ERR_BAD_NUMBER, 2, 0},
      {"00", FJ_ERR_BAD_NUMBER, 1, 0},
      {"1e", FJ_ERR_BAD_NUMBER, 2, 0},
      {"1e+", FJ_ERR_BAD_NUMBER, 3, 0},
      {"1E-", FJ_ERR_BAD_NUMBER, 3, 0},
      {"1ex", FJ_ERR_BAD_NUMBER, 2, 0},
      {"0x1F", FJ_OK, 1, 1},
      {"Infinity", FJ_ERR_BAD_NUMBER, 0, 0},
      {"-Infinity", FJ_ERR_BAD_NUMBER, 1, 0},
      {"NaN", FJ_ERR_BAD_NUMBER, 0, 0},
      {"-NaN", FJ_ERR_BAD_NUMBER, 1, 0},
      {"- 1", FJ_ERR_BAD_NUMBER, 1, 0},
      {" 1", FJ_ERR_BAD_NUMBER, 0, 0},
      {"--1", FJ_ERR_BAD_NUMBER, 1, 0},
      {"1.a", FJ_ERR_BAD_NUMBER, 2, 0},
      {"-.5", FJ_ERR_BAD_NUMBER, 1, 0},
      {"e5", FJ_ERR_BAD_NUMBER, 0, 0},
      {"1e++5", FJ_ERR_BAD_NUMBER, 3, 0},
      {"inf", FJ_ERR_BAD_NUMBER, 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const grammar_case *c = &cases[i];
    size_t len = 99;
    int is_int = -1;
    fj_error e = scan_str(c->text, &len, &is_int);
    if (e != c->want || len != c->len || (e == FJ_OK && is_int != c->is_int))
      fail_msg("scan(\"%s\"): %s len %zu is_int %d", c->text, fj_error_name(e), len, is_int);
    /* the independent matcher agrees on the valid prefix */
    if (e == FJ_OK) {
      char pre[32];
      snprintf(pre, sizeof pre, "%.*s", (int)len, c->text);
      assert_true(json_number_ok(pre));
    } else {
      assert_false(json_number_ok(c->text));
    }
    double d;
    assert_int_equal(parse_double_str(c->text, &d, &len) == FJ_ERR_BAD_NUMBER,
                     c->want == FJ_ERR_BAD_NUMBER);
  }
}

/* Every prefix of some numbers, each at the very end of its own buffer:
 * the verdict must match the matcher's and nothing may read past the end. */
static void test_prefixes_at_end(void **state) {
  (void)state;
  static const char *texts[] = {"-12.5e+3", "0.000123E-45",         "123456789012345678901234.5e1",
                                "-0",       "18446744073709551616", "1e-400"};
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    for (size_t n = 0; n <= strlen(texts[i]); n++) {
      char pre[64];
      snprintf(pre, sizeof pre, "%.*s", (int)n, texts[i]);
      size_t len;
      int is_int;
      fj_error e = scan_str(pre, &len, &is_int);
      assert_int_equal(e == FJ_OK && len == n, json_number_ok(pre));
      double d;
      int64_t i64;
      uint64_t u64;
      assert_int_equal(parse_double_str(pre, &d, &len) == FJ_ERR_BAD_NUMBER, e != FJ_OK);
      assert_int_equal(parse_i64_str(pre, &i64, &len) == FJ_ERR_BAD_NUMBER, e != FJ_OK);
      assert_int_equal(parse_u64_str(pre, &u64, &len) == FJ_ERR_BAD_NUMBER, e != FJ_OK);
    }
  }
}

/* fj__parse_number against the single-type parsers: the same verdicts,
 * lengths and values, and the kind the text calls for. */
static void check_number_agrees(const char *s) {
  size_t n = strlen(s), len, dlen, ilen, ulen;
  uint8_t *buf = malloc(n ? n : 1);
  assert_non_null(buf);
  memcpy(buf, s, n);
  fj_number num;
  double d;
  int64_t i;
  uint64_t u;
  fj_error e = fj__parse_number(buf, buf + n, &num, &len);
  fj_error ed = fj__parse_double(buf, buf + n, &d, &dlen);
  fj_error ei = fj__parse_int64(buf, buf + n, &i, &ilen);
  fj_error eu = fj__parse_uint64(buf, buf + n, &u, &ulen);
  free(buf);
  if (ed == FJ_ERR_BAD_NUMBER) {
    assert_int_equal(e, FJ_ERR_BAD_NUMBER);
    assert_int_equal(len, dlen);
    return;
  }
  assert_int_equal(len, dlen);
  if (ei == FJ_OK) {
    assert_int_equal(e, FJ_OK);
    assert_int_equal(num.kind, FJ_NUMBER_INT64);
    assert_true(num.i == i);
  } else if (eu == FJ_OK) {
    assert_int_equal(e, FJ_OK);
    assert_int_equal(num.kind, FJ_NUMBER_UINT64);
    assert_true(num.u == u);
  } else {
    assert_int_equal(e, ed);
    assert_int_equal(num.kind, ei == FJ_ERR_NOT_INTEGER ? FJ_NUMBER_DOUBLE : FJ_NUMBER_BIG_INTEGER);
    assert_true(dbits(num.d) == dbits(d));
  }
}

static void test_parse_number(void **state) {
  (void)state;
  static const char *texts[] = {"0",
                                "-0",
                                "7",
                                "-7",
                                "1.5",
                                "-0.0",
                                "1e2",
                                "1E+2",
                                "1e-2",
                                "01",
                                "1.",
                                "-",
                                "1e",
                                "1e+",
                                "9223372036854775807",
                                "9223372036854775808",
                                "-9223372036854775808",
                                "-9223372036854775809",
                                "18446744073709551615",
                                "18446744073709551616",
                                "99999999999999999999999",
                                "-99999999999999999999999",
                                "1e400",
                                "-1e400",
                                "1e-400",
                                "-65.613616999999977",
                                "0.000000000000000000000000001234",
                                "123456789012345678.5",
                                "1234567890123456789",
                                "12345678901234567890",
                                "2.2250738585072011e-308",
                                "4.9406564584124654e-324",
                                "1.7976931348623157e308",
                                "1.7976931348623159e308",
                                "9007199254740993",
                                "9007199254740993.0",
                                "0.1e1",
                                "100000000000000000000e-20"};
  for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++)
    check_number_agrees(texts[k]);
  char buf[64];
  for (int k = 0; k < 20000; k++) {
    random_decimal(buf);
    check_number_agrees(buf);
  }
}

/* parser.h's inline short decimal (fj_value_get_number's fast path): its
 * table against number.c's, and its verdicts against fj__parse_double on
 * the shapes it takes ('-'?, 1 to 3 integer digits, '.', 1 to 20 fraction
 * digits; 15 is its limit, 19 after "0.") followed by a delimiter or by what
 * turns it away. It reads 20 bytes from the first digit whatever end says
 * (its callers check): the text sits in a larger buffer. */
static void test_inline_short_decimal(void **state) {
  (void)state;
#if FJ__INLINE_DECIMAL && defined(__SIZEOF_INT128__)
  for (unsigned n = 8; n <= 19; n++)
    assert_true(fj__pow5_frac_hi[n - 8] == fj__pow5_128[-(int)n - FJ_POW5_MIN][0]);
  static const char *const follow[] = {",", "]", " ", "e5", "5", ".5", "x"};
  long bad = 0, taken = 0;
  for (long i = 0; i < 400000; i++) {
    char s[80] = {0}, *o = s;
    const bool neg = rng() & 1;
    if (neg) *o++ = '-';
    const char *digits = o;
    int id = 1 + (int)rng_below(3), fd = 1 + (int)rng_below(17);
    uint64_t m = 0;
    for (int k = 0; k < id; k++) {
      *o = (char)('0' + (k == 0 && id > 1 ? 1 + rng_below(9) : rng_below(10)));
      m = m * 10 + (uint64_t)(*o++ - '0');
    }
    const char *q = o;
    *o++ = '.';
    for (int k = 0; k < fd; k++) /* runs of 0s and 9s: carries, w near 2^53 */
      *o++ = (char)('0' + (rng_below(4) == 0 ? ((rng() & 1) ? 0 : 9) : rng_below(10)));
    const size_t text = (size_t)(o - s);
    const char *f = follow[rng_below(7)];
    memcpy(o, f, strlen(f));
    /* then up to 16 spaces: the text's end at any distance from a long
     * fraction's last load */
    memset(o + strlen(f), ' ', rng_below(17));
    const uint8_t *end = (const uint8_t *)s + strlen(s);
    double got, want;
    size_t len;
    if (!fj__short_decimal((const uint8_t *)digits, (const uint8_t *)q, end, m, neg, &got))
      continue;
    taken++;
    fj_error e = fj__parse_double((const uint8_t *)s, (const uint8_t *)s + strlen(s), &want, &len);
    /* the text may have run on ("5" after it): then the same longer number */
    const bool whole = len >= text && (len == strlen(s) || fj__delimiter[(uint8_t)s[len]]);
    if ((e != FJ_OK || !whole || dbits(got) != dbits(want)) && bad++ < 20)
      printf("MISMATCH inline %s: %016" PRIX64 ", want %016" PRIX64 " (%s, length %zu of %zu)\n", s,
             dbits(got), dbits(want), fj_error_name(e), len, text);
  }
  printf("  inline short decimals: %ld taken, %ld mismatches\n", taken, bad);
  assert_true(taken > 100000);
  assert_int_equal(bad, 0);
#endif
}

/* Every supported kernel's number conversion (fj__kernel's parse_double,
 * parse_number and number_fast: on x86-64 number.c built for that kernel's
 * CPU) against strtod, on random decimals (short and long fractions,
 * exponents, ranges) with room after them, so that every path is taken;
 * and the entry points call the active kernel's. */
static void test_kernel_variants(void **state) {
  (void)state;
  const fj__kernel *active = fj__kernel_active();
  size_t nk = 0;
  const fj__kernel *const *all = fj__kernels(&nk);
  long bad = 0, tried = 0;
  for (size_t k = 0; k < nk; k++) {
    const fj__kernel *kn = all[k];
    if (!kn->supported()) continue;
    tried++;
    for (long i = 0; i < 200000; i++) {
      char s[160];
      if (i & 1) {
        random_decimal(s);
      } else { /* the common shapes: coordinates, prices */
        int n = snprintf(s, sizeof s, "%s%u.", (rng() & 1) ? "-" : "", (unsigned)rng_below(1000));
        for (int d = 1 + (int)rng_below(19); d > 0; d--)
          s[n++] = (char)('0' + rng_below(10));
        s[n] = '\0';
      }
      const size_t n = strlen(s);
      uint8_t buf[192];
      memcpy(buf, s, n);
      memset(buf + n, ',', 32);
      const uint8_t *end = buf + n + 32;
      double want, got = 0;
      size_t len = 0;
      const fj_error ew = oracle_double(s, &want);
      fj_error eg = kn->parse_double(buf, end, &got, &len);
      int ok = eg == ew && len == n && dbits(got) == dbits(want);
      fj_number num = {0};
      len = 0;
      eg = kn->parse_number(buf, end, &num, &len);
      ok = ok && eg == ew && len == n &&
           (num.kind == FJ_NUMBER_INT64    ? (double)num.i == want
            : num.kind == FJ_NUMBER_UINT64 ? (double)num.u == want
                                           : dbits(num.d) == dbits(want));
      fj_number fast = {0};
      if (kn->number_fast(buf, end, &fast))
        ok = ok && ew == FJ_OK && fast.kind == num.kind &&
             (fast.kind == FJ_NUMBER_INT64    ? fast.i == num.i
              : fast.kind == FJ_NUMBER_UINT64 ? fast.u == num.u
                                              : dbits(fast.d) == dbits(num.d));
      if (kn == active) {
        double viaentry = 0;
        ok = ok && fj__parse_double(buf, end, &viaentry, &len) == ew &&
             dbits(viaentry) == dbits(got);
      }
      if (!ok && bad++ < 20) printf("MISMATCH kernel %s: %s\n", kn->name, s);
    }
  }
  printf("  %ld kernels' number conversion: %ld mismatches\n", tried, bad);
  assert_true(tried >= 1);
  assert_int_equal(bad, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_grammar),
      cmocka_unit_test(test_prefixes_at_end),
      cmocka_unit_test(test_integers),
      cmocka_unit_test(test_special_doubles),
      cmocka_unit_test(test_vectors),
      cmocka_unit_test(test_halfway_vs_strtod),
      cmocka_unit_test(test_random_vs_strtod),
      cmocka_unit_test(test_parse_number),
      cmocka_unit_test(test_short_decimals_vs_strtod),
      cmocka_unit_test(test_inline_short_decimal),
      cmocka_unit_test(test_kernel_variants),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
