/* JSON Pointer (src/ondemand/pointer.c, RFC 6901): the section 5 example
 * document with its twelve pointers, the error cases (missing field, index
 * out of range, "-", leading zeros, bad ~ escapes, no leading '/', a token
 * applied to a scalar), many pointers in a row on one root (each rewinds),
 * pointers relative to a non-root value, and pointers into twitter.json
 * checked against Python's json module (skipped without python3).
 *
 * Why: the pointer code combines token decoding with the cursor's find and
 * at, and rewinds the cursor; a wrong rewind or a token decoded wrongly
 * gives a plausible but wrong value. Expected values come from RFC 6901
 * itself and from Python. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastjson.h"
#include "test_util.h"

#define EXPECT(call, code) assert_string_equal(fj_error_name(call), fj_error_name(code))
#define OK(call) EXPECT(call, FJ_OK)

/* RFC 6901 section 5. */
static const char rfc_doc[] = "{\n"
                              "  \"foo\": [\"bar\", \"baz\"],\n"
                              "  \"\": 0,\n"
                              "  \"a/b\": 1,\n"
                              "  \"c%d\": 2,\n"
                              "  \"e^f\": 3,\n"
                              "  \"g|h\": 4,\n"
                              "  \"i\\\\j\": 5,\n"
                              "  \"k\\\"l\": 6,\n"
                              "  \" \": 7,\n"
                              "  \"m~n\": 8\n"
                              "}";

typedef struct fixture {
  fj_parser *p;
  char *doc;
  fj_value root;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  if (!f || fj_parser_new(&f->p, NULL)) return -1;
  f->doc = malloc(sizeof rfc_doc - 1);
  memcpy(f->doc, rfc_doc, sizeof rfc_doc - 1);
  if (fj_parser_parse(f->p, f->doc, sizeof rfc_doc - 1, &f->root)) return -1;
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  fj_parser_free(f->p);
  free(f->doc);
  free(f);
  return 0;
}

static void assert_raw(const fj_value *v, const char *want) {
  const char *s;
  size_t n;
  OK(fj_value_get_raw(v, &s, &n));
  if (n != strlen(want) || memcmp(s, want, n) != 0)
    print_error("raw '%.*s', want '%s'\n", (int)n, s, want);
  assert_int_equal(n, strlen(want));
  assert_memory_equal(s, want, n);
}

static void rfc6901_examples(void **state) {
  fixture *f = *state;
  static const struct {
    const char *ptr, *raw;
  } cases[] = {
      {"", NULL}, /* the whole document */
      {"/foo", "[\"bar\", \"baz\"]"},
      {"/foo/0", "\"bar\""},
      {"/", "0"},
      {"/a~1b", "1"},
      {"/c%d", "2"},
      {"/e^f", "3"},
      {"/g|h", "4"},
      {"/i\\j", "5"},
      {"/k\"l", "6"},
      {"/ ", "7"},
      {"/m~0n", "8"},
  };
  /* twice over, in order and then backwards: every pointer rewinds */
  for (int round = 0; round < 2; round++) {
    for (size_t k = 0; k < 12; k++) {
      size_t i = round ? 11 - k : k;
      fj_value v;
      OK(fj_value_at_pointer(&f->root, cases[i].ptr, &v));
      assert_raw(&v, cases[i].raw ? cases[i].raw : rfc_doc);
      if (i >= 3) {
        int64_t x;
        OK(fj_value_get_int64(&v, &x));
        assert_int_equal(x, (int64_t)i - 3);
      }
    }
  }
  /* the values are usable: the array found by /foo can be iterated */
  fj_value v, el;
  fj_array a;
  OK(fj_value_at_pointer(&f->root, "/foo", &v));
  OK(fj_value_get_array(&v, &a));
  OK(fj_array_next(&a, &el));
  OK(fj_array_next(&a, &el));
  const char *s;
  size_t n;
  OK(fj_value_get_string(&el, &s, &n));
  assert_int_equal(n, 3);
  assert_memory_equal(s, "baz", 3);
  EXPECT(fj_array_next(&a, &el), FJ_END);
  /* and after that, more pointers still work from the root */
  OK(fj_value_at_pointer(&f->root, "/foo/1", &v));
  assert_raw(&v, "\"baz\"");
}

static void pointer_errors(void **state) {
  fixture *f = *state;
  static const struct {
    const char *ptr;
    fj_error err;
  } cases[] = {
      {"/nope", FJ_ERR_NO_SUCH_FIELD},
      {"/fo", FJ_ERR_NO_SUCH_FIELD},
      {"/foo ", FJ_ERR_NO_SUCH_FIELD},
      {"/a/b", FJ_ERR_NO_SUCH_FIELD}, /* "a/b" needs ~1 */
      {"/m~n", FJ_ERR_BAD_POINTER},   /* ~n is no escape */
      {"/foo/2", FJ_ERR_INDEX_RANGE},
      {"/foo/-", FJ_ERR_INDEX_RANGE},
      {"/foo/99999999999999999999999", FJ_ERR_INDEX_RANGE},
      {"/foo/01", FJ_ERR_BAD_POINTER},
      {"/foo/00", FJ_ERR_BAD_POINTER},
      {"/foo/+1", FJ_ERR_BAD_POINTER},
      {"/foo/-1", FJ_ERR_BAD_POINTER},
      {"/foo/1a", FJ_ERR_BAD_POINTER},
      {"/foo/", FJ_ERR_BAD_POINTER},
      {"/foo/ 1", FJ_ERR_BAD_POINTER},
      {"/m~2n", FJ_ERR_BAD_POINTER},
      {"/m~", FJ_ERR_BAD_POINTER},
      {"/~", FJ_ERR_BAD_POINTER},
      {"foo", FJ_ERR_BAD_POINTER},
      {"#/foo", FJ_ERR_BAD_POINTER},
      {"/foo/0/x", FJ_ERR_WRONG_TYPE},
      {"/foo/0/0", FJ_ERR_WRONG_TYPE},
      {"/ /x", FJ_ERR_WRONG_TYPE},
      {"//", FJ_ERR_WRONG_TYPE}, /* "" is 0, a scalar */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    fj_value v;
    fj_error err = fj_value_at_pointer(&f->root, cases[i].ptr, &v);
    if (err != cases[i].err) print_error("pointer '%s'\n", cases[i].ptr);
    EXPECT(err, cases[i].err);
    EXPECT(fj_parser_last_error(f->p, NULL), cases[i].err);
    /* an error leaves the document usable for the next pointer */
    OK(fj_value_at_pointer(&f->root, "/k\"l", &v));
    assert_raw(&v, "6");
  }
  /* a pointer on a scalar root */
  fj_value root, v;
  OK(fj_parser_parse(f->p, "42", 2, &root));
  OK(fj_value_at_pointer(&root, "", &v));
  assert_raw(&v, "42");
  EXPECT(fj_value_at_pointer(&root, "/0", &v), FJ_ERR_WRONG_TYPE);
  /* a pointer into an empty container */
  OK(fj_parser_parse(f->p, "[]", 2, &root));
  EXPECT(fj_value_at_pointer(&root, "/0", &v), FJ_ERR_INDEX_RANGE);
  OK(fj_parser_parse(f->p, "{}", 2, &root));
  EXPECT(fj_value_at_pointer(&root, "/", &v), FJ_ERR_NO_SUCH_FIELD);
}

static void nested_and_relative(void **state) {
  fixture *f = *state;
  static const char json[] = "{\"a\": {\"b\": [{\"c\": [10, 20]}, {\"~/\": {\"\": [null, true]}}]},"
                             " \"x\\u0000y\": \"nul\", \"z\": [[[\"deep\"]]]}";
  fj_value root, v, w;
  OK(fj_parser_parse(f->p, json, sizeof json - 1, &root));
  OK(fj_value_at_pointer(&root, "/a/b/0/c/1", &v));
  assert_raw(&v, "20");
  OK(fj_value_at_pointer(&root, "/a/b/1/~0~1//1", &v));
  assert_raw(&v, "true");
  OK(fj_value_at_pointer(&root, "/z/0/0/0", &v));
  assert_raw(&v, "\"deep\"");
  OK(fj_value_at_pointern(&root, "/x\0y", 4, &v)); /* a NUL inside a token */
  assert_raw(&v, "\"nul\"");
  EXPECT(fj_value_at_pointern(&root, "/x\0y", 2, &v), FJ_ERR_NO_SUCH_FIELD);
  OK(fj_value_at_pointern(&root, "/a/b/0/c/1", 2, &v)); /* only "/a" */
  fj_type t;
  OK(fj_value_get_type(&v, &t));
  assert_int_equal(t, FJ_TYPE_OBJECT);

  /* relative to a non-root value: it must be the cursor's current value */
  OK(fj_parser_rewind(f->p));
  fj_object o;
  OK(fj_value_get_object(&root, &o));
  OK(fj_object_find(&o, "a", &v));
  OK(fj_value_at_pointer(&v, "/b/0/c/0", &w));
  assert_raw(&w, "10");
  OK(fj_object_find(&o, "z", &v));
  OK(fj_value_at_pointer(&v, "", &w));
  assert_raw(&w, "[[[\"deep\"]]]");
  OK(fj_value_at_pointer(&v, "/0/0", &w));
  assert_raw(&w, "[\"deep\"]");
  /* v has been entered now: a second pointer on it is out of order */
  EXPECT(fj_value_at_pointer(&v, "/0", &w), FJ_ERR_OUT_OF_ORDER);
  /* the root still works: it rewinds */
  OK(fj_value_at_pointer(&root, "/z/0/0/0", &w));
  assert_raw(&w, "\"deep\"");
}

/* ---- twitter.json against Python ---------------------------------------------- */

static int hexval(char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }

/* Decodes hex into buf; returns the length. */
static size_t unhex(const char *hex, size_t hn, char *buf) {
  for (size_t i = 0; i < hn / 2; i++)
    buf[i] = (char)(hexval(hex[2 * i]) << 4 | hexval(hex[2 * i + 1]));
  return hn / 2;
}

static void twitter_against_python(void **state) {
  fixture *f = *state;
  if (system("python3 -c 'import json' >/dev/null 2>&1") != 0) skip();
  size_t len;
  unsigned char *json = fj_test_read_file(FJ_DATA_DIR "/corpus/twitter.json", &len);
  if (!json) skip();
  /* Python lists pointers into twitter.json (a few named ones and every
   * path below statuses 0, 1 and 99) with the value each one names:
   *   <pointer hex> s <utf-8 hex> | i <int> | b 0/1 | n - | a <len> | o <len> | d <repr> */
  const char *cmd =
      "python3 -c '\n"
      "import json\n"
      "doc = json.load(open(\"" FJ_DATA_DIR "/corpus/twitter.json\", encoding=\"utf-8\"))\n"
      "def esc(k): return k.replace(\"~\", \"~0\").replace(\"/\", \"~1\")\n"
      "def out(p, v):\n"
      "  if isinstance(v, bool): k, s = \"b\", str(int(v))\n"
      "  elif v is None: k, s = \"n\", \"-\"\n"
      "  elif isinstance(v, str): k, s = \"s\", v.encode(\"utf-8\").hex() or \"-\"\n"
      "  elif isinstance(v, int): k, s = \"i\", str(v)\n"
      "  elif isinstance(v, float): k, s = \"d\", repr(v)\n"
      "  elif isinstance(v, list): k, s = \"a\", str(len(v))\n"
      "  else: k, s = \"o\", str(len(v))\n"
      "  print(p.encode(\"utf-8\").hex() or \"-\", k, s)\n"
      "def walk(p, v):\n"
      "  out(p, v)\n"
      "  if isinstance(v, dict):\n"
      "    for k, x in v.items(): walk(p + \"/\" + esc(k), x)\n"
      "  elif isinstance(v, list):\n"
      "    for i, x in enumerate(v): walk(p + \"/\" + str(i), x)\n"
      "def get(p):\n"
      "  v = doc\n"
      "  for t in p.split(\"/\")[1:]:\n"
      "    t = t.replace(\"~1\", \"/\").replace(\"~0\", \"~\")\n"
      "    v = v[int(t)] if isinstance(v, list) else v[t]\n"
      "  return v\n"
      "for p in [\"\", \"/statuses/0/user/screen_name\", \"/statuses/99/id_str\",\n"
      "          \"/search_metadata/count\", \"/search_metadata/next_results\",\n"
      "          \"/statuses/50/user/description\", \"/statuses/7/text\", \"/statuses\"]:\n"
      "  out(p, get(p))\n"
      "for i in (0, 1, 99): walk(\"/statuses/\" + str(i), doc[\"statuses\"][i])\n"
      "'";
  FILE *py = popen(cmd, "r");
  assert_non_null(py);
  fj_value root, v;
  OK(fj_parser_parse(f->p, json, len, &root));
  static char line[1 << 16], ptr[1 << 15], want[1 << 15];
  size_t count = 0;
  while (fgets(line, sizeof line, py)) {
    char *sp1 = strchr(line, ' ');
    assert_non_null(sp1);
    char kind = sp1[1];
    char *val = sp1 + 3;
    val[strcspn(val, "\n")] = '\0';
    size_t plen = line[0] == '-' ? 0 : unhex(line, (size_t)(sp1 - line), ptr);
    fj_error err = fj_value_at_pointern(&root, ptr, plen, &v);
    if (err) print_error("pointer %.*s: %s\n", (int)plen, ptr, fj_error_name(err));
    OK(err);
    switch (kind) {
    case 's': {
      size_t wn = val[0] == '-' ? 0 : unhex(val, strlen(val), want);
      const char *s;
      size_t n;
      OK(fj_value_get_string(&v, &s, &n));
      if (n != wn || memcmp(s, want, n) != 0) print_error("pointer %.*s\n", (int)plen, ptr);
      assert_int_equal(n, wn);
      assert_memory_equal(s, want, n);
      break;
    }
    case 'i': {
      int64_t x;
      OK(fj_value_get_int64(&v, &x));
      assert_int_equal(x, strtoll(val, NULL, 10));
      break;
    }
    case 'd': {
      double x;
      OK(fj_value_get_double(&v, &x));
      assert_true(x == strtod(val, NULL));
      break;
    }
    case 'b': {
      bool x;
      OK(fj_value_get_bool(&v, &x));
      assert_int_equal(x, val[0] == '1');
      break;
    }
    case 'n': {
      bool x;
      OK(fj_value_is_null(&v, &x));
      assert_true(x);
      break;
    }
    case 'a': {
      fj_array a;
      size_t n;
      OK(fj_value_get_array(&v, &a));
      OK(fj_array_count(&a, &n));
      assert_int_equal(n, strtoull(val, NULL, 10));
      break;
    }
    case 'o': {
      fj_object o;
      size_t n;
      OK(fj_value_get_object(&v, &o));
      OK(fj_object_count(&o, &n));
      assert_int_equal(n, strtoull(val, NULL, 10));
      break;
    }
    default: fail_msg("unexpected line from python: %s", line);
    }
    count++;
  }
  assert_int_equal(pclose(py), 0);
  assert_true(count > 300); /* the oracle did produce the pointers */
  free(json);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(rfc6901_examples, setup, teardown),
      cmocka_unit_test_setup_teardown(pointer_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(nested_and_relative, setup, teardown),
      cmocka_unit_test_setup_teardown(twitter_against_python, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
