/* Unvalidated minify (src/write/minify.c and the kernels of
 * src/scan/minify_impl.h): fj_minify_unvalidated() and
 * fj_minify_unvalidated_into().
 *
 * Two oracles: on valid JSON the output must be fj_minify()'s, byte for
 * byte; on any input, every kernel this CPU runs must give the output of the
 * byte-at-a-time reference below (strings found as stage 1 finds them) and
 * its unclosed-string verdict. Inputs: every corpus and JSONTestSuite file,
 * every prefix of a few, backslash runs ending at every position around
 * block boundaries, and random and mutated inputs from a fixed seed.
 *
 * Inputs are copied to end at an unreadable page and outputs are written
 * into memory of exactly the input's length that ends at one too, so a
 * kernel that reads past the input or writes past `len` bytes crashes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fastjson.h"
#include "scan/stage1.h"
#include "test_util.h"

#define MAX_LEN (4u << 20) /* the largest corpus file is 3.3 MB */

/* ---- guarded memory ------------------------------------------------------ */

typedef struct guarded {
  uint8_t *end; /* first byte of the unreadable page */
} guarded;

static guarded in_mem, out_mem;
static uint8_t *ref_out, *scratch;
static const fj__kernel *kernels[8];
static size_t kernel_count;
static bool simde_only; /* --simde: the avx512 kernel's minify through SIMDe only */

#ifdef FJ_TEST_AVX512_SIMDE
/* kernel_avx512.c compiled with FJ_AVX512_SIMDE, its names renamed
 * (tests/CMakeLists.txt); this test uses only its name and minify */
size_t fj__minify_avx512_simde(const uint8_t *in, size_t len, uint8_t *out,
                               fj__minify_carry *carry);
static const fj__kernel avx512_simde = {.name = "avx512 (SIMDe)",
                                        .minify = fj__minify_avx512_simde};
#endif

static int guard(guarded *g) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t size = (MAX_LEN + page - 1) / page * page;
  uint8_t *mem =
      mmap(NULL, size + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED || mprotect(mem + size, page, PROT_NONE) != 0) return -1;
  g->end = mem + size;
  return 0;
}

static int setup(void **state) {
  (void)state;
  if (guard(&in_mem) || guard(&out_mem)) return -1;
  ref_out = malloc(MAX_LEN);
  scratch = malloc(MAX_LEN + 1);
  if (simde_only) {
#ifdef FJ_TEST_AVX512_SIMDE
    kernels[kernel_count++] = &avx512_simde;
#else
    fprintf(stderr, "--simde: this build has no SIMDe avx512 kernel (SIMDe not found)\n");
    return -1;
#endif
  } else {
    size_t n;
    const fj__kernel *const *all = fj__kernels(&n);
    for (size_t i = 0; i < n && kernel_count < 8; i++)
      if (all[i]->supported()) kernels[kernel_count++] = all[i];
  }
  return ref_out && scratch ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  free(ref_out);
  free(scratch);
  return 0;
}

/* `len` bytes placed to end at the unreadable page. */
static uint8_t *place(const void *data, size_t len) {
  uint8_t *p = in_mem.end - len;
  if (len) memcpy(p, data, len);
  return p;
}

/* ---- the reference ------------------------------------------------------- */

static bool is_ws(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Byte at a time: a backslash escapes the next byte, inside strings and out
 * (as stage 1); an unescaped quote toggles the string; whitespace outside
 * strings is dropped. *open: the input ends inside a string. */
static size_t reference(const uint8_t *in, size_t len, uint8_t *out, bool *open) {
  bool in_string = false, escaped = false;
  size_t o = 0;
  for (size_t i = 0; i < len; i++) {
    uint8_t c = in[i];
    bool was_escaped = escaped;
    escaped = !was_escaped && c == '\\';
    if (c == '"' && !was_escaped) in_string = !in_string;
    if (!in_string && is_ws(c)) continue;
    out[o++] = c;
  }
  *open = in_string;
  return o;
}

/* ---- checks -------------------------------------------------------------- */

static fj_error collect(void *ctx, const void *bytes, size_t len) {
  fj_buffer *b = ctx;
  return fj_sink_buffer(b).write(b, bytes, len) == FJ_OK ? FJ_OK : FJ_ERR_NOMEM;
}

static unsigned long inputs_checked;

/* Every kernel, and the public entry points with the kernel in use, give
 * the reference's bytes and verdict for `data`. */
static void check(const uint8_t *data, size_t len, const char *what) {
  bool open;
  size_t ref_n = reference(data, len, ref_out, &open);
  fj_error want = open ? FJ_ERR_UNCLOSED_STRING : FJ_OK;
  const uint8_t *in = place(data, len);
  for (size_t k = 0; k < kernel_count; k++) {
    fj__minify_carry c = {0, 0};
    uint8_t *out = out_mem.end - len;
    size_t n = kernels[k]->minify(in, len, out, &c);
    if (n != ref_n || memcmp(out, ref_out, n) != 0 || (c.in_string != 0) != open)
      fail_msg("%s (%zu bytes): kernel %s gives %zu bytes, want %zu%s", what, len, kernels[k]->name,
               n, ref_n, (c.in_string != 0) != open ? " (open string)" : "");
  }
  /* the caller-buffer entry, then the window (a callback sink) */
  size_t n = 0;
  uint8_t *out = out_mem.end - len;
  assert_int_equal(fj_minify_unvalidated_into(in, len, out, &n), want);
  if (n != ref_n || memcmp(out, ref_out, n) != 0) fail_msg("%s: _into differs", what);
  fj_buffer b = {0};
  assert_int_equal(fj_minify_unvalidated(in, len, (fj_sink){collect, &b}), want);
  if (b.len != ref_n || (ref_n && memcmp(b.data, ref_out, ref_n) != 0))
    fail_msg("%s: callback sink differs", what);
  fj_buffer_free(&b);
  inputs_checked++;
}

/* For valid JSON: also fj_minify()'s output, through the buffer sink. */
static void check_against_validating(fj_parser *p, const uint8_t *data, size_t len,
                                     const char *what) {
  check(data, len, what);
  fj_buffer want = {0}, got = {0};
  if (fj_minify(p, data, len, fj_sink_buffer(&want)) == FJ_OK) {
    assert_int_equal(fj_minify_unvalidated(data, len, fj_sink_buffer(&got)), FJ_OK);
    if (got.len != want.len || memcmp(got.data, want.data, got.len) != 0)
      fail_msg("%s: differs from fj_minify", what);
    assert_int_equal(got.data[got.len], 0);
  }
  fj_buffer_free(&want);
  fj_buffer_free(&got);
}

/* ---- inputs -------------------------------------------------------------- */

/* Every file of each (folder, suffix) pair of `spec` (NULL-ended):
 * fj_minify's output where it is valid, the reference's everywhere. */
static void check_folders(const char *const *spec, size_t min_files) {
  fj_parser *p;
  assert_int_equal(fj_parser_new(&p, NULL), FJ_OK);
  size_t files = 0;
  for (; *spec; spec += 2) {
    size_t count;
    char **names = fj_test_list_dir(spec[0], spec[1], &count);
    for (size_t i = 0; i < count; i++, files++) {
      char path[1024];
      snprintf(path, sizeof path, "%s/%s", spec[0], names[i]);
      size_t n;
      uint8_t *data = fj_test_read_file(path, &n);
      if (!data || n > MAX_LEN) fail_msg("cannot read %s", path);
      check_against_validating(p, data, n, path);
      free(data);
    }
    fj_test_free_list(names, count);
  }
  fj_parser_free(p);
  if (files < min_files) skip();
}

static void corpus_files(void **state) {
  (void)state;
  static const char *const spec[] = {FJ_DATA_DIR "/corpus",
                                     ".json",
                                     FJ_DATA_DIR "/corpus",
                                     ".ndjson",
                                     FJ_DATA_DIR "/corpus/extra",
                                     ".json",
                                     FJ_DATA_DIR "/corpus/variants",
                                     ".json",
                                     NULL};
  check_folders(spec, 10);
}

/* y_ files must equal fj_minify; n_ and i_ files only the reference. */
static void test_suite_files(void **state) {
  (void)state;
  static const char *const spec[] = {FJ_DATA_DIR "/conformance/JSONTestSuite/test_parsing", ".json",
                                     NULL};
  check_folders(spec, 300);
}

static void every_prefix(void **state) {
  (void)state;
  static const struct {
    const char *path;
    size_t max;
  } files[] = {
      {"corpus/twitterescaped.json", 3000}, /* backslash runs */
      {"corpus/twitter.json", 2000},
      {"corpus/mesh.pretty.json", 1000},
  };
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", FJ_DATA_DIR, files[f].path);
    size_t n;
    uint8_t *data = fj_test_read_file(path, &n);
    if (!data) skip();
    for (size_t len = 0; len <= n && len <= files[f].max; len++)
      check(data, len, path);
    free(data);
  }
}

/* A run of k backslashes ending at each position around the first block
 * boundaries, followed by a quote (escaped when k is odd) and whitespace,
 * inside and outside a string. */
static void backslash_runs(void **state) {
  (void)state;
  uint8_t buf[300];
  for (int inside = 0; inside < 2; inside++)
    for (size_t end = 40; end < 200; end++)
      for (size_t k = 0; k <= 9 && k < end - 2; k++) {
        memset(buf, ' ', sizeof buf);
        if (inside) buf[0] = '"';
        buf[1] = 'x';
        memset(buf + end - k, '\\', k);
        buf[end] = '"';
        buf[end + 3] = 'y';
        buf[end + 70] = '"';
        check(buf, end + 80, "backslash run");
      }
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* Random bytes from an alphabet rich in the bytes that matter. */
static void random_inputs(void **state) {
  (void)state;
  static const uint8_t alphabet[] = {' ', '\t', '\n', '\r', '"', '"',  '\\', '\\', '\\',
                                     'a', '{',  ',',  ':',  0,   0x80, 0xFF, '0'};
  uint8_t buf[700];
  for (int t = 0; t < 20000; t++) {
    size_t len = rnd() % sizeof buf;
    for (size_t i = 0; i < len; i++)
      buf[i] = alphabet[rnd() % sizeof alphabet];
    check(buf, len, "random");
  }
}

/* A corpus piece with bytes replaced, inserted quotes and backslashes. */
static void mutated_inputs(void **state) {
  (void)state;
  char path[1024];
  snprintf(path, sizeof path, "%s/corpus/twitterescaped.json", FJ_DATA_DIR);
  size_t n;
  uint8_t *data = fj_test_read_file(path, &n);
  if (!data || n < 5000) skip();
  static const uint8_t bytes[] = {'"', '\\', ' ', '\n', 'a', '}'};
  uint8_t buf[1200];
  for (int t = 0; t < 5000; t++) {
    size_t len = 1 + rnd() % sizeof buf, at = rnd() % (n - len);
    memcpy(buf, data + at, len);
    for (int m = (int)(rnd() % 4); m > 0; m--)
      buf[rnd() % len] = bytes[rnd() % sizeof bytes];
    check(buf, len, "mutated");
  }
  free(data);
}

/* ---- the API ------------------------------------------------------------- */

static void unclosed_strings(void **state) {
  (void)state;
  static const char *const open[] = {"\"", "\"abc", "[\"a\", \"b", "\"\\\"", "{\"k\":\"v\\\\\\\""};
  static const char *const closed[] = {"", "\"\"", "\"\\\\\"", "[\"a\\\"b\" ]", "\\\"", "x\\\""};
  for (size_t i = 0; i < sizeof open / sizeof open[0]; i++) {
    size_t n = 99;
    char out[64];
    assert_int_equal(fj_minify_unvalidated_into(open[i], strlen(open[i]), out, &n),
                     FJ_ERR_UNCLOSED_STRING);
    assert_int_equal(n, strlen(open[i]) - (i == 2 ? 1 : 0)); /* written to the end */
    check((const uint8_t *)open[i], strlen(open[i]), open[i]);
  }
  for (size_t i = 0; i < sizeof closed / sizeof closed[0]; i++) {
    size_t n;
    char out[64];
    assert_int_equal(fj_minify_unvalidated_into(closed[i], strlen(closed[i]), out, &n), FJ_OK);
    check((const uint8_t *)closed[i], strlen(closed[i]), closed[i]);
  }
  /* a string open over many 16 KiB windows */
  size_t len = 100000;
  uint8_t *big = malloc(len);
  memset(big, ' ', len);
  big[10] = '"';
  fj_buffer b = {0};
  assert_int_equal(fj_minify_unvalidated(big, len, (fj_sink){collect, &b}), FJ_ERR_UNCLOSED_STRING);
  assert_int_equal(b.len, len - 10);
  fj_buffer_free(&b);
  free(big);
}

static void in_place(void **state) {
  (void)state;
  char path[1024];
  snprintf(path, sizeof path, "%s/corpus/twitter.json", FJ_DATA_DIR);
  size_t n, got;
  uint8_t *data = fj_test_read_file(path, &n);
  if (!data) skip();
  bool open;
  size_t ref_n = reference(data, n, ref_out, &open);
  for (size_t k = 0; k < kernel_count; k++) {
    memcpy(scratch, data, n);
    fj__minify_carry c = {0, 0};
    got = kernels[k]->minify(scratch, n, scratch, &c);
    if (got != ref_n || memcmp(scratch, ref_out, got) != 0)
      fail_msg("kernel %s in place differs", kernels[k]->name);
  }
  memcpy(scratch, data, n);
  assert_int_equal(fj_minify_unvalidated_into(scratch, n, scratch, &got), FJ_OK);
  assert_int_equal(got, ref_n);
  assert_memory_equal(scratch, ref_out, got);
  free(data);
}

static void invalid_args(void **state) {
  (void)state;
  fj_buffer b = {0};
  size_t n = 7;
  char out[4];
  assert_int_equal(fj_minify_unvalidated("1", 1, (fj_sink){NULL, NULL}), FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_minify_unvalidated(NULL, 1, fj_sink_buffer(&b)), FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_minify_unvalidated_into("1", 1, out, NULL), FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_minify_unvalidated_into(NULL, 1, out, &n), FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_minify_unvalidated_into("1", 1, NULL, &n), FJ_ERR_INVALID_ARG);
  assert_int_equal(b.len, 0);
  /* nothing to do is no error */
  assert_int_equal(fj_minify_unvalidated(NULL, 0, fj_sink_buffer(&b)), FJ_OK);
  assert_int_equal(b.len, 0);
  assert_int_equal(fj_minify_unvalidated_into(NULL, 0, NULL, &n), FJ_OK);
  assert_int_equal(n, 0);
  fj_buffer_free(&b);
}

/* The buffer sink appends and keeps a NUL; the fixed sink reports overflow. */
static void sinks(void **state) {
  (void)state;
  fj_buffer b = {0};
  assert_int_equal(fj_minify_unvalidated("[1, 2]", 6, fj_sink_buffer(&b)), FJ_OK);
  assert_int_equal(fj_minify_unvalidated(" { \"a b\" : 3 } ", 15, fj_sink_buffer(&b)), FJ_OK);
  assert_string_equal((const char *)b.data, "[1,2]{\"a b\":3}");
  fj_buffer_free(&b);
  char small[3];
  fj_fixed_buffer fb = {small, sizeof small, 0, 0};
  assert_int_equal(fj_minify_unvalidated("[1, 2]", 6, fj_sink_fixed(&fb)), FJ_ERR_BUFFER_TOO_SMALL);
  assert_int_equal(fb.needed, 5);
}

static int failing_calls;
static fj_error fail_second(void *ctx, const void *bytes, size_t len) {
  (void)ctx, (void)bytes, (void)len;
  return ++failing_calls == 2 ? FJ_ERR_IO : FJ_OK;
}

/* The sink's error stops the output. */
static void sink_error(void **state) {
  (void)state;
  size_t len = 100000;
  uint8_t *doc = malloc(len);
  memset(doc, '1', len);
  assert_int_equal(fj_minify_unvalidated(doc, len, (fj_sink){fail_second, NULL}), FJ_ERR_IO);
  assert_int_equal(failing_calls, 2);
  free(doc);
}

int main(int argc, char **argv) {
  simde_only = argc > 1 && strcmp(argv[1], "--simde") == 0;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(corpus_files),     cmocka_unit_test(test_suite_files),
      cmocka_unit_test(every_prefix),     cmocka_unit_test(backslash_runs),
      cmocka_unit_test(random_inputs),    cmocka_unit_test(mutated_inputs),
      cmocka_unit_test(unclosed_strings), cmocka_unit_test(in_place),
      cmocka_unit_test(invalid_args),     cmocka_unit_test(sinks),
      cmocka_unit_test(sink_error),
  };
  int rc = cmocka_run_group_tests(tests, setup, teardown);
  fprintf(stderr, "%lu inputs checked on %zu kernels\n", inputs_checked, kernel_count);
  return rc;
}
