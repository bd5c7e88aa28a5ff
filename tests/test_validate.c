/* Full validation (src/ondemand/validate.c plus stage 1): fj_parser_validate
 * on hand-written documents with the expected error code AND byte offset
 * (syntax, numbers, literals, invalid UTF-8, control characters, escapes,
 * unclosed strings, empty input), every prefix of small valid documents,
 * and a differential test against Python's json module on generated and
 * mutated snippets.
 *
 * Why: validation is the library's RFC 8259 verdict; a wrong accept lets
 * bad data through, a wrong reject or a wrong offset misleads users. The
 * oracles are independent of the library: the expected offsets are counted
 * by hand from the text; prefixes are judged by a small recursive-descent
 * checker written in this file (and by Python when it is there); the
 * differential test uses python3's json.loads on a strict UTF-8 decode
 * (skipped without python3). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fastjson.h"
#include "test_util.h"

#define EXPECT(call, code) assert_string_equal(fj_error_name(call), fj_error_name(code))
#define OK(call) EXPECT(call, FJ_OK)

/* The last validated copy: fj_parser_last_error() reads the input to count
 * lines, so it stays alive until the next validate() or teardown. */
static char *last_copy;

static int setup(void **state) {
  fj_parser *p;
  if (fj_parser_new(&p, NULL)) return -1;
  *state = p;
  return 0;
}

static int teardown(void **state) {
  fj_parser_free(*state);
  free(last_copy);
  last_copy = NULL;
  return 0;
}

/* Validates an exact-size heap copy (AddressSanitizer sees over-reads). */
static fj_error validate(fj_parser *p, const char *json, size_t len) {
  free(last_copy);
  last_copy = malloc(len ? len : 1);
  assert_non_null(last_copy);
  memcpy(last_copy, json, len);
  return fj_parser_validate(p, last_copy, len);
}

/* ---- hand-written cases --------------------------------------------------------- */

typedef struct vcase {
  const char *json;
  size_t len; /* 0: strlen */
  fj_error err;
  size_t offset;
} vcase;

static void run_cases(fj_parser *p, const vcase *cases, size_t n) {
  for (size_t i = 0; i < n; i++) {
    size_t len = cases[i].len ? cases[i].len : strlen(cases[i].json);
    fj_error err = validate(p, cases[i].json, len);
    fj_location loc;
    fj_error last = fj_parser_last_error(p, &loc);
    if (err != cases[i].err || (err && loc.offset != cases[i].offset))
      print_error("case %zu '%.*s': got %s at %zu, want %s at %zu\n", i, (int)len, cases[i].json,
                  fj_error_name(err), loc.offset, fj_error_name(cases[i].err), cases[i].offset);
    EXPECT(err, cases[i].err);
    EXPECT(last, cases[i].err);
    if (err) assert_int_equal(loc.offset, cases[i].offset);
  }
}

/* A structural, number or literal error comes first in the document: a
 * fault stage 1 finds after it (invalid UTF-8, a control character, a bad
 * escape, in a string or not) must not be reported instead (fresh-user
 * trial: `{"a":1}}` then a bad escape on the next line was BAD_ESCAPE).
 * The oracle is each case's own known answer without the fault; cases
 * that end truncated, or whose error stage 1 finds, are left out (what
 * follows them changes that). */
static void first_error_before_stage1_fault(fj_parser *p, const vcase *cases, size_t n) {
  static const char *const faults[] = {" \"\xff\"", "\n\"a\x01\"", " \"\\q\"", " \xff", "\"\xc3"};
  char doc[128];
  for (size_t i = 0; i < n; i++) {
    const fj_error e = cases[i].err; /* stage 1's own errors may change with what follows */
    if (e == FJ_OK || e == FJ_ERR_TRUNCATED || e == FJ_ERR_UTF8 || e == FJ_ERR_UNCLOSED_STRING ||
        e == FJ_ERR_CONTROL_CHAR || e == FJ_ERR_BAD_ESCAPE)
      continue;
    size_t len = cases[i].len ? cases[i].len : strlen(cases[i].json);
    for (size_t f = 0; f < sizeof faults / sizeof *faults; f++) {
      size_t flen = strlen(faults[f]);
      assert_true(len + flen <= sizeof doc);
      memcpy(doc, cases[i].json, len);
      memcpy(doc + len, faults[f], flen);
      fj_error err = validate(p, doc, len + flen);
      fj_location loc;
      fj_parser_last_error(p, &loc);
      if (err != cases[i].err || loc.offset != cases[i].offset)
        print_error("case '%.*s' + fault %zu: got %s at %zu, want %s at %zu\n", (int)len,
                    cases[i].json, f, fj_error_name(err), loc.offset, fj_error_name(cases[i].err),
                    cases[i].offset);
      EXPECT(err, cases[i].err);
      assert_int_equal(loc.offset, cases[i].offset);
    }
  }
}

static void valid_documents(void **state) {
  static const vcase cases[] = {
      {"[]", 0, FJ_OK, 0},
      {"{}", 0, FJ_OK, 0},
      {"0", 0, FJ_OK, 0},
      {"-0", 0, FJ_OK, 0},
      {"-0.5e+10", 0, FJ_OK, 0},
      {"1E-7", 0, FJ_OK, 0},
      {"123456789012345678901234567890e999", 0, FJ_OK, 0}, /* too big for a double: still JSON */
      {"\"a\"", 0, FJ_OK, 0},
      {"true", 0, FJ_OK, 0},
      {"false", 0, FJ_OK, 0},
      {"null", 0, FJ_OK, 0},
      {" \t\r\n[1] \t\r\n", 0, FJ_OK, 0},
      {"[1,{\"a\":[null,false,true,\"\"]},[],{},-1.5E+3,\"\\u00e9\\ud83d\\ude00\"]", 0, FJ_OK, 0},
      {"{\"a\":{\"b\":{\"c\":{}}},\"\":[[[]]]}", 0, FJ_OK, 0},
      {"[\"\x7f \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf \xef\xbf\xbf\"]", 0, FJ_OK,
       0},
      {"\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0000\"", 0, FJ_OK, 0},
      {"[1,2]", 0, FJ_OK, 0},
      {"{\"a\" : 1 , \"b\" : [ ] }", 0, FJ_OK, 0},
  };
  run_cases(*state, cases, sizeof cases / sizeof *cases);
}

static void syntax_errors(void **state) {
  static const vcase cases[] = {
      {"[1,]", 0, FJ_ERR_EXPECTED_VALUE, 3},
      {"{\"a\" 1}", 0, FJ_ERR_EXPECTED_COLON, 5},
      {"{\"a\"}", 0, FJ_ERR_EXPECTED_COLON, 4},
      {"[1 2]", 0, FJ_ERR_EXPECTED_COMMA, 3},
      {"[\"a\" \"b\"]", 0, FJ_ERR_EXPECTED_COMMA, 5},
      {"[1}", 0, FJ_ERR_EXPECTED_COMMA, 2},
      {"{\"a\":1]", 0, FJ_ERR_EXPECTED_COMMA, 6},
      {"[", 0, FJ_ERR_TRUNCATED, 1},
      {"[1,2", 0, FJ_ERR_TRUNCATED, 4},
      {"[1,", 0, FJ_ERR_TRUNCATED, 3},
      {"{\"a\":1", 0, FJ_ERR_TRUNCATED, 6},
      {"{\"a\":", 0, FJ_ERR_TRUNCATED, 5},
      {"{\"a\"", 0, FJ_ERR_TRUNCATED, 4},
      {"{", 0, FJ_ERR_TRUNCATED, 1},
      {"[[[]]", 0, FJ_ERR_TRUNCATED, 5},
      {"[1]x", 0, FJ_ERR_TRAILING_CONTENT, 3},
      {"[1]]", 0, FJ_ERR_TRAILING_CONTENT, 3},
      {"{}{}", 0, FJ_ERR_TRAILING_CONTENT, 2},
      {"[1] \n\n  x", 0, FJ_ERR_TRAILING_CONTENT, 8},
      {"1 2", 0, FJ_ERR_TRAILING_CONTENT, 2},
      {"\"a\"\"b\"", 0, FJ_ERR_TRAILING_CONTENT, 3},
      {"{\"a\":1,}", 0, FJ_ERR_EXPECTED_KEY, 7},
      {"{1:1}", 0, FJ_ERR_EXPECTED_KEY, 1},
      {"{]", 0, FJ_ERR_EXPECTED_KEY, 1},
      {"{,}", 0, FJ_ERR_EXPECTED_KEY, 1},
      {"[}", 0, FJ_ERR_EXPECTED_VALUE, 1},
      {"[,1]", 0, FJ_ERR_EXPECTED_VALUE, 1},
      {"{\"a\":}", 0, FJ_ERR_EXPECTED_VALUE, 5},
      {"{\"a\"::1}", 0, FJ_ERR_EXPECTED_VALUE, 5},
      {"]", 0, FJ_ERR_EXPECTED_VALUE, 0},
      {":", 0, FJ_ERR_EXPECTED_VALUE, 0},
      {"NaN", 0, FJ_ERR_EXPECTED_VALUE, 0},
      {"[Infinity]", 0, FJ_ERR_EXPECTED_VALUE, 1},
      {"+1", 0, FJ_ERR_EXPECTED_VALUE, 0},
      {".5", 0, FJ_ERR_EXPECTED_VALUE, 0},
      {"'a'", 0, FJ_ERR_EXPECTED_VALUE, 0},
      {"[1,\0]", 5, FJ_ERR_EXPECTED_VALUE, 3},
      {"\xef\xbb\xbf[]", 0, FJ_ERR_BOM, 0}, /* a BOM is refused (RFC 8259 section 8.1) */
      {"\xef\xbb\xbf", 0, FJ_ERR_BOM, 0},
      {"\xef\xbb", 0, FJ_ERR_UTF8, 0},
      {"[\\\"]", 0, FJ_ERR_EXPECTED_VALUE, 1},   /* a backslash outside strings */
      {"[\f]", 0, FJ_ERR_EXPECTED_VALUE, 1},     /* form feed is not whitespace */
      {"[1 \"a\"", 0, FJ_ERR_EXPECTED_COMMA, 3}, /* a string where a comma is due */
      {"{\"a\" \"b\"", 0, FJ_ERR_EXPECTED_COLON, 5},
      {"[1]\"a\"", 0, FJ_ERR_TRAILING_CONTENT, 3},
      {"[tr\"a\"]", 0, FJ_ERR_BAD_LITERAL, 1}, /* a literal cut short by a string */
      {"[-\"a\"]", 0, FJ_ERR_BAD_NUMBER, 2},
      {"[-\"\xff\"]", 0, FJ_ERR_BAD_NUMBER, 2},
      {"[tr\"\x01\"]", 0, FJ_ERR_BAD_LITERAL, 1},
      /* a closed string last before the stage-1 fault is checked whole
       * (first-error trial: its \u fault lost to the later byte) */
      {"[\"\\ud800\" \xff]", 0, FJ_ERR_BAD_SURROGATE, 2},
      {"[1,\"\\u12\"\xff]", 0, FJ_ERR_BAD_ESCAPE, 4},
      {"[\"\\ud800\" \"abc", 0, FJ_ERR_BAD_SURROGATE, 2},
      {"\"\\u\"\"", 0, FJ_ERR_BAD_ESCAPE, 1},
      {"[1\"\"\xff]", 0, FJ_ERR_BAD_NUMBER, 2}, /* as without the fault */
      {"0\"\"\xed", 0, FJ_ERR_BAD_NUMBER, 1},
      {"[1\xff]", 0, FJ_ERR_UTF8, 2}, /* a tie at one byte: stage 1's error */
      {"[-\xff]", 0, FJ_ERR_UTF8, 2},
      /* the number is broken by the quote, whatever the string holds (it
       * was UNCLOSED_STRING, as stage 1 says of the string): see
       * quote_after_a_value */
      {"[123\"90, 1]", 0, FJ_ERR_BAD_NUMBER, 4},
  };
  run_cases(*state, cases, sizeof cases / sizeof *cases);
  first_error_before_stage1_fault(*state, cases, sizeof cases / sizeof *cases);
}

/* A string that starts where the structure wants no string (right after a
 * number or literal, after a value, a key or the root) is an error at its
 * quote, and the code depends on the bytes up to it alone: whether the
 * string closes, holds a control character or a bad escape, or runs into
 * invalid UTF-8, comes later (trial: `[1"a"]` was BAD_NUMBER but `[1"a\n"]`
 * EXPECTED_COMMA and `[1"]` UNCLOSED_STRING, all at the quote). */
static void quote_after_a_value(void **state) {
  static const vcase before[] = {
      {"[1", 0, FJ_ERR_BAD_NUMBER, 2},
      {"[-2.5", 0, FJ_ERR_BAD_NUMBER, 5},
      {"[true", 0, FJ_ERR_BAD_LITERAL, 5},
      {"{\"a\":null", 0, FJ_ERR_BAD_LITERAL, 9},
      {"1", 0, FJ_ERR_BAD_NUMBER, 1},
      {"[1 ", 0, FJ_ERR_EXPECTED_COMMA, 3},
      {"[\"a\"", 0, FJ_ERR_EXPECTED_COMMA, 4},
      {"[[]", 0, FJ_ERR_EXPECTED_COMMA, 3},
      {"{\"a\"", 0, FJ_ERR_EXPECTED_COLON, 4},
      {"{\"a/b:{\"", 0, FJ_ERR_EXPECTED_COLON, 8},
      {"{\"a\":1 ", 0, FJ_ERR_EXPECTED_COMMA, 7},
      {"[1]", 0, FJ_ERR_TRAILING_CONTENT, 3},
      {"\"a\" ", 0, FJ_ERR_TRAILING_CONTENT, 4},
  };
  static const char *const after[] = {"\"a\"]}",   "\"",    "\"]",    "\" ]",
                                      "\"a\n\"]",  "\"a\n", "\"\x01", "\"\\q\"]",
                                      "\"\xff\"]", "\"a",   "\":[9]}"};
  fj_parser *p = *state;
  char doc[64];
  for (size_t i = 0; i < sizeof before / sizeof *before; i++)
    for (size_t k = 0; k < sizeof after / sizeof *after; k++) {
      int len = snprintf(doc, sizeof doc, "%s%s", before[i].json, after[k]);
      vcase c = {doc, (size_t)len, before[i].err, before[i].offset};
      run_cases(p, &c, 1);
    }
  /* where a value or key is due, the unclosed string is the fault */
  static const vcase due[] = {
      {"[1,\"a", 0, FJ_ERR_UNCLOSED_STRING, 3},
      {"{\"a\":\"", 0, FJ_ERR_UNCLOSED_STRING, 5},
      {"{\"a", 0, FJ_ERR_UNCLOSED_STRING, 1},
      {"\"a\n", 0, FJ_ERR_CONTROL_CHAR, 2},
  };
  run_cases(p, due, sizeof due / sizeof *due);
}

static void number_and_literal_errors(void **state) {
  static const vcase cases[] = {
      {"01", 0, FJ_ERR_BAD_NUMBER, 1},       {"-01", 0, FJ_ERR_BAD_NUMBER, 2},
      {"[00]", 0, FJ_ERR_BAD_NUMBER, 2},     {"-", 0, FJ_ERR_TRUNCATED, 1},
      {"[-]", 0, FJ_ERR_BAD_NUMBER, 2},      {"1.", 0, FJ_ERR_TRUNCATED, 2},
      {"[1.]", 0, FJ_ERR_BAD_NUMBER, 3},     {"1.e5", 0, FJ_ERR_BAD_NUMBER, 2},
      {"1e", 0, FJ_ERR_TRUNCATED, 2},        {"1.5e+", 0, FJ_ERR_TRUNCATED, 5},
      {"[1E-]", 0, FJ_ERR_BAD_NUMBER, 4},    {"0x1", 0, FJ_ERR_BAD_NUMBER, 1},
      {"-a", 0, FJ_ERR_BAD_NUMBER, 1},       {"[1a]", 0, FJ_ERR_BAD_NUMBER, 2},
      {"1.5.5", 0, FJ_ERR_BAD_NUMBER, 3},    {"2e3e4", 0, FJ_ERR_BAD_NUMBER, 3},
      {"[- 1]", 0, FJ_ERR_BAD_NUMBER, 2},    {"{\"a\":1\"b\"}", 0, FJ_ERR_BAD_NUMBER, 6},
      {"[1.", 0, FJ_ERR_TRUNCATED, 3},       {"{\"a\":-", 0, FJ_ERR_TRUNCATED, 6},
      {"[1e-", 0, FJ_ERR_TRUNCATED, 4},      {"-1.", 0, FJ_ERR_TRUNCATED, 3},
      {"tru", 0, FJ_ERR_TRUNCATED, 3},       {"[tru]", 0, FJ_ERR_BAD_LITERAL, 1},
      {"truex", 0, FJ_ERR_BAD_LITERAL, 4},   {"nul", 0, FJ_ERR_TRUNCATED, 3},
      {"[fals", 0, FJ_ERR_TRUNCATED, 5},     {"{\"a\":n", 0, FJ_ERR_TRUNCATED, 6},
      {"nul ", 0, FJ_ERR_BAD_LITERAL, 0},    {"[tr ", 0, FJ_ERR_BAD_LITERAL, 1},
      {"[nulL]", 0, FJ_ERR_BAD_LITERAL, 1},  {"falsy", 0, FJ_ERR_BAD_LITERAL, 0},
      {"[true1]", 0, FJ_ERR_BAD_LITERAL, 5}, {"TRUE", 0, FJ_ERR_EXPECTED_VALUE, 0},
  };
  run_cases(*state, cases, sizeof cases / sizeof *cases);
  first_error_before_stage1_fault(*state, cases, sizeof cases / sizeof *cases);
}

static void string_errors(void **state) {
  static const vcase cases[] = {
      /* invalid UTF-8 */
      {"\"\xc0\x80\"", 0, FJ_ERR_UTF8, 1},         /* overlong NUL */
      {"\"\xc1\xbf\"", 0, FJ_ERR_UTF8, 1},         /* overlong */
      {"\"\xe0\x80\xaf\"", 0, FJ_ERR_UTF8, 1},     /* overlong 3-byte */
      {"\"\xf0\x80\x80\xaf\"", 0, FJ_ERR_UTF8, 1}, /* overlong 4-byte */
      {"\"\xed\xa0\x80\"", 0, FJ_ERR_UTF8, 1},     /* encoded surrogate U+D800 */
      {"\"\xed\xbf\xbf\"", 0, FJ_ERR_UTF8, 1},     /* encoded surrogate U+DFFF */
      {"\"\xf4\x90\x80\x80\"", 0, FJ_ERR_UTF8, 1}, /* above U+10FFFF */
      {"\"\xf5\x80\x80\x80\"", 0, FJ_ERR_UTF8, 1},
      {"\"\xff\"", 0, FJ_ERR_UTF8, 1},
      {"\"\x80\"", 0, FJ_ERR_UTF8, 1},       /* a lone continuation byte */
      {"\"ab\xe2\x82\"", 0, FJ_ERR_UTF8, 3}, /* truncated, then a quote */
      {"[\"\xe2\x82", 0, FJ_ERR_UTF8, 2},    /* truncated at the end of input */
      {"\"\xe2\x82", 0, FJ_ERR_UTF8, 1},
      {"[1]\xc3", 0, FJ_ERR_UTF8, 3}, /* outside strings too */
      {"\"\xc3\xa9\xc3\"", 0, FJ_ERR_UTF8, 3},
      {"\"\xf0\x9f\x98\"", 0, FJ_ERR_UTF8, 1},
      /* control characters */
      {"\"a\x01\"", 0, FJ_ERR_CONTROL_CHAR, 2},
      {"\"\x1f\"", 0, FJ_ERR_CONTROL_CHAR, 1},
      {"[\"\t\"]", 0, FJ_ERR_CONTROL_CHAR, 2},
      {"{\"a\nb\":1}", 0, FJ_ERR_CONTROL_CHAR, 3},
      {"\"\0\"", 3, FJ_ERR_CONTROL_CHAR, 1},
      /* escapes */
      {"\"\\x\"", 0, FJ_ERR_BAD_ESCAPE, 1},
      {"[\"ab\\'\"]", 0, FJ_ERR_BAD_ESCAPE, 4},
      {"\"\\u12G4\"", 0, FJ_ERR_BAD_ESCAPE, 1},
      {"\"\\u12\"", 0, FJ_ERR_BAD_ESCAPE, 1},
      {"{\"\\uqqqq\":1}", 0, FJ_ERR_BAD_ESCAPE, 2},
      {"\"\\uD800\"", 0, FJ_ERR_BAD_SURROGATE, 1},
      {"[\"x\\uDC00\"]", 0, FJ_ERR_BAD_SURROGATE, 3},
      /* unclosed strings */
      {"\"abc", 0, FJ_ERR_UNCLOSED_STRING, 0},
      {"[\"abc]", 0, FJ_ERR_UNCLOSED_STRING, 1},
      {"\"\\\"", 0, FJ_ERR_UNCLOSED_STRING, 0},
      {"[\"a\", \"b\\\\\\\"]", 0, FJ_ERR_UNCLOSED_STRING, 6},
      {"\"", 0, FJ_ERR_UNCLOSED_STRING, 0},
      /* empty */
      {"", 0, FJ_ERR_EMPTY, 0},
      {" \t\r\n", 0, FJ_ERR_EMPTY, 4},
  };
  run_cases(*state, cases, sizeof cases / sizeof *cases);
}

/* Errors past the first 64-byte block, so the offset is not block-relative. */
static void errors_in_later_blocks(void **state) {
  fj_parser *p = *state;
  char buf[512];
  for (size_t pad = 0; pad < 200; pad += 7) {
    static const struct {
      const char *tail;
      size_t at; /* offset of the error within tail */
      fj_error err;
    } tails[] = {
        {"\"\xc0\x80\"]", 1, FJ_ERR_UTF8},    {"\"a\x02\"]", 2, FJ_ERR_CONTROL_CHAR},
        {"\"\\q\"]", 1, FJ_ERR_BAD_ESCAPE},   {"1 2]", 2, FJ_ERR_EXPECTED_COMMA},
        {"\"abc", 0, FJ_ERR_UNCLOSED_STRING}, {"01]", 1, FJ_ERR_BAD_NUMBER},
    };
    for (size_t t = 0; t < sizeof tails / sizeof *tails; t++) {
      size_t len = 0;
      buf[len++] = '[';
      for (size_t i = 0; i < pad; i++)
        buf[len++] = i % 5 == 4 ? '\n' : ' ';
      size_t start = len;
      memcpy(buf + len, tails[t].tail, strlen(tails[t].tail));
      len += strlen(tails[t].tail);
      EXPECT(validate(p, buf, len), tails[t].err);
      fj_location loc;
      fj_parser_last_error(p, &loc);
      assert_int_equal(loc.offset, start + tails[t].at);
      size_t newlines = pad / 5;
      assert_int_equal(loc.line, 1 + newlines);
    }
  }
}

static void depth_and_reuse(void **state) {
  fj_parser *p = *state;
  /* 1024 levels are fine by default, 1025 are not */
  char *buf = malloc(2 * 1025);
  assert_non_null(buf);
  memset(buf, '[', 1024);
  memset(buf + 1024, ']', 1024);
  OK(fj_parser_validate(p, buf, 2048));
  memset(buf, '[', 1025);
  memset(buf + 1025, ']', 1025);
  EXPECT(fj_parser_validate(p, buf, 2050), FJ_ERR_DEPTH);
  fj_location loc;
  fj_parser_last_error(p, &loc);
  assert_int_equal(loc.offset, 1024);
  free(buf);
  /* after validating, the same parser parses and reads a new document */
  fj_value root, el;
  fj_array a;
  OK(fj_parser_parse(p, "[5]", 3, &root));
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_next(&a, &el));
  int64_t x;
  OK(fj_value_get_int64(&el, &x));
  assert_int_equal(x, 5);
  /* a validate right after a failed one gives a clean verdict */
  EXPECT(fj_parser_validate(p, "[1,]", 4), FJ_ERR_EXPECTED_VALUE);
  OK(fj_parser_validate(p, "[1]", 3));
  EXPECT(fj_parser_last_error(p, NULL), FJ_OK);
}

static void corpus_is_valid(void **state) {
  fj_parser *p = *state;
  size_t count;
  char **names = fj_test_list_dir(FJ_DATA_DIR "/corpus", ".json", &count);
  if (!names) skip();
  for (size_t i = 0; i < count; i++) {
    size_t len;
    unsigned char *buf = fj_test_read_in(FJ_DATA_DIR "/corpus", names[i], &len);
    assert_non_null(buf);
    fj_error err = fj_parser_validate(p, buf, len);
    if (err) print_error("%s: %s\n", names[i], fj_error_name(err));
    OK(err);
    free(buf);
  }
  assert_true(count >= 10);
  fj_test_free_list(names, count);
}

/* ---- an independent checker: strict RFC 8259 recursive descent ------------------- */

typedef struct rd {
  const unsigned char *s;
  size_t n, i;
} rd;

static void rd_ws(rd *r) {
  while (r->i < r->n &&
         (r->s[r->i] == ' ' || r->s[r->i] == '\t' || r->s[r->i] == '\n' || r->s[r->i] == '\r'))
    r->i++;
}

static int rd_hex4(rd *r, unsigned *u) {
  if (r->n - r->i < 4) return 0;
  *u = 0;
  for (int k = 0; k < 4; k++) {
    unsigned char c = r->s[r->i++];
    int h = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (h < 0) return 0;
    *u = *u << 4 | (unsigned)h;
  }
  return 1;
}

/* One UTF-8 sequence (RFC 3629 section 4 table). */
static int rd_utf8(rd *r) {
  unsigned char c = r->s[r->i];
  int need;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF)
    need = 1;
  else if (c == 0xE0)
    need = 2, lo = 0xA0;
  else if (c == 0xED)
    need = 2, hi = 0x9F;
  else if (c >= 0xE1 && c <= 0xEF)
    need = 2;
  else if (c == 0xF0)
    need = 3, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3)
    need = 3;
  else if (c == 0xF4)
    need = 3, hi = 0x8F;
  else
    return 0;
  r->i++;
  for (int k = 0; k < need; k++) {
    if (r->i >= r->n) return 0;
    unsigned char d = r->s[r->i++];
    if (d < (k ? 0x80 : lo) || d > (k ? 0xBF : hi)) return 0;
  }
  return 1;
}

static int rd_string(rd *r) {
  if (r->i >= r->n || r->s[r->i] != '"') return 0;
  r->i++;
  for (;;) {
    if (r->i >= r->n) return 0;
    unsigned char c = r->s[r->i];
    if (c == '"') {
      r->i++;
      return 1;
    }
    if (c < 0x20) return 0;
    if (c >= 0x80) {
      if (!rd_utf8(r)) return 0;
      continue;
    }
    r->i++;
    if (c != '\\') continue;
    if (r->i >= r->n) return 0;
    c = r->s[r->i++];
    if (c && strchr("\"\\/bfnrt", c)) continue;
    if (c != 'u') return 0;
    unsigned u, lo;
    if (!rd_hex4(r, &u)) return 0;
    if (u >= 0xDC00 && u <= 0xDFFF) return 0; /* lone low surrogate */
    if (u >= 0xD800 && u <= 0xDBFF) {         /* must be followed by a low one */
      if (r->n - r->i < 2 || r->s[r->i] != '\\' || r->s[r->i + 1] != 'u') return 0;
      r->i += 2;
      if (!rd_hex4(r, &lo) || lo < 0xDC00 || lo > 0xDFFF) return 0;
    }
  }
}

static int rd_digits(rd *r) {
  size_t start = r->i;
  while (r->i < r->n && r->s[r->i] >= '0' && r->s[r->i] <= '9')
    r->i++;
  return r->i > start;
}

static int rd_number(rd *r) {
  if (r->i < r->n && r->s[r->i] == '-') r->i++;
  if (r->i >= r->n) return 0;
  if (r->s[r->i] == '0')
    r->i++;
  else if (!rd_digits(r))
    return 0;
  if (r->i < r->n && r->s[r->i] == '.') {
    r->i++;
    if (!rd_digits(r)) return 0;
  }
  if (r->i < r->n && (r->s[r->i] == 'e' || r->s[r->i] == 'E')) {
    r->i++;
    if (r->i < r->n && (r->s[r->i] == '+' || r->s[r->i] == '-')) r->i++;
    if (!rd_digits(r)) return 0;
  }
  return 1;
}

static int rd_value(rd *r, int depth) {
  if (depth > 100 || r->i >= r->n) return 0;
  unsigned char c = r->s[r->i];
  if (c == '"') return rd_string(r);
  if (c == '-' || (c >= '0' && c <= '9')) return rd_number(r);
  static const char *const words[] = {"true", "false", "null"};
  for (int w = 0; w < 3; w++) {
    size_t l = strlen(words[w]);
    if (r->n - r->i >= l && memcmp(r->s + r->i, words[w], l) == 0) {
      r->i += l;
      return 1;
    }
  }
  if (c != '[' && c != '{') return 0;
  char close = c == '[' ? ']' : '}';
  r->i++;
  rd_ws(r);
  if (r->i < r->n && r->s[r->i] == close) {
    r->i++;
    return 1;
  }
  for (;;) {
    if (close == '}') {
      if (!rd_string(r)) return 0;
      rd_ws(r);
      if (r->i >= r->n || r->s[r->i] != ':') return 0;
      r->i++;
      rd_ws(r);
    }
    if (!rd_value(r, depth + 1)) return 0;
    rd_ws(r);
    if (r->i >= r->n) return 0;
    if (r->s[r->i] == close) {
      r->i++;
      return 1;
    }
    if (r->s[r->i] != ',') return 0;
    r->i++;
    rd_ws(r);
  }
}

static int rd_document(const unsigned char *s, size_t n) {
  rd r = {s, n, 0};
  rd_ws(&r);
  if (!rd_value(&r, 0)) return 0;
  rd_ws(&r);
  return r.i == n;
}

/* The checker itself must be right for the oracle to mean anything. */
static void checker_self_test(void **state) {
  (void)state;
  static const char *const good[] = {
      "[]", "1", "-0.0e+1", "\"\\ud83d\\ude00\"", " {\"a\":[1,true]} ", "\"\xf4\x8f\xbf\xbf\"",
      "123"};
  static const char *const bad[] = {"[1,]", "01", "\"\\ud800\"", "\"\xed\xa0\x80\"", "tru",  "1.",
                                    "[1]x", "",   "\"\t\"",      "{\"a\"}",          "truex"};
  for (size_t i = 0; i < sizeof good / sizeof *good; i++)
    assert_true(rd_document((const unsigned char *)good[i], strlen(good[i])));
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    assert_false(rd_document((const unsigned char *)bad[i], strlen(bad[i])));
}

/* Every compiled kernel that this CPU runs gives the scalar kernel's verdict,
 * error and offset for string contents that straddle 64-byte blocks: valid
 * and broken UTF-8, control characters, backslash runs. The verdict is also
 * checked against the recursive-descent checker. */
static void kernels_agree_at_block_edges(void **state) {
  fj_parser *p = *state;
  static const struct {
    const char *mid;
    size_t len; /* 0: strlen */
  } mids[] = {
      {"\xc3\xa9", 0},
      {"\xe2\x82\xac", 0},
      {"\xf0\x9f\x98\x80", 0},
      {"\\\\", 0},
      {"\\\"", 0},
      {"a\\\\\\\"b", 0},
      {"\\u00e9\\ud83d\\ude00", 0},
      {"\\\\\\\\\\\\", 0},
      {"\xe2\x82", 0},
      {"\xf0\x9f\x98", 0},
      {"\xed\xa0\x80", 0},
      {"\xf4\x90\x80\x80", 0},
      {"\xc3", 0},
      {"\x80", 0},
      {"\xc0\xaf", 0},
      {"\x1f", 0},
      {"\0", 1},
      {"\\x", 0},
      {"\\\\\\", 0},
      {"\\\\\\\\\\", 0},
      {"\\ud800", 0},
      {"\\u12g4", 0},
  };
  size_t nk = fj_kernel_count();
  char buf[256];
  for (size_t m = 0; m < sizeof mids / sizeof *mids; m++) {
    size_t ml = mids[m].len ? mids[m].len : strlen(mids[m].mid);
    for (size_t pad = 0; pad < 140; pad++) {
      size_t len = 0;
      buf[len++] = '[';
      buf[len++] = '"';
      memset(buf + len, 'a', pad);
      len += pad;
      memcpy(buf + len, mids[m].mid, ml);
      len += ml;
      buf[len++] = '"';
      buf[len++] = ']';
      int want = rd_document((const unsigned char *)buf, len);
      OK(fj_kernel_select("scalar"));
      fj_error ref = validate(p, buf, len);
      fj_location ref_loc;
      fj_parser_last_error(p, &ref_loc);
      if ((ref == FJ_OK) != want)
        print_error("mid %zu pad %zu: scalar %s, checker %d\n", m, pad, fj_error_name(ref), want);
      assert_int_equal(ref == FJ_OK, want);
      for (size_t k = 0; k < nk; k++) {
        if (!fj_kernel_supported(k)) continue;
        OK(fj_kernel_select(fj_kernel_name(k)));
        fj_error err = validate(p, buf, len);
        fj_location loc;
        fj_parser_last_error(p, &loc);
        if (err != ref || loc.offset != ref_loc.offset)
          print_error("mid %zu pad %zu kernel %s: %s at %zu, scalar %s at %zu\n", m, pad,
                      fj_kernel_name(k), fj_error_name(err), loc.offset, fj_error_name(ref),
                      ref_loc.offset);
        EXPECT(err, ref);
        assert_int_equal(loc.offset, ref_loc.offset);
      }
    }
  }
  OK(fj_kernel_select("auto"));
}

/* ---- Python as an oracle ------------------------------------------------------------ */

static int have_python(void) { return system("python3 -c 'import json' >/dev/null 2>&1") == 0; }

/* Python's verdict for each input: 'y' accept, 'n' reject, 's' skip (inputs
 * where Python is laxer than RFC 8259: NaN/Infinity, lone surrogates, or
 * nesting deeper than its recursion limit). Writes n verdicts to out. */
static void python_verdicts(char *const *inputs, const size_t *lens, size_t n, char *out) {
  char path[] = "/tmp/fj_test_validate_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *fp = fdopen(fd, "wb");
  for (size_t i = 0; i < n; i++) {
    for (size_t k = 0; k < lens[i]; k++)
      fprintf(fp, "%02x", (unsigned char)inputs[i][k]);
    fputc('\n', fp);
  }
  fclose(fp);
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "python3 -c '\n"
           "import json, sys\n"
           "def lax(c): raise ValueError(c)\n"
           "def sur(v):\n"
           "  if isinstance(v, str): return any(0xd800 <= ord(c) <= 0xdfff for c in v)\n"
           "  if isinstance(v, list): return any(sur(x) for x in v)\n"
           "  if isinstance(v, dict): return any(sur(k) or sur(x) for k, x in v.items())\n"
           "  return False\n"
           "for line in open(sys.argv[1]):\n"
           "  b = bytes.fromhex(line.strip())\n"
           "  try:\n"
           "    v = json.loads(b.decode(\"utf-8\", \"strict\"), parse_constant=lax)\n"
           "    print(\"s\" if sur(v) else \"y\")\n"
           "  except RecursionError: print(\"s\")\n"
           "  except ValueError as e: print(\"s\" if str(e) in (\"NaN\", \"Infinity\", "
           "\"-Infinity\") else \"n\")\n"
           "' %s",
           path);
  FILE *py = popen(cmd, "r");
  assert_non_null(py);
  char line[16];
  size_t i = 0;
  while (fgets(line, sizeof line, py)) {
    assert_true(i < n);
    out[i++] = line[0];
  }
  assert_int_equal(pclose(py), 0);
  assert_int_equal(i, n);
  unlink(path);
}

/* ---- every prefix -------------------------------------------------------------------- */

static void every_prefix(void **state) {
  fj_parser *p = *state;
  static const char *const docs[] = {
      "{\"a\": [1, 2.5e-3, \"x\\\"y\", true, null], \"b\": {\"c\": false}}",
      "[-0, \"\\u00e9\\ud83d\\ude00\", {}, []]",
      "\"str\\\\\"",
      "12345",
      "-1.25E+10",
      "[[[]], {\"\": {}}]",
      "[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\", 1]",
      " {\"k\" : [ true , false ] } ",
      "[1e5, 0.0, 10]",
  };
  enum { NDOCS = sizeof docs / sizeof *docs };
  char *inputs[1024];
  size_t lens[1024], n = 0;
  for (size_t d = 0; d < NDOCS; d++) {
    size_t len = strlen(docs[d]);
    assert_true(rd_document((const unsigned char *)docs[d], len));
    for (size_t k = 0; k <= len; k++) {
      assert_true(n < 1024);
      inputs[n] = (char *)docs[d];
      lens[n++] = k;
      int want = rd_document((const unsigned char *)docs[d], k);
      fj_error err = validate(p, docs[d], k);
      if ((err == FJ_OK) != want)
        print_error("prefix '%.*s': %s, checker says %s\n", (int)k, docs[d], fj_error_name(err),
                    want ? "valid" : "invalid");
      assert_int_equal(err == FJ_OK, want);
      /* a proper prefix of a container document is never valid */
      if (k < len && (docs[d][0] == '[' || docs[d][0] == '{')) assert_true(err != FJ_OK);
    }
  }
  if (!have_python()) return;
  char *verdicts = malloc(n);
  python_verdicts(inputs, lens, n, verdicts);
  for (size_t i = 0; i < n; i++) {
    if (verdicts[i] == 's') continue;
    int want = verdicts[i] == 'y';
    int got = validate(p, inputs[i], lens[i]) == FJ_OK;
    if (got != want)
      print_error("prefix '%.*s': python says %c\n", (int)lens[i], inputs[i], verdicts[i]);
    assert_int_equal(got, want);
  }
  free(verdicts);
}

/* ---- differential test against Python ---------------------------------------------------- */

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 11);
}

static void put(char *buf, size_t *len, size_t cap, const char *s) {
  size_t l = strlen(s);
  if (*len + l < cap) {
    memcpy(buf + *len, s, l);
    *len += l;
  }
}

/* A random JSON value, mostly valid, with some invalid pieces mixed in. */
static void gen_value(char *buf, size_t *len, size_t cap, int depth) {
  static const char *const scalars[] = {
      "0",
      "-0",
      "1",
      "-12",
      "-0.0620350837708",
      "12345678",
      "1.23456789",
      "123.4567890123456789012",
      "9876.5",
      "3.25",
      "1e5",
      "-2.5E-3",
      "1E+2",
      "123456789012345678901234",
      "true",
      "false",
      "null",
      "\"\"",
      "\"abc\"",
      "\"\\n\\t\\\"\\\\\\/\"",
      "\"\\u00e9\"",
      "\"\\ud83d\\ude00\"",
      "\"\xc3\xa9\xe2\x82\xac\"",
      "\"\xf0\x9f\x98\x80\"",
      "\"a b\"",
      /* invalid ones */
      "01",
      "1.",
      ".5",
      "-",
      "+1",
      "1e",
      "tru",
      "nul",
      "\"\\x\"",
      "\"\\u12\"",
      "\"\t\"",
      "\"\\ud800\"",
      "NaN",
      "\"\xc0\x80\"",
      "\"\xed\xa0\x80\"",
      "'a'",
      "0x10",
      "1.5e+",
      "0.12345678.9",
      "01234567.5",
      "1.123456789e",
      "-00.5",
      "1234.",
  };
  enum { NVALID = 25 }; /* the first NVALID scalars are valid */
  unsigned k = rnd() % 10;
  if (depth > 3 || k < 5) {
    unsigned n = sizeof scalars / sizeof *scalars;
    /* invalid scalars are rarer than valid ones */
    unsigned i = rnd() % 4 ? rnd() % NVALID : rnd() % n;
    put(buf, len, cap, scalars[i]);
    return;
  }
  int obj = k >= 8;
  put(buf, len, cap, obj ? "{" : "[");
  unsigned items = rnd() % 4;
  for (unsigned i = 0; i < items; i++) {
    if (i) put(buf, len, cap, rnd() % 2 ? "," : ", ");
    if (obj) {
      static const char *const keys[] = {"\"a\"", "\"\"", "\"k\\u0065y\"", "\"\xc3\xa9\""};
      put(buf, len, cap, keys[rnd() % 4]);
      put(buf, len, cap, rnd() % 2 ? ":" : " : ");
    }
    gen_value(buf, len, cap, depth + 1);
  }
  put(buf, len, cap, obj ? "}" : "]");
}

/* One random edit: delete, insert, replace, or duplicate a byte. */
static void mutate(char *buf, size_t *len, size_t cap) {
  static const char pool[] = "[]{}:,\"\\ 0123456789.-+eEtfnulx\t\n\x01\x7f\xc3\xa9\xe2\x80\xff";
  if (*len == 0) return;
  size_t at = rnd() % *len;
  char c = pool[rnd() % (sizeof pool - 1)];
  switch (rnd() % 4) {
  case 0:
    memmove(buf + at, buf + at + 1, *len - at - 1);
    (*len)--;
    break;
  case 1:
    if (*len + 1 >= cap) break;
    memmove(buf + at + 1, buf + at, *len - at);
    buf[at] = c;
    (*len)++;
    break;
  case 2: buf[at] = c; break;
  default:
    if (*len + 1 >= cap) break;
    memmove(buf + at + 1, buf + at, *len - at);
    (*len)++;
    break;
  }
}

/* Numbers far from the end of the input (validate reads them a word at a
 * time there): every one of a list, valid or not, in every byte alignment,
 * gets the verdict of the in-file RFC 8259 checker. */
static void numbers_in_words(void **state) {
  fj_parser *p = *state;
  static const char *const nums[] = {"0",
                                     "-0",
                                     "7",
                                     "-12",
                                     "123",
                                     "1234",
                                     "12345678",
                                     "123456789",
                                     "-98765432101234",
                                     "1234567890123",
                                     "-1234567890123456",
                                     "12345678901234567890123456",
                                     "1234567890123456.5",
                                     "12345678901234567e5",
                                     "0.5",
                                     "-0.0620350837708",
                                     "1.23456789",
                                     "2.3552889823912345678901",
                                     "10.0",
                                     "1e5",
                                     "1.5E-3",
                                     "01",
                                     "-01",
                                     "00",
                                     "1.",
                                     "-",
                                     "1.e5",
                                     "0.1.2",
                                     "1234.",
                                     "12345678.",
                                     "1.2345678x",
                                     "12a",
                                     "-a",
                                     "0.12345678.9",
                                     "1.123456789e",
                                     "1.5e+",
                                     "1.5E3x",
                                     "012345678901",
                                     "-0123456789012345678",
                                     "12345678901234567x",
                                     "1234567890123456789.",
                                     "1234567890123456-"};
  char doc[256];
  for (size_t i = 0; i < sizeof nums / sizeof *nums; i++)
    for (int pad = 0; pad < 16; pad++)
      for (int close = 0; close < 2; close++) {
        /* [ pad spaces, the number, then a delimiter or a stray byte, then room */
        int len = snprintf(doc, sizeof doc, "[%*s%s%s, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]", pad, "",
                           nums[i], close ? " " : "");
        int want = rd_document((const unsigned char *)doc, (size_t)len);
        int got = validate(p, doc, (size_t)len) == FJ_OK;
        if (got != want) print_error("'%s': checker %d, fastjson %d\n", doc, want, got);
        assert_int_equal(got, want);
      }
}

/* A one-digit number (the validator's shortest path: the digit and the byte
 * after it) followed by every byte value, in an array and as an object's
 * value, with room after it for word reads; and "-d", "0d", "dd" likewise.
 * Each gets the in-file RFC 8259 checker's verdict. */
static void one_digit_then_every_byte(void **state) {
  fj_parser *p = *state;
  static const char *const heads[] = {"[%s", "{\"k\":%s", "[ %s", "{\"k\": %s"};
  static const char *const nums[] = {"0", "5", "9", "-5", "05", "55"};
  static const char room[] = ", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0";
  char doc[128];
  for (size_t h = 0; h < sizeof heads / sizeof *heads; h++)
    for (size_t i = 0; i < sizeof nums / sizeof *nums; i++)
      for (int c = 0; c < 256; c++) {
        int len = snprintf(doc, sizeof doc, heads[h], nums[i]);
        doc[len++] = (char)c;
        len += snprintf(doc + len, sizeof doc - (size_t)len,
                        heads[h][0] == '[' ? "%s]" : ",\"z\":[0%s]}", room);
        int want = rd_document((const unsigned char *)doc, (size_t)len);
        int got = validate(p, doc, (size_t)len) == FJ_OK;
        if (got != want)
          print_error("'%s' (byte %d): checker %d, fastjson %d\n", doc, c, want, got);
        assert_int_equal(got, want);
      }
}

/* A number that fills the input to its last byte, in a buffer of exactly
 * that size (under AddressSanitizer a read past it is an error): long
 * integer parts, fractions after them, none with room for word reads. */
static void numbers_at_the_end(void **state) {
  fj_parser *p = *state;
  static const char *const docs[] = {
      "[123000000000000000000000000000000000000000000000000000000000.46789]",
      "[12345678901234567.5]",
      "[1234567890123456789012]",
      "12345678901.25",
      "[123456789012345678.]",
      "[-98765432109876543210.0123456789]"};
  for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
    size_t n = strlen(docs[i]);
    char *buf = malloc(n);
    assert_non_null(buf);
    memcpy(buf, docs[i], n);
    int want = rd_document((const unsigned char *)buf, n);
    int got = validate(p, buf, n) == FJ_OK;
    if (got != want) print_error("'%s': checker %d, fastjson %d\n", docs[i], want, got);
    assert_int_equal(got, want);
    free(buf);
  }
}

static void differential_python(void **state) {
  fj_parser *p = *state;
  if (!have_python()) skip();
  enum { N = 800, CAP = 512 };
  char **inputs = malloc(N * sizeof *inputs);
  size_t *lens = malloc(N * sizeof *lens);
  assert_true(inputs && lens);
  for (size_t i = 0; i < N; i++) {
    inputs[i] = malloc(CAP);
    lens[i] = 0;
    if (rnd() % 2) put(inputs[i], &lens[i], CAP, " ");
    gen_value(inputs[i], &lens[i], CAP, 0);
    if (i % 3 == 0) /* a third get edited once or twice */
      for (unsigned m = 1 + rnd() % 2; m; m--)
        mutate(inputs[i], &lens[i], CAP);
    if (rnd() % 4 == 0) put(inputs[i], &lens[i], CAP, "\n");
  }
  char *verdicts = malloc(N);
  python_verdicts(inputs, lens, N, verdicts);
  size_t accepted = 0, rejected = 0, disagreements = 0;
  for (size_t i = 0; i < N; i++) {
    int checker = rd_document((unsigned char *)inputs[i], lens[i]);
    int got = validate(p, inputs[i], lens[i]) == FJ_OK;
    if (verdicts[i] != 's') {
      int want = verdicts[i] == 'y';
      /* the in-file checker must agree with Python, or the oracles are wrong */
      assert_int_equal(checker, want);
      if (got != want) {
        print_error("'%.*s': python %c, fastjson %s\n", (int)lens[i], inputs[i], verdicts[i],
                    fj_error_name(fj_parser_last_error(p, NULL)));
        disagreements++;
      }
      want ? accepted++ : rejected++;
    }
    /* skipped by Python (lax there), but strict RFC 8259 has an answer */
    if (verdicts[i] == 's' && got != checker) {
      print_error("'%.*s': checker %d, fastjson %d\n", (int)lens[i], inputs[i], checker, got);
      disagreements++;
    }
  }
  assert_int_equal(disagreements, 0);
  /* the generator exercises both verdicts */
  assert_true(accepted > 100 && rejected > 100);
  for (size_t i = 0; i < N; i++)
    free(inputs[i]);
  free(inputs);
  free(lens);
  free(verdicts);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(valid_documents, setup, teardown),
      cmocka_unit_test_setup_teardown(syntax_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(quote_after_a_value, setup, teardown),
      cmocka_unit_test_setup_teardown(number_and_literal_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(string_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(errors_in_later_blocks, setup, teardown),
      cmocka_unit_test_setup_teardown(depth_and_reuse, setup, teardown),
      cmocka_unit_test_setup_teardown(corpus_is_valid, setup, teardown),
      cmocka_unit_test_setup_teardown(checker_self_test, setup, teardown),
      cmocka_unit_test_setup_teardown(kernels_agree_at_block_edges, setup, teardown),
      cmocka_unit_test_setup_teardown(every_prefix, setup, teardown),
      cmocka_unit_test_setup_teardown(numbers_in_words, setup, teardown),
      cmocka_unit_test_setup_teardown(one_digit_then_every_byte, setup, teardown),
      cmocka_unit_test_setup_teardown(numbers_at_the_end, setup, teardown),
      cmocka_unit_test_setup_teardown(differential_python, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
