/* The on-demand cursor (src/ondemand/cursor.c, scalar.c): value types, the
 * integer/double/bool/null getters, arrays and objects (next, at, count,
 * find in and out of order), skipping, the misuse rules of parser.h
 * (FJ_ERR_OUT_OF_ORDER, FJ_ERR_STALE_DOCUMENT), depth limits, trailing
 * content, raw text, error locations and rewind.
 *
 * Why: the cursor is lazy and forward-only, so every rule in parser.h is a
 * place where a wrong value could silently come back. Each test asserts the
 * exact values and error codes the header promises; expected values are
 * written by hand from the JSON text (the oracle is the text itself).
 * Inputs are copied into exact-size heap buffers so that AddressSanitizer
 * catches any read past the end of a document. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fastjson.h"
#include "test_util.h"

/* Compare error codes by name so that a failure prints readable names. */
#define EXPECT(call, code) assert_string_equal(fj_error_name(call), fj_error_name(code))
#define OK(call) EXPECT(call, FJ_OK)

/* ---- fixture: one parser, and the documents of the test ------------------ */

typedef struct fixture {
  fj_parser *p;
  void *docs[64];
  size_t ndocs;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  if (!f || fj_parser_new(&f->p, NULL) != FJ_OK) return -1;
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  fj_parser_free(f->p);
  for (size_t i = 0; i < f->ndocs; i++)
    free(f->docs[i]);
  free(f);
  return 0;
}

/* An exact-size heap copy of `len` bytes, freed at teardown. */
static const char *keep(fixture *f, const char *s, size_t len) {
  assert_true(f->ndocs < 64);
  char *c = malloc(len ? len : 1);
  assert_non_null(c);
  memcpy(c, s, len);
  f->docs[f->ndocs++] = c;
  return c;
}

/* Parses the NUL-terminated `json` (without the NUL) with parser p. */
static fj_error parse_on(fixture *f, fj_parser *p, const char *json, fj_value *root) {
  size_t len = strlen(json);
  return fj_parser_parse(p, keep(f, json, len), len, root);
}

static fj_value parse(fixture *f, const char *json) {
  fj_value root;
  OK(parse_on(f, f->p, json, &root));
  return root;
}

static int64_t get_i64(const fj_value *v) {
  int64_t x = 0;
  OK(fj_value_get_int64(v, &x));
  return x;
}

static void assert_str(const fj_value *v, const char *want) {
  const char *s;
  size_t n;
  OK(fj_value_get_string(v, &s, &n));
  assert_int_equal(n, strlen(want));
  assert_memory_equal(s, want, n);
}

static void assert_raw(const fj_value *v, const char *want) {
  const char *s;
  size_t n;
  OK(fj_value_get_raw(v, &s, &n));
  assert_int_equal(n, strlen(want));
  assert_memory_equal(s, want, n);
}

static void assert_location(const fj_parser *p, fj_error code, size_t offset, size_t line,
                            size_t column) {
  fj_location loc;
  EXPECT(fj_parser_last_error(p, &loc), code);
  assert_int_equal(loc.offset, offset);
  assert_int_equal(loc.line, line);
  assert_int_equal(loc.column, column);
}

/* ---- types and scalars ---------------------------------------------------- */

static void types_of_every_kind(void **state) {
  fixture *f = *state;
  fj_value root = parse(f, " [null, true, false, 0, -2.5e1, \"s\", [], {}] ");
  fj_type t;
  OK(fj_value_get_type(&root, &t));
  assert_int_equal(t, FJ_TYPE_ARRAY);
  const fj_type want[] = {FJ_TYPE_NULL,   FJ_TYPE_BOOL,   FJ_TYPE_BOOL,  FJ_TYPE_NUMBER,
                          FJ_TYPE_NUMBER, FJ_TYPE_STRING, FJ_TYPE_ARRAY, FJ_TYPE_OBJECT};
  fj_array a;
  fj_value el;
  OK(fj_value_get_array(&root, &a));
  for (size_t i = 0; i < 8; i++) {
    OK(fj_array_next(&a, &el));
    OK(fj_value_get_type(&el, &t));
    assert_int_equal(t, want[i]);
    assert_int_equal(fj_value_type(&el), want[i]);
  }
  EXPECT(fj_array_next(&a, &el), FJ_END);
  EXPECT(fj_array_next(&a, &el), FJ_END); /* and on every later call */

  /* scalar roots */
  root = parse(f, "\"x\"");
  OK(fj_value_get_type(&root, &t));
  assert_int_equal(t, FJ_TYPE_STRING);
  root = parse(f, "  -7  ");
  OK(fj_value_get_type(&root, &t));
  assert_int_equal(t, FJ_TYPE_NUMBER);
  assert_int_equal(fj_value_type(&root), FJ_TYPE_NUMBER);
  const fj_value zeroed = {0};
  assert_int_equal(fj_value_type(&zeroed), FJ_TYPE_NULL);
  /* NULL too, not a crash (fresh-user trial); the checked getter refuses both */
  const fj_value *none = NULL;
  assert_int_equal(fj_value_type(none), FJ_TYPE_NULL);
  EXPECT(fj_value_get_type(none, &t), FJ_ERR_INVALID_ARG);
  EXPECT(fj_value_get_type(&zeroed, &t), FJ_ERR_INVALID_ARG);
  assert_int_equal(get_i64(&root), -7);
}

static void scalar_getters(void **state) {
  fixture *f = *state;
  fj_value root =
      parse(f, "[0, -0, 42, 1.5, -0.0, 1e400, 0.1, true, false, null, \"str\", 123abc]");
  fj_array a;
  fj_value v[12];
  OK(fj_value_get_array(&root, &a));
  for (int i = 0; i < 12; i++)
    OK(fj_array_next(&a, &v[i]));

  int64_t i64;
  uint64_t u64;
  double d;
  bool b;
  assert_int_equal(get_i64(&v[0]), 0);
  assert_int_equal(get_i64(&v[1]), 0);
  OK(fj_value_get_uint64(&v[1], &u64)); /* "-0" is 0, not a negative number */
  assert_int_equal(u64, 0);
  assert_int_equal(get_i64(&v[2]), 42);
  OK(fj_value_get_uint64(&v[2], &u64));
  assert_int_equal(u64, 42);
  OK(fj_value_get_double(&v[2], &d));
  assert_true(d == 42.0);
  OK(fj_value_get_double(&v[3], &d));
  assert_true(d == 1.5);
  EXPECT(fj_value_get_int64(&v[3], &i64), FJ_ERR_NOT_INTEGER);
  OK(fj_value_get_double(&v[4], &d));
  assert_true(d == 0.0 && signbit(d));
  OK(fj_value_get_double(&v[1], &d));
  assert_true(d == 0.0 && signbit(d));
  EXPECT(fj_value_get_double(&v[5], &d), FJ_ERR_NUMBER_RANGE);
  OK(fj_value_get_double(&v[6], &d));
  assert_true(d == 0.1);
  OK(fj_value_get_bool(&v[7], &b));
  assert_true(b);
  OK(fj_value_get_bool(&v[8], &b));
  assert_false(b);
  OK(fj_value_is_null(&v[9], &b));
  assert_true(b);
  OK(fj_value_is_null(&v[8], &b));
  assert_false(b);
  OK(fj_value_is_null(&v[10], &b));
  assert_false(b);
  OK(fj_value_is_null(&root, &b));
  assert_false(b);

  /* wrong types */
  EXPECT(fj_value_get_int64(&v[10], &i64), FJ_ERR_WRONG_TYPE);
  EXPECT(fj_value_get_uint64(&v[7], &u64), FJ_ERR_WRONG_TYPE);
  EXPECT(fj_value_get_double(&v[9], &d), FJ_ERR_WRONG_TYPE);
  EXPECT(fj_value_get_bool(&v[2], &b), FJ_ERR_WRONG_TYPE);
  EXPECT(fj_value_get_bool(&v[9], &b), FJ_ERR_WRONG_TYPE);
  const char *s;
  size_t n;
  EXPECT(fj_value_get_string(&v[2], &s, &n), FJ_ERR_WRONG_TYPE);
  fj_array inner;
  EXPECT(fj_value_get_array(&v[2], &inner), FJ_ERR_WRONG_TYPE);
  fj_object o;
  EXPECT(fj_value_get_object(&v[10], &o), FJ_ERR_WRONG_TYPE);

  /* a number token that runs into letters */
  EXPECT(fj_value_get_int64(&v[11], &i64), FJ_ERR_BAD_NUMBER);
  EXPECT(fj_value_get_double(&v[11], &d), FJ_ERR_BAD_NUMBER);

  /* scalars can be read again while the parent is open */
  assert_int_equal(get_i64(&v[2]), 42);
  assert_int_equal(get_i64(&v[2]), 42);
  assert_str(&v[10], "str");
  EXPECT(fj_array_next(&a, NULL), FJ_END);
}

static void bad_literals(void **state) {
  fixture *f = *state;
  fj_value root = parse(f, "[nul, truex, fals, nullnull, true]");
  fj_array a;
  fj_value v[5];
  bool b;
  OK(fj_value_get_array(&root, &a));
  for (int i = 0; i < 5; i++)
    OK(fj_array_next(&a, &v[i]));
  /* where fj_parser_validate() puts each: at a misspelt literal, after a
   * whole one that a token goes on from */
  EXPECT(fj_value_is_null(&v[0], &b), FJ_ERR_BAD_LITERAL);
  assert_location(f->p, FJ_ERR_BAD_LITERAL, 1, 1, 2);
  EXPECT(fj_value_get_bool(&v[1], &b), FJ_ERR_BAD_LITERAL);
  assert_location(f->p, FJ_ERR_BAD_LITERAL, 10, 1, 11);
  EXPECT(fj_value_get_bool(&v[2], &b), FJ_ERR_BAD_LITERAL);
  assert_location(f->p, FJ_ERR_BAD_LITERAL, 13, 1, 14);
  EXPECT(fj_value_is_null(&v[3], &b), FJ_ERR_BAD_LITERAL);
  assert_location(f->p, FJ_ERR_BAD_LITERAL, 23, 1, 24);
  OK(fj_value_get_bool(&v[4], &b));
  assert_true(b);
  /* a root literal at the very end of the input (no delimiter after it) */
  root = parse(f, "false");
  OK(fj_value_get_bool(&root, &b));
  assert_false(b);
  /* the input ending inside a literal: truncated, where it ends */
  root = parse(f, "nul");
  EXPECT(fj_value_is_null(&root, &b), FJ_ERR_TRUNCATED);
  assert_location(f->p, FJ_ERR_TRUNCATED, 3, 1, 4);
  root = parse(f, "fals");
  EXPECT(fj_value_get_bool(&root, &b), FJ_ERR_TRUNCATED);
  assert_location(f->p, FJ_ERR_TRUNCATED, 4, 1, 5);
  root = parse(f, "t");
  EXPECT(fj_value_get_bool(&root, &b), FJ_ERR_TRUNCATED);
  assert_location(f->p, FJ_ERR_TRUNCATED, 1, 1, 2);
  root = parse(f, "nul ");
  EXPECT(fj_value_is_null(&root, &b), FJ_ERR_BAD_LITERAL);
  assert_location(f->p, FJ_ERR_BAD_LITERAL, 0, 1, 1);
  /* the same offsets as validation */
  static const char *const docs[] = {"[nullx]", "[truex]", "[falsey]", "[tru]", "[nul]"};
  for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
    fj_location want, got;
    EXPECT(fj_parser_validate(f->p, docs[i], strlen(docs[i])), FJ_ERR_BAD_LITERAL);
    EXPECT(fj_parser_last_error(f->p, &want), FJ_ERR_BAD_LITERAL);
    root = parse(f, docs[i]);
    OK(fj_value_get_array(&root, &a));
    OK(fj_array_next(&a, &v[0]));
    EXPECT(docs[i][1] == 'n' ? fj_value_is_null(&v[0], &b) : fj_value_get_bool(&v[0], &b),
           FJ_ERR_BAD_LITERAL);
    EXPECT(fj_parser_last_error(f->p, &got), FJ_ERR_BAD_LITERAL);
    assert_int_equal(got.offset, want.offset);
  }
}

/* Number getter k of 8 on v: int64, uint64, double and number, each inline
 * (the macro) and exported (the parenthesised name). */
static fj_error number_getter(int k, const fj_value *v, int64_t *i64, uint64_t *u64, double *d,
                              fj_number *n) {
  switch (k) {
  case 0: return fj_value_get_int64(v, i64);
  case 1: return (fj_value_get_int64)(v, i64);
  case 2: return fj_value_get_uint64(v, u64);
  case 3: return (fj_value_get_uint64)(v, u64);
  case 4: return fj_value_get_double(v, d);
  case 5: return (fj_value_get_double)(v, d);
  case 6: return fj_value_get_number(v, n);
  default: return (fj_value_get_number)(v, n);
  }
}

/* Every number getter, inline and exported, on a number the end of the
 * input cuts off: FJ_ERR_TRUNCATED at the end, where validation puts it;
 * the same text followed by a byte is FJ_ERR_BAD_NUMBER at that byte. */
static void cut_off_numbers(void **state) {
  fixture *f = *state;
  static const char *const cut[] = {"-", "1.", "-0.", "1e", "2E+", "3.5e-", "[1.", "[-"};
  for (size_t i = 0; i < sizeof cut / sizeof *cut; i++) {
    for (int closed = 0; closed < 2; closed++) {
      char doc[16];
      snprintf(doc, sizeof doc, "%s%s", cut[i], closed ? (cut[i][0] == '[' ? "]" : " ") : "");
      const size_t len = strlen(doc), at = strlen(cut[i]);
      const fj_error want = closed ? FJ_ERR_BAD_NUMBER : FJ_ERR_TRUNCATED;
      fj_location loc;
      EXPECT(fj_parser_validate(f->p, doc, len), want);
      EXPECT(fj_parser_last_error(f->p, &loc), want);
      assert_int_equal(loc.offset, at);
      for (int getter = 0; getter < 8; getter++) {
        fj_value root = parse(f, doc), v = root;
        fj_array a;
        if (doc[0] == '[') {
          OK(fj_value_get_array(&root, &a));
          OK(fj_array_next(&a, &v));
        }
        int64_t i64 = 7;
        uint64_t u64 = 7;
        double d = 7;
        fj_number n = {FJ_NUMBER_INT64, {7}};
        fj_error got = number_getter(getter, &v, &i64, &u64, &d, &n);
        if (got != want) print_error("'%s', getter %d: %s\n", doc, getter, fj_error_name(got));
        EXPECT(got, want);
        assert_location(f->p, want, at, 1, at + 1);
        assert_true(i64 == 7 && u64 == 7 && d == 7 && n.i == 7); /* *out untouched */
      }
      for (size_t k = 0; k < f->ndocs; k++) /* keep() holds at most 64 */
        free(f->docs[k]);
      f->ndocs = 0;
    }
  }
}

/* A container the caller entered and left part-read is passed over when its
 * parent steps on, and its closing bracket must match its opening one, as
 * when a container is skipped whole ("[1,2} is an error wherever it is
 * passed over", parser.h): the error and offset are validation's. Before,
 * {"a":[1,2},"b":2} read as far as the 1 found "b" with FJ_OK (trial). So
 * must the element the cursor stands on inside it, handed out and not
 * entered: {"a":[[1}],"b":2}, read as far as the [1}, found "b" with FJ_OK
 * (fresh-user trial; the last four cases). */
static void part_read_child_closed_wrong(void **state) {
  fixture *f = *state;
  static const struct {
    const char *doc;
    int how; /* 0: object, find "a", enter, read one, find "b"; 1: array, enter
              * the first element, read one, next; 2: as 1, two levels down */
  } cases[] = {{"{\"a\":[1,2},\"b\":2}", 0},
               {"{\"a\":{\"x\":1,\"y\":2],\"b\":2}", 0},
               {"[[1,2},3]", 1},
               {"[{\"x\":[1}],2]", 2},
               {"[[[1],2},3]", 1},
               {"{\"a\":[[1}],\"b\":2}", 0},
               {"{\"a\":{\"x\":[1}},\"b\":2}", 0},
               {"[[[1}],3]", 1},
               {"[{\"x\":[[1}]},2]", 2}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const char *doc = cases[i].doc;
    fj_location want;
    const fj_error code = fj_parser_validate(f->p, doc, strlen(doc));
    assert_int_not_equal(code, FJ_OK);
    EXPECT(fj_parser_last_error(f->p, &want), code);
    fj_value root = parse(f, doc), v, w;
    fj_object o, c;
    fj_array a, b, d;
    fj_error got;
    if (cases[i].how == 0) {
      OK(fj_value_get_object(&root, &o));
      OK(fj_object_find(&o, "a", &v));
      if (fj_value_type(&v) == FJ_TYPE_ARRAY) {
        OK(fj_value_get_array(&v, &b));
        OK(fj_array_next(&b, &w));
      } else {
        OK(fj_value_get_object(&v, &c));
        OK(fj_object_next(&c, NULL, &w));
      }
      got = fj_object_find(&o, "b", &v);
    } else {
      OK(fj_value_get_array(&root, &a));
      OK(fj_array_next(&a, &v));
      if (cases[i].how == 1) {
        OK(fj_value_get_array(&v, &b));
        OK(fj_array_next(&b, &w));
      } else {
        OK(fj_value_get_object(&v, &c));
        OK(fj_object_find(&c, "x", &w));
        OK(fj_value_get_array(&w, &d));
        OK(fj_array_next(&d, &w));
      }
      got = fj_array_next(&a, &v);
    }
    if (got != code)
      print_error("'%s': %s, not %s\n", doc, fj_error_name(got), fj_error_name(code));
    EXPECT(got, code);
    assert_location(f->p, code, want.offset, want.line, want.column);
  }
}

/* A number that runs to the end of a document the input cuts off (not the
 * root) may have lost digits: every getter says FJ_ERR_TRUNCATED at the end,
 * where validation puts the document's error, and leaves *out alone. Before,
 * `{"a":12` (cut from `{"a":123}`) read as 12 (fresh-user trial). The same
 * number followed by whitespace, or as the whole document, is complete. */
static void numbers_at_the_cut(void **state) {
  fixture *f = *state;
  static const struct {
    const char *doc, *ptr;
    bool cut;
  } cases[] = {
      {"{\"a\":12", "/a", true},
      {"[1,23", "/1", true},
      {"[1.5e3", "/0", true},
      {"{\"a\":[-0.25", "/a/0", true},
      {"[12345678901234567890123", "/0", true},
      {"{\"a\":12 ", "/a", false},
      {"[1,23\n", "/1", false},
      {"[1,23]", "/1", false},
      {"123", "", false},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const size_t len = strlen(cases[i].doc);
    for (int getter = 0; getter < 8; getter++) {
      fj_value root = parse(f, cases[i].doc), v;
      OK(fj_value_at_pointer(&root, cases[i].ptr, &v));
      int64_t i64 = 7;
      uint64_t u64 = 7;
      double d = 7;
      fj_number n = {FJ_NUMBER_INT64, {7}};
      fj_error got = number_getter(getter, &v, &i64, &u64, &d, &n);
      if (cases[i].cut) {
        if (got != FJ_ERR_TRUNCATED)
          print_error("'%s', getter %d: %s\n", cases[i].doc, getter, fj_error_name(got));
        EXPECT(got, FJ_ERR_TRUNCATED);
        fj_location loc;
        EXPECT(fj_parser_last_error(f->p, &loc), FJ_ERR_TRUNCATED);
        assert_int_equal(loc.offset, len);
        assert_true(i64 == 7 && u64 == 7 && d == 7 && n.i == 7); /* *out untouched */
        fj_location vloc; /* validation reports the document there */
        EXPECT(fj_parser_validate(f->p, cases[i].doc, len), FJ_ERR_TRUNCATED);
        EXPECT(fj_parser_last_error(f->p, &vloc), FJ_ERR_TRUNCATED);
        assert_int_equal(vloc.offset, len);
      } else if (got != FJ_OK && got != FJ_ERR_NOT_INTEGER && got != FJ_ERR_NUMBER_RANGE) {
        fail_msg("'%s', getter %d: %s", cases[i].doc, getter, fj_error_name(got));
      }
    }
    for (size_t k = 0; k < f->ndocs; k++)
      free(f->docs[k]);
    f->ndocs = 0;
  }
}

/* fj_array_count() / fj_object_count() check the container's own commas
 * and colons, each child's first byte and a child container's own bracket
 * pair: the error and offset fj_parser_validate() gives, where counting
 * commas alone counted [1 2 3], [x] and [[1}] as one element; the
 * children's contents are only bracket-matched, as when they are skipped. */
static void counts_check_separators(void **state) {
  fixture *f = *state;
  static const char *const bad[] = {
      "[1 2 3]",
      "[1,,2]",
      "[1,]",
      "[,1]",
      "[1:2]",
      "[[1] [2]]",
      "[{} 1]",
      "{\"a\" 1}",
      "{1:2}",
      "{\"a\":1 \"b\":2}",
      "{\"a\":1,}",
      "{\"a\",\"b\"}",
      "{\"a\":1:2}",
      "{,}",
      "{\"a\"::1}",
      "{\"a\":}",
      "{\"a\":{} \"b\":1}",
      "[\"a\":1]",
      "[1,2 ]x",
      "[[1}]",
      "[{]]",
      "[[1,2}, 3]",
      "{\"a\":[1}}",
      "[x]",
      "[1,x]",
      "{\"a\":x}",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    const char *d = bad[i];
    fj_location want, got;
    const fj_error code = fj_parser_validate(f->p, d, strlen(d));
    assert_true(code != FJ_OK);
    EXPECT(fj_parser_last_error(f->p, &want), code);
    fj_value root = parse(f, d);
    size_t n = 99;
    fj_error err;
    if (d[0] == '[') {
      fj_array a;
      OK(fj_value_get_array(&root, &a));
      err = fj_array_count(&a, &n);
    } else {
      fj_object o;
      OK(fj_value_get_object(&root, &o));
      err = fj_object_count(&o, &n);
    }
    if (code == FJ_ERR_TRAILING_CONTENT) { /* after the root's end: counting does not look */
      OK(err);
      assert_int_equal(n, 2);
      continue;
    }
    if (err != code)
      print_error("%s: %s, validation %s\n", d, fj_error_name(err), fj_error_name(code));
    EXPECT(err, code);
    EXPECT(fj_parser_last_error(f->p, &got), code);
    assert_int_equal(got.offset, want.offset);
    assert_int_equal(n, 99); /* no count on failure */
  }
  /* the children's own contents are not checked (as a skip does not) */
  fj_value root = parse(f, "[[1 2], {\"a\" 1}, 3]");
  fj_array a;
  size_t n = 0;
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_count(&a, &n));
  assert_int_equal(n, 3);
  root = parse(f, "{\"a\": [1 2], \"b\": {:}}");
  fj_object o;
  OK(fj_value_get_object(&root, &o));
  OK(fj_object_count(&o, &n));
  assert_int_equal(n, 2);
}

static void integer_edges(void **state) {
  fixture *f = *state;
  fj_value root = parse(f, "[-9223372036854775808, -9223372036854775809, 9223372036854775807,"
                           " 9223372036854775808, 18446744073709551615, 18446744073709551616,"
                           " 1.0, 1e2, -1, 123456789012345678901234567890, 00]");
  fj_array a;
  fj_value v[11];
  OK(fj_value_get_array(&root, &a));
  for (int i = 0; i < 11; i++)
    OK(fj_array_next(&a, &v[i]));
  int64_t i64 = 0;
  uint64_t u64 = 0;

  OK(fj_value_get_int64(&v[0], &i64));
  assert_true(i64 == INT64_MIN);
  EXPECT(fj_value_get_uint64(&v[0], &u64), FJ_ERR_NUMBER_RANGE);
  EXPECT(fj_value_get_int64(&v[1], &i64), FJ_ERR_NUMBER_RANGE);
  OK(fj_value_get_int64(&v[2], &i64));
  assert_true(i64 == INT64_MAX);
  EXPECT(fj_value_get_int64(&v[3], &i64), FJ_ERR_NUMBER_RANGE);
  OK(fj_value_get_uint64(&v[3], &u64));
  assert_true(u64 == (uint64_t)INT64_MAX + 1);
  EXPECT(fj_value_get_int64(&v[4], &i64), FJ_ERR_NUMBER_RANGE);
  OK(fj_value_get_uint64(&v[4], &u64));
  assert_true(u64 == UINT64_MAX);
  EXPECT(fj_value_get_uint64(&v[5], &u64), FJ_ERR_NUMBER_RANGE);
  EXPECT(fj_value_get_int64(&v[6], &i64), FJ_ERR_NOT_INTEGER);
  EXPECT(fj_value_get_uint64(&v[6], &u64), FJ_ERR_NOT_INTEGER);
  EXPECT(fj_value_get_int64(&v[7], &i64), FJ_ERR_NOT_INTEGER);
  EXPECT(fj_value_get_uint64(&v[7], &u64), FJ_ERR_NOT_INTEGER);
  double d;
  OK(fj_value_get_double(&v[7], &d));
  assert_true(d == 100.0);
  assert_int_equal(get_i64(&v[8]), -1);
  EXPECT(fj_value_get_uint64(&v[8], &u64), FJ_ERR_NUMBER_RANGE);
  EXPECT(fj_value_get_int64(&v[9], &i64), FJ_ERR_NUMBER_RANGE);
  EXPECT(fj_value_get_uint64(&v[9], &u64), FJ_ERR_NUMBER_RANGE);
  EXPECT(fj_value_get_int64(&v[10], &i64), FJ_ERR_BAD_NUMBER);

  /* the text of out-of-range integers stays readable */
  assert_raw(&v[1], "-9223372036854775809");
  assert_raw(&v[5], "18446744073709551616");
  assert_raw(&v[9], "123456789012345678901234567890");
  OK(fj_value_get_double(&v[9], &d));
  assert_true(d == 123456789012345678901234567890.0);

  /* the range error's location is the number's first byte */
  EXPECT(fj_value_get_int64(&v[1], &i64), FJ_ERR_NUMBER_RANGE);
  fj_location loc;
  EXPECT(fj_parser_last_error(f->p, &loc), FJ_ERR_NUMBER_RANGE);
  assert_int_equal(loc.offset, 23);
  EXPECT(fj_array_next(&a, NULL), FJ_END);
}

/* ---- arrays ---------------------------------------------------------------- */

static void array_next_at_count(void **state) {
  fixture *f = *state;
  fj_value root = parse(f, "[10, 20, [1, [2, 3]], {\"a\": [4, 5]}, 30]");
  fj_array a;
  fj_value el;
  size_t count = 0;
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_count(&a, &count));
  assert_int_equal(count, 5);
  OK(fj_array_at(&a, 4, &el)); /* absolute on a fresh iteration */
  assert_int_equal(get_i64(&el), 30);
  OK(fj_array_count(&a, &count)); /* however far the iteration got */
  assert_int_equal(count, 5);
  EXPECT(fj_array_next(&a, &el), FJ_END);

  root = parse(f, "[10, 20, 30, 40]");
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_next(&a, &el));
  assert_int_equal(get_i64(&el), 10);
  OK(fj_array_at(&a, 1, &el)); /* relative: one past the next */
  assert_int_equal(get_i64(&el), 30);
  EXPECT(fj_array_at(&a, 1, &el), FJ_ERR_INDEX_RANGE);
  EXPECT(fj_array_next(&a, &el), FJ_END); /* the iteration is finished */

  root = parse(f, "[10]");
  OK(fj_value_get_array(&root, &a));
  EXPECT(fj_array_at(&a, 1, &el), FJ_ERR_INDEX_RANGE);

  root = parse(f, "[ ]");
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_count(&a, &count));
  assert_int_equal(count, 0);
  EXPECT(fj_array_at(&a, 0, &el), FJ_ERR_INDEX_RANGE);

  /* count of nested containers, counted on the child */
  root = parse(f, "[[], [[1, 2], {\"x\": [3, 4, 5]}, \"a,b\"], 7]");
  fj_array inner;
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_next(&a, &el));
  OK(fj_value_get_array(&el, &inner));
  OK(fj_array_count(&inner, &count));
  assert_int_equal(count, 0);
  OK(fj_array_next(&a, &el));
  OK(fj_value_get_array(&el, &inner));
  OK(fj_array_count(&inner, &count));
  assert_int_equal(count, 3);
  OK(fj_array_at(&inner, 2, &el));
  assert_str(&el, "a,b");
  OK(fj_array_next(&a, &el));
  assert_int_equal(get_i64(&el), 7);
  EXPECT(fj_array_next(&a, &el), FJ_END);
}

static void array_syntax_errors(void **state) {
  fixture *f = *state;
  static const struct {
    const char *json;
    int good; /* elements read before the error */
    fj_error err;
    size_t offset;
  } cases[] = {
      {"[1,]", 1, FJ_ERR_EXPECTED_VALUE, 3},
      {"[1 2]", 1, FJ_ERR_EXPECTED_COMMA, 3},
      {"[1,2", 2, FJ_ERR_TRUNCATED, 4},
      {"[,1]", 0, FJ_ERR_EXPECTED_VALUE, 1},
      {"[1:2]", 1, FJ_ERR_EXPECTED_COMMA, 2},
      {"[1,,2]", 1, FJ_ERR_EXPECTED_VALUE, 3},
      {"[1}", 1, FJ_ERR_EXPECTED_COMMA, 2},
      {"[", 0, FJ_ERR_TRUNCATED, 1},
      /* an unread container element is skipped by bracket matching: a
       * mismatched close is named as validation names it (fj_array_next) */
      {"[{],2]", 1, FJ_ERR_EXPECTED_KEY, 2},
      {"[[1,},2]", 1, FJ_ERR_EXPECTED_VALUE, 4},
      {"[[1},2]", 1, FJ_ERR_EXPECTED_COMMA, 3},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    fj_value root = parse(f, cases[i].json), el;
    fj_array a;
    OK(fj_value_get_array(&root, &a));
    for (int k = 0; k < cases[i].good; k++)
      OK(fj_array_next(&a, &el));
    EXPECT(fj_array_next(&a, &el), cases[i].err);
    fj_location loc;
    EXPECT(fj_parser_last_error(f->p, &loc), cases[i].err);
    assert_int_equal(loc.offset, cases[i].offset);
  }
}

/* ---- objects --------------------------------------------------------------- */

static void object_next_and_find(void **state) {
  fixture *f = *state;
  const char *json = "{\"a\": 1, \"b\": [2], \"c\": {\"d\": 3}, \"e\": \"five\"}";
  fj_value root = parse(f, json), key, val;
  fj_object o;
  size_t count;
  OK(fj_value_get_object(&root, &o));
  OK(fj_object_count(&o, &count));
  assert_int_equal(count, 4);
  val = root; /* a NULL key is refused by both finds, the value zeroed */
  EXPECT(fj_object_find(&o, NULL, &val), FJ_ERR_INVALID_ARG);
  assert_null(val.parser);
  val = root;
  EXPECT(fj_object_findn(&o, NULL, 1, &val), FJ_ERR_INVALID_ARG);
  assert_null(val.parser);
  static const char *const keys[] = {"a", "b", "c", "e"};
  for (int i = 0; i < 4; i++) {
    OK(fj_object_next(&o, &key, &val));
    assert_str(&key, keys[i]);
    assert_raw(&key, i == 0 ? "\"a\"" : i == 1 ? "\"b\"" : i == 2 ? "\"c\"" : "\"e\"");
  }
  assert_str(&val, "five");
  EXPECT(fj_object_next(&o, &key, &val), FJ_END);
  EXPECT(fj_object_next(&o, NULL, NULL), FJ_END);

  /* in order */
  root = parse(f, json);
  OK(fj_value_get_object(&root, &o));
  OK(fj_object_find(&o, "a", &val));
  assert_int_equal(get_i64(&val), 1);
  OK(fj_object_find(&o, "c", &val));
  fj_object c;
  OK(fj_value_get_object(&val, &c));
  OK(fj_object_find(&c, "d", &val));
  assert_int_equal(get_i64(&val), 3);
  OK(fj_object_find(&o, "e", &val)); /* leaves the partly read child */
  assert_str(&val, "five");

  /* out of order: wraps around */
  root = parse(f, json);
  OK(fj_value_get_object(&root, &o));
  OK(fj_object_find(&o, "e", &val));
  assert_str(&val, "five");
  OK(fj_object_find(&o, "a", &val));
  assert_int_equal(get_i64(&val), 1);
  OK(fj_object_find(&o, "b", &val));
  fj_array arr;
  OK(fj_value_get_array(&val, &arr));
  OK(fj_array_next(&arr, &val));
  assert_int_equal(get_i64(&val), 2);
  OK(fj_object_find(&o, "a", &val)); /* back again, from the middle */
  assert_int_equal(get_i64(&val), 1);
  OK(fj_object_find(&o, "e", &val));
  assert_str(&val, "five");
  OK(fj_object_find(&o, "e", &val)); /* the same field twice: wraps to itself */
  assert_str(&val, "five");
  /* a prefix of a key or a longer key does not match */
  EXPECT(fj_object_find(&o, "", &val), FJ_ERR_NO_SUCH_FIELD);
  EXPECT(fj_object_findn(&o, "ab", 2, &val), FJ_ERR_NO_SUCH_FIELD);
  OK(fj_object_findn(&o, "ab", 1, &val));
  assert_int_equal(get_i64(&val), 1);

  /* an array found again by a wrap-around, its first element a container
   * the first visit handed out: a fresh iteration of it reads that element
   * again (it was FJ_ERR_OUT_OF_ORDER). By each lookup path: the scan, the
   * general loop (an escaped key), the field table (many fields). */
  static const char *const again[] = {
      "{\"a\": [[1]]}",
      "{\"a\": [{}], \"b\": 0}",
      "{\"\\u0061\": [[1]], \"b\": 0}",
      "{\"a\": [[1]], \"k1\": 1, \"k2\": 2, \"k3\": 3, \"k4\": 4, \"k5\": 5, \"k6\": 6, \"k7\": 7, "
      "\"k8\": 8, \"k9\": 9, \"k10\": 10, \"k11\": 11, \"k12\": 12, \"k13\": 13, \"k14\": 14, "
      "\"k15\": 15, \"k16\": 16, \"k17\": 17, \"k18\": 18, \"k19\": 19, \"k20\": 20}",
  };
  for (size_t i = 0; i < sizeof again / sizeof *again; i++) {
    const bool many = strstr(again[i], "k20") != NULL;
    const fj_type first_type = strstr(again[i], "[{}]") ? FJ_TYPE_OBJECT : FJ_TYPE_ARRAY;
    root = parse(f, again[i]);
    OK(fj_value_get_object(&root, &o));
    for (int visit = 0; visit < (many ? 3 : 2); visit++) {
      if (visit == 2) OK(fj_object_find(&o, "k20", &val)); /* from the far end */
      OK(fj_object_find(&o, "a", &val));
      OK(fj_value_get_array(&val, &arr));
      fj_value first;
      OK(fj_array_next(&arr, &first));
      assert_int_equal(fj_value_type(&first), first_type);
    }
  }
}

/* A lookup unescapes a longer key it passes only when the key may shorten
 * to the one looked up (a backslash or the same first byte at its start),
 * as parser.h's fj_object_findn() says: a malformed escape in such a key is
 * reported where it is, in any other it is not. By the scan and by the
 * general loop (which an escaped key before them hands the search to). */
static void find_unescapes_keys_that_may_match(void **state) {
  fixture *f = *state;
  static const struct {
    const char *json, *key;
    fj_error want; /* FJ_OK: the value is 2 */
  } cases[] = {
      {"{\"x\\uD800yz\": 1, \"id\": 2}", "id", FJ_OK},
      {"{\"\\u0061\": 0, \"x\\uD800yz\": 1, \"id\": 2}", "id", FJ_OK},
      {"{\"i\\uD800\": 1, \"id\": 2}", "id", FJ_ERR_BAD_SURROGATE},
      {"{\"\\u0061\": 0, \"i\\uD800\": 1, \"id\": 2}", "id", FJ_ERR_BAD_SURROGATE},
      {"{\"\\uD800x\": 1, \"id\": 2}", "id", FJ_ERR_BAD_SURROGATE},
      {"{\"\\uD800x\": 1, \"\": 2}", "", FJ_OK}, /* no first byte to share */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    fj_value root = parse(f, cases[i].json), val;
    fj_object o;
    OK(fj_value_get_object(&root, &o));
    EXPECT(fj_object_find(&o, cases[i].key, &val), cases[i].want);
    if (cases[i].want == FJ_OK) {
      assert_int_equal(get_i64(&val), 2);
      continue;
    }
    /* at the backslash of the lone surrogate's escape */
    const char *at = strstr(cases[i].json, "\\uD800");
    fj_location loc;
    EXPECT(fj_parser_last_error(f->p, &loc), cases[i].want);
    assert_int_equal(loc.offset, (size_t)(at - cases[i].json));
  }
}

static void missing_field_keeps_cursor(void **state) {
  fixture *f = *state;
  const char *json = "{\"a\": 1, \"b\": {\"x\": [1, 2]}, \"c\": 3, \"d\": 4}";
  fj_value root = parse(f, json), key, val;
  fj_object o;
  OK(fj_value_get_object(&root, &o));
  /* on a fresh iteration */
  EXPECT(fj_object_find(&o, "zz", &val), FJ_ERR_NO_SUCH_FIELD);
  fj_location loc;
  EXPECT(fj_parser_last_error(f->p, &loc), FJ_ERR_NO_SUCH_FIELD);
  OK(fj_object_next(&o, &key, &val));
  assert_str(&key, "a");
  /* in the middle, after entering a child */
  OK(fj_object_find(&o, "b", &val));
  fj_object b;
  OK(fj_value_get_object(&val, &b));
  OK(fj_object_find(&b, "x", &val));
  EXPECT(fj_object_find(&o, "zz", &val), FJ_ERR_NO_SUCH_FIELD);
  EXPECT(fj_object_find(&o, "x", &val), FJ_ERR_NO_SUCH_FIELD); /* only in the child */
  OK(fj_object_next(&o, &key, &val));
  assert_str(&key, "c");
  assert_int_equal(get_i64(&val), 3);
  EXPECT(fj_object_find(&o, "zz", &val), FJ_ERR_NO_SUCH_FIELD);
  OK(fj_object_find(&o, "d", &val));
  assert_int_equal(get_i64(&val), 4);
  /* at the last field: a miss, then a wrap-around hit, then the end */
  EXPECT(fj_object_find(&o, "zz", &val), FJ_ERR_NO_SUCH_FIELD);
  OK(fj_object_find(&o, "a", &val));
  assert_int_equal(get_i64(&val), 1);
  OK(fj_object_next(&o, &key, &val));
  assert_str(&key, "b");

  /* an empty object */
  root = parse(f, "{ }");
  OK(fj_value_get_object(&root, &o));
  size_t count = 9;
  OK(fj_object_count(&o, &count));
  assert_int_equal(count, 0);
  EXPECT(fj_object_find(&o, "a", &val), FJ_ERR_NO_SUCH_FIELD);
  EXPECT(fj_object_next(&o, &key, &val), FJ_END);
}

static void object_syntax_errors(void **state) {
  fixture *f = *state;
  static const struct {
    const char *json;
    int good;
    fj_error err;
    size_t offset;
  } cases[] = {
      {"{\"a\" 1}", 0, FJ_ERR_EXPECTED_COLON, 5},
      {"{\"a\":1,}", 1, FJ_ERR_EXPECTED_KEY, 7},
      {"{1:2}", 0, FJ_ERR_EXPECTED_KEY, 1},
      {"{\"a\":1 \"b\":2}", 1, FJ_ERR_EXPECTED_COMMA, 7},
      {"{\"a\":}", 0, FJ_ERR_EXPECTED_VALUE, 5},
      {"{\"a\":1", 1, FJ_ERR_TRUNCATED, 6},
      {"{\"a\"", 0, FJ_ERR_TRUNCATED, 4},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    fj_value root = parse(f, cases[i].json), k, v;
    fj_object o;
    OK(fj_value_get_object(&root, &o));
    for (int n = 0; n < cases[i].good; n++)
      OK(fj_object_next(&o, &k, &v));
    EXPECT(fj_object_next(&o, &k, &v), cases[i].err);
    fj_location loc;
    EXPECT(fj_parser_last_error(f->p, &loc), cases[i].err);
    assert_int_equal(loc.offset, cases[i].offset);
  }
}

/* ---- skipping --------------------------------------------------------------- */

static void skipping_unread_and_partial(void **state) {
  fixture *f = *state;
  const char *json =
      "[[1, [2, 3], 4], {\"x\": {\"y\": [5, {\"z\": 6}]}, \"w\": 7}, \"]\", [[[]]], 8]";
  fj_value root = parse(f, json), el, v;
  fj_array a, inner, deep;
  fj_object o, oy;
  OK(fj_value_get_array(&root, &a));
  /* element 0: enter, read one element, enter its child and read one */
  OK(fj_array_next(&a, &el));
  OK(fj_value_get_array(&el, &inner));
  OK(fj_array_next(&inner, &v));
  assert_int_equal(get_i64(&v), 1);
  OK(fj_array_next(&inner, &v));
  OK(fj_value_get_array(&v, &deep));
  OK(fj_array_next(&deep, &v));
  assert_int_equal(get_i64(&v), 2);
  /* element 1: enter the object, go two levels down, stop midway */
  OK(fj_array_next(&a, &el));
  OK(fj_value_get_object(&el, &o));
  OK(fj_object_find(&o, "x", &v));
  OK(fj_value_get_object(&v, &oy));
  OK(fj_object_find(&oy, "y", &v));
  OK(fj_value_get_array(&v, &deep));
  OK(fj_array_next(&deep, &v));
  assert_int_equal(get_i64(&v), 5);
  /* element 2: a string with a bracket in it, not read */
  OK(fj_array_next(&a, &el));
  /* element 3: not entered at all */
  OK(fj_array_next(&a, &el));
  fj_type t;
  OK(fj_value_get_type(&el, &t));
  assert_int_equal(t, FJ_TYPE_ARRAY);
  /* element 4 */
  OK(fj_array_next(&a, &el));
  assert_int_equal(get_i64(&el), 8);
  EXPECT(fj_array_next(&a, &el), FJ_END);

  /* fj_value_skip on the current value, then the iteration continues */
  root = parse(f, json);
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_next(&a, &el));
  OK(fj_value_skip(&el));
  OK(fj_value_skip(&el)); /* already passed: nothing */
  OK(fj_array_next(&a, &el));
  OK(fj_value_get_object(&el, &o));
  OK(fj_object_next(&o, NULL, &v));
  OK(fj_value_skip(&v));
  OK(fj_object_next(&o, &v, NULL));
  assert_str(&v, "w");
  OK(fj_array_next(&a, &el));
  assert_str(&el, "]");
  OK(fj_array_at(&a, 1, &el));
  assert_int_equal(get_i64(&el), 8);
}

/* ---- misuse ------------------------------------------------------------------ */

/* Skipping a container stops exactly at its closing bracket, wherever that
 * falls among the structurals the skip takes four at a time: a second
 * container glued to it (no comma) is an error, not part of the first. */
static void skipping_stops_at_the_closing_bracket(void **state) {
  fixture *f = *state;
  /* the first element closes at the 1st, 2nd, 3rd or 4th structural after
   * its '[', and an opening bracket follows at once */
  static const char *const docs[] = {"[[][[3]],4]",    "[[1][[3]],4]",    "[[[]][[3]],4]",
                                     "[[1,2][[3]],4]", "[[[[]]][[3]],4]", "[[1,2,3,4,5][[3]],4]"};
  static const size_t glued[] = {3, 4, 5, 6, 7, 12}; /* offset of the second '[' */
  for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
    fj_value root = parse(f, docs[i]), el;
    fj_array a;
    assert_int_equal(docs[i][glued[i]], '[');
    OK(fj_value_get_array(&root, &a));
    OK(fj_array_next(&a, &el));                            /* not entered: */
    EXPECT(fj_array_next(&a, &el), FJ_ERR_EXPECTED_COMMA); /* skipped */
    assert_location(f->p, FJ_ERR_EXPECTED_COMMA, glued[i], 1, glued[i] + 1);
    /* the same skip inside a lookup */
    char obj[64];
    const char *end = strstr(docs[i], ",4]"); /* the two glued containers */
    snprintf(obj, sizeof obj, "{\"a\": %.*s, \"b\": 1}", (int)(end - docs[i] - 1), docs[i] + 1);
    root = parse(f, obj);
    fj_object o;
    OK(fj_value_get_object(&root, &o));
    EXPECT(fj_object_find(&o, "b", &el), FJ_ERR_EXPECTED_COMMA);
  }
}

/* A container passed over whole (skipped, its raw text taken, counted)
 * must close with its own kind of bracket: bracket matching counts depth
 * only, and [1,2} passed as an array. The error and its offset are those
 * fj_parser_validate() gives. (Brackets inside a skipped value are not
 * checked: a skipped value is not validated.) */
static void passed_over_containers_close_in_kind(void **state) {
  fixture *f = *state;
  static const struct {
    const char *doc; /* the root's first element is the bad container */
    size_t close;    /* the offset of its closing bracket */
  } bad[] = {{"[[1,2}]", 5}, {"[{\"a\":1]]", 7}, {"[[}]", 2}, {"[{]]", 2}, {"[{\"a\":[1]]]", 9}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    const char *d = bad[i].doc;
    fj_error want = fj_parser_validate(f->p, d, strlen(d));
    assert_int_not_equal(want, FJ_OK);
    fj_location loc;
    EXPECT(fj_parser_last_error(f->p, &loc), want);
    size_t want_at = loc.offset;
    assert_int_equal(want_at, bad[i].close);
    fj_value root = parse(f, d), el;
    fj_array a;
    const char *s;
    size_t n;
    /* skipped by the next step */
    OK(fj_value_get_array(&root, &a));
    OK(fj_array_next(&a, &el));
    EXPECT(fj_array_next(&a, &el), want);
    EXPECT(fj_parser_last_error(f->p, &loc), want);
    assert_int_equal(loc.offset, want_at);
    /* skipped explicitly */
    root = parse(f, d);
    OK(fj_value_get_array(&root, &a));
    OK(fj_array_next(&a, &el));
    EXPECT(fj_value_skip(&el), want);
    /* its raw text */
    root = parse(f, d);
    OK(fj_value_get_array(&root, &a));
    OK(fj_array_next(&a, &el));
    EXPECT(fj_value_get_raw(&el, &s, &n), want);
    EXPECT(fj_parser_last_error(f->p, &loc), want);
    assert_int_equal(loc.offset, want_at);
    /* counted */
    root = parse(f, d);
    OK(fj_value_get_array(&root, &a));
    OK(fj_array_next(&a, &el));
    if (d[1] == '[') {
      fj_array inner;
      OK(fj_value_get_array(&el, &inner));
      EXPECT(fj_array_count(&inner, &n), want);
    } else {
      fj_object inner;
      OK(fj_value_get_object(&el, &inner));
      EXPECT(fj_object_count(&inner, &n), want);
    }
  }
  /* the root itself */
  fj_value root = parse(f, "[1,2}");
  const char *s = "x";
  size_t n = 1;
  EXPECT(fj_value_get_raw(&root, &s, &n), FJ_ERR_EXPECTED_COMMA);
  assert_null(s); /* what a failure leaves, as fj_value_get_string() */
  assert_int_equal(n, 0);
  root = parse(f, "[1,2}");
  EXPECT(fj_value_skip(&root), FJ_ERR_EXPECTED_COMMA);
  assert_location(f->p, FJ_ERR_EXPECTED_COMMA, 4, 1, 5);
}

/* Every getter and lookup refuses a NULL result pointer with
 * FJ_ERR_INVALID_ARG whatever the handle (fine, of another type, or out of
 * order), before looking at the handle. */
static void expect_null_results_refused(const fj_value *v) {
  const char *s;
  size_t len;
  fj_value out;
  EXPECT(fj_value_get_type(v, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_value_get_int64(v, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_value_get_uint64(v, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_value_get_double(v, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_value_get_number(v, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_value_get_bool(v, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_value_is_null(v, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_value_get_string(v, NULL, &len), FJ_ERR_INVALID_ARG);
  EXPECT(fj_value_get_string(v, &s, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_value_get_raw(v, &s, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_value_get_array(v, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_value_get_object(v, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_value_at_pointer(v, "", NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_value_at_pointer(v, NULL, &out), FJ_ERR_INVALID_ARG);
}

static void misuse_errors(void **state) {
  fixture *f = *state;
  const char *json = "[[1, 2], [3], 4, {\"k\": [5]}]";
  fj_value root = parse(f, json), el, first, v, stale;
  fj_array a, child, again, child2;
  /* no place for the iteration: refused before the cursor moves */
  EXPECT(fj_value_get_array(&root, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_value_get_object(&root, NULL), FJ_ERR_INVALID_ARG);
  /* a NULL result is refused as such whatever the value's type (an array) */
  expect_null_results_refused(&root);
  OK(fj_value_get_array(&root, &a));
  EXPECT(fj_value_get_array(&root, &again), FJ_ERR_OUT_OF_ORDER); /* entering twice */

  OK(fj_array_next(&a, &first));
  OK(fj_value_get_array(&first, &child));
  EXPECT(fj_value_get_array(&first, &again), FJ_ERR_OUT_OF_ORDER);
  OK(fj_array_next(&child, &v));
  assert_int_equal(get_i64(&v), 1);
  /* the parent moves on: the child iteration and its scalar are out of order */
  OK(fj_array_next(&a, &el));
  fj_value none;
  EXPECT(fj_array_next(&child, &none), FJ_ERR_OUT_OF_ORDER);
  int64_t x;
  EXPECT(fj_value_get_int64(&none, &x), FJ_ERR_INVALID_ARG); /* zeroed by the failure */
  EXPECT(fj_value_get_int64(&v, &x), FJ_ERR_OUT_OF_ORDER);
  assert_location(f->p, FJ_ERR_OUT_OF_ORDER, 2, 1, 3);
  /* a NULL result on that out-of-order handle is the caller's bad argument:
   * FJ_ERR_INVALID_ARG, not recorded, for every getter alike */
  expect_null_results_refused(&v);
  assert_location(f->p, FJ_ERR_OUT_OF_ORDER, 2, 1, 3);
  EXPECT(fj_value_get_array(&first, &again), FJ_ERR_OUT_OF_ORDER); /* passed over */
  /* a sibling container at the same depth does not revive the old child */
  OK(fj_value_get_array(&el, &child2));
  EXPECT(fj_array_next(&child, &v), FJ_ERR_OUT_OF_ORDER);
  OK(fj_array_next(&child2, &v));
  assert_int_equal(get_i64(&v), 3);
  /* NULL keys and pointers are refused, their handles zeroed; the offset
   * of a zeroed or NULL handle is 0 */
  {
    fj_value r2 = root, out = root;
    EXPECT(fj_value_at_pointer(&r2, NULL, &out), FJ_ERR_INVALID_ARG);
    assert_null(out.parser);
    assert_int_equal(fj_value_offset(&out), 0);
    assert_int_equal(fj_value_offset(NULL), 0);
    assert_int_equal(fj_value_offset(&el), 9); /* "[[1, 2], [3]": the second element */
  }
  /* reading a scalar after its parent closed */
  EXPECT(fj_array_next(&child2, NULL), FJ_END);
  EXPECT(fj_value_get_int64(&v, &x), FJ_ERR_OUT_OF_ORDER);
  const char *s;
  size_t n;
  EXPECT(fj_value_get_raw(&v, &s, &n), FJ_ERR_OUT_OF_ORDER);
  fj_type t;
  EXPECT(fj_value_get_type(&v, &t), FJ_ERR_OUT_OF_ORDER);
  /* a scalar of the still-open root can be read after later siblings */
  OK(fj_array_next(&a, &el));
  stale = el;
  OK(fj_array_next(&a, &el));
  assert_int_equal(get_i64(&stale), 4);
  fj_object o;
  OK(fj_value_get_object(&el, &o));
  OK(fj_object_find(&o, "k", &v));
  EXPECT(fj_array_next(&a, &el), FJ_END);
  /* after the object closed, its iteration is out of order */
  EXPECT(fj_object_find(&o, "k", &v), FJ_ERR_OUT_OF_ORDER);

  /* a new document makes every handle of the previous one stale */
  fj_value old_root = root, old_scalar = stale;
  fj_array old_a = a;
  root = parse(f, "[{\"a\": 1}]");
  EXPECT(fj_value_get_int64(&old_scalar, &x), FJ_ERR_STALE_DOCUMENT);
  EXPECT(fj_value_get_type(&old_root, &t), FJ_ERR_STALE_DOCUMENT);
  EXPECT(fj_value_get_array(&old_root, &again), FJ_ERR_STALE_DOCUMENT);
  EXPECT(fj_array_next(&old_a, &el), FJ_ERR_STALE_DOCUMENT);
  size_t count;
  EXPECT(fj_array_count(&old_a, &count), FJ_ERR_STALE_DOCUMENT);
  EXPECT(fj_value_get_raw(&old_root, &s, &n), FJ_ERR_STALE_DOCUMENT);
  /* an object iteration of an earlier document too */
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_next(&a, &el));
  OK(fj_value_get_object(&el, &o));
  fj_value oroot;
  OK(parse_on(f, f->p, "{\"a\": 1}", &oroot));
  EXPECT(fj_object_find(&o, "a", &v), FJ_ERR_STALE_DOCUMENT);
  EXPECT(fj_object_next(&o, &v, &v), FJ_ERR_STALE_DOCUMENT);
  /* fj_parser_validate also starts a new document */
  OK(fj_parser_validate(f->p, "[1]", 3));
  EXPECT(fj_value_get_type(&oroot, &t), FJ_ERR_STALE_DOCUMENT);
  /* so does a parse that fails, and the same shape again gets new serials:
   * the inner array of the earlier document stays refused */
  root = parse(f, "[[1, 2]]");
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_next(&a, &el));
  OK(fj_value_get_array(&el, &old_a));
  EXPECT(parse_on(f, f->p, "[[\"ab", &root), FJ_ERR_UNCLOSED_STRING);
  EXPECT(fj_array_next(&old_a, &el), FJ_ERR_STALE_DOCUMENT);
  root = parse(f, "[[1, 2]]");
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_next(&a, &el));
  OK(fj_value_get_array(&el, &again));
  EXPECT(fj_array_next(&old_a, &el), FJ_ERR_STALE_DOCUMENT);
  OK(fj_array_next(&again, &el));
  assert_int_equal(get_i64(&el), 1);
}

/* A failed call zeroes the handles it would have written, and a zeroed
 * handle is refused: a caller who ignores the error reads nothing. */
/* ---- copies of an iteration --------------------------------------------------
 * Copies of an fj_array or fj_object share the one cursor: once one copy
 * steps, the others are out of date, and their steps must be refused
 * (FJ_ERR_OUT_OF_ORDER), not read on past what the copy read. Each case runs
 * through the header's inline paths and through the exported functions
 * (called by address). */

typedef struct steppers {
  fj_error (*array_next)(fj_array *, fj_value *);
  fj_error (*object_next_key)(fj_object *, const char **, size_t *, fj_value *);
  fj_error (*object_next)(fj_object *, fj_value *, fj_value *);
} steppers;

static fj_error inline_array_next(fj_array *a, fj_value *e) { return fj_array_next(a, e); }
static fj_error inline_object_next_key(fj_object *o, const char **k, size_t *n, fj_value *v) {
  return fj_object_next_key(o, k, n, v);
}
static fj_error inline_object_next(fj_object *o, fj_value *k, fj_value *v) {
  return fj_object_next(o, k, v);
}

static const steppers inline_steps = {inline_array_next, inline_object_next_key,
                                      inline_object_next};
static const steppers exported_steps = {fj_array_next, fj_object_next_key, fj_object_next};

static int64_t next_i64(const steppers *st, fj_array *a) {
  fj_value v;
  OK(st->array_next(a, &v));
  return get_i64(&v);
}

static void copied_array_of_scalars(fixture *f, const steppers *st) {
  fj_value root = parse(f, "[10, 20, 30, 40]"), v;
  fj_array a, b;
  OK(fj_value_get_array(&root, &a));
  assert_int_equal(next_i64(st, &a), 10);
  b = a;
  assert_int_equal(next_i64(st, &b), 20);
  EXPECT(st->array_next(&a, &v), FJ_ERR_OUT_OF_ORDER); /* not 30 */
  assert_int_equal(next_i64(st, &b), 30);              /* the copy that stepped goes on */
  EXPECT(st->array_next(&a, &v), FJ_ERR_OUT_OF_ORDER);
  assert_int_equal(next_i64(st, &b), 40);
  EXPECT(st->array_next(&b, &v), FJ_END);
  EXPECT(st->array_next(&a, &v), FJ_ERR_OUT_OF_ORDER); /* its container was left */

  root = parse(f, "[10, 20]"); /* a fresh iteration, copied before its first step */
  OK(fj_value_get_array(&root, &a));
  b = a;
  assert_int_equal(next_i64(st, &a), 10);
  EXPECT(st->array_next(&b, &v), FJ_ERR_OUT_OF_ORDER); /* not 10 again, nor 20 */
  assert_int_equal(next_i64(st, &a), 20);
}

static void copied_array_of_containers(fixture *f, const steppers *st) {
  fj_value root = parse(f, "[[1, 2], [3, 4], 5, [6], []]"), e, x;
  fj_array a, b, in;
  OK(fj_value_get_array(&root, &a));
  OK(st->array_next(&a, &e)); /* [1, 2], read to its end */
  OK(fj_value_get_array(&e, &in));
  assert_int_equal(next_i64(st, &in), 1);
  assert_int_equal(next_i64(st, &in), 2);
  EXPECT(st->array_next(&in, &x), FJ_END);
  b = a;
  OK(st->array_next(&b, &e)); /* [3, 4]: the copy's, not entered */
  EXPECT(st->array_next(&a, &x), FJ_ERR_OUT_OF_ORDER);
  OK(fj_value_get_array(&e, &in)); /* entered and partly read */
  assert_int_equal(next_i64(st, &in), 3);
  EXPECT(st->array_next(&a, &x), FJ_ERR_OUT_OF_ORDER); /* the open child is not its element */
  assert_int_equal(next_i64(st, &b), 5);               /* the rest of [3, 4] is skipped */
  OK(st->array_next(&b, &e));                          /* [6], skipped whole */
  b = a = b;                                           /* copies of the same state agree */
  OK(fj_value_skip(&e));
  OK(st->array_next(&a, &e)); /* [], entered and left */
  OK(fj_value_get_array(&e, &in));
  EXPECT(st->array_next(&in, &x), FJ_END);
  EXPECT(st->array_next(&b, &x), FJ_ERR_OUT_OF_ORDER); /* a stepped after the copy */
  EXPECT(st->array_next(&a, &x), FJ_END);
}

/* A copy made before the first step: the first element may leave the
 * cursor on it (a container, or a scalar the general step hands out at the
 * end of the index), where a fresh iteration would find it too (fresh-user
 * trial: the copy read [1], [2], [3] and the original was refused). */
static void copied_fresh_arrays(fixture *f, const steppers *st) {
  static const char *const docs[] = {"[[1], [2], [3]]", "[{}, 1]", "[1]", "[[1]]", "[\"s\"]"};
  for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
    fj_value root = parse(f, docs[i]), e, x;
    fj_array a, b;
    OK(fj_value_get_array(&root, &a));
    b = a;
    OK(st->array_next(&a, &e));
    memset(&x, 0xAB, sizeof x);
    EXPECT(st->array_next(&b, &x), FJ_ERR_OUT_OF_ORDER); /* not the first element again */
    assert_null(x.parser);
    EXPECT(st->array_next(&b, &x), FJ_ERR_OUT_OF_ORDER);
    fj_error err = st->array_next(&a, &x); /* the original goes on */
    assert_true(err == FJ_OK || err == FJ_END);
  }
}

static void copied_objects(fixture *f, const steppers *st) {
  fj_value root = parse(f, "{\"a\": 1, \"b\": {\"x\": 2}, \"c\": 3, \"d\": 4}"), v, k;
  fj_object o, c;
  const char *s;
  size_t n;
  OK(fj_value_get_object(&root, &o));
  OK(st->object_next_key(&o, &s, &n, &v));
  assert_int_equal(get_i64(&v), 1);
  c = o;
  OK(st->object_next_key(&c, &s, &n, &v)); /* "b", not entered */
  assert_memory_equal(s, "b", 1);
  EXPECT(st->object_next_key(&o, &s, &n, &v), FJ_ERR_OUT_OF_ORDER);
  assert_null(s);
  EXPECT(st->object_next(&o, &k, &v), FJ_ERR_OUT_OF_ORDER);
  OK(st->object_next(&c, &k, &v)); /* "c" */
  assert_int_equal(get_i64(&v), 3);
  o = c;
  OK(fj_object_find(&o, "d", &v)); /* a lookup steps too */
  assert_int_equal(get_i64(&v), 4);
  EXPECT(st->object_next(&c, &k, &v), FJ_ERR_OUT_OF_ORDER);
  EXPECT(st->object_next(&o, &k, &v), FJ_END);
}

static void copied_iterations(void **state) {
  fixture *f = *state;
  const steppers *ways[] = {&inline_steps, &exported_steps};
  for (size_t i = 0; i < 2; i++) {
    copied_array_of_scalars(f, ways[i]);
    copied_array_of_containers(f, ways[i]);
    copied_fresh_arrays(f, ways[i]);
    copied_objects(f, ways[i]);
  }
}

static void failures_leave_refused_handles(void **state) {
  fixture *f = *state;
  fj_value root = parse(f, "{\"a\": [1], \"b\": 2}"), v, k;
  fj_object o;
  fj_array a;
  int64_t x;
  OK(fj_value_get_object(&root, &o));
  memset(&v, 0xAB, sizeof v);
  EXPECT(fj_object_find(&o, "nope", &v), FJ_ERR_NO_SUCH_FIELD);
  EXPECT(fj_value_get_int64(&v, &x), FJ_ERR_INVALID_ARG);
  OK(fj_object_find(&o, "a", &v));
  memset(&a, 0xAB, sizeof a);
  EXPECT(fj_value_get_object(&v, (fj_object *)&a), FJ_ERR_WRONG_TYPE);
  EXPECT(fj_object_next((fj_object *)&a, &k, &v), FJ_ERR_INVALID_ARG);
  OK(fj_object_find(&o, "a", &v));
  OK(fj_value_get_array(&v, &a));
  OK(fj_array_next(&a, &v));
  assert_int_equal(get_i64(&v), 1);
  EXPECT(fj_array_next(&a, &v), FJ_END);
  EXPECT(fj_value_get_int64(&v, &x), FJ_ERR_INVALID_ARG);
  OK(fj_object_next(&o, &k, &v));
  assert_int_equal(get_i64(&v), 2);
  memset(&k, 0xAB, sizeof k);
  EXPECT(fj_object_next(&o, &k, &v), FJ_END);
  EXPECT(fj_value_get_int64(&k, &x), FJ_ERR_INVALID_ARG);
  EXPECT(fj_value_get_int64(&v, &x), FJ_ERR_INVALID_ARG);
  /* JSON Pointer, its result written over its input */
  root = parse(f, "{\"a\": [1, 2]}");
  v = root;
  OK(fj_value_at_pointer(&v, "/a/1", &v));
  assert_int_equal(get_i64(&v), 2);
  v = root;
  EXPECT(fj_value_at_pointer(&v, "/a/7", &v), FJ_ERR_INDEX_RANGE);
  EXPECT(fj_value_get_int64(&v, &x), FJ_ERR_INVALID_ARG);
  /* a zeroed or NULL iteration (what a failed get_object leaves): every
   * call on it zeroes its result, fj_object_find() too (fresh-user trial:
   * it returned with the result untouched, and the next read crashed) */
  {
    fj_object zo;
    fj_array za;
    const char *s;
    size_t n;
    memset(&zo, 0, sizeof zo);
    memset(&za, 0, sizeof za);
#define REFUSED(call)                                                                              \
  do {                                                                                             \
    memset(&v, 0xAB, sizeof v);                                                                    \
    EXPECT(call, FJ_ERR_INVALID_ARG);                                                              \
    assert_null(v.parser);                                                                         \
    EXPECT(fj_value_get_int64(&v, &x), FJ_ERR_INVALID_ARG);                                        \
  } while (0)
    REFUSED(fj_object_find(&zo, "a", &v));
    REFUSED((fj_object_find)(&zo, "a", &v));
    REFUSED(fj_object_find(NULL, "a", &v));
    REFUSED(fj_object_findn(&zo, "a", 1, &v));
    REFUSED(fj_object_next(&zo, NULL, &v));
    REFUSED(fj_object_next_key(&zo, &s, &n, &v));
    REFUSED(fj_array_next(&za, &v));
    REFUSED(fj_array_at(&za, 0, &v));
#undef REFUSED
  }
  /* a failed parse */
  memset(&root, 0xAB, sizeof root);
  EXPECT(parse_on(f, f->p, "[\"ab", &root), FJ_ERR_UNCLOSED_STRING);
  EXPECT(fj_value_get_array(&root, &a), FJ_ERR_INVALID_ARG);
}

static void rewind_restarts(void **state) {
  fixture *f = *state;
  fj_parser *fresh;
  OK(fj_parser_new(&fresh, NULL));
  EXPECT(fj_parser_rewind(fresh), FJ_ERR_INVALID_ARG); /* no document yet */
  /* a failed validation holds no document, whichever stage failed (stage 2
   * here, stage 1 next); its error and location stay */
  EXPECT(fj_parser_validate(fresh, "[1,]", 4), FJ_ERR_EXPECTED_VALUE);
  EXPECT(fj_parser_rewind(fresh), FJ_ERR_INVALID_ARG);
  fj_location loc;
  EXPECT(fj_parser_last_error(fresh, &loc), FJ_ERR_EXPECTED_VALUE);
  assert_int_equal(loc.offset, 3);
  EXPECT(fj_parser_validate(fresh, "\"\xff\"", 3), FJ_ERR_UTF8);
  EXPECT(fj_parser_rewind(fresh), FJ_ERR_INVALID_ARG);
  OK(fj_parser_validate(fresh, "[1]", 3));
  OK(fj_parser_rewind(fresh));
  fj_parser_free(fresh);

  fj_value root = parse(f, "{\"a\": [1, 2, 3], \"b\": \"bee\"}"), v, el;
  fj_object o;
  fj_array a;
  OK(fj_value_get_object(&root, &o));
  OK(fj_object_find(&o, "a", &v));
  OK(fj_value_get_array(&v, &a));
  OK(fj_array_next(&a, &el));
  OK(fj_array_next(&a, &el));
  fj_value two = el;
  OK(fj_parser_rewind(f->p));
  /* handles below the root are stale, the root is not */
  int64_t x;
  EXPECT(fj_value_get_int64(&two, &x), FJ_ERR_OUT_OF_ORDER);
  EXPECT(fj_array_next(&a, &el), FJ_ERR_OUT_OF_ORDER);
  fj_type t;
  OK(fj_value_get_type(&root, &t));
  assert_int_equal(t, FJ_TYPE_OBJECT);
  fj_object o2;
  OK(fj_value_get_object(&root, &o2));
  EXPECT(fj_object_find(&o, "b", &v), FJ_ERR_OUT_OF_ORDER); /* the old iteration */
  OK(fj_object_find(&o2, "b", &v));
  assert_str(&v, "bee");
  OK(fj_object_find(&o2, "a", &v));
  OK(fj_value_get_array(&v, &a));
  OK(fj_array_next(&a, &el));
  assert_int_equal(get_i64(&el), 1);
  EXPECT(fj_value_get_int64(&two, &x), FJ_ERR_OUT_OF_ORDER); /* still stale after re-entry */
  /* rewinding many times */
  for (int i = 0; i < 3; i++) {
    OK(fj_parser_rewind(f->p));
    OK(fj_value_get_object(&root, &o2));
    OK(fj_object_find(&o2, "a", &v));
    OK(fj_value_get_array(&v, &a));
    size_t count;
    OK(fj_array_count(&a, &count));
    assert_int_equal(count, 3);
  }
}

/* ---- long skips ---------------------------------------------------------------
 * Skips past 16 structurals go on in groups of 16 where the kernel has a
 * group skipper (src/ondemand/skip.c); ctest runs this once per kernel. The
 * generator records where each value it writes starts and ends: that is
 * the oracle for where a skip must land. */

typedef struct gen {
  char *out;
  size_t len, cap;
  uint64_t rng;
} gen;

static unsigned gen_next(gen *g, unsigned bound) {
  g->rng = g->rng * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)((g->rng >> 33) % bound);
}

static void gen_put(gen *g, const char *s) {
  size_t n = strlen(s);
  assert_true(g->len + n < g->cap);
  memcpy(g->out + g->len, s, n);
  g->len += n;
}

/* A random value nested at most `levels` deep: scalars, strings holding
 * brackets (one structural each), arrays and objects, of 0 to 40 elements
 * at the top (`wide`) and 0 to 5 further in. */
static void gen_value(gen *g, unsigned levels, bool wide) {
  unsigned kind = gen_next(g, levels ? 6 : 3);
  if (kind == 0) {
    gen_put(g, gen_next(g, 2) ? "12.5" : "true");
  } else if (kind == 1) {
    gen_put(g, "\"]}[{\"");
  } else if (kind == 2) {
    gen_put(g, "null");
  } else {
    const bool object = kind == 5;
    unsigned count = gen_next(g, wide ? 41 : 6);
    gen_put(g, object ? "{" : "[");
    for (unsigned i = 0; i < count; i++) {
      if (i) gen_put(g, ",");
      if (object) gen_put(g, "\"k\":");
      gen_value(g, levels - 1, false);
    }
    gen_put(g, object ? "}" : "]");
  }
}

static void long_skips_land_on_the_bracket(void **state) {
  fixture *f = *state;
  enum { VALUES = 400 };
  gen g = {malloc(1 << 22), 0, 1 << 22, 42};
  assert_non_null(g.out);
  size_t start[VALUES], end[VALUES];
  gen_put(&g, "[");
  for (int i = 0; i < VALUES; i++) {
    if (i) gen_put(&g, ", ");
    start[i] = g.len;
    gen_value(&g, 1 + (unsigned)i % 5, true);
    end[i] = g.len;
  }
  gen_put(&g, "]");
  g.out[g.len] = '\0';
  /* each element read as raw text (which does not move the cursor), then
   * skipped by the next step: a skip that lands wrong moves every later
   * element's text */
  fj_value root = parse(f, g.out), el;
  const char *doc; /* parse()'s copy */
  size_t doc_len;
  OK(fj_value_get_raw(&root, &doc, &doc_len));
  assert_int_equal(doc_len, g.len);
  fj_array a;
  OK(fj_value_get_array(&root, &a));
  for (int i = 0; i < VALUES; i++) {
    OK(fj_array_next(&a, &el));
    const char *s;
    size_t n;
    OK(fj_value_get_raw(&el, &s, &n));
    assert_int_equal((size_t)(s - doc), start[i]);
    assert_int_equal(n, end[i] - start[i]);
  }
  EXPECT(fj_array_next(&a, &el), FJ_END);
  /* the same values as an object's fields, the last one found by a
   * lookup that passes over all the others */
  gen o = {malloc(g.cap + 16 * VALUES), 0, g.cap + 16 * VALUES, 0};
  assert_non_null(o.out);
  gen_put(&o, "{");
  for (int i = 0; i < VALUES; i++) {
    char key[32];
    snprintf(key, sizeof key, "%s\"v%d\": ", i ? ", " : "", i);
    gen_put(&o, key);
    memcpy(o.out + o.len, g.out + start[i], end[i] - start[i]);
    o.len += end[i] - start[i];
  }
  gen_put(&o, ", \"last\": 7}");
  o.out[o.len] = '\0';
  fj_object obj;
  root = parse(f, o.out);
  OK(fj_value_get_object(&root, &obj));
  OK(fj_object_find(&obj, "last", &el));
  assert_int_equal(get_i64(&el), 7);
  free(o.out);
  free(g.out);
}

/* A long skip that meets the depth limit or the end of the document: the
 * same error, at the same place, as one bracket at a time. Filler elements
 * first, so the skip is in groups of 16 when it comes near the limit. */
static void long_skips_at_the_limits(void **state) {
  fixture *f = *state;
  enum { LIMIT = 40 };
  fj_parser *p;
  fj_parser_options opts = {0};
  opts.max_depth = LIMIT;
  OK(fj_parser_new(&p, &opts));
  for (size_t filler = 0; filler < 70; filler += 3) {
    for (int deep = LIMIT - 1; deep <= LIMIT; deep++) {
      /* [[1,1,...,[[...[0]...]]]]: the outer array, then `deep` levels
       * (deep + 1 in all) */
      char doc[512];
      size_t len = 0;
      doc[len++] = '[';
      doc[len++] = '[';
      for (size_t i = 0; i < filler; i++)
        len += (size_t)snprintf(doc + len, sizeof doc - len, "1,");
      for (int d = 2; d <= deep; d++)
        doc[len++] = '[';
      doc[len++] = '0';
      for (int d = 1; d <= deep; d++)
        doc[len++] = ']';
      doc[len++] = ']';
      doc[len] = '\0';
      fj_value root, el;
      fj_array a;
      OK(parse_on(f, p, doc, &root));
      OK(fj_value_get_array(&root, &a));
      OK(fj_array_next(&a, &el));
      if (deep + 1 <= LIMIT) {
        EXPECT(fj_array_next(&a, &el), FJ_END); /* skipped: the outer array ends */
      } else {                                  /* at the last '[', the (LIMIT + 1)th */
        EXPECT(fj_array_next(&a, &el), FJ_ERR_DEPTH);
        fj_location loc;
        EXPECT(fj_parser_last_error(p, &loc), FJ_ERR_DEPTH);
        assert_int_equal(loc.offset, strrchr(doc, '[') - doc);
      }
      /* cut off before its end: the skip runs out of structurals */
      OK(fj_parser_parse(p, doc, len - 3, &root));
      OK(fj_value_get_array(&root, &a));
      OK(fj_array_next(&a, &el));
      EXPECT(fj_value_skip(&el), deep + 1 <= LIMIT ? FJ_ERR_TRUNCATED : FJ_ERR_DEPTH);
    }
  }
  fj_parser_free(p);
}

/* ---- depth ------------------------------------------------------------------- */

static void depth_option(void **state) {
  fixture *f = *state;
  fj_parser *p;
  fj_parser_options opts = {0};
  /* a flag bit no FJ_PARSE_* names is refused (was accepted and ignored) */
  opts.flags = FJ_PARSE_REPLACE_LONE_SURROGATES << 1;
  EXPECT(fj_parser_new(&p, &opts), FJ_ERR_INVALID_ARG);
  opts.flags = FJ_PARSE_REPLACE_LONE_SURROGATES;
  OK(fj_parser_new(&p, &opts));
  fj_parser_free(p);
  opts.flags = 0;
  opts.max_depth = 3;
  OK(fj_parser_new(&p, &opts));
  fj_value root, el;
  fj_array a[4];
  /* exactly three levels is fine */
  OK(parse_on(f, p, "[[[7]]]", &root));
  OK(fj_value_get_array(&root, &a[0]));
  OK(fj_array_next(&a[0], &el));
  OK(fj_value_get_array(&el, &a[1]));
  OK(fj_array_next(&a[1], &el));
  OK(fj_value_get_array(&el, &a[2]));
  OK(fj_array_next(&a[2], &el));
  assert_int_equal(get_i64(&el), 7);
  OK(fj_parser_validate(p, "[[[7]]]", 7));
  /* four levels: entering the fourth fails */
  OK(parse_on(f, p, "[[[[7]]]]", &root));
  OK(fj_value_get_array(&root, &a[0]));
  OK(fj_array_next(&a[0], &el));
  OK(fj_value_get_array(&el, &a[1]));
  OK(fj_array_next(&a[1], &el));
  OK(fj_value_get_array(&el, &a[2]));
  OK(fj_array_next(&a[2], &el));
  EXPECT(fj_value_get_array(&el, &a[3]), FJ_ERR_DEPTH);
  assert_location(p, FJ_ERR_DEPTH, 3, 1, 4);
  /* skipping a too-deep child also reports the depth, not a wrong result */
  OK(parse_on(f, p, "[[[[7]]], 1]", &root));
  OK(fj_value_get_array(&root, &a[0]));
  OK(fj_array_next(&a[0], &el));
  EXPECT(fj_array_next(&a[0], &el), FJ_ERR_DEPTH);
  /* and the iteration stays failed: no element after the skip that failed */
  fj_error again = fj_array_next(&a[0], &el);
  assert_true(again != FJ_OK && again != FJ_END);
  again = fj_array_next(&a[0], &el);
  assert_true(again != FJ_OK && again != FJ_END);
  /* the same inside an object lookup and its later steps */
  fj_object o;
  OK(parse_on(f, p, "{\"a\": [[[[7]]]], \"b\": 1}", &root));
  OK(fj_value_get_object(&root, &o));
  EXPECT(fj_object_find(&o, "b", &el), FJ_ERR_DEPTH);
  again = fj_object_find(&o, "b", &el);
  assert_true(again != FJ_OK);
  again = fj_object_next(&o, NULL, &el);
  assert_true(again != FJ_OK && again != FJ_END);
  /* objects count as levels too */
  OK(fj_parser_validate(p, "{\"a\":[{\"b\":1}]}", 15));
  EXPECT(fj_parser_validate(p, "{\"a\":[{\"b\":[1]}]}", 17), FJ_ERR_DEPTH);
  assert_location(p, FJ_ERR_DEPTH, 11, 1, 12);
  EXPECT(fj_parser_validate(p, "[[[[7]]]]", 9), FJ_ERR_DEPTH);
  assert_location(p, FJ_ERR_DEPTH, 3, 1, 4);
  fj_parser_free(p);
}

static void million_brackets(void **state) {
  fixture *f = *state;
  const size_t n = 1000000;
  char *open = malloc(n);
  assert_non_null(open);
  memset(open, '[', n);
  /* validation: the default depth is exceeded at the 1025th bracket */
  EXPECT(fj_parser_validate(f->p, open, n), FJ_ERR_DEPTH);
  assert_location(f->p, FJ_ERR_DEPTH, FJ_DEFAULT_MAX_DEPTH, 1, FJ_DEFAULT_MAX_DEPTH + 1);
  /* the cursor: enter level after level until the limit */
  fj_value v;
  fj_array a;
  OK(fj_parser_parse(f->p, open, n, &v));
  size_t entered = 0;
  fj_error err;
  while ((err = fj_value_get_array(&v, &a)) == FJ_OK) {
    entered++;
    err = fj_array_next(&a, &v);
    if (err) break;
  }
  EXPECT(err, FJ_ERR_DEPTH);
  assert_int_equal(entered, FJ_DEFAULT_MAX_DEPTH);
  /* bracket-matching helpers must not overflow anything either */
  OK(fj_parser_parse(f->p, open, n, &v));
  const char *s;
  size_t len;
  EXPECT(fj_value_get_raw(&v, &s, &len), FJ_ERR_DEPTH);
  OK(fj_value_get_array(&v, &a));
  size_t count;
  EXPECT(fj_array_count(&a, &count), FJ_ERR_DEPTH);
  OK(fj_array_next(&a, &v));
  EXPECT(fj_value_skip(&v), FJ_ERR_DEPTH);
  free(open);

  /* balanced: a million [ then a million ] */
  char *both = malloc(2 * n);
  assert_non_null(both);
  memset(both, '[', n);
  memset(both + n, ']', n);
  EXPECT(fj_parser_validate(f->p, both, 2 * n), FJ_ERR_DEPTH);
  /* with a limit high enough, the same document is valid */
  fj_parser *p;
  fj_parser_options opts = {0};
  opts.max_depth = (uint32_t)n;
  OK(fj_parser_new(&p, &opts));
  OK(fj_parser_validate(p, both, 2 * n));
  EXPECT(fj_parser_validate(p, both, 2 * n - 1), FJ_ERR_TRUNCATED);
  fj_parser_free(p);
  free(both);
}

/* ---- trailing content -------------------------------------------------------- */

static void trailing_content(void **state) {
  fixture *f = *state;
  fj_value root = parse(f, "[1, 2] 3"), el;
  fj_array a;
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_next(&a, &el));
  OK(fj_array_next(&a, &el));
  EXPECT(fj_array_next(&a, &el), FJ_ERR_TRAILING_CONTENT);
  assert_location(f->p, FJ_ERR_TRAILING_CONTENT, 7, 1, 8);
  /* asked again, the iteration says so again rather than FJ_END */
  EXPECT(fj_array_next(&a, &el), FJ_ERR_TRAILING_CONTENT);
  assert_location(f->p, FJ_ERR_TRAILING_CONTENT, 7, 1, 8);

  root = parse(f, "[]]");
  OK(fj_value_get_array(&root, &a));
  EXPECT(fj_array_next(&a, &el), FJ_ERR_TRAILING_CONTENT);
  assert_location(f->p, FJ_ERR_TRAILING_CONTENT, 2, 1, 3);

  root = parse(f, "{\"a\": 1}\n{}");
  fj_object o;
  OK(fj_value_get_object(&root, &o));
  OK(fj_object_next(&o, NULL, &el));
  EXPECT(fj_object_next(&o, NULL, &el), FJ_ERR_TRAILING_CONTENT);
  assert_location(f->p, FJ_ERR_TRAILING_CONTENT, 9, 2, 1);
  EXPECT(fj_object_next(&o, NULL, &el), FJ_ERR_TRAILING_CONTENT);
  assert_location(f->p, FJ_ERR_TRAILING_CONTENT, 9, 2, 1);

  /* the root's iteration, ended, then the cursor rewound: out of date, not
   * content after the root (it said FJ_ERR_TRAILING_CONTENT at offset 0) */
  static const char *const ended_docs[] = {"{}", "[]", "[1]", "{\"a\": 1} "};
  for (size_t i = 0; i < sizeof ended_docs / sizeof *ended_docs; i++) {
    for (int how = 0; how < 5; how++) {
      root = parse(f, ended_docs[i]);
      bool is_array = ended_docs[i][0] == '[';
      fj_object ro;
      fj_error end;
      if (is_array) {
        OK(fj_value_get_array(&root, &a));
        while ((end = fj_array_next(&a, &el)) == FJ_OK)
          continue;
      } else {
        OK(fj_value_get_object(&root, &ro));
        while ((end = fj_object_next(&ro, NULL, &el)) == FJ_OK)
          continue;
      }
      EXPECT(end, FJ_END);
      EXPECT(is_array ? fj_array_next(&a, &el) : fj_object_next(&ro, NULL, &el), FJ_END);
      if (how == 0) OK(fj_parser_rewind(f->p));
      if (how == 1) OK(fj_value_at_pointer(&root, "", &el));
      if (how == 2) { /* rewound and entered again */
        fj_array a2;
        fj_object o2;
        OK(fj_parser_rewind(f->p));
        OK(is_array ? fj_value_get_array(&root, &a2) : fj_value_get_object(&root, &o2));
      }
      if (how == 3) { /* rewound, entered again and walked to the end: the
                       * cursor stands where the old iteration left it */
        fj_array a2;
        fj_object o2;
        OK(fj_parser_rewind(f->p));
        if (is_array) {
          OK(fj_value_get_array(&root, &a2));
          while (fj_array_next(&a2, NULL) == FJ_OK)
            continue;
        } else {
          OK(fj_value_get_object(&root, &o2));
          while (fj_object_next(&o2, NULL, NULL) == FJ_OK)
            continue;
        }
      }
      if (how == 4) { /* rewound and the root skipped */
        OK(fj_parser_rewind(f->p));
        OK(fj_value_skip(&root));
      }
      EXPECT(is_array ? fj_array_next(&a, &el) : fj_object_next(&ro, NULL, &el),
             FJ_ERR_OUT_OF_ORDER);
      if (!is_array) EXPECT(fj_object_find(&ro, "a", &el), FJ_ERR_OUT_OF_ORDER);
    }
  }
  /* with content after the root, a rewind does not hide it from the next
   * iteration of the root */
  root = parse(f, "[1] 2");
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_next(&a, &el));
  EXPECT(fj_array_next(&a, &el), FJ_ERR_TRAILING_CONTENT);
  OK(fj_parser_rewind(f->p));
  EXPECT(fj_array_next(&a, &el), FJ_ERR_OUT_OF_ORDER);
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_next(&a, &el));
  EXPECT(fj_array_next(&a, &el), FJ_ERR_TRAILING_CONTENT);

  /* a nested iteration that ended before the root did still ends plainly */
  root = parse(f, "[[1], 2] x");
  fj_array inner;
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_next(&a, &el));
  OK(fj_value_get_array(&el, &inner));
  OK(fj_array_next(&inner, &el));
  EXPECT(fj_array_next(&inner, &el), FJ_END);
  OK(fj_array_next(&a, &el));
  EXPECT(fj_array_next(&a, &el), FJ_ERR_TRAILING_CONTENT);
  EXPECT(fj_array_next(&inner, &el), FJ_END);
  EXPECT(fj_array_next(&a, &el), FJ_ERR_TRAILING_CONTENT);
  assert_location(f->p, FJ_ERR_TRAILING_CONTENT, 9, 1, 10);

  /* trailing whitespace is not content */
  root = parse(f, "[1] \n\t\r ");
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_next(&a, &el));
  EXPECT(fj_array_next(&a, &el), FJ_END);

  /* a scalar root followed by more is refused by the parse itself */
  EXPECT(parse_on(f, f->p, "1 2", &root), FJ_ERR_TRAILING_CONTENT);
  assert_location(f->p, FJ_ERR_TRAILING_CONTENT, 2, 1, 3);
  EXPECT(parse_on(f, f->p, "\"a\" \"b\"", &root), FJ_ERR_TRAILING_CONTENT);
  assert_location(f->p, FJ_ERR_TRAILING_CONTENT, 4, 1, 5);
}

/* ---- raw text ---------------------------------------------------------------- */

static void raw_of_every_kind(void **state) {
  fixture *f = *state;
  const char *json = " { \"s\" : \"a\\\"b\\\\\" , \"n\":-1.5e+3 ,\"t\":true,\"f\":false,"
                     "\"z\":null,\"a\":[ 1 , [2] ] , \"o\" : {\"k\" : {}},"
                     "\"big\":123456789012345678901234567890\n} \n";
  fj_value root = parse(f, json), k, v;
  {
    /* the root's raw text: the document without the surrounding whitespace */
    const char *s;
    size_t n;
    OK(fj_value_get_raw(&root, &s, &n));
    assert_ptr_equal(s, (const char *)f->docs[f->ndocs - 1] + 1);
    assert_int_equal(n, strlen(json) - 3);
    assert_memory_equal(s, json + 1, n);
  }
  fj_object o;
  OK(fj_value_get_object(&root, &o));
  static const char *const want[][2] = {
      {"\"s\"", "\"a\\\"b\\\\\""}, {"\"n\"", "-1.5e+3"},
      {"\"t\"", "true"},           {"\"f\"", "false"},
      {"\"z\"", "null"},           {"\"a\"", "[ 1 , [2] ]"},
      {"\"o\"", "{\"k\" : {}}"},   {"\"big\"", "123456789012345678901234567890"},
  };
  for (size_t i = 0; i < 8; i++) {
    OK(fj_object_next(&o, &k, &v));
    assert_raw(&k, want[i][0]);
    assert_raw(&v, want[i][1]);
    if (i == 0) assert_str(&v, "a\"b\\");
    if (i == 6) { /* raw does not move the cursor: the object can still be entered */
      fj_object inner;
      fj_value iv;
      OK(fj_value_get_object(&v, &inner));
      OK(fj_object_next(&inner, NULL, &iv));
      assert_raw(&iv, "{}");
      assert_raw(&v, "{\"k\" : {}}"); /* the entered parent: still the whole text */
    }
  }
  EXPECT(fj_object_next(&o, &k, &v), FJ_END);
  /* raw of a root scalar at the end of the input */
  root = parse(f, "  -0.5e-7");
  assert_raw(&root, "-0.5e-7");
  root = parse(f, "\"\"");
  assert_raw(&root, "\"\"");
  assert_true(fj_value_offset(&root) == 0);
  root = parse(f, "\n  [1,2]");
  assert_true(fj_value_offset(&root) == 3);
}

/* ---- error locations ----------------------------------------------------------- */

static void error_locations(void **state) {
  fixture *f = *state;
  /* "[\n  1,\n  x]": x is at offset 9, line 3, column 3 */
  fj_value root = parse(f, "[\n  1,\n  x]"), el;
  fj_array a;
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_next(&a, &el));
  EXPECT(fj_array_next(&a, &el), FJ_ERR_EXPECTED_VALUE);
  assert_location(f->p, FJ_ERR_EXPECTED_VALUE, 9, 3, 3);

  /* columns count code points: "é" is two bytes, one column */
  root = parse(f, "[\"\xc3\xa9\xe2\x82\xac\", 1.5]");
  OK(fj_value_get_array(&root, &a));
  OK(fj_array_next(&a, &el));
  OK(fj_array_next(&a, &el));
  int64_t x;
  EXPECT(fj_value_get_int64(&el, &x), FJ_ERR_NOT_INTEGER);
  assert_location(f->p, FJ_ERR_NOT_INTEGER, 10, 1, 8);

  /* a malformed number: the offending byte */
  root = parse(f, "{\"a\":\r\n 1.e5}");
  fj_object o;
  OK(fj_value_get_object(&root, &o));
  OK(fj_object_find(&o, "a", &el));
  double d;
  EXPECT(fj_value_get_double(&el, &d), FJ_ERR_BAD_NUMBER);
  assert_location(f->p, FJ_ERR_BAD_NUMBER, 10, 2, 4);

  /* stage-1 errors from the parse itself */
  EXPECT(parse_on(f, f->p, "[\"ab\ncd\"]", &root), FJ_ERR_CONTROL_CHAR);
  assert_location(f->p, FJ_ERR_CONTROL_CHAR, 4, 1, 5);
  EXPECT(parse_on(f, f->p, "\n\n  [\"abc", &root), FJ_ERR_UNCLOSED_STRING);
  assert_location(f->p, FJ_ERR_UNCLOSED_STRING, 5, 3, 4);
  EXPECT(parse_on(f, f->p, " \t\n ", &root), FJ_ERR_EMPTY);
  EXPECT(parse_on(f, f->p, "", &root), FJ_ERR_EMPTY);
  /* a root that starts no value fails the parse (every handle has a type) */
  EXPECT(parse_on(f, f->p, "\n ]", &root), FJ_ERR_EXPECTED_VALUE);
  assert_location(f->p, FJ_ERR_EXPECTED_VALUE, 2, 2, 2);
  EXPECT(parse_on(f, f->p, ":", &root), FJ_ERR_EXPECTED_VALUE);
  assert_location(f->p, FJ_ERR_EXPECTED_VALUE, 0, 1, 1);

  /* a successful parse clears the last error */
  root = parse(f, "[]");
  fj_location loc;
  EXPECT(fj_parser_last_error(f->p, &loc), FJ_OK);
}

/* ---- a real document --------------------------------------------------------- */

static void twitter_walk(void **state) {
  fixture *f = *state;
  size_t size;
  char *buf = (char *)fj_test_read_file(FJ_DATA_DIR "/corpus/twitter.json", &size);
  if (!buf) skip();
  fj_value root, v, st;
  fj_object o, so, user;
  fj_array statuses;
  OK(fj_parser_parse(f->p, buf, size, &root));
  OK(fj_value_get_object(&root, &o));
  OK(fj_object_find(&o, "search_metadata", &v)); /* out of order: the last field first */
  fj_object md;
  OK(fj_value_get_object(&v, &md));
  OK(fj_object_find(&md, "count", &v));
  assert_int_equal(get_i64(&v), 100);
  OK(fj_object_find(&md, "max_id_str", &v));
  assert_str(&v, "505874924095815681");
  OK(fj_object_find(&o, "statuses", &v));
  OK(fj_value_get_array(&v, &statuses));
  size_t count;
  OK(fj_array_count(&statuses, &count));
  assert_int_equal(count, 100);
  /* statuses/0: id, id_str (agree with each other), user.screen_name */
  OK(fj_array_next(&statuses, &st));
  OK(fj_value_get_object(&st, &so));
  OK(fj_object_find(&so, "id_str", &v));
  assert_str(&v, "505874924095815681");
  OK(fj_object_find(&so, "id", &v)); /* before id_str: wraps around */
  uint64_t id;
  OK(fj_value_get_uint64(&v, &id));
  assert_true(id == 505874924095815681ull);
  OK(fj_object_find(&so, "user", &v));
  OK(fj_value_get_object(&v, &user));
  OK(fj_object_find(&user, "screen_name", &v));
  assert_str(&v, "ayuu0123");
  /* every status has a user with an integer id; none is skipped or doubled */
  size_t n = 1;
  fj_error err;
  while ((err = fj_array_next(&statuses, &st)) == FJ_OK) {
    OK(fj_value_get_object(&st, &so));
    OK(fj_object_find(&so, "user", &v));
    OK(fj_value_get_object(&v, &user));
    OK(fj_object_find(&user, "id", &v));
    OK(fj_value_get_uint64(&v, &id));
    assert_true(id > 0);
    n++;
  }
  EXPECT(err, FJ_END);
  assert_int_equal(n, 100);
  free(buf);
}

/* parser.h: "On FJ_ERR_NO_SUCH_FIELD the cursor is where it was." A value
 * that was found but not yet read must still be readable after a miss. */
static void missing_field_keeps_found_value(void **state) {
  fixture *f = *state;
  fj_value root = parse(f, "{\"a\": [1, 2], \"b\": {\"c\": 3}}"), va, vb, v;
  fj_object o, ob;
  fj_array arr;
  OK(fj_value_get_object(&root, &o));
  OK(fj_object_find(&o, "a", &va));
  EXPECT(fj_object_find(&o, "zz", &v), FJ_ERR_NO_SUCH_FIELD);
  OK(fj_value_get_array(&va, &arr)); /* the cursor is still on "a"'s value */
  OK(fj_array_next(&arr, &v));
  assert_int_equal(get_i64(&v), 1);
  OK(fj_object_find(&o, "b", &vb));
  EXPECT(fj_object_find(&o, "a2", &v), FJ_ERR_NO_SUCH_FIELD);
  OK(fj_value_get_object(&vb, &ob));
  OK(fj_object_find(&ob, "c", &v));
  assert_int_equal(get_i64(&v), 3);
}

/* fj_object_findn() accepts key NULL with key_len 0 (it only refuses NULL
 * with a length): that is the empty key. Run under UBSan: no memcmp on NULL.
 * And a NULL value, as parser.h says. */
static void find_empty_key_null_pointer(void **state) {
  fixture *f = *state;
  fj_value root = parse(f, "{\"x\": 0, \"\": 1}"), v;
  fj_object o;
  OK(fj_value_get_object(&root, &o));
  OK(fj_object_find(&o, "", &v));
  assert_int_equal(get_i64(&v), 1);
  OK(fj_object_findn(&o, NULL, 0, &v));
  assert_int_equal(get_i64(&v), 1);
  EXPECT(fj_object_findn(&o, NULL, 1, &v), FJ_ERR_INVALID_ARG);
  /* a NULL value: whether the field is there; the next step skips it */
  fj_value r2 = parse(f, "{\"a\": [1, {}], \"b\": 2, \"c\": 3}"), k;
  OK(fj_value_get_object(&r2, &o));
  OK(fj_object_find(&o, "a", NULL));
  OK(fj_object_next(&o, &k, &v));
  assert_str(&k, "b");
  EXPECT(fj_object_find(&o, "d", NULL), FJ_ERR_NO_SUCH_FIELD);
  OK(fj_object_find(&o, "c", NULL));
  OK(fj_object_find(&o, "b", &v));
  assert_int_equal(get_i64(&v), 2);
}

/* fj_value_get_number: the kind the text calls for, and the errors and
 * offsets of the single-type getters. */
static void get_number_kinds(void **state) {
  fixture *f = *state;
  fj_value root = parse(f, "[0, -0, 42, -9223372036854775808, 9223372036854775808, "
                           "18446744073709551615, 18446744073709551616, -9223372036854775809, "
                           "1.5, -0.0, 1e2, 1e400, -65.613616999999977, \"s\", 12x, 1.]");
  fj_array a;
  fj_value v[16];
  fj_number n = {0}; /* assert_true() returns to gcc: it sees n unread on a failure */
  fj_location loc;
  OK(fj_value_get_array(&root, &a));
  for (int i = 0; i < 16; i++)
    OK(fj_array_next(&a, &v[i]));
  OK(fj_value_get_number(&v[0], &n));
  assert_true(n.kind == FJ_NUMBER_INT64 && n.i == 0);
  OK(fj_value_get_number(&v[1], &n));
  assert_true(n.kind == FJ_NUMBER_INT64 && n.i == 0);
  OK(fj_value_get_number(&v[2], &n));
  assert_true(n.kind == FJ_NUMBER_INT64 && n.i == 42);
  OK(fj_value_get_number(&v[3], &n));
  assert_true(n.kind == FJ_NUMBER_INT64 && n.i == INT64_MIN);
  OK(fj_value_get_number(&v[4], &n));
  assert_true(n.kind == FJ_NUMBER_UINT64 && n.u == (uint64_t)INT64_MAX + 1);
  OK(fj_value_get_number(&v[5], &n));
  assert_true(n.kind == FJ_NUMBER_UINT64 && n.u == UINT64_MAX);
  OK(fj_value_get_number(&v[6], &n));
  assert_true(n.kind == FJ_NUMBER_BIG_INTEGER && n.d == 18446744073709551616.0);
  OK(fj_value_get_number(&v[7], &n));
  assert_true(n.kind == FJ_NUMBER_BIG_INTEGER && n.d == -9223372036854775808.0);
  OK(fj_value_get_number(&v[8], &n));
  assert_true(n.kind == FJ_NUMBER_DOUBLE && n.d == 1.5);
  OK(fj_value_get_number(&v[9], &n));
  assert_true(n.kind == FJ_NUMBER_DOUBLE && n.d == 0.0 && signbit(n.d));
  OK(fj_value_get_number(&v[10], &n));
  assert_true(n.kind == FJ_NUMBER_DOUBLE && n.d == 100.0);
  EXPECT(fj_value_get_number(&v[11], &n), FJ_ERR_NUMBER_RANGE);
  assert_true(n.kind == FJ_NUMBER_DOUBLE && isinf(n.d));
  OK(fj_value_get_number(&v[12], &n));
  double d;
  OK(fj_value_get_double(&v[12], &d));
  assert_true(n.kind == FJ_NUMBER_DOUBLE && n.d == d && d == -65.613616999999977);
  EXPECT(fj_value_get_number(&v[13], &n), FJ_ERR_WRONG_TYPE);
  EXPECT(fj_value_get_number(&v[14], &n), FJ_ERR_BAD_NUMBER);
  int64_t i64;
  size_t at_number;
  EXPECT(fj_parser_last_error(f->p, &loc), FJ_ERR_BAD_NUMBER);
  at_number = loc.offset;
  EXPECT(fj_value_get_int64(&v[14], &i64), FJ_ERR_BAD_NUMBER);
  EXPECT(fj_parser_last_error(f->p, &loc), FJ_ERR_BAD_NUMBER);
  assert_int_equal(loc.offset, at_number); /* the 'x', as fj_value_get_int64() says */
  EXPECT(fj_value_get_number(&v[15], &n), FJ_ERR_BAD_NUMBER);
  EXPECT(fj_parser_last_error(f->p, &loc), FJ_ERR_BAD_NUMBER);
  EXPECT(fj_value_get_double(&v[15], &d), FJ_ERR_BAD_NUMBER);
  fj_location loc2;
  fj_parser_last_error(f->p, &loc2);
  assert_int_equal(loc.offset, loc2.offset);
  EXPECT(fj_value_get_number(&v[0], NULL), FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_array_next(&a, NULL), FJ_END);
  EXPECT(fj_value_get_number(&v[0], &n), FJ_ERR_OUT_OF_ORDER); /* the array was left */
  fj_value r2;
  OK(parse_on(f, f->p, "7", &r2));
  EXPECT(fj_value_get_number(&root, &n), FJ_ERR_STALE_DOCUMENT);
  OK(fj_value_get_number(&r2, &n)); /* a root number, at the end of the input */
  assert_true(n.kind == FJ_NUMBER_INT64 && n.i == 7);
}

/* Walks two parses of one document in lockstep: `a` with fj_object_next()
 * and fj_value_get_string() on the key handle (the oracle), `b` with
 * fj_object_next_key(). Every step must agree: codes, keys, values. */
static void lockstep(const fj_value *a, const fj_value *b) {
  fj_type ta, tb;
  OK(fj_value_get_type(a, &ta));
  OK(fj_value_get_type(b, &tb));
  assert_int_equal(ta, tb);
  if (ta == FJ_TYPE_OBJECT) {
    fj_object oa, ob;
    fj_value ka, va, vb;
    OK(fj_value_get_object(a, &oa));
    OK(fj_value_get_object(b, &ob));
    for (;;) {
      const char *sa, *sb;
      size_t na, nb;
      fj_error ea = fj_object_next(&oa, &ka, &va), eb = fj_object_next_key(&ob, &sb, &nb, &vb);
      if (ea == FJ_OK) ea = fj_value_get_string(&ka, &sa, &na);
      assert_int_equal(ea, eb);
      if (ea) {
        assert_null(sb);
        assert_int_equal(nb, 0);
        EXPECT(fj_value_get_type(&vb, &tb), FJ_ERR_INVALID_ARG); /* zeroed */
        return;
      }
      assert_int_equal(na, nb);
      assert_memory_equal(sa, sb, na);
      lockstep(&va, &vb);
    }
  }
  if (ta == FJ_TYPE_ARRAY) {
    fj_array xa, xb;
    fj_value ea, eb;
    OK(fj_value_get_array(a, &xa));
    OK(fj_value_get_array(b, &xb));
    fj_error ra, rb;
    while ((ra = fj_array_next(&xa, &ea)) == FJ_OK) {
      OK(fj_array_next(&xb, &eb));
      lockstep(&ea, &eb);
    }
    rb = fj_array_next(&xb, &eb);
    assert_int_equal(ra, rb);
    return;
  }
  const char *sa, *sb;
  size_t na, nb;
  OK(fj_value_get_raw(a, &sa, &na));
  OK(fj_value_get_raw(b, &sb, &nb));
  assert_int_equal(na, nb);
  assert_memory_equal(sa, sb, na);
}

static void lockstep_doc(const char *json, size_t len) {
  fj_parser *pa, *pb;
  fj_value ra, rb;
  OK(fj_parser_new(&pa, NULL));
  OK(fj_parser_new(&pb, NULL));
  if (fj_parser_parse(pa, json, len, &ra) == FJ_OK) {
    OK(fj_parser_parse(pb, json, len, &rb));
    lockstep(&ra, &rb);
  }
  fj_parser_free(pa);
  fj_parser_free(pb);
}

/* The inline paths of parser.h look for escapes 8 bytes at a time: every
 * length up to past their 64-byte limit, with an escape at every position or
 * none, as a key, as a value and as a whole (exact-size) document, must read
 * as the exported functions read it. */
static void inline_escape_search_edges(void **state) {
  fixture *f = *state;
  char doc[256], want[80];
  for (size_t len = 0; len <= 70; len++) {
    for (size_t at = 0; at <= len; at++) { /* at == len: no escape */
      char raw[160];
      size_t r = 0, w = 0;
      for (size_t i = 0; i < len; i++) {
        if (i == at) {
          raw[r++] = '\\';
          raw[r++] = 'n';
          want[w++] = '\n';
        } else {
          raw[r++] = (char)('a' + i % 26);
          want[w++] = (char)('a' + i % 26);
        }
      }
      for (int root = 0; root < 2; root++) {
        int n = root ? snprintf(doc, sizeof doc, "\"%.*s\"", (int)r, raw)
                     : snprintf(doc, sizeof doc, "[{\"%.*s\": \"%.*s\", \"z\": \"\\t\"}]", (int)r,
                                raw, (int)r, raw);
        const char *d = keep(f, doc, (size_t)n);
        fj_value v, e, x;
        fj_array a;
        fj_object o;
        const char *s;
        size_t sn;
        assert_int_equal(fj_parser_parse(f->p, d, (size_t)n, &v), FJ_OK);
        if (!root) {
          assert_int_equal(fj_value_get_array(&v, &a), FJ_OK);
          assert_int_equal(fj_array_next(&a, &e), FJ_OK);
          assert_int_equal(fj_value_get_object(&e, &o), FJ_OK);
          assert_int_equal(fj_object_next_key(&o, &s, &sn, &x), FJ_OK);
          assert_int_equal(sn, w);
          assert_memory_equal(s, want, w);
          v = x;
        }
        assert_int_equal(fj_value_get_string(&v, &s, &sn), FJ_OK);
        assert_int_equal(sn, w);
        assert_memory_equal(s, want, w);
        free(f->docs[--f->ndocs]); /* keep() holds 64 */
      }
    }
  }
}

static void object_next_key_matches_next(void **state) {
  (void)state;
  /* escaped keys (unescaped into scratch), a bad escape after good fields,
   * a truncated object, a missing colon, empty keys */
  static const char *const docs[] = {
      "{\"a\": 1, \"b\\u00e9\": [true, {\"\": null}], \"\\ud83d\\ude00\": \"x\"}",
      "{\"ok\": 1, \"bad\\x\": 2}",
      "{\"ok\": 1, \"lone\\ud800\": 2}",
      "{\"a\": 1, \"b\" 2}",
      "{\"a\": {\"b\": [1, 2, {\"c\": 3}]}",
      "{}",
      "[{\"k\\\"q\": \"v\\n\"}, {\"k\": 1}]",
  };
  for (size_t i = 0; i < sizeof docs / sizeof *docs; i++)
    lockstep_doc(docs[i], strlen(docs[i]));
  size_t count;
  char **names = fj_test_list_dir(FJ_DATA_DIR "/corpus", ".json", &count);
  if (!names) skip();
  for (size_t i = 0; i < count; i++) {
    size_t len;
    char *buf = (char *)fj_test_read_in(FJ_DATA_DIR "/corpus", names[i], &len);
    assert_non_null(buf);
    lockstep_doc(buf, len);
    free(buf);
  }
  fj_test_free_list(names, count);
  const char *key;
  size_t key_len;
  fj_parser *p;
  fj_value root, v;
  fj_object o;
  OK(fj_parser_new(&p, NULL));
  OK(fj_parser_parse(p, "{\"a\": 1}", 8, &root));
  OK(fj_value_get_object(&root, &o));
  EXPECT(fj_object_next_key(&o, NULL, &key_len, &v), FJ_ERR_INVALID_ARG);
  EXPECT(fj_object_next_key(&o, &key, NULL, &v), FJ_ERR_INVALID_ARG);
  OK(fj_object_next_key(&o, &key, &key_len, &v)); /* the refusals did not move it */
  assert_int_equal(key_len, 1);
  assert_int_equal(get_i64(&v), 1);
  EXPECT(fj_object_next_key(NULL, &key, &key_len, &v), FJ_ERR_INVALID_ARG);
  fj_parser_free(p);
}

/* The number getters write *out only with FJ_OK (and the doubles' range
 * error, +-inf), through the inline paths and the exported functions alike:
 * text running on after a number ("12x", parsed up to the x), a fraction
 * for an integer, a range error of an integer, a string. */
static void failed_number_reads_leave_out(void **state) {
  fixture *f = *state;
  fj_value root = parse(f, "[12x, 1.5x, 1.5, 99999999999999999999, -1, \"s\", 1e400]");
  fj_array a;
  fj_value v[7];
  OK(fj_value_get_array(&root, &a));
  for (int i = 0; i < 7; i++)
    OK(fj_array_next(&a, &v[i]));
  /* which of the six fail: int64 all but -1, uint64 all, doubles the bad
   * text and the string (v[6], the range error, below) */
  for (int i = 0; i < 6; i++) {
    int64_t x = 7, xe = 7;
    uint64_t u = 7, ue = 7;
    double d = 7, de = 7;
    fj_number n = {FJ_NUMBER_INT64, {7}}, ne = n;
    if (i != 4) {
      assert_true(fj_value_get_int64(&v[i], &x) != FJ_OK);
      assert_true((fj_value_get_int64)(&v[i], &xe) != FJ_OK);
    }
    assert_true(fj_value_get_uint64(&v[i], &u) != FJ_OK);
    assert_true((fj_value_get_uint64)(&v[i], &ue) != FJ_OK);
    if (i < 2 || i == 5) {
      assert_true(fj_value_get_double(&v[i], &d) != FJ_OK);
      assert_true((fj_value_get_double)(&v[i], &de) != FJ_OK);
      assert_true(fj_value_get_number(&v[i], &n) != FJ_OK);
      assert_true((fj_value_get_number)(&v[i], &ne) != FJ_OK);
    }
    assert_true(x == 7 && xe == 7 && u == 7 && ue == 7 && d == 7 && de == 7);
    assert_true(n.kind == FJ_NUMBER_INT64 && n.i == 7 && ne.kind == FJ_NUMBER_INT64 && ne.i == 7);
  }
  double d = 7, de = 7;
  EXPECT(fj_value_get_double(&v[6], &d), FJ_ERR_NUMBER_RANGE);
  EXPECT((fj_value_get_double)(&v[6], &de), FJ_ERR_NUMBER_RANGE);
  assert_true(isinf(d) && d > 0 && isinf(de) && de > 0);
}

/* The raw text of v into text (cap bytes, NUL-terminated); its length. */
static size_t raw_text(const fj_value *v, char *text, size_t cap) {
  const char *raw;
  size_t n;
  OK(fj_value_get_raw(v, &raw, &n));
  assert_true(n < cap);
  memcpy(text, raw, n);
  text[n] = '\0';
  return n;
}

/* Integers of 1 to 19 digits, either sign, some with a leading zero (bad),
 * separated by ",", ", " or ",\n  " and followed by other numbers, read with
 * fj_value_get_int64() and fj_value_get_number() (the inline paths: a digit
 * at a time, or 8 at once after the first) against strtoll on the text. */
static void integers_against_strtoll(void **state) {
  fixture *f = *state;
  enum { N = 4000 };
  char *json = malloc((size_t)N * 32 + 16), *o = json;
  assert_non_null(json);
  *o++ = '[';
  uint64_t x = 0x9E3779B97F4A7C15u;
  for (int i = 0; i < N; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    int digits = 1 + (int)(x % 19);
    if (i)
      o += sprintf(o, "%s", (const char *[]){",", ", ", ",\n  "}[x >> 60 & 1 ? 1 : (x >> 61) % 3]);
    if (x >> 59 & 1) *o++ = '-';
    for (int k = 0; k < digits; k++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      *o++ = (char)('0' + (k == 0 && !(x >> 58 & 1) ? 1 + x % 9 : x % 10));
    }
  }
  strcpy(o, "]");
  fj_value root = parse(f, json);
  fj_array a;
  fj_value e;
  OK(fj_value_get_array(&root, &a));
  int checked = 0;
  for (fj_error err; (err = fj_array_next(&a, &e)) != FJ_END; checked++) {
    OK(err);
    char text[32];
    raw_text(&e, text, sizeof text);
    const char *d = text + (text[0] == '-');
    bool bad = d[0] == '0' && d[1] != '\0';
    errno = 0;
    int64_t want = strtoll(text, NULL, 10), got = 0;
    fj_number num;
    if (bad) {
      EXPECT(fj_value_get_int64(&e, &got), FJ_ERR_BAD_NUMBER);
      EXPECT(fj_value_get_number(&e, &num), FJ_ERR_BAD_NUMBER);
      continue;
    }
    if (errno == ERANGE) { /* 19 digits past INT64_MAX */
      EXPECT(fj_value_get_int64(&e, &got), FJ_ERR_NUMBER_RANGE);
      continue;
    }
    OK(fj_value_get_int64(&e, &got));
    if (got != want) print_error("%s: got %lld\n", text, (long long)got);
    assert_true(got == want);
    OK(fj_value_get_number(&e, &num));
    assert_int_equal(num.kind, FJ_NUMBER_INT64);
    assert_true(num.i == want);
  }
  assert_int_equal(checked, N);
  free(json);
}

/* One number's text for doubles_against_strtod(): integers of 1 to 25
 * digits (-0 among them), decimals of 1 to 3 integer digits and 1 to 20
 * fraction digits (the inline paths' shapes and just past them), exponents
 * (overflow and underflow among them) and malformed text. */
static char *random_number(char *o, uint64_t *x, bool *malformed) {
  static const char *const bad[] = {"-", "01", "1.", "1e", "1.5x", "-01", "00", "1.0e+", "2.e3"};
  uint64_t r = *x ^= *x << 13, r2;
  *x ^= *x >> 7, *x ^= *x << 17;
  r2 = *x;
  unsigned kind = (unsigned)(r % 16);
  *malformed = kind == 0;
  if (kind == 0) return o + sprintf(o, "%s", bad[r2 % 9]);
  if (r2 >> 63) *o++ = '-';
  int id = kind < 6 ? 1 + (int)(r2 % 25) : 1 + (int)(r2 % 3), fd = 1 + (int)((r2 >> 8) % 20);
  for (int k = 0; k < id; k++) { /* runs of 9s reach carries */
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    int dig = (*x >> 60) == 0 ? 9 : (int)(*x % 10);
    *o++ = (char)('0' + (k == 0 && id > 1 && dig == 0 ? 1 : k == 0 && kind == 1 ? 0 : dig));
    if (k == 0 && kind == 1) break; /* 0 or -0 */
  }
  if (kind < 6) return o;
  *o++ = '.';
  for (int k = 0; k < fd; k++) {
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    *o++ = (char)('0' + ((*x >> 60) == 0 ? 9 : *x % 10));
  }
  if (kind == 15) o += sprintf(o, "e%d", (int)((r2 >> 20) % 700) - 350);
  return o;
}

/* fj_value_get_double(), its inline path and the exported function, on
 * numbers of every shape (random_number) against strtod on the text: the
 * same bits (-0 gives -0.0), FJ_ERR_NUMBER_RANGE with +-inf where strtod
 * overflows, FJ_ERR_BAD_NUMBER for malformed text; then each value once
 * more as a whole document of its own, where fewer than the 20 bytes the
 * inline paths read ahead are left. */
static void doubles_against_strtod(void **state) {
  fixture *f = *state;
  enum { N = 6000 };
  char *json = malloc((size_t)N * 64 + 16), *o = json;
  assert_non_null(json);
  *o++ = '[';
  uint64_t x = 0x2545F4914F6CDD1Du;
  static bool malformed[N];
  for (int i = 0; i < N; i++) {
    if (i) o += sprintf(o, "%s", (const char *[]){",", ", ", ",\n  "}[i % 3]);
    o = random_number(o, &x, &malformed[i]);
  }
  strcpy(o, "]");
  fj_value root = parse(f, json);
  fj_array a;
  fj_value e;
  OK(fj_value_get_array(&root, &a));
  int checked = 0, bad = 0, range = 0;
  for (fj_error err; (err = fj_array_next(&a, &e)) != FJ_END; checked++) {
    OK(err);
    char text[64];
    const size_t n = raw_text(&e, text, sizeof text);
    errno = 0;
    const double want = strtod(text, NULL);
    const fj_error code = malformed[checked]               ? FJ_ERR_BAD_NUMBER
                          : errno == ERANGE && isinf(want) ? FJ_ERR_NUMBER_RANGE
                                                           : FJ_OK;
    bad += code == FJ_ERR_BAD_NUMBER, range += code == FJ_ERR_NUMBER_RANGE;
    double got = 0, exported = 0;
    const fj_error e1 = fj_value_get_double(&e, &got), e2 = (fj_value_get_double)(&e, &exported);
    if (e1 != code || e2 != code ||
        (code != FJ_ERR_BAD_NUMBER &&
         (memcmp(&got, &want, 8) != 0 || memcmp(&exported, &want, 8) != 0)))
      print_error("%s: %s %a, exported %s %a, strtod %a\n", text, fj_error_name(e1), got,
                  fj_error_name(e2), exported, want);
    EXPECT(e1, code);
    EXPECT(e2, code);
    if (code == FJ_ERR_BAD_NUMBER) continue;
    assert_memory_equal(&got, &want, sizeof got);
    assert_memory_equal(&exported, &want, sizeof got);
    /* alone: the document ends right after the number */
    fj_parser *q;
    fj_value alone;
    char *copy = malloc(n); /* exact size: ASan sees a read past it */
    assert_non_null(copy);
    memcpy(copy, text, n);
    OK(fj_parser_new(&q, NULL));
    OK(fj_parser_parse(q, copy, n, &alone));
    got = 0;
    EXPECT(fj_value_get_double(&alone, &got), code);
    assert_memory_equal(&got, &want, sizeof got);
    fj_parser_free(q);
    free(copy);
  }
  assert_int_equal(checked, N);
  assert_true(bad > 100 && range > 10);
  free(json);
}

/* Every inline getter (and its exported function) refuses a NULL and a
 * zeroed handle with FJ_ERR_INVALID_ARG, without a crash: the inline paths
 * test the handle's type before its parser, and rely on a handle the
 * library did not write having FJ_TYPE_NULL. */
static void getters_refuse_unwritten_handles(void **state) {
  (void)state;
  const fj_value zeroed = {0};
  const fj_value *const handles[] = {NULL, &zeroed};
  for (int i = 0; i < 2; i++) {
    const fj_value *v = handles[i];
    const char *s = "x";
    size_t n = 1;
    fj_number num;
    double d;
    int64_t x;
    bool b;
    fj_array a;
    fj_object o;
    EXPECT(fj_value_get_string(v, &s, &n), FJ_ERR_INVALID_ARG);
    EXPECT((fj_value_get_string)(v, &s, &n), FJ_ERR_INVALID_ARG);
    EXPECT(fj_value_get_number(v, &num), FJ_ERR_INVALID_ARG);
    EXPECT((fj_value_get_number)(v, &num), FJ_ERR_INVALID_ARG);
    EXPECT(fj_value_get_double(v, &d), FJ_ERR_INVALID_ARG);
    EXPECT((fj_value_get_double)(v, &d), FJ_ERR_INVALID_ARG);
    EXPECT(fj_value_get_int64(v, &x), FJ_ERR_INVALID_ARG);
    EXPECT((fj_value_get_int64)(v, &x), FJ_ERR_INVALID_ARG);
    EXPECT(fj_value_get_bool(v, &b), FJ_ERR_INVALID_ARG);
    EXPECT((fj_value_get_bool)(v, &b), FJ_ERR_INVALID_ARG);
    EXPECT(fj_value_is_null(v, &b), FJ_ERR_INVALID_ARG);
    EXPECT((fj_value_is_null)(v, &b), FJ_ERR_INVALID_ARG);
    EXPECT(fj_value_get_array(v, &a), FJ_ERR_INVALID_ARG);
    EXPECT((fj_value_get_array)(v, &a), FJ_ERR_INVALID_ARG);
    EXPECT(fj_value_get_object(v, &o), FJ_ERR_INVALID_ARG);
    EXPECT((fj_value_get_object)(v, &o), FJ_ERR_INVALID_ARG);
  }
}

/* Strings and keys followed by 0 to 40 bytes of whitespace before the next
 * structural (the inline paths find the closing quote back from there, 8
 * bytes a step): every string reads back as written, through the inline
 * and the exported getters, at the document's start (a root string) and
 * inside containers, with escaped quotes inside. */
static void strings_before_whitespace(void **state) {
  (void)state;
  static const char *const texts[] = {
      "", "a", "ab\\\"", "\\\"x\\\"", "0123456789abcdef", "quote \\\" at 7"};
  static const char *const wants[] = {
      "", "a", "ab\"", "\"x\"", "0123456789abcdef", "quote \" at 7"};
  static const char ws[] = " \t\n\r";
  fj_parser *p;
  OK(fj_parser_new(&p, NULL));
  char doc[256];
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    for (int k = 0; k <= 40; k++) {
      char pad[48];
      for (int j = 0; j < k; j++)
        pad[j] = ws[(j * 7 + k) % 4];
      pad[k] = '\0';
      const char *s;
      size_t n;
      fj_value root, v, key;
      fj_object o;
      /* a root string, then one in an object as key and value */
      for (int shape = 0; shape < 2; shape++) {
        const int len = shape == 0 ? snprintf(doc, sizeof doc, "\"%s\"%s", texts[i], pad)
                                   : snprintf(doc, sizeof doc, "{\"%s\"%s: \"%s\"%s}", texts[i],
                                              pad, texts[i], pad);
        char *copy = malloc((size_t)len); /* exact size */
        assert_non_null(copy);
        memcpy(copy, doc, (size_t)len);
        OK(fj_parser_parse(p, copy, (size_t)len, &root));
        if (shape == 0) {
          v = root;
        } else {
          OK(fj_value_get_object(&root, &o));
          OK(fj_object_next_key(&o, &s, &n, &v));
          assert_int_equal(n, strlen(wants[i]));
          assert_memory_equal(s, wants[i], n);
        }
        OK(fj_value_get_string(&v, &s, &n));
        assert_int_equal(n, strlen(wants[i]));
        assert_memory_equal(s, wants[i], n);
        OK((fj_value_get_string)(&v, &s, &n));
        assert_int_equal(n, strlen(wants[i]));
        assert_memory_equal(s, wants[i], n);
        if (shape == 1) {
          OK(fj_parser_rewind(p));
          OK(fj_value_get_object(&root, &o));
          OK((fj_object_next)(&o, &key, &v));
          OK(fj_value_get_string(&key, &s, &n));
          assert_int_equal(n, strlen(wants[i]));
          assert_memory_equal(s, wants[i], n);
        }
        free(copy);
      }
    }
  }
  fj_parser_free(p);
}

/* The inline steps' shifted type table says what fj__type_of says, for
 * every byte. */
static void type_tables_agree(void **state) {
  (void)state;
  for (int b = 0; b < 256; b++) {
    const unsigned t = fj__type_of[b];
    if (!t)
      assert_true(fj__type_meta[b] == FJ__NO_VALUE);
    else
      assert_true(fj__type_meta[b] == (uint32_t)(t - 1) << 24);
  }
}

/* Numbers whose text ends 0 to 24 bytes before the end of an exact-size
 * buffer: the inline getters read up to 20 bytes from the first digit (and
 * up to 24 from a long fraction) only where the document has them, and
 * every placement gives strtod's / strtoll's value. ASan (CI) reports a
 * read past the buffer. */
static void numbers_near_the_end(void **state) {
  (void)state;
  static const char *const texts[] = {"7",
                                      "-12345",
                                      "123456789012345678",
                                      "0.5",
                                      "-0.0636837780476",
                                      "1.2345678901234567",
                                      "0.12345678901234567891",
                                      "-98765432109876543"};
  fj_parser *p;
  OK(fj_parser_new(&p, NULL));
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    const size_t tl = strlen(texts[i]);
    const bool integer = !strchr(texts[i], '.');
    for (size_t tail = 0; tail <= 24; tail++) {
      const size_t len = tl + 2 + tail;
      char *doc = malloc(len);
      assert_non_null(doc);
      doc[0] = '[';
      memcpy(doc + 1, texts[i], tl);
      doc[1 + tl] = ']';
      memset(doc + 2 + tl, ' ', tail);
      fj_value root, e;
      fj_array a;
      fj_number num;
      double d = 0;
      OK(fj_parser_parse(p, doc, len, &root));
      OK(fj_value_get_array(&root, &a));
      OK(fj_array_next(&a, &e));
      OK(fj_value_get_number(&e, &num));
      OK(fj_value_get_double(&e, &d));
      const double want = strtod(texts[i], NULL);
      assert_memory_equal(&d, &want, sizeof d);
      if (integer) {
        assert_int_equal(num.kind, FJ_NUMBER_INT64);
        assert_true(num.i == strtoll(texts[i], NULL, 10));
      } else {
        assert_int_equal(num.kind, FJ_NUMBER_DOUBLE);
        assert_memory_equal(&num.d, &want, sizeof want);
      }
      EXPECT(fj_array_next(&a, &e), FJ_END);
      free(doc);
    }
  }
  fj_parser_free(p);
}

/* A step that fails on bad syntax fails the same way, at the same place,
 * when called again: the cursor did not move past what it could not read
 * (it used to have moved, and the second call said FJ_ERR_OUT_OF_ORDER at
 * the object's start). `steps` fields are read first with
 * fj_object_next_key() (their values not read); then `op` runs twice:
 * 0 fj_object_next_key, 1 fj_object_find of a missing key, 2 fj_object_next. */
static void repeat_after_syntax_error(void **state) {
  (void)state;
  static const struct {
    const char *json;
    uint32_t max_depth;
    int steps;
    fj_error want;
  } cases[] = {
      {"{\"a\":1,\"b\" 2}", 0, 1, FJ_ERR_EXPECTED_COLON},
      {"{\"a\":1,\"b\":}", 0, 1, FJ_ERR_EXPECTED_VALUE},
      {"{\"a\":1,2:3}", 0, 1, FJ_ERR_EXPECTED_KEY},
      {"{\"a\":1 \"b\":2}", 0, 1, FJ_ERR_EXPECTED_COMMA},
      {"{\"a\":1,\"b\":[1}}", 0, 2, FJ_ERR_EXPECTED_COMMA},
      {"{\"a\":1,\"b\":[[[[9]]]],\"c\":2}", 3, 2, FJ_ERR_DEPTH},
      {"{\"a\":[1,2", 0, 1, FJ_ERR_TRUNCATED},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    for (int op = 0; op < 3; op++) {
      fj_parser_options po = {0};
      po.max_depth = cases[i].max_depth;
      fj_parser *p;
      OK(fj_parser_new(&p, &po));
      fj_value root, v, k;
      fj_object o;
      const char *key;
      size_t n;
      OK(fj_parser_parse(p, cases[i].json, strlen(cases[i].json), &root));
      OK(fj_value_get_object(&root, &o));
      for (int j = 0; j < cases[i].steps; j++)
        OK(fj_object_next_key(&o, &key, &n, &v));
      fj_location first = {0, 0, 0}, again = {0, 0, 0};
      for (int round = 0; round < 2; round++) {
        fj_error err = op == 0   ? fj_object_next_key(&o, &key, &n, &v)
                       : op == 1 ? fj_object_find(&o, "zz", &v)
                                 : fj_object_next(&o, &k, &v);
        if (err != cases[i].want)
          fail_msg("case %zu op %d round %d: %s, not %s", i, op, round, fj_error_name(err),
                   fj_error_name(cases[i].want));
        EXPECT(fj_parser_last_error(p, round ? &again : &first), cases[i].want);
      }
      assert_int_equal(again.offset, first.offset);
      assert_int_equal(again.line, first.line);
      assert_int_equal(again.column, first.column);
      fj_parser_free(p);
    }
  }
  /* arrays: fj_array_next() after one element, twice */
  static const struct {
    const char *json;
    fj_error want;
  } arrays[] = {{"[1,]", FJ_ERR_EXPECTED_VALUE},
                {"[1 2]", FJ_ERR_EXPECTED_COMMA},
                {"[[1,2", FJ_ERR_TRUNCATED},
                {"[[1},2]", FJ_ERR_EXPECTED_COMMA}};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
    fj_parser *p;
    OK(fj_parser_new(&p, NULL));
    fj_value root, v;
    fj_array a;
    OK(fj_parser_parse(p, arrays[i].json, strlen(arrays[i].json), &root));
    OK(fj_value_get_array(&root, &a));
    OK(fj_array_next(&a, &v));
    fj_location first = {0, 0, 0}, again = {0, 0, 0};
    EXPECT(fj_array_next(&a, &v), arrays[i].want);
    EXPECT(fj_parser_last_error(p, &first), arrays[i].want);
    EXPECT(fj_array_next(&a, &v), arrays[i].want);
    EXPECT(fj_parser_last_error(p, &again), arrays[i].want);
    assert_int_equal(again.offset, first.offset);
    fj_parser_free(p);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(types_of_every_kind, setup, teardown),
      cmocka_unit_test_setup_teardown(scalar_getters, setup, teardown),
      cmocka_unit_test_setup_teardown(get_number_kinds, setup, teardown),
      cmocka_unit_test_setup_teardown(bad_literals, setup, teardown),
      cmocka_unit_test_setup_teardown(cut_off_numbers, setup, teardown),
      cmocka_unit_test_setup_teardown(part_read_child_closed_wrong, setup, teardown),
      cmocka_unit_test_setup_teardown(numbers_at_the_cut, setup, teardown),
      cmocka_unit_test_setup_teardown(counts_check_separators, setup, teardown),
      cmocka_unit_test_setup_teardown(integer_edges, setup, teardown),
      cmocka_unit_test_setup_teardown(integers_against_strtoll, setup, teardown),
      cmocka_unit_test_setup_teardown(doubles_against_strtod, setup, teardown),
      cmocka_unit_test(numbers_near_the_end),
      cmocka_unit_test(type_tables_agree),
      cmocka_unit_test(getters_refuse_unwritten_handles),
      cmocka_unit_test(strings_before_whitespace),
      cmocka_unit_test_setup_teardown(failed_number_reads_leave_out, setup, teardown),
      cmocka_unit_test_setup_teardown(array_next_at_count, setup, teardown),
      cmocka_unit_test_setup_teardown(array_syntax_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(object_next_and_find, setup, teardown),
      cmocka_unit_test_setup_teardown(find_unescapes_keys_that_may_match, setup, teardown),
      cmocka_unit_test_setup_teardown(missing_field_keeps_cursor, setup, teardown),
      cmocka_unit_test_setup_teardown(object_syntax_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(skipping_unread_and_partial, setup, teardown),
      cmocka_unit_test_setup_teardown(skipping_stops_at_the_closing_bracket, setup, teardown),
      cmocka_unit_test_setup_teardown(passed_over_containers_close_in_kind, setup, teardown),
      cmocka_unit_test_setup_teardown(misuse_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(copied_iterations, setup, teardown),
      cmocka_unit_test_setup_teardown(failures_leave_refused_handles, setup, teardown),
      cmocka_unit_test_setup_teardown(rewind_restarts, setup, teardown),
      cmocka_unit_test_setup_teardown(long_skips_land_on_the_bracket, setup, teardown),
      cmocka_unit_test_setup_teardown(long_skips_at_the_limits, setup, teardown),
      cmocka_unit_test_setup_teardown(depth_option, setup, teardown),
      cmocka_unit_test_setup_teardown(million_brackets, setup, teardown),
      cmocka_unit_test_setup_teardown(trailing_content, setup, teardown),
      cmocka_unit_test_setup_teardown(raw_of_every_kind, setup, teardown),
      cmocka_unit_test_setup_teardown(error_locations, setup, teardown),
      cmocka_unit_test_setup_teardown(twitter_walk, setup, teardown),
      cmocka_unit_test(object_next_key_matches_next),
      cmocka_unit_test_setup_teardown(inline_escape_search_edges, setup, teardown),
      cmocka_unit_test_setup_teardown(missing_field_keeps_found_value, setup, teardown),
      /* last: under UBSan a failure here ends the program */
      cmocka_unit_test_setup_teardown(find_empty_key_null_pointer, setup, teardown),
      cmocka_unit_test(repeat_after_syntax_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
