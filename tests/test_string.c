/* Strings (src/ondemand/string.c): unescaping per RFC 8259 section 7 (every
 * short escape, \u escapes, surrogate pairs, lone surrogates with and
 * without FJ_PARSE_REPLACE_LONE_SURROGATES, bad hex), zero-copy strings,
 * fj_value_copy_string, the lifetime of scratch strings, escaped keys in
 * fj_object_find, and escapes that straddle the 64-byte blocks of stage 1.
 *
 * Why: unescaping is where a fast parser most easily returns wrong bytes
 * without any error. The oracles are independent of the library:
 * hand-written expected bytes; a round trip through a tiny encoder in this
 * file (random strings, randomly escaped, must decode to themselves);
 * twitter.json against twitterescaped.json (the same data, one written
 * with raw UTF-8 and one with \u escapes, walked in lockstep); and Python's
 * json module run through popen (skipped when python3 is missing).
 *
 * The stage-2 string primitives (find_backslash, copy_plain) are also
 * checked alone against a byte loop, with the input and the output next to
 * unreadable pages. test_string --simde (ctest's string.avx512_simde) runs
 * all of this with the AVX-512 primitives compiled through SIMDe
 * (string_avx512_simde.c) in place of the kernel's, so that they are tested
 * on CPUs without AVX-512 too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fastjson.h"
#include "ondemand/internal.h" /* fj__string_kernel; the parser's primitives */
#include "scan/stage1.h"       /* fj__kernel_active */
#include "test_util.h"

#define EXPECT(call, code) assert_string_equal(fj_error_name(call), fj_error_name(code))
#define OK(call) EXPECT(call, FJ_OK)

typedef struct fixture {
  fj_parser *p;   /* default options */
  fj_parser *rep; /* FJ_PARSE_REPLACE_LONE_SURROGATES */
  void *docs[256];
  size_t ndocs;
} fixture;

static bool simde_only; /* --simde: the AVX-512 primitives through SIMDe */

#ifdef FJ_TEST_AVX512_SIMDE
extern const fj__string_kernel fj__string_avx512_simde; /* string_avx512_simde.c */
#endif

/* The string primitives under test: the active kernel's, or with --simde
 * the SIMDe build of the AVX-512 ones (NULL where this build has none). */
static const fj__string_kernel *primitives(void) {
  if (!simde_only) return fj__string_kernel_for(fj__kernel_active()->name);
#ifdef FJ_TEST_AVX512_SIMDE
  return &fj__string_avx512_simde;
#else
  fprintf(stderr, "--simde: this build has no SIMDe string primitives (SIMDe not found)\n");
  return NULL;
#endif
}

/* With --simde, has p use the SIMDe primitives: a parse takes its primitives
 * from the stage-1 kernel only when that kernel changes (parser.c), so p is
 * also told that the active kernel is in place already. */
static bool use_primitives(fj_parser *p) {
  const fj__string_kernel *sk = primitives();
  if (!sk) return false;
  if (simde_only) {
    p->kernel = fj__kernel_active();
    p->find_backslash = sk->find_backslash;
    p->copy_plain = sk->copy_plain;
  }
  return true;
}

/* Whether p still has the primitives under test (after its parses). */
static bool uses_primitives(const fj_parser *p) {
  const fj__string_kernel *sk = primitives();
  return p->find_backslash == sk->find_backslash && p->copy_plain == sk->copy_plain;
}

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  fj_parser_options opts = {0};
  opts.flags = FJ_PARSE_REPLACE_LONE_SURROGATES;
  if (!f || fj_parser_new(&f->p, NULL) || fj_parser_new(&f->rep, &opts)) return -1;
  if (!use_primitives(f->p) || !use_primitives(f->rep)) return -1;
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  /* a parser that has parsed keeps the primitives it was given */
  bool kept = !f->p->kernel || uses_primitives(f->p);
  kept = kept && (!f->rep->kernel || uses_primitives(f->rep));
  fj_parser_free(f->p);
  fj_parser_free(f->rep);
  for (size_t i = 0; i < f->ndocs; i++)
    free(f->docs[i]);
  free(f);
  return kept ? 0 : -1;
}

/* An exact-size heap copy (AddressSanitizer sees any over-read). */
static const char *keep(fixture *f, const void *s, size_t len) {
  assert_true(f->ndocs < 256);
  char *c = malloc(len ? len : 1);
  assert_non_null(c);
  memcpy(c, s, len);
  f->docs[f->ndocs++] = c;
  return c;
}

/* Parses `len` bytes as the root value. */
static fj_error parse_n(fixture *f, fj_parser *p, const char *json, size_t len, fj_value *root,
                        const char **copy) {
  const char *c = keep(f, json, len);
  if (copy) *copy = c;
  return fj_parser_parse(p, c, len, root);
}

/* Reads the root string of `json` (a JSON string literal) with parser p. */
static fj_error root_string(fixture *f, fj_parser *p, const char *json, const char **s, size_t *n) {
  fj_value root;
  fj_error err = parse_n(f, p, json, strlen(json), &root, NULL);
  return err ? err : fj_value_get_string(&root, s, n);
}

static void expect_str(fixture *f, fj_parser *p, const char *json, const char *want,
                       size_t want_len) {
  const char *s = NULL;
  size_t n = 0;
  OK(root_string(f, p, json, &s, &n));
  assert_int_equal(n, want_len);
  assert_memory_equal(s, want, n);
}
#define EXPECT_STR(p, json, lit) expect_str(f, (p), (json), (lit), sizeof(lit) - 1)

/* ---- escapes ----------------------------------------------------------------- */

static void short_escapes(void **state) {
  fixture *f = *state;
  EXPECT_STR(f->p, "\"\\\"\"", "\"");
  EXPECT_STR(f->p, "\"\\\\\"", "\\");
  EXPECT_STR(f->p, "\"\\/\"", "/");
  EXPECT_STR(f->p, "\"\\b\"", "\b");
  EXPECT_STR(f->p, "\"\\f\"", "\f");
  EXPECT_STR(f->p, "\"\\n\"", "\n");
  EXPECT_STR(f->p, "\"\\r\"", "\r");
  EXPECT_STR(f->p, "\"\\t\"", "\t");
  EXPECT_STR(f->p, "\"a\\\"b\\\\c\\/d\\be\\ff\\ng\\rh\\ti\"", "a\"b\\c/d\be\ff\ng\rh\ti");
  EXPECT_STR(f->p, "\"\\\\\\\\\\\"\"", "\\\\\"");
  EXPECT_STR(f->p, "\"\\\\n\"", "\\n"); /* an escaped backslash, then a plain n */
  EXPECT_STR(f->p, "\"\"", "");
  EXPECT_STR(f->p, "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"", "caf\xc3\xa9 \xf0\x9f\x98\x80");
}

static void unicode_escapes(void **state) {
  fixture *f = *state;
  EXPECT_STR(f->p, "\"\\u0041\"", "A");
  EXPECT_STR(f->p, "\"\\u007f\\u0080\"", "\x7f\xc2\x80");
  EXPECT_STR(f->p, "\"\\u00e9\\u00E9\"", "\xc3\xa9\xc3\xa9");
  EXPECT_STR(f->p, "\"\\u07FF\\u0800\"", "\xdf\xbf\xe0\xa0\x80");
  EXPECT_STR(f->p, "\"\\u20AC\\u20ac\"", "\xe2\x82\xac\xe2\x82\xac");
  EXPECT_STR(f->p, "\"\\uFFFF\\uAbCd\"", "\xef\xbf\xbf\xea\xaf\x8d");
  EXPECT_STR(f->p, "\"\\uD83D\\uDE00\"", "\xf0\x9f\x98\x80");
  EXPECT_STR(f->p, "\"\\ud800\\udc00\"", "\xf0\x90\x80\x80");
  EXPECT_STR(f->p, "\"\\uDBFF\\uDFFF\"", "\xf4\x8f\xbf\xbf");
  EXPECT_STR(f->p, "\"x\\uD834\\uDD1Ey\"", "x\xf0\x9d\x84\x9ey");
  /* \u0000: a NUL inside the returned length */
  EXPECT_STR(f->p, "\"\\u0000\"", "\0");
  EXPECT_STR(f->p, "\"a\\u0000b\\u0000\"", "a\0b\0");
  /* the copy carries it too, plus its own terminator */
  fj_value root;
  char buf[8];
  size_t n;
  OK(parse_n(f, f->p, "\"a\\u0000b\"", 10, &root, NULL));
  OK(fj_value_copy_string(&root, buf, sizeof buf, &n));
  assert_int_equal(n, 3);
  assert_memory_equal(buf, "a\0b\0", 4);
}

static void lone_surrogates(void **state) {
  fixture *f = *state;
  static const struct {
    const char *json;
    const char *replaced; /* with FJ_PARSE_REPLACE_LONE_SURROGATES */
    size_t replaced_len;
    size_t err_offset; /* of the offending escape, default options */
  } cases[] = {
      {"\"\\uD800\"", "\xef\xbf\xbd", 3, 1},
      {"\"\\udbff\"", "\xef\xbf\xbd", 3, 1},
      {"\"\\uDC00\"", "\xef\xbf\xbd", 3, 1},
      {"\"ab\\uDFFF\"", "ab\xef\xbf\xbd", 5, 3},
      {"\"\\uD800x\"", "\xef\xbf\xbdx", 4, 1},
      {"\"\\uD800\\u0041\"",
       "\xef\xbf\xbd"
       "A",
       4, 1},
      {"\"\\uDC00\\uD800\"", "\xef\xbf\xbd\xef\xbf\xbd", 6, 1},
      {"\"\\uD800\\uD800\\uDC00\"", "\xef\xbf\xbd\xf0\x90\x80\x80", 7, 1},
      {"\"\\uD83D\\uDE00\\uDE00\"", "\xf0\x9f\x98\x80\xef\xbf\xbd", 7, 13},
      {"\"\\uD800\\n\"", "\xef\xbf\xbd\n", 4, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const char *s;
    size_t n;
    EXPECT(root_string(f, f->p, cases[i].json, &s, &n), FJ_ERR_BAD_SURROGATE);
    fj_location loc;
    EXPECT(fj_parser_last_error(f->p, &loc), FJ_ERR_BAD_SURROGATE);
    assert_int_equal(loc.offset, cases[i].err_offset);
    expect_str(f, f->rep, cases[i].json, cases[i].replaced, cases[i].replaced_len);
    /* fj_parser_validate agrees with the getter */
    EXPECT(fj_parser_validate(f->p, cases[i].json, strlen(cases[i].json)), FJ_ERR_BAD_SURROGATE);
    OK(fj_parser_validate(f->rep, cases[i].json, strlen(cases[i].json)));
  }
}

static void bad_escapes(void **state) {
  fixture *f = *state;
  /* bad hex digits: found when the string is read */
  static const struct {
    const char *json;
    size_t offset;
  } hex[] = {
      {"\"\\u12G4\"", 1}, {"\"\\u123\"", 1},  {"\"ab\\u\"", 3},          {"\"\\uXYZW\"", 1},
      {"\"\\u 123\"", 1}, {"\"\\u-123\"", 1}, {"\"\\u0041\\u00g1\"", 7},
  };
  for (size_t i = 0; i < sizeof hex / sizeof *hex; i++) {
    const char *s;
    size_t n;
    EXPECT(root_string(f, f->p, hex[i].json, &s, &n), FJ_ERR_BAD_ESCAPE);
    fj_location loc;
    EXPECT(fj_parser_last_error(f->p, &loc), FJ_ERR_BAD_ESCAPE);
    assert_int_equal(loc.offset, hex[i].offset);
    EXPECT(fj_parser_validate(f->p, hex[i].json, strlen(hex[i].json)), FJ_ERR_BAD_ESCAPE);
    EXPECT(fj_parser_last_error(f->p, &loc), FJ_ERR_BAD_ESCAPE);
    assert_int_equal(loc.offset, hex[i].offset);
  }
  /* bad hex after a high surrogate: a bad escape at the second one, with
   * replacement on or off (off, it was FJ_ERR_BAD_SURROGATE at the first:
   * fresh-user trial) */
  static const char *const after_high[] = {"\"\\uD800\\u12G4\"", "\"\\ud83d\\uzzzz\"",
                                           "\"\\ud83d\\ude0\"", "\"\\ud83d\\u\""};
  for (size_t i = 0; i < sizeof after_high / sizeof *after_high; i++) {
    const char *s;
    size_t n;
    fj_location loc;
    for (int rep = 0; rep < 2; rep++) {
      fj_parser *p = rep ? f->rep : f->p;
      EXPECT(root_string(f, p, after_high[i], &s, &n), FJ_ERR_BAD_ESCAPE);
      EXPECT(fj_parser_last_error(p, &loc), FJ_ERR_BAD_ESCAPE);
      assert_int_equal(loc.offset, 7);
      EXPECT(fj_parser_validate(p, after_high[i], strlen(after_high[i])), FJ_ERR_BAD_ESCAPE);
      EXPECT(fj_parser_last_error(p, &loc), FJ_ERR_BAD_ESCAPE);
      assert_int_equal(loc.offset, 7);
    }
  }
  /* a bad escape character: refused by the parse itself (stage 1) */
  static const char *const chars[] = {"\"\\x\"", "\"\\a\"", "\"\\U0041\"", "\"\\'\"", "\"\\0\""};
  for (size_t i = 0; i < sizeof chars / sizeof *chars; i++) {
    fj_value root;
    EXPECT(parse_n(f, f->p, chars[i], strlen(chars[i]), &root, NULL), FJ_ERR_BAD_ESCAPE);
    fj_location loc;
    EXPECT(fj_parser_last_error(f->p, &loc), FJ_ERR_BAD_ESCAPE);
    assert_int_equal(loc.offset, 1);
  }
}

/* ---- zero copy and copies ------------------------------------------------------ */

static void zero_copy(void **state) {
  fixture *f = *state;
  const char *json = "[\"plain\", \"caf\xc3\xa9\", \"\", \"esc\\n\", \"tail\"]", *doc;
  size_t len = strlen(json);
  fj_value root, el;
  fj_array a;
  OK(parse_n(f, f->p, json, len, &root, &doc));
  OK(fj_value_get_array(&root, &a));
  static const size_t offsets[] = {2, 11, 0, 0, 33};
  for (int i = 0; i < 5; i++) {
    const char *s;
    size_t n;
    OK(fj_array_next(&a, &el));
    OK(fj_value_get_string(&el, &s, &n));
    int in_input = s >= doc && s + n <= doc + len;
    if (i == 3) { /* escaped: not in the input */
      assert_false(in_input);
      assert_int_equal(n, 4);
      assert_memory_equal(s, "esc\n", 4);
    } else if (i == 2) {
      assert_int_equal(n, 0);
    } else {
      assert_true(in_input);
      assert_ptr_equal(s, doc + offsets[i]);
    }
  }
  /* a root string at the very end of the input */
  OK(parse_n(f, f->p, "\"end\"", 5, &root, &doc));
  const char *s;
  size_t n;
  OK(fj_value_get_string(&root, &s, &n));
  assert_ptr_equal(s, doc + 1);
  assert_int_equal(n, 3);
}

/* The cursor keeps the run of backslash-free blocks the last plain string
 * lay in; a new document in the same memory must not inherit it, and a
 * string before the run (a lookup that wraps around) is searched again. */
static void clean_window(void **state) {
  fixture *f = *state;
  char buf[256], doc2[256];
  size_t len = 0;
  buf[len++] = '[';
  for (int i = 0; i < 30; i++) { /* 180 bytes without a backslash */
    memcpy(buf + len, "\"abc\",", 6);
    len += 6;
  }
  memcpy(buf + len, "\"x\\n\"]", 7);
  len += 7;
  fj_value root, el, v;
  fj_array a;
  const char *s;
  size_t n;
  OK(fj_parser_parse(f->p, buf, len, &root));
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_next(&a, &el));
  OK(fj_value_get_string(&el, &s, &n));
  assert_int_equal(n, 3);
  /* the same memory, now with an escape where the first document had none */
  const char *json2 = "[\"a\\nc\", \"d\"]";
  memcpy(buf, json2, strlen(json2));
  OK(fj_parser_parse(f->p, buf, strlen(json2), &root));
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_next(&a, &el));
  OK(fj_value_get_string(&el, &s, &n));
  assert_int_equal(n, 3);
  assert_memory_equal(s, "a\nc", 3);
  /* an object: "k" (escaped) is found after "z" (plain, later) was read */
  const char *json3 = "{\"k\":\"e\\t\",\"pad\":\"............................................"
                      "...............................................\",\"z\":\"w\"}";
  memcpy(doc2, json3, strlen(json3));
  fj_object o;
  OK(fj_parser_parse(f->p, doc2, strlen(json3), &root));
  OK(fj_value_get_object(&root, &o));
  OK(fj_object_find(&o, "z", &v));
  OK(fj_value_get_string(&v, &s, &n));
  assert_int_equal(n, 1);
  OK(fj_object_find(&o, "k", &v));
  OK(fj_value_get_string(&v, &s, &n));
  assert_int_equal(n, 2);
  assert_memory_equal(s, "e\t", 2);
}

static void copy_string(void **state) {
  fixture *f = *state;
  fj_value root, el[3];
  fj_array a;
  const char *json = "[\"h\xc3\xa9llo\", \"t\\u00e9\\n\", \"\"]";
  OK(parse_n(f, f->p, json, strlen(json), &root, NULL));
  OK(fj_value_get_array(&root, &a));
  for (int i = 0; i < 3; i++)
    OK(fj_array_next(&a, &el[i]));
  char buf[16];
  size_t n = 0;
  /* exact fit: 6 bytes plus the NUL */
  memset(buf, 'X', sizeof buf);
  OK(fj_value_copy_string(&el[0], buf, 7, &n));
  assert_int_equal(n, 6);
  assert_memory_equal(buf, "h\xc3\xa9llo\0X", 8);
  /* one byte short: the needed capacity comes back, the buffer is untouched
   * beyond what the call may write */
  n = 0;
  EXPECT(fj_value_copy_string(&el[0], buf, 6, &n), FJ_ERR_BUFFER_TOO_SMALL);
  assert_int_equal(n, 7);
  n = 0;
  EXPECT(fj_value_copy_string(&el[0], NULL, 0, &n), FJ_ERR_BUFFER_TOO_SMALL);
  assert_int_equal(n, 7);
  /* escaped: "té\n" is 4 bytes */
  EXPECT(fj_value_copy_string(&el[1], buf, 4, &n), FJ_ERR_BUFFER_TOO_SMALL);
  assert_int_equal(n, 5);
  OK(fj_value_copy_string(&el[1], buf, 5, &n));
  assert_int_equal(n, 4);
  assert_memory_equal(buf, "t\xc3\xa9\n\0", 5);
  /* empty string */
  EXPECT(fj_value_copy_string(&el[2], buf, 0, &n), FJ_ERR_BUFFER_TOO_SMALL);
  assert_int_equal(n, 1);
  OK(fj_value_copy_string(&el[2], buf, 1, &n));
  assert_int_equal(n, 0);
  assert_int_equal(buf[0], '\0');
  /* not a string */
  OK(parse_n(f, f->p, "[1]", 3, &root, NULL));
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_next(&a, &el[0]));
  EXPECT(fj_value_copy_string(&el[0], buf, sizeof buf, &n), FJ_ERR_WRONG_TYPE);
}

/* fj_value_copy_string() unescapes straight into the caller's buffer: no
 * parser scratch of the string's size (a sizing call on a string of
 * gigabytes cost as much again, found by a large-input trial), and a buffer
 * of exactly the unescaped length plus the NUL, much shorter than the raw
 * text, is not written past (ASan: the vector copy between escapes may
 * write up to the raw length unless told the room). */
static void copy_string_into_exact_room(void **state) {
  (void)state;
  enum { PLAIN = 40, TAIL = 2 };
  /* "\u0041" + PLAIN x + TAIL times "\u0042": unescaped A, x..., B... */
  size_t raw = 6 + PLAIN + 6 * TAIL, want = 1 + PLAIN + TAIL;
  char *json = malloc(raw + 3), *expect = malloc(want);
  assert_non_null(json);
  assert_non_null(expect);
  size_t k = 0;
  json[k++] = '"';
  memcpy(json + k, "\\u0041", 6), k += 6;
  memset(json + k, 'x', PLAIN), k += PLAIN;
  for (int i = 0; i < TAIL; i++)
    memcpy(json + k, "\\u0042", 6), k += 6;
  json[k++] = '"';
  expect[0] = 'A';
  memset(expect + 1, 'x', PLAIN);
  memset(expect + 1 + PLAIN, 'B', TAIL);
  fj_parser_options opts = {0};
  fj_test_alloc_count count = {0, 0};
  fj_allocator al = fj_test_counting_allocator(&count);
  opts.allocator = &al;
  fj_parser *p;
  OK(fj_parser_new(&p, &opts));
  fj_value root;
  OK(fj_parser_parse(p, json, k, &root));
  size_t n = 0;
  const size_t asked = count.asked;
  EXPECT(fj_value_copy_string(&root, NULL, 0, &n), FJ_ERR_BUFFER_TOO_SMALL);
  assert_int_equal(n, want + 1);
  char *dst = malloc(want + 1);
  assert_non_null(dst);
  EXPECT(fj_value_copy_string(&root, dst, want, &n), FJ_ERR_BUFFER_TOO_SMALL);
  OK(fj_value_copy_string(&root, dst, want + 1, &n));
  assert_int_equal(count.asked, asked);
  assert_int_equal(n, want);
  assert_memory_equal(dst, expect, want);
  assert_int_equal(dst[want], '\0');
  /* the same bytes as fj_value_get_string() */
  const char *s;
  OK(fj_value_get_string(&root, &s, &n));
  assert_int_equal(n, want);
  assert_memory_equal(s, expect, want);
  /* a bad escape: an error with its offset, and dst untouched */
  memcpy(json + 1 + 6 + PLAIN + 6, "\\u00g2", 6);
  OK(fj_parser_parse(p, json, k, &root));
  memset(dst, 'Z', want + 1);
  EXPECT(fj_value_copy_string(&root, dst, want + 1, &n), FJ_ERR_BAD_ESCAPE);
  for (size_t i = 0; i <= want; i++)
    assert_int_equal(dst[i], 'Z');
  fj_parser_free(p);
  free(dst);
  free(expect);
  free(json);
}

/* Many scratch strings stay valid together; copies and key lookups in
 * between must not reuse their memory. */
static void strings_live_until_next_parse(void **state) {
  fixture *f = *state;
  enum { N = 10000 };
  size_t cap = (size_t)N * 48 + 16, len = 0;
  char *json = malloc(cap);
  assert_non_null(json);
  json[len++] = '[';
  for (int i = 0; i < N; i++) {
    /* "\u00e9<i>\n" padded by i % 7 escaped quotes: lengths vary */
    len += (size_t)sprintf(json + len, "%s{\"k\\u0065y\":\"\\u00e9%d\\n", i ? "," : "", i);
    for (int k = 0; k < i % 7; k++)
      len += (size_t)sprintf(json + len, "\\\"");
    len += (size_t)sprintf(json + len, "\"}");
  }
  json[len++] = ']';
  fj_value root, el, v;
  fj_array a;
  fj_object o;
  OK(fj_parser_parse(f->p, json, len, &root));
  OK(fj_value_get_array(&root, &a));
  const char **ptrs = malloc(N * sizeof *ptrs);
  size_t *lens = malloc(N * sizeof *lens);
  assert_true(ptrs && lens);
  char copy[64];
  for (int i = 0; i < N; i++) {
    OK(fj_array_next(&a, &el));
    OK(fj_value_get_object(&el, &o));
    OK(fj_object_find(&o, "key", &v)); /* the key is unescaped to compare */
    OK(fj_value_get_string(&v, &ptrs[i], &lens[i]));
    size_t n;
    OK(fj_value_copy_string(&v, copy, sizeof copy, &n));
    assert_int_equal(n, lens[i]);
  }
  EXPECT(fj_array_next(&a, &el), FJ_END);
  for (int i = 0; i < N; i++) {
    char want[64];
    int w = sprintf(want, "\xc3\xa9%d\n", i);
    for (int k = 0; k < i % 7; k++)
      want[w++] = '"';
    assert_int_equal(lens[i], (size_t)w);
    assert_memory_equal(ptrs[i], want, (size_t)w);
  }
  free(ptrs);
  free(lens);
  free(json);
}

/* ---- keys ---------------------------------------------------------------------- */

static void escaped_keys(void **state) {
  fixture *f = *state;
  const char *json = "{\"a\\u0062\": 1, \"\\\"q\\\"\": 2, \"x\\/y\": 3, \"\\\\u0041\": 4,"
                     " \"\\u0000\": 5, \"\\uD83D\\uDE00\": 6, \"plain\": 7, \"\\u00e9\": 8}";
  fj_value root, v, k;
  fj_object o;
  int64_t x;
  OK(parse_n(f, f->p, json, strlen(json), &root, NULL));
  OK(fj_value_get_object(&root, &o));
  OK(fj_object_find(&o, "ab", &v));
  OK(fj_value_get_int64(&v, &x));
  assert_int_equal(x, 1);
  OK(fj_object_find(&o, "\"q\"", &v));
  OK(fj_value_get_int64(&v, &x));
  assert_int_equal(x, 2);
  OK(fj_object_find(&o, "x/y", &v));
  OK(fj_value_get_int64(&v, &x));
  assert_int_equal(x, 3);
  /* the key's raw text is \\u0041; it unescapes to \u0041 (6 bytes) */
  OK(fj_object_find(&o, "\\u0041", &v));
  OK(fj_value_get_int64(&v, &x));
  assert_int_equal(x, 4);
  EXPECT(fj_object_find(&o, "\\\\u0041", &v), FJ_ERR_NO_SUCH_FIELD); /* the raw text */
  EXPECT(fj_object_find(&o, "A", &v), FJ_ERR_NO_SUCH_FIELD);
  OK(fj_object_findn(&o, "\0", 1, &v));
  OK(fj_value_get_int64(&v, &x));
  assert_int_equal(x, 5);
  OK(fj_object_find(&o, "\xf0\x9f\x98\x80", &v));
  OK(fj_value_get_int64(&v, &x));
  assert_int_equal(x, 6);
  OK(fj_object_find(&o, "\xc3\xa9", &v));
  OK(fj_value_get_int64(&v, &x));
  assert_int_equal(x, 8);
  /* wrap around to an escaped key */
  OK(fj_object_find(&o, "ab", &v));
  OK(fj_value_get_int64(&v, &x));
  assert_int_equal(x, 1);
  /* raw-text lookalikes of escaped keys do not match */
  EXPECT(fj_object_find(&o, "a\\u0062", &v), FJ_ERR_NO_SUCH_FIELD);
  EXPECT(fj_object_find(&o, "x\\/y", &v), FJ_ERR_NO_SUCH_FIELD);
  /* keys read through fj_object_next are unescaped too */
  OK(fj_object_next(&o, &k, &v));
  const char *s;
  size_t n;
  OK(fj_value_get_string(&k, &s, &n));
  assert_int_equal(n, 3);
  assert_memory_equal(s, "\"q\"", 3);
}

/* ---- random round trips across block boundaries ------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state >> 16);
}

/* Appends code point cp to the decoded text (UTF-8) and, written in a random
 * way, to the JSON text. Independent of the library's own encoder. */
static void emit(uint32_t cp, char *dec, size_t *dn, char *enc, size_t *en) {
  static const char hexd[] = "0123456789abcdef";
  unsigned char u[4];
  size_t k;
  if (cp < 0x80) {
    u[0] = (unsigned char)cp, k = 1;
  } else if (cp < 0x800) {
    u[0] = (unsigned char)(0xC0 | cp >> 6), u[1] = (unsigned char)(0x80 | (cp & 63)), k = 2;
  } else if (cp < 0x10000) {
    u[0] = (unsigned char)(0xE0 | cp >> 12), u[1] = (unsigned char)(0x80 | (cp >> 6 & 63));
    u[2] = (unsigned char)(0x80 | (cp & 63)), k = 3;
  } else {
    u[0] = (unsigned char)(0xF0 | cp >> 18), u[1] = (unsigned char)(0x80 | (cp >> 12 & 63));
    u[2] = (unsigned char)(0x80 | (cp >> 6 & 63)), u[3] = (unsigned char)(0x80 | (cp & 63)), k = 4;
  }
  memcpy(dec + *dn, u, k);
  *dn += k;
  const char *shortesc = NULL;
  switch (cp) {
  case '"': shortesc = "\\\""; break;
  case '\\': shortesc = "\\\\"; break;
  case '\b': shortesc = "\\b"; break;
  case '\f': shortesc = "\\f"; break;
  case '\n': shortesc = "\\n"; break;
  case '\r': shortesc = "\\r"; break;
  case '\t': shortesc = "\\t"; break;
  case '/': shortesc = rnd() % 2 ? "\\/" : "/"; break;
  }
  int must = cp < 0x20 || cp == '"' || cp == '\\';
  if (shortesc && (rnd() % 4 || !must)) {
    memcpy(enc + *en, shortesc, strlen(shortesc));
    *en += strlen(shortesc);
  } else if (must || rnd() % 3 == 0) { /* \u form, surrogate pair above the BMP */
    uint32_t units[2] = {cp, 0};
    int nu = 1;
    if (cp >= 0x10000) {
      units[0] = 0xD800 + ((cp - 0x10000) >> 10);
      units[1] = 0xDC00 + ((cp - 0x10000) & 0x3FF);
      nu = 2;
    }
    for (int i = 0; i < nu; i++) {
      enc[(*en)++] = '\\';
      enc[(*en)++] = 'u';
      for (int sh = 12; sh >= 0; sh -= 4) {
        char h = hexd[units[i] >> sh & 15];
        enc[(*en)++] = rnd() % 2 && h >= 'a' ? (char)(h - 32) : h;
      }
    }
  } else {
    memcpy(enc + *en, u, k);
    *en += k;
  }
}

static uint32_t random_cp(void) {
  static const uint32_t pool[] = {'"',    '\\',   '/',    '\n',    '\t',    '\b',     '\f',  '\r',
                                  0,      1,      0x1f,   'a',     'z',     ' ',      '{',   '}',
                                  '[',    ']',    ':',    ',',     0x7f,    0xe9,     0x7ff, 0x800,
                                  0x20ac, 0xfffd, 0xffff, 0x10000, 0x1f600, 0x10ffff, 'u',   '0'};
  return rnd() % 3 ? pool[rnd() % (sizeof pool / sizeof *pool)] : 0x20 + rnd() % 0x5f;
}

/* Arrays of 120 strings of 40 to 80 bytes, a random few with an escape
 * (and some with a backslash as their last character before the block's
 * end), read in order: each must read back unescaped, whatever clean run
 * (fj__clean_window, 8 block bytes a load) the one before it was found in. */
static void clean_runs(void **state) {
  fixture *f = *state;
  enum { STRINGS = 120, MAXLEN = 80 };
  char *doc = malloc(STRINGS * (MAXLEN + 8) + 8), *want = malloc(STRINGS * MAXLEN);
  size_t wlen[STRINGS];
  assert_true(doc && want);
  for (int d = 0; d < 200; d++) {
    size_t n = 0;
    doc[n++] = '[';
    for (int i = 0; i < STRINGS; i++) {
      size_t len = 40 + rnd() % (MAXLEN - 40), w = 0;
      bool esc = rnd() % (d % 5 + 2) == 0; /* from every other string to one in six */
      size_t at = rnd() % len;
      doc[n++] = '"';
      for (size_t k = 0; k < len; k++) {
        if (esc && k == at) {
          doc[n++] = '\\';
          doc[n++] = 't';
          want[i * MAXLEN + w++] = '\t';
        } else {
          doc[n++] = (char)('A' + (k + (size_t)i) % 26);
          want[i * MAXLEN + w++] = (char)('A' + (k + (size_t)i) % 26);
        }
      }
      wlen[i] = w;
      doc[n++] = '"';
      doc[n++] = i + 1 < STRINGS ? ',' : ']';
    }
    const char *c = keep(f, doc, n);
    fj_value root, el;
    fj_array a;
    OK(fj_parser_parse(f->p, c, n, &root));
    OK(fj_value_get_array(&root, &a));
    for (int i = 0; i < STRINGS; i++) {
      const char *str;
      size_t sn;
      OK(fj_array_next(&a, &el));
      OK(fj_value_get_string(&el, &str, &sn));
      assert_int_equal(sn, wlen[i]);
      assert_memory_equal(str, want + i * MAXLEN, sn);
    }
    free(f->docs[--f->ndocs]); /* keep() holds at most 256 */
  }
  free(doc);
  free(want);
}

/* Strings of 1 to 1200 bytes (1 to 20 of stage 1's 64-byte blocks, past
 * the 8 that fj__blocks_zero() reads at once) at several offsets of a
 * block, with no escape or one at the start, the middle or the end: the
 * string must read back unescaped (the backslash block bytes must not call
 * a block with an escape clean), and validation must find a lone
 * surrogate there (nor the \u block bytes). */
static void block_spans(void **state) {
  fixture *f = *state;
  enum { MAX = 1300 };
  char *doc = malloc(MAX + 80), *want = malloc(MAX);
  assert_true(doc && want);
  for (size_t len = 1; len <= 1200; len += len < 80 ? 1 : 7) {
    for (size_t pad = 0; pad < 64; pad += 9) {
      for (int where = 0; where < 4; where++) { /* none, first, middle, last */
        for (int bad = 0; bad < 2; bad++) {     /* \n, or a lone \uD800 */
          size_t n = 0, at = where == 1 ? 0 : where == 2 ? len / 2 : len - 1;
          doc[n++] = '[';
          for (size_t i = 0; i < pad; i++)
            doc[n++] = ' ';
          doc[n++] = '"';
          size_t w = 0;
          for (size_t i = 0; i < len; i++) {
            if (where && i == at) {
              memcpy(doc + n, bad ? "\\uD800" : "\\n", bad ? 6 : 2);
              n += bad ? 6 : 2;
              want[w++] = '\n';
            } else {
              doc[n++] = (char)('a' + i % 26);
              want[w++] = (char)('a' + i % 26);
            }
          }
          doc[n++] = '"';
          doc[n++] = ']';
          const char *c = keep(f, doc, n);
          fj_error v = fj_parser_validate(f->p, c, n);
          if (where && bad) {
            EXPECT(v, FJ_ERR_BAD_SURROGATE);
            free(f->docs[--f->ndocs]); /* keep() holds at most 256 */
            continue;
          }
          OK(v);
          fj_value root, el;
          fj_array a;
          const char *str;
          size_t sn;
          OK(fj_parser_parse(f->p, c, n, &root));
          OK(fj_value_get_array(&root, &a));
          OK(fj_array_next(&a, &el));
          OK(fj_value_get_string(&el, &str, &sn));
          assert_int_equal(sn, w);
          assert_memory_equal(str, want, w);
          free(f->docs[--f->ndocs]); /* keep() holds at most 256 */
        }
      }
    }
  }
  free(doc);
  free(want);
}

static void random_round_trips(void **state) {
  fixture *f = *state;
  enum { DOCS = 3000 };
  char *enc = malloc(8192), *dec = malloc(4096);
  assert_true(enc && dec);
  for (int d = 0; d < DOCS; d++) {
    size_t en = 0, dn = 0;
    /* padding so the string starts at every offset of a 64-byte block */
    size_t pad = (size_t)d % 131;
    enc[en++] = '[';
    for (size_t i = 0; i < pad; i++)
      enc[en++] = ' ';
    enc[en++] = '"';
    size_t cps = rnd() % 90;
    /* runs of backslashes and quotes are the hard case for stage 1 */
    if (d % 3 == 0)
      for (size_t i = 0; i < cps; i++)
        emit(rnd() % 2 ? '\\' : '"', dec, &dn, enc, &en);
    else if (d % 3 == 1 && d % 2) /* text: short stretches between escapes */
      for (size_t i = 0; i < 2 * cps; i++)
        emit(rnd() % 8 ? 0x20 + rnd() % 0x5f : random_cp(), dec, &dn, enc, &en);
    else if (d % 3 == 1) /* stretches of 0-199 bytes: every width of copy_plain's steps */
      for (size_t i = 0; i < cps / 8; i++) {
        for (size_t k = rnd() % 200; k; k--)
          emit(0x20 + rnd() % 0x5f, dec, &dn, enc, &en);
        emit(random_cp(), dec, &dn, enc, &en);
      }
    else
      for (size_t i = 0; i < cps; i++)
        emit(random_cp(), dec, &dn, enc, &en);
    enc[en++] = '"';
    enc[en++] = ',';
    enc[en++] = '"';
    enc[en++] = '\\';
    enc[en++] = '\\';
    enc[en++] = '"';
    enc[en++] = ']';
    fj_value root, el;
    fj_array a;
    const char *s;
    size_t n;
    fj_error err = parse_n(f, f->p, enc, en, &root, NULL);
    if (err) {
      print_error("doc %d: %.*s\n", d, (int)en, enc);
      OK(err);
    }
    OK(fj_parser_validate(f->p, enc, en));
    OK(fj_parser_parse(f->p, enc, en, &root));
    OK(fj_value_get_array(&root, &a));
    OK(fj_array_next(&a, &el));
    OK(fj_value_get_string(&el, &s, &n));
    if (n != dn || memcmp(s, dec, n) != 0) {
      print_error("doc %d: %.*s\n", d, (int)en, enc);
      assert_int_equal(n, dn);
      assert_memory_equal(s, dec, n);
    }
    OK(fj_array_next(&a, &el)); /* the sentinel after it: "\\" */
    OK(fj_value_get_string(&el, &s, &n));
    assert_int_equal(n, 1);
    assert_int_equal(s[0], '\\');
    EXPECT(fj_array_next(&a, &el), FJ_END);
    free(f->docs[--f->ndocs]);
  }
  free(enc);
  free(dec);
}

/* ---- twitter.json against twitterescaped.json ------------------------------------ */

typedef struct lockstep {
  size_t strings, keys, numbers;
} lockstep;

static void assert_same_string(const fj_value *a, const fj_value *b) {
  const char *s, *t;
  size_t n, m;
  OK(fj_value_get_string(a, &s, &n));
  OK(fj_value_get_string(b, &t, &m));
  if (n != m || memcmp(s, t, n) != 0) {
    print_error("strings differ: '%.*s' vs '%.*s'\n", (int)n, s, (int)m, t);
    fail();
  }
}

static void walk_both(fj_value *a, fj_value *b, lockstep *st) {
  fj_type ta, tb;
  OK(fj_value_get_type(a, &ta));
  OK(fj_value_get_type(b, &tb));
  assert_int_equal(ta, tb);
  switch (ta) {
  case FJ_TYPE_STRING:
    assert_same_string(a, b);
    st->strings++;
    break;
  case FJ_TYPE_NUMBER: { /* ids are rounded in the escaped file: compare as doubles loosely */
    double x = 0, y = 0; /* OK() returns to gcc on a failure */
    OK(fj_value_get_double(a, &x));
    OK(fj_value_get_double(b, &y));
    assert_true(x == y || (x > 1e15 && (x - y) / x < 1e-15 && (y - x) / x < 1e-15));
    st->numbers++;
    break;
  }
  case FJ_TYPE_BOOL: {
    bool x, y;
    OK(fj_value_get_bool(a, &x));
    OK(fj_value_get_bool(b, &y));
    assert_int_equal(x, y);
    break;
  }
  case FJ_TYPE_NULL: {
    bool x, y;
    OK(fj_value_is_null(a, &x));
    OK(fj_value_is_null(b, &y));
    assert_true(x && y);
    break;
  }
  case FJ_TYPE_ARRAY: {
    fj_array aa, ab;
    fj_value ea, eb;
    OK(fj_value_get_array(a, &aa));
    OK(fj_value_get_array(b, &ab));
    fj_error e1, e2;
    while ((e1 = fj_array_next(&aa, &ea)) == FJ_OK) {
      OK(fj_array_next(&ab, &eb));
      walk_both(&ea, &eb, st);
    }
    EXPECT(e1, FJ_END);
    e2 = fj_array_next(&ab, &eb);
    EXPECT(e2, FJ_END);
    break;
  }
  case FJ_TYPE_OBJECT: {
    fj_object oa, ob;
    fj_value ka, kb, va, vb;
    OK(fj_value_get_object(a, &oa));
    OK(fj_value_get_object(b, &ob));
    fj_error e1;
    while ((e1 = fj_object_next(&oa, &ka, &va)) == FJ_OK) {
      OK(fj_object_next(&ob, &kb, &vb));
      assert_same_string(&ka, &kb);
      st->keys++;
      walk_both(&va, &vb, st);
    }
    EXPECT(e1, FJ_END);
    EXPECT(fj_object_next(&ob, &kb, &vb), FJ_END);
    break;
  }
  }
}

static void twitter_escaped_lockstep(void **state) {
  fixture *f = *state;
  size_t n1, n2;
  unsigned char *raw = fj_test_read_file(FJ_DATA_DIR "/corpus/twitter.json", &n1);
  unsigned char *esc = fj_test_read_file(FJ_DATA_DIR "/corpus/twitterescaped.json", &n2);
  if (!raw || !esc) {
    free(raw);
    free(esc);
    skip();
  }
  fj_value r1, r2;
  OK(fj_parser_parse(f->p, raw, n1, &r1));
  OK(fj_parser_parse(f->rep, esc, n2, &r2));
  lockstep st = {0, 0, 0};
  walk_both(&r1, &r2, &st);
  /* counts from Python: json.load() of twitter.json has 18099 strings and
   * keys together */
  assert_int_equal(st.strings + st.keys, 18099);
  assert_true(st.numbers > 1000);
  free(raw);
  free(esc);
}

/* ---- Python's json module as an oracle ------------------------------------------- */

static int have_python(void) { return system("python3 -c 'import json' >/dev/null 2>&1") == 0; }

static void python_oracle(void **state) {
  fixture *f = *state;
  if (!have_python()) skip();
  static const char *const inputs[] = {
      "\"\\u0041\\u00e9\\u20ac\\ud83d\\ude00\"",
      "\"\\ud800\"",
      "\"\\udc00\\ud800\"",
      "\"\\ud800\\ud800\\udc00\"",
      "\"\\ud83d\\ude00\\ude00\"",
      "\"\\udbff\\udfff\\ud7ff\\ue000\"",
      "\"\\u0000\\u001f\\u007f\\u0080\\u07ff\\u0800\\uffff\"",
      "\"\\\\\\\\\\\"\\/\\b\\f\\n\\r\\t\"",
      "\"\\\\u0041\"",
      "\"a\\\\\\u0062\\\\\"",
      "\"\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\xef\xbb\xbf\"",
      "\"\\uD834\\uDD1E\\uD834\"",
      "\"\\uDFFF\\uDBFF\"",
      "\"\\ud800\\u0041\\ud800\\\\\"",
      "\"\\u12G4\"",
      "\"\\u123\"",
      "\"\\x\"",
      "\"\\ud800\\u12G4\"",
      "\"abc",
      "\"\t\"",
  };
  enum { N = sizeof inputs / sizeof *inputs };
  char path[] = "/tmp/fj_test_string_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *fp = fdopen(fd, "wb");
  for (int i = 0; i < N; i++)
    fprintf(fp, "%s\n", inputs[i]);
  fclose(fp);
  /* Python decodes each line; lone surrogates become U+FFFD, which is what
   * FJ_PARSE_REPLACE_LONE_SURROGATES promises. Prints hex or ERR. */
  char cmd[1024];
  snprintf(cmd, sizeof cmd,
           "python3 -c 'import json,sys\n"
           "for line in open(sys.argv[1],\"rb\").read().split(b\"\\n\")[:-1]:\n"
           "  try:\n"
           "    s=json.loads(line.decode(\"utf-8\"))\n"
           "    s=\"\".join(\"\\ufffd\" if 0xd800<=ord(c)<=0xdfff else c for c in s)\n"
           "    print(\"OK\",s.encode(\"utf-8\").hex())\n"
           "  except Exception: print(\"ERR\")\n' %s",
           path);
  FILE *py = popen(cmd, "r");
  assert_non_null(py);
  char line[4096];
  int i = 0;
  while (fgets(line, sizeof line, py)) {
    assert_true(i < N);
    const char *s = NULL;
    size_t n = 0;
    fj_error err = root_string(f, f->rep, inputs[i], &s, &n);
    if (strncmp(line, "ERR", 3) == 0) {
      if (err == FJ_OK) print_error("input %d (%s): python rejects, we accept\n", i, inputs[i]);
      assert_true(err != FJ_OK);
    } else {
      if (err) print_error("input %d (%s): %s\n", i, inputs[i], fj_error_name(err));
      OK(err);
      const char *hex = line + 3;
      size_t hn = strcspn(hex, "\n");
      assert_int_equal(hn, 2 * n);
      for (size_t k = 0; k < n; k++) {
        unsigned byte;
        assert_int_equal(sscanf(hex + 2 * k, "%2x", &byte), 1);
        if ((unsigned char)s[k] != byte) print_error("input %d byte %zu\n", i, k);
        assert_int_equal((unsigned char)s[k], byte);
      }
    }
    i++;
  }
  assert_int_equal(pclose(py), 0);
  assert_int_equal(i, N);
  unlink(path);
}

/* ---- the primitives alone ------------------------------------------------------
 * find_backslash and copy_plain (fj__string_kernel in ondemand/internal.h)
 * against a byte loop, for every length up to MAX_PLAIN (four 64-byte
 * blocks and a partial one: every width of the whole-block loops and every
 * tail) with the first backslash at every position or none. The input, and
 * copy_plain's output of the same length, are placed so that they end just
 * before an unreadable page, then so that they start just after one: a read
 * or write outside [s, s + n) or dst's n bytes faults there, on the real
 * instructions as on the SIMDe build (whose masked loads and stores touch
 * only the selected bytes, as the instructions do). Then at each of the 64
 * offsets in a block, with backslashes around the input (a primitive that
 * looked at them would find one too early) and canary bytes around the
 * output. */

enum { MAX_PLAIN = 4 * 64 + 17 };

typedef struct plain_pages {
  size_t page;
  uint8_t *mem;      /* [guard][in][guard][out][guard], a page each */
  uint8_t *in, *out; /* the readable pages */
} plain_pages;

static void expect_plain(const fj__string_kernel *sk, const uint8_t *s, size_t n, uint8_t *dst,
                         size_t want) {
  size_t got = sk->find_backslash(s, n);
  if (got != want) print_error("find_backslash: n %zu, want %zu, got %zu\n", n, want, got);
  assert_int_equal(got, want);
  got = sk->copy_plain(dst, s, n);
  if (got != want) print_error("copy_plain: n %zu, want %zu, got %zu\n", n, want, got);
  assert_int_equal(got, want);
  if (memcmp(dst, s, want) != 0) print_error("copy_plain: n %zu, copy differs\n", n);
  assert_memory_equal(dst, s, want);
}

/* The n bytes of the input: a walk through the byte values (37 is odd, so
 * 256 bytes in a row take each value once) with 0xDC, a backslash with the
 * top bit set, in place of the backslash; then the first backslash at bs
 * (none if bs >= n), and a second one after it where there is room (only the
 * first counts). */
static void fill_plain(uint8_t *s, size_t n, size_t bs) {
  for (size_t i = 0; i < n; i++) {
    uint8_t c = (uint8_t)(i * 37 + n);
    s[i] = c == '\\' ? 0xDC : c;
  }
  if (bs < n) s[bs] = '\\';
  if (bs + 2 < n) s[n - 1] = '\\';
}

static void primitives_alone(void **state) {
  (void)state;
  const fj__string_kernel *sk = primitives();
  assert_non_null(sk);
  plain_pages g;
  g.page = (size_t)sysconf(_SC_PAGESIZE);
  assert_true(g.page >= 4 * 64 + MAX_PLAIN);
  g.mem = mmap(NULL, 5 * g.page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  assert_true(g.mem != MAP_FAILED);
  for (size_t i = 0; i < 5; i += 2)
    assert_int_equal(mprotect(g.mem + i * g.page, g.page, PROT_NONE), 0);
  g.in = g.mem + g.page;
  g.out = g.mem + 3 * g.page;
  unsigned long cases = 0;
  for (size_t n = 0; n <= MAX_PLAIN; n++) {
    for (size_t bs = 0; bs <= n; bs++) { /* bs == n: no backslash */
      /* ending at the guard page, then starting after one */
      uint8_t *s = g.in + g.page - n, *dst = g.out + g.page - n;
      fill_plain(s, n, bs);
      expect_plain(sk, s, n, dst, bs);
      fill_plain(g.in, n, bs);
      expect_plain(sk, g.in, n, g.out, bs);
      cases += 2;
    }
    /* every offset in a block, for the first and last positions and one
     * that moves with the offset (all of them above) */
    for (size_t off = 0; off < 64; off++) {
      size_t pos[] = {0, n ? (off * 7) % n : 0, n ? n - 1 : 0, n};
      for (size_t k = 0; k < sizeof pos / sizeof pos[0]; k++) {
        uint8_t *s = g.in + 64 + off, *dst = g.out + 64 + off;
        memset(s - 64, '\\', n + 128);
        fill_plain(s, n, pos[k]);
        memset(dst - 64, 0xA5, n + 128);
        expect_plain(sk, s, n, dst, pos[k] < n ? pos[k] : n);
        for (size_t i = 0; i < 64; i++) {
          assert_int_equal(dst[-1 - (ptrdiff_t)i], 0xA5); /* nothing written before dst */
          assert_int_equal(dst[n + i], 0xA5);             /* or after its n bytes */
        }
        cases++;
      }
    }
  }
  printf("# %lu cases\n", cases);
  munmap(g.mem, 5 * g.page);
}

int main(int argc, char **argv) {
  simde_only = argc > 1 && strcmp(argv[1], "--simde") == 0;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(primitives_alone),
      cmocka_unit_test_setup_teardown(short_escapes, setup, teardown),
      cmocka_unit_test_setup_teardown(unicode_escapes, setup, teardown),
      cmocka_unit_test_setup_teardown(lone_surrogates, setup, teardown),
      cmocka_unit_test_setup_teardown(bad_escapes, setup, teardown),
      cmocka_unit_test_setup_teardown(zero_copy, setup, teardown),
      cmocka_unit_test_setup_teardown(clean_window, setup, teardown),
      cmocka_unit_test_setup_teardown(copy_string, setup, teardown),
      cmocka_unit_test(copy_string_into_exact_room),
      cmocka_unit_test_setup_teardown(strings_live_until_next_parse, setup, teardown),
      cmocka_unit_test_setup_teardown(escaped_keys, setup, teardown),
      cmocka_unit_test_setup_teardown(block_spans, setup, teardown),
      cmocka_unit_test_setup_teardown(clean_runs, setup, teardown),
      cmocka_unit_test_setup_teardown(random_round_trips, setup, teardown),
      cmocka_unit_test_setup_teardown(twitter_escaped_lockstep, setup, teardown),
      cmocka_unit_test_setup_teardown(python_oracle, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
