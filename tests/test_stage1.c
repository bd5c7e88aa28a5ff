/* Stage 1 against an independent oracle: a byte-at-a-time reference written
 * here from the definitions (not from the kernel's bit tricks) computes the
 * structural index and the first error, and every input must agree with
 * the kernel in use (FASTJSON_KERNEL picks it). UTF-8 is checked by
 * decoding code points and testing their ranges, unlike the library's
 * table-driven validator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fastjson.h"
#include "scan/stage1.h"
#include "test_util.h"

/* Length of the valid UTF-8 sequence at s, or 0 if it is invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  size_t len;
  uint32_t cp;
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0)
    len = 2, cp = c & 0x1F;
  else if ((c & 0xF0) == 0xE0)
    len = 3, cp = c & 0x0F;
  else if ((c & 0xF8) == 0xF0)
    len = 4, cp = c & 0x07;
  else
    return 0;
  if (n < len) return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = cp << 6 | (s[i] & 0x3F);
  }
  static const uint32_t min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < min_cp[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

typedef struct oracle {
  uint32_t *idx;
  uint32_t n;
  bool u_escapes;   /* a 'u' after an escaping backslash, in a string or not */
  bool backslashes; /* a backslash anywhere */
  fj_error err;
  size_t err_offset;
} oracle;

static bool is_ws(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static bool is_op(unsigned char c) { return c && strchr("{}[]:,", c); }

/* The definitions: outside strings, operators and opening quotes are
 * structural, and so is the first byte of every run of other non-space
 * bytes. A backslash escapes the next byte everywhere (so \" never opens or
 * closes a string). The first error by byte offset wins; an unclosed string
 * is reported at its opening quote. */
static void run_oracle(const unsigned char *s, size_t n, oracle *o) {
  o->idx = malloc((n + 1) * sizeof *o->idx);
  o->n = 0;
  o->err = FJ_OK;
  o->err_offset = 0;
  o->u_escapes = o->backslashes = false;
  bool in_string = false, escaped = false, in_token = false;
  size_t string_start = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = s[i];
    bool esc_here = escaped;
    escaped = !esc_here && c == '\\';
    o->u_escapes |= esc_here && c == 'u';
    o->backslashes |= c == '\\';
    if (in_string) {
      if (esc_here && (!c || !strchr("\"\\/bfnrtu", c))) {
        o->err = FJ_ERR_BAD_ESCAPE;
        o->err_offset = i - 1;
        return;
      }
      if (!esc_here && c == '"')
        in_string = false;
      else if (c < 0x20 && !esc_here) {
        o->err = FJ_ERR_CONTROL_CHAR;
        o->err_offset = i;
        return;
      }
    } else if (c == '"' && !esc_here) {
      in_string = true;
      string_start = i;
      o->idx[o->n++] = (uint32_t)i;
      in_token = false;
    } else if (is_op(c)) {
      o->idx[o->n++] = (uint32_t)i;
      in_token = false;
    } else if (is_ws(c)) {
      in_token = false;
    } else {
      if (!in_token) o->idx[o->n++] = (uint32_t)i;
      in_token = true;
    }
    if (c >= 0x80) {
      size_t k = utf8_seq(s + i, n - i);
      if (!k) {
        o->err = FJ_ERR_UTF8;
        o->err_offset = i;
        return;
      }
      /* continuation bytes: part of the string or token, never structural */
      i += k - 1;
    }
  }
  if (in_string) {
    o->err = FJ_ERR_UNCLOSED_STRING;
    o->err_offset = string_start;
  }
}

static void check(const unsigned char *s, size_t n, const char *what) {
  oracle o;
  run_oracle(s, n, &o);
  uint32_t *idx = malloc((n + FJ_INDEX_SLACK) * sizeof *idx);
  fj__stage1_result res = {0};
  fj_error err = fj__kernel_active()->stage1(s, n, idx, &res);
  uint32_t count = res.n;
  size_t off = res.err_offset;
  if (err != o.err || (err && off != o.err_offset)) {
    printf("%s (%zu bytes): kernel %s at %zu, oracle %s at %zu\n", what, n, fj_error_name(err), off,
           fj_error_name(o.err), o.err_offset);
    fail();
  }
  if (!err) {
    if (count != o.n) printf("%s: kernel %u structurals, oracle %u\n", what, count, o.n);
    assert_int_equal(count, o.n);
    assert_memory_equal(idx, o.idx, count * sizeof *idx);
    if (res.u_escapes != o.u_escapes)
      printf("%s: kernel u_escapes %d, oracle %d\n", what, res.u_escapes, o.u_escapes);
    assert_int_equal(res.u_escapes, o.u_escapes);
    assert_int_equal(res.backslashes, o.backslashes);
  }
  free(idx);
  free(o.idx);
}

/* A copy in exactly-sized memory, so reading past the end is caught. */
static void check_exact(const void *s, size_t n, const char *what) {
  unsigned char *copy = malloc(n ? n : 1);
  memcpy(copy, s, n);
  check(copy, n, what);
  free(copy);
}

static void hand_written_cases(void **state) {
  (void)state;
  static const char *const cases[] = {
      "",
      " ",
      "[]",
      "{\"a\":1}",
      "[1, 2 ,3]",
      "\"abc\"",
      "\"a\\\"b\"",
      "\"a\\\\\"",
      "\"\\\\\\\"\"",
      "[tru e]",
      "[1\"a\"]",
      "\"a\"1",
      "\\\"a",
      "[\"\\u00e9\", \"\\n\"]",
      "\"unterminated",
      "\"bad \\x escape\"",
      "\"ctrl \x01 char\"",
      "\"tab\tin string\"",
      "{\"k\":\"v\"}x",
      "\"\xc3\xa9\"",
      "\"\xc3\"",
      "\"\xe2\x82\"",
      "\"\xed\xa0\x80\"",
      "\"\xf4\x90\x80\x80\"",
      "\"\xc0\x80\"",
      "\xff",
      "[\"\xf0\x9f\x98\x80\"]",
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    check_exact(cases[i], strlen(cases[i]), cases[i]);
}

/* Backslash runs and quotes at every position around 64-byte block edges. */
static void block_boundaries(void **state) {
  (void)state;
  unsigned char buf[200];
  for (size_t start = 50; start < 80; start++)
    for (size_t run = 0; run < 6; run++) {
      memset(buf, ' ', sizeof buf);
      buf[start - 10] = '"';
      for (size_t k = 0; k < run; k++)
        buf[start + k] = '\\';
      buf[start + run] = '"';
      buf[start + run + 1] = ',';
      buf[start + run + 2] = '"';
      buf[start + run + 3] = '1';
      check_exact(buf, sizeof buf, "boundary");
      check_exact(buf, start + run + 2, "boundary prefix");
    }
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Random inputs over an alphabet dense in the bytes that matter, plus
 * random bytes of every value. */
static void random_inputs(void **state) {
  (void)state;
  static const char alphabet[] = "\"\\\\\"\" {}[]:,1a\tu\n\x01\xc3\xa9\xe2\x82\xac\xf0\x9f";
  unsigned char buf[300];
  for (int t = 0; t < 20000; t++) {
    size_t n = rng() % sizeof buf;
    bool any_byte = t % 4 == 0;
    for (size_t i = 0; i < n; i++)
      buf[i] =
          any_byte ? (unsigned char)rng() : (unsigned char)alphabet[rng() % (sizeof alphabet - 1)];
    check_exact(buf, n, "random");
  }
}

/* Every corpus and JSONTestSuite file, and every prefix of two of them. */
static void files(void **state) {
  (void)state;
  static const char *const dirs[] = {FJ_DATA_DIR "/corpus", FJ_DATA_DIR "/corpus/extra",
                                     FJ_DATA_DIR "/conformance/JSONTestSuite/test_parsing"};
  size_t total = 0;
  for (size_t d = 0; d < 3; d++) {
    size_t count;
    char **names = fj_test_list_dir(dirs[d], ".json", &count);
    for (size_t i = 0; i < count; i++) {
      char path[1024];
      size_t len;
      snprintf(path, sizeof path, "%s/%s", dirs[d], names[i]);
      unsigned char *buf = fj_test_read_file(path, &len);
      assert_non_null(buf);
      check(buf, len, names[i]);
      if (strcmp(names[i], "demo.json") == 0 || strcmp(names[i], "truenull.json") == 0)
        for (size_t k = 0; k < len && k < 3000; k++)
          check_exact(buf, k, "prefix");
      free(buf);
      total++;
    }
    fj_test_free_list(names, count);
  }
  printf("files checked with kernel %s: %zu\n", fj_kernel_active(), total);
  if (!total) skip();
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hand_written_cases),
      cmocka_unit_test(block_boundaries),
      cmocka_unit_test(random_inputs),
      cmocka_unit_test(files),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
