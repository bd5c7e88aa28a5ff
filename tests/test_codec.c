/* Struct codecs (src/codec, tools/fastjson_gen.c): the generated readers and
 * writers of the models in bench/models and of tests/codec/policy.json.
 *
 * Why: a generated reader is a lot of code nobody reads line by line, so the
 * tests pin behaviour, not code: every model round-trips (read, write, read
 * gives equal structs and the same bytes), the values match Python's json
 * module on the same payload (tests/codec_check.py), and every policy and
 * error message of the issue is checked exactly, with its JSON Pointer and
 * byte offset. The generator's own schema errors are checked too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fastjson.h"
#include "test_util.h"
#include "fastjson/codec.h"

#include "abc.h"
#include "company.h"
#include "deep.h"
#include "document.h"
#include "expr_field.h"
#include "expr_nested.h"
#include "flat.h"
#include "policy.h"
#include "twitter.h"

#define EXPECT(call, code) assert_string_equal(fj_error_name(call), fj_error_name(code))
#define OK(call) EXPECT(call, FJ_OK)

static char g_dir[64];     /* temporary folder: payloads and outputs */
static char g_check[8192]; /* codec_check.py arguments collected by the round trips */

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  assert_non_null(s);
  assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
  s[n] = '\0';
  fclose(f);
  *len = (size_t)n;
  return s;
}

static char *payload(const char *model, size_t *len) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s.json", g_dir, model);
  char *s = slurp(path, len);
  assert_non_null(s);
  return s;
}

static int setup(void **state) {
  (void)state;
  snprintf(g_dir, sizeof g_dir, "/tmp/fj_codec_XXXXXX");
  if (!mkdtemp(g_dir)) return -1;
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s %s/bench/models/gen_payloads.py %s", FJ_PYTHON, FJ_SOURCE_DIR,
           g_dir);
  return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf %s", g_dir);
  return system(cmd) == 0 ? 0 : -1;
}

/* Writes a decoded value with `write` into a new buffer. */
#define WRITE(T, value, buf)                                                                       \
  do {                                                                                             \
    fj_writer *w_;                                                                                 \
    OK(fj_writer_new(&w_, NULL, fj_sink_buffer(buf)));                                             \
    OK(fj_write_##T(w_, value));                                                                   \
    OK(fj_writer_finish(w_));                                                                      \
    fj_writer_free(w_);                                                                            \
  } while (0)

/* Writes a decoded value pretty, then minifies that: the writer's general
 * path (keys through fj_writer_keyn(), which checks and escapes them) and
 * the minifier, for the exact bytes the compact output must have. */
#define WRITE_PRETTY_MINIFIED(T, value, buf)                                                       \
  do {                                                                                             \
    fj_buffer p_ = {0};                                                                            \
    fj_writer *w_;                                                                                 \
    OK(fj_writer_new(&w_, &(fj_writer_options){.flags = FJ_WRITE_PRETTY}, fj_sink_buffer(&p_)));   \
    OK(fj_write_##T(w_, value));                                                                   \
    OK(fj_writer_finish(w_));                                                                      \
    fj_writer_free(w_);                                                                            \
    OK(fj_minify_unvalidated(p_.data, p_.len, fj_sink_buffer(buf)));                               \
    fj_buffer_free(&p_);                                                                           \
  } while (0)

/* read → write → read: equal structs, identical bytes, and the compact
 * bytes those of minified pretty output; the first output is kept for the
 * Python oracle (SCHEMA PAYLOAD OUTPUT). */
#define DEFINE_ROUND_TRIP(T)                                                                       \
  static void round_trip_##T(const char *schema, const char *payload_path, const char *json,       \
                             size_t len, const char *name) {                                       \
    fj_arena a1, a2;                                                                               \
    fj_arena_init(&a1, NULL);                                                                      \
    fj_arena_init(&a2, NULL);                                                                      \
    T x, y;                                                                                        \
    fj_decode_error err;                                                                           \
    fj_error e = fj_read_##T(NULL, json, len, &a1, 0, &x, &err);                                   \
    if (e) fail_msg("%s: %s", name, err.message);                                                  \
    fj_buffer b1 = {0}, b2 = {0};                                                                  \
    WRITE(T, &x, &b1);                                                                             \
    e = fj_read_##T(NULL, b1.data, b1.len, &a2, 0, &y, &err);                                      \
    if (e) fail_msg("%s again: %s", name, err.message);                                            \
    assert_true(fj_equal_##T(&x, &y));                                                             \
    WRITE(T, &y, &b2);                                                                             \
    assert_int_equal(b1.len, b2.len);                                                              \
    assert_memory_equal(b1.data, b2.data, b1.len);                                                 \
    fj_buffer b3 = {0};                                                                            \
    WRITE_PRETTY_MINIFIED(T, &x, &b3);                                                             \
    assert_int_equal(b1.len, b3.len);                                                              \
    assert_memory_equal(b1.data, b3.data, b1.len);                                                 \
    fj_buffer_free(&b3);                                                                           \
    char out[256];                                                                                 \
    snprintf(out, sizeof out, "%s/%s.out.json", g_dir, name);                                      \
    FILE *f = fopen(out, "wb");                                                                    \
    assert_non_null(f);                                                                            \
    assert_int_equal(fwrite(b1.data, 1, b1.len, f), b1.len);                                       \
    fclose(f);                                                                                     \
    size_t n = strlen(g_check);                                                                    \
    snprintf(g_check + n, sizeof g_check - n, " %s %s %s", schema, payload_path, out);             \
    fj_buffer_free(&b1);                                                                           \
    fj_buffer_free(&b2);                                                                           \
    fj_arena_free(&a1);                                                                            \
    fj_arena_free(&a2);                                                                            \
  }

DEFINE_ROUND_TRIP(Flat)
DEFINE_ROUND_TRIP(Company)
DEFINE_ROUND_TRIP(Document)
DEFINE_ROUND_TRIP(Expr)
DEFINE_ROUND_TRIP(Tree)
DEFINE_ROUND_TRIP(Abc)
DEFINE_ROUND_TRIP(Twitter)

#define MODEL(T, name)                                                                             \
  do {                                                                                             \
    size_t len_;                                                                                   \
    char *json_ = payload(name, &len_);                                                            \
    char schema_[256], path_[256];                                                                 \
    snprintf(schema_, sizeof schema_, "%s/bench/models/%s.json", FJ_SOURCE_DIR, name);             \
    snprintf(path_, sizeof path_, "%s/%s.json", g_dir, name);                                      \
    round_trip_##T(schema_, path_, json_, len_, name);                                             \
    free(json_);                                                                                   \
  } while (0)

/* Every model round-trips, and Python agrees with every value. */
static void test_models_round_trip_and_match_python(void **state) {
  (void)state;
  g_check[0] = '\0';
  MODEL(Flat, "flat");
  MODEL(Company, "company");
  MODEL(Document, "document");
  MODEL(Expr, "expr_field");
  MODEL(Tree, "expr_nested");
  MODEL(Abc, "abc");
  size_t len;
  char twitter[512];
  snprintf(twitter, sizeof twitter, "%s/corpus/twitter.json", FJ_DATA_DIR);
  char *json = slurp(twitter, &len);
  if (json) {
    char schema[256];
    snprintf(schema, sizeof schema, "%s/bench/models/twitter.json", FJ_SOURCE_DIR);
    round_trip_Twitter(schema, twitter, json, len, "twitter");
    free(json);
  }
  char cmd[sizeof g_check + 512];
  snprintf(cmd, sizeof cmd, "%s %s/tests/codec_check.py%s", FJ_PYTHON, FJ_SOURCE_DIR, g_check);
  assert_int_equal(system(cmd), 0);
}

/* A few values checked by hand, where C types matter (ranges, null, defaults). */
static void test_model_values(void **state) {
  (void)state;
  fj_arena a;
  fj_arena_init(&a, NULL);
  fj_decode_error err;
  size_t len;
  char *json = payload("flat", &len);
  Flat f;
  OK(fj_read_Flat(NULL, json, len, &a, 0, &f, &err));
  assert_true(f.id == 9007199254740993u);
  assert_int_equal(f.count, INT32_MIN);
  assert_true(f.balance == -9223372036854775807LL);
  assert_int_equal(f.level, Flat_level_high);
  assert_false(f.has_nickname);
  assert_true(f.has_retries && f.retries == 5 && f.has_verified && f.verified);
  assert_string_equal(f.email.data, "ada@example.org");
  free(json);

  json = payload("document", &len);
  Document doc;
  OK(fj_read_Document(NULL, json, len, &a, 0, &doc, &err));
  assert_true(doc.id == UINT64_MAX);
  assert_int_equal(doc.status, Document_status_sent);
  assert_int_equal(doc.items.count, 8);
  assert_int_equal(doc.meta.tags.count, 3);
  assert_string_equal(doc.meta.tags.items[1].data, "urgent");
  assert_false(doc.meta.has_attributes);
  free(json);

  json = payload("company", &len);
  Company c;
  OK(fj_read_Company(NULL, json, len, &a, 0, &c, &err));
  assert_true(len > 18000 && len < 24000); /* the ~20 KB model */
  assert_int_equal(c.departments.count, 9);
  assert_string_equal(c.name.data, "Initech \xc3\xa9t\xc3\xa9 \"quoted\"");
  free(json);

  json = payload("abc", &len);
  Abc abc;
  OK(fj_read_Abc(NULL, json, len, &a, 0, &abc, &err));
  assert_int_equal(abc.a, 0);
  assert_string_equal(abc.b.data, "value of b");
  assert_string_equal(abc.z.data, "value of z"); /* the first key of the payload */
  assert_true(abc.y == 24 * 1000003 && abc.x == 23.5);
  free(json);
  fj_arena_free(&a);
}

/* ---- policies and error messages ----------------------------------------------- */

/* Reads `json` as a Policy with `flags` and returns the error message ("" on
 * success); the decoded value goes to *out. */
static const char *policy(const char *json, uint32_t flags, Policy *out, fj_arena *a) {
  static fj_decode_error err;
  static Policy scratch;
  fj_error e = fj_read_Policy(NULL, json, strlen(json), a, flags, out ? out : &scratch, &err);
  if (!e) return "";
  assert_int_equal(err.code, e);
  return err.message;
}

static void test_policy_values(void **state) {
  (void)state;
  fj_arena a;
  fj_arena_init(&a, NULL);
  Policy p;
  assert_string_equal(policy("{\"qty\": 7, \"name\": null, \"big\": 18446744073709551615, "
                             "\"counts\": {\"a\": 1, \"b\\u00e9\": -2}, \"kind\": \"policy\", "
                             "\"matrix\": [[1, 2], [], [3]]}",
                             0, &p, &a),
                      "");
  assert_int_equal(p.qty, 7);
  assert_false(p.has_name);
  assert_true(p.has_big && p.big == UINT64_MAX);
  assert_true(p.has_opt && p.opt == 42); /* defaults */
  assert_true(p.has_label && strcmp(p.label.data, "none") == 0);
  assert_true(p.has_ratio && p.ratio == 0.5);
  assert_false(p.has_flag);
  assert_int_equal(p.counts.count, 2);
  assert_string_equal(p.counts.keys[1].data, "b\xc3\xa9");
  assert_int_equal(p.counts.values[1], -2);
  assert_int_equal(p.matrix.count, 3);
  assert_int_equal(p.matrix.items[1].count, 0);
  assert_int_equal(p.matrix.items[2].items[0], 3);
  /* integers at the edges of their types, short and long */
  assert_string_equal(policy("{\"qty\": -2147483648, \"big\": 18446744073709551614, \"i64\": "
                             "-9223372036854775808}",
                             0, &p, &a),
                      "");
  assert_true(p.qty == INT32_MIN && p.big == UINT64_MAX - 1 && p.i64 == INT64_MIN);
  assert_string_equal(
      policy("{\"qty\": 2147483647, \"big\": -0, \"i64\": 9223372036854775807}", 0, &p, &a), "");
  assert_true(p.qty == INT32_MAX && p.big == 0 && p.i64 == INT64_MAX);
  assert_string_equal(
      policy("{\"qty\": 12345, \"big\": 10000000000000000000, \"i64\": -1234}", 0, &p, &a), "");
  assert_true(p.qty == 12345 && p.big == UINT64_C(10000000000000000000) && p.i64 == -1234);
  /* keys with escapes: unescaped only when the raw bytes do not match */
  assert_string_equal(policy("{\"q\\u0074y\": 1, \"quo\\\"te\": true, \"back\\\\slash\": true, "
                             "\"name\": \"n\\u00e9\"}",
                             0, &p, &a),
                      "");
  assert_true(p.qty == 1 && p.has_quo_te && p.quo_te && p.has_back_slash && p.back_slash);
  assert_string_equal(p.name.data, "n\xc3\xa9");
  /* a raw key that looks like a backslash name is not one */
  assert_string_equal(policy("{\"qty\": 1, \"back\\slash\": true}", 0, &p, &a),
                      "(document) at byte 16: invalid escape sequence in a string");
  fj_arena_free(&a);
}

static void test_policy_errors(void **state) {
  (void)state;
  fj_arena a;
  fj_arena_init(&a, NULL);
  Policy p;
  /* ranges, types, null */
  assert_string_equal(policy("{\"qty\": 2147483648}", 0, NULL, &a),
                      "/qty at byte 8: 2147483648 is out of range for int32");
  assert_string_equal(policy("{\"qty\": 1, \"items\": [{\"qty\": 1}, {\"qty\": 2}, "
                             "{\"qty\": -2147483649}]}",
                             0, NULL, &a),
                      "/items/2/qty at byte 53: -2147483649 is out of range for int32");
  assert_string_equal(policy("{\"qty\": 1, \"big\": -1}", 0, NULL, &a),
                      "/big at byte 18: -1 is out of range for uint64");
  assert_string_equal(policy("{\"qty\": 1, \"i64\": 9223372036854775808}", 0, NULL, &a),
                      "/i64 at byte 18: 9223372036854775808 is out of range for int64");
  assert_string_equal(policy("{\"qty\": 1, \"big\": 18446744073709551616}", 0, NULL, &a),
                      "/big at byte 18: 18446744073709551616 is out of range for uint64");
  assert_string_equal(policy("{\"qty\": 1, \"big\": 100000000000000000000}", 0, NULL, &a),
                      "/big at byte 18: 100000000000000000000 is out of range for uint64");
  assert_string_equal(policy("{\"qty\": 1, \"i64\": -9223372036854775809}", 0, NULL, &a),
                      "/i64 at byte 18: -9223372036854775809 is out of range for int64");
  assert_string_equal(policy("{\"qty\": 1, \"i64\": 12345678901234567e3}", 0, NULL, &a),
                      "/i64 at byte 18: 12345678901234567e3 is not an integer (int64)");
  /* the root record's end: what follows it is refused, whitespace is not */
  assert_string_equal(policy("{\"qty\": 1} x", 0, NULL, &a),
                      "(root) at byte 11: unexpected content after the end of the document");
  assert_string_equal(policy("{\"qty\": 1}{}", 0, NULL, &a),
                      "(root) at byte 10: unexpected content after the end of the document");
  assert_string_equal(policy("{\"qty\": 1, \"items\": [{\"qty\": 2}]}]", 0, NULL, &a),
                      "(root) at byte 33: unexpected content after the end of the document");
  assert_string_equal(policy("{\"qty\": 1, \"items\": [{\"qty\": 2} ]} \n", 0, NULL, &a), "");
  assert_string_equal(policy("{\"qty\": 1.5}", 0, NULL, &a),
                      "/qty at byte 8: 1.5 is not an integer (int32)");
  assert_string_equal(policy("{\"qty\": \"7\"}", 0, NULL, &a),
                      "/qty at byte 8: expected int32, got string");
  assert_string_equal(policy("{\"qty\": null}", 0, NULL, &a),
                      "/qty at byte 8: null is not allowed here: expected int32");
  assert_string_equal(policy("{\"qty\": 1, \"flag\": 1}", 0, NULL, &a),
                      "/flag at byte 19: expected boolean, got number");
  assert_string_equal(policy("{\"qty\": 1, \"items\": {}}", 0, NULL, &a),
                      "/items at byte 20: expected array, got object");
  assert_string_equal(policy("{\"qty\": 1, \"strict\": []}", 0, NULL, &a),
                      "/strict at byte 21: expected object (Strict), got array");
  /* a malformed value of another type is malformed, not of the wrong type;
   * a value that cannot start keeps its path (codec trial: "null is not
   * allowed", and paths that stopped at the enclosing container) */
  static const struct {
    const char *json, *where; /* the message: where, ": ", the code's own */
    fj_error code;
  } starts[] = {
      {"{\"qty\": 1, \"flag\": nulll}", "/flag at byte 23", FJ_ERR_BAD_LITERAL},
      {"{\"qty\": tru}", "/qty at byte 8", FJ_ERR_BAD_LITERAL},
      {"{\"qty\": 1, \"name\": 1.5.3}", "/name at byte 22", FJ_ERR_BAD_NUMBER},
      {"{\"qty\": 1, \"ratio\": .5}", "/ratio at byte 20", FJ_ERR_EXPECTED_VALUE},
      {"{\"qty\": 1, \"sl/ash~\": +1}", "/sl~1ash~0 at byte 22", FJ_ERR_EXPECTED_VALUE},
      {"{\"qty\": 1, \"counts\": {\"a\": 1, \"b\": }}", "/counts/b at byte 35",
       FJ_ERR_EXPECTED_VALUE},
      {"{\"qty\": 1, \"counts\": {\"\\u0062/\": }}", "/counts/b~1 at byte 33",
       FJ_ERR_EXPECTED_VALUE}, /* the key unescaped, without an allocation */
      {"{\"qty\": 1, \"items\": [{\"qty\": 1}, .5]}", "/items/1 at byte 33", FJ_ERR_EXPECTED_VALUE},
      {"{\"qty\": 1, \"items\": [{\"qty\": 1},]}", "/items/1 at byte 32", FJ_ERR_EXPECTED_VALUE},
      {"{\"qty\": 1, \"matrix\": [[1], [2,,3]]}", "/matrix/1/1 at byte 30", FJ_ERR_EXPECTED_VALUE},
      {"{\"qty\": 1, \"matrix\": [-]}", "/matrix/0 at byte 23", FJ_ERR_BAD_NUMBER},
  };
  for (size_t i = 0; i < sizeof starts / sizeof *starts; i++) {
    char want[256];
    snprintf(want, sizeof want, "%s: %s", starts[i].where, fj_error_message(starts[i].code));
    assert_string_equal(policy(starts[i].json, 0, NULL, &a), want);
  }
  /* a refused double is not stored (was +-inf, or the value of a prefix) */
  const char *bad_ratios[] = {"1e999", "-1e999", "1.5e3x", "1.5.3", "2..5"};
  for (size_t i = 0; i < sizeof bad_ratios / sizeof *bad_ratios; i++) {
    char doc[64];
    snprintf(doc, sizeof doc, "{\"qty\": 1, \"ratio\": %s}", bad_ratios[i]);
    memset(&p, 0x55, sizeof p);
    assert_string_not_equal(policy(doc, 0, &p, &a), "");
    assert_true(p.ratio == 0 && !p.has_ratio);
  }
  /* enums and consts */
  assert_string_equal(policy("{\"qty\": 1, \"color\": \"purple\"}", 0, NULL, &a),
                      "/color at byte 20: \"purple\" is not a value of Policy_color");
  assert_string_equal(policy("{\"qty\": 1, \"kind\": \"other\"}", 0, NULL, &a),
                      "/kind at byte 19: \"other\" is not the constant \"policy\"");
  /* missing required fields, at the root and nested */
  assert_string_equal(policy("{}", 0, NULL, &a),
                      "(root) at byte 0: missing required field \"qty\"");
  assert_string_equal(policy("{\"qty\": 1, \"items\": [{\"sku\": \"x\"}]}", 0, NULL, &a),
                      "/items/0 at byte 21: missing required field \"qty\"");
  /* duplicates: an error by default, the last wins on request or per type */
  assert_string_equal(policy("{\"qty\": 1, \"qty\": 2}", 0, NULL, &a),
                      "/qty at byte 11: duplicate key \"qty\"");
  assert_string_equal(policy("{\"qty\": 1, \"qty\": 2}", FJ_DECODE_DUPLICATES_LAST_WINS, &p, &a),
                      "");
  assert_int_equal(p.qty, 2);
  assert_string_equal(policy("{\"qty\": 1, \"lax\": {\"a\": 1, \"a\": 2}}", 0, &p, &a), "");
  assert_true(p.lax.has_a && p.lax.a == 2);
  /* maps follow the decode flags for duplicates too; from 17 keys on through
   * a hash table */
  assert_string_equal(policy("{\"qty\": 1, \"counts\": {\"a\": 1, \"a\": 2}}", 0, NULL, &a),
                      "/counts/a at byte 30: duplicate key \"a\"");
  assert_string_equal(policy("{\"qty\": 1, \"counts\": {\"a\": 1, \"b\": 3, \"a\": 2}}",
                             FJ_DECODE_DUPLICATES_LAST_WINS, &p, &a),
                      "");
  assert_int_equal(p.counts.count, 2);
  assert_true(p.counts.values[0] == 2 && p.counts.values[1] == 3);
  char big[512];
  size_t n = (size_t)snprintf(big, sizeof big, "{\"qty\": 1, \"counts\": {");
  for (int i = 0; i < 20; i++)
    n += (size_t)snprintf(big + n, sizeof big - n, "\"k%d\": %d, ", i, i);
  snprintf(big + n, sizeof big - n, "\"k7\": 70}}");
  assert_string_equal(policy(big, 0, NULL, &a), "/counts/k7 at byte 222: duplicate key \"k7\"");
  assert_string_equal(policy(big, FJ_DECODE_DUPLICATES_LAST_WINS, &p, &a), "");
  assert_true(p.counts.count == 20 && p.counts.values[7] == 70 && p.counts.values[19] == 19);
  /* unknown fields: skipped by default, an error on request or per type */
  assert_string_equal(policy("{\"qty\": 1, \"zzz\": {\"deep\": [1, 2]}}", 0, &p, &a), "");
  assert_string_equal(policy("{\"qty\": 1, \"zzz\": 1}", FJ_DECODE_UNKNOWN_FIELDS_ERROR, NULL, &a),
                      "/zzz at byte 11: unknown field \"zzz\"");
  assert_string_equal(policy("{\"qty\": 1, \"strict\": {\"a\": 1, \"b\": 2}}", 0, NULL, &a),
                      "/strict/b at byte 30: unknown field \"b\"");
  assert_string_equal(
      policy("{\"qty\": 1, \"lax\": {\"b\": 2}}", FJ_DECODE_UNKNOWN_FIELDS_ERROR, NULL, &a), "");
  /* a skipped value is only bracket-matched: its mistakes are errors with
   * FJ_DECODE_VALIDATE, at the offset validation gives (the document's
   * errors: validation knows no value's path) */
  static const char *const bad_skipped[][2] = {
      {"{\"qty\": 1, \"zzz\": [tru, 1]}",
       "(document) at byte 19: invalid literal (expected true, false or null)"},
      {"{\"qty\": 1, \"zzz\": 01}", "(document) at byte 19: malformed number (RFC 8259 section 6)"},
      {"{\"qty\": 1, \"zzz\": -}", "(document) at byte 19: malformed number (RFC 8259 section 6)"},
      {"{\"qty\": 1, \"zzz\": \"\\uZZZZ\"}",
       "(document) at byte 19: invalid escape sequence in a string"},
      {"{\"qty\": 1, \"zzz\": \"\\ud800\"}",
       "(document) at byte 19: \\u escape is a lone or mismatched UTF-16 surrogate"},
      {"{\"qty\": 1, \"zzz\": {\"x\" 1 2}}",
       "(document) at byte 23: expected ':' after an object key"},
      {"{\"qty\": 1, \"zzz\": [[1}]}",
       "(document) at byte 21: expected ',' or the end of the array or object"}};
  for (size_t i = 0; i < sizeof bad_skipped / sizeof *bad_skipped; i++) {
    assert_string_equal(policy(bad_skipped[i][0], 0, &p, &a), "");
    const char *got = policy(bad_skipped[i][0], FJ_DECODE_VALIDATE, NULL, &a);
    if (strcmp(got, bad_skipped[i][1]) != 0)
      fail_msg("%s: got \"%s\", want \"%s\"", bad_skipped[i][0], got, bad_skipped[i][1]);
  }
  assert_string_equal(
      policy("{\"qty\": 1, \"zzz\": {\"deep\": [1, 2]}}", FJ_DECODE_VALIDATE, &p, &a), "");
  assert_int_equal(p.qty, 1);
  /* JSON Pointer escapes in paths, maps and nested arrays */
  assert_string_equal(policy("{\"qty\": 1, \"sl/ash~\": true}", 0, NULL, &a),
                      "/sl~1ash~0 at byte 22: expected int32, got boolean");
  assert_string_equal(policy("{\"qty\": 1, \"counts\": {\"x/y\": \"s\"}}", 0, NULL, &a),
                      "/counts/x~1y at byte 29: expected int32, got string");
  assert_string_equal(policy("{\"qty\": 1, \"matrix\": [[1], [2, 3e0]]}", 0, NULL, &a),
                      "/matrix/1/1 at byte 31: 3e0 is not an integer (int32)");
  /* input text in messages is escaped as in JSON: no quote, line break, NUL
   * or control code of the input reaches the message or the path */
  assert_string_equal(
      policy("{\"qty\": 1, \"color\": \"a\\\"b\\nc\\u001b[31m\"}", 0, NULL, &a),
      "/color at byte 20: \"a\\\"b\\u000ac\\u001b[31m\" is not a value of Policy_color");
  assert_string_equal(
      policy("{\"qty\": 1, \"k\\u0000\\\\\": 1}", FJ_DECODE_UNKNOWN_FIELDS_ERROR, NULL, &a),
      "/k\\u0000\\ at byte 11: unknown field \"k\\u0000\\\\\"");
  /* syntax errors keep the parser's offset */
  assert_string_equal(policy("{\"qty\": 1,", 0, NULL, &a),
                      "(root) at byte 10: the document ends before its value is complete (open "
                      "brackets, or cut off)");
  assert_string_equal(policy("{\"qty\": 1, \"items\": [{\"qty\": 1} {\"qty\": 2}]}", 0, NULL, &a),
                      "/items at byte 32: expected ',' or the end of the array or object");
  fj_arena_free(&a);
}

/* A required nullable field that is null is written back as null. */
static void test_required_nullable_writes_null(void **state) {
  (void)state;
  fj_arena a;
  fj_arena_init(&a, NULL);
  Required r;
  fj_decode_error err;
  const char *json = "{\"v\": null}";
  OK(fj_read_Required(NULL, json, strlen(json), &a, 0, &r, &err));
  assert_false(r.has_v);
  fj_buffer b = {0};
  WRITE(Required, &r, &b);
  assert_string_equal((char *)b.data, "{\"v\":null}");
  r.has_v = true; /* and with a value: one member call each way */
  r.v = -7;
  b.len = 0;
  WRITE(Required, &r, &b);
  assert_string_equal((char *)b.data, "{\"v\":-7}");
  json = "{\"w\": \"x\"}";
  EXPECT(fj_read_Required(NULL, json, strlen(json), &a, 0, &r, &err), FJ_ERR_NO_SUCH_FIELD);
  assert_string_equal(err.message, "(root) at byte 0: missing required field \"v\"");
  fj_buffer_free(&b);
  fj_arena_free(&a);
}

/* A value that is not one of the enum's is refused when written, after its
 * key (as fj_writer_keyn() then a refused value): nothing invented. */
static void test_enum_out_of_range_is_refused(void **state) {
  (void)state;
  Flat f;
  memset(&f, 0, sizeof f);
  f.level = (Flat_level)3;
  fj_buffer b = {0};
  fj_writer *w;
  OK(fj_writer_new(&w, NULL, fj_sink_buffer(&b)));
  EXPECT(fj_write_Flat(w, &f), FJ_ERR_INVALID_ARG);
  EXPECT(fj_writer_end_object(w), FJ_ERR_EXPECTED_VALUE); /* the key "level" still waits */
  fj_writer_free(w);
  fj_buffer_free(&b);
}

/* A failing allocator, for fj_encode_map_keys()'s table: it fails once
 * `budget` bytes have been handed out. */
typedef struct budget {
  size_t left;
} budget;
static void *budget_malloc(void *ctx, size_t n) {
  budget *b = ctx;
  if (n > b->left) return NULL;
  b->left -= n;
  return malloc(n);
}
static void *budget_realloc(void *ctx, void *p, size_t old_n, size_t n) {
  budget *b = ctx;
  if (n > old_n && n - old_n > b->left) return NULL;
  if (n > old_n) b->left -= n - old_n;
  return realloc(p, n);
}
static void budget_free(void *ctx, void *p, size_t n) {
  (void)ctx, (void)n;
  free(p);
}

/* A Policy whose map `counts` has the n keys and values given, written
 * with options o; returns the write's error. A written one must read back
 * with n entries: the same keys and values when `exact` (else the keys may
 * have been written otherwise: U+FFFD for bytes that are not UTF-8). */
static fj_error write_map(const fj_writer_options *o, fj_str *keys, int32_t *values, size_t n,
                          bool exact) {
  Policy p;
  memset(&p, 0, sizeof p);
  p.qty = 1;
  p.has_counts = true;
  p.counts = (fj_int32_map){keys, values, n};
  fj_buffer b = {0};
  fj_writer *w;
  OK(fj_writer_new(&w, o, fj_sink_buffer(&b)));
  fj_error e = fj_write_Policy(w, &p);
  if (!e) {
    OK(fj_writer_finish(w));
    fj_arena a;
    fj_arena_init(&a, NULL);
    Policy back;
    fj_decode_error err;
    OK(fj_read_Policy(NULL, b.data, b.len, &a, 0, &back, &err));
    assert_int_equal(back.counts.count, n);
    for (size_t i = 0; exact && i < n; i++) {
      assert_int_equal(back.counts.keys[i].len, keys[i].len);
      assert_memory_equal(back.counts.keys[i].data, keys[i].data, keys[i].len);
      assert_int_equal(back.counts.values[i], values[i]);
    }
    fj_arena_free(&a);
  }
  fj_writer_free(w);
  fj_buffer_free(&b);
  return e;
}

/* write_map() with n keys "k0", "k1", ..., keys[dup] = keys[0] when dup > 0. */
static fj_error write_counts(size_t n, size_t dup, const fj_allocator *alloc) {
  char names[64][8];
  fj_str keys[64];
  int32_t values[64];
  for (size_t i = 0; i < n; i++) {
    snprintf(names[i], sizeof names[i], "k%zu", i);
    keys[i] = (fj_str){names[i], strlen(names[i])};
    values[i] = (int32_t)(i * 3);
  }
  if (dup) keys[dup] = keys[0];
  fj_writer_options o = {0};
  o.allocator = alloc;
  return write_map(&o, keys, values, n, true);
}

/* A map with a key twice is refused by the generated writer (its reader
 * refuses such a map by default), not written: up to 16 keys by a scan,
 * from 17 on through a hash table from the writer's allocator. */
static void test_map_duplicate_keys_not_written(void **state) {
  (void)state;
  for (size_t n = 0; n <= 64; n++) {
    OK(write_counts(n, 0, NULL));
    for (size_t dup = 1; dup < n; dup += 1 + n / 8)
      EXPECT(write_counts(n, dup, NULL), FJ_ERR_DUPLICATE_KEY);
  }
  /* the table's allocation failing: FJ_ERR_NOMEM, the small scan needs none */
  budget plenty = {1u << 20};
  fj_allocator enough = {budget_malloc, budget_realloc, budget_free, &plenty};
  fj_writer *w;
  fj_buffer b = {0};
  OK(fj_writer_new(&w, &(fj_writer_options){.allocator = &enough}, fj_sink_buffer(&b)));
  plenty.left = 0; /* the writer has what it needs; the table gets nothing */
  fj_str keys[20];
  char names[20][4];
  for (size_t i = 0; i < 20; i++) {
    snprintf(names[i], sizeof names[i], "%zu", i);
    keys[i] = (fj_str){names[i], strlen(names[i])};
  }
  EXPECT(fj_encode_map_keys(w, keys, 16), FJ_OK);
  EXPECT(fj_encode_map_keys(w, keys, 17), FJ_ERR_NOMEM);
  plenty.left = 1u << 20;
  EXPECT(fj_encode_map_keys(w, keys, 20), FJ_OK);
  /* bytes, not C strings: keys differing after a NUL are distinct */
  fj_str nul[2] = {{"a\0b", 3}, {"a\0c", 3}};
  EXPECT(fj_encode_map_keys(w, nul, 2), FJ_OK);
  nul[1] = nul[0];
  EXPECT(fj_encode_map_keys(w, nul, 2), FJ_ERR_DUPLICATE_KEY);
  /* the empty key, and bad arguments */
  fj_str empty[2] = {{NULL, 0}, {"", 0}};
  EXPECT(fj_encode_map_keys(w, empty, 2), FJ_ERR_DUPLICATE_KEY);
  EXPECT(fj_encode_map_keys(w, NULL, 0), FJ_OK);
  EXPECT(fj_encode_map_keys(w, NULL, 1), FJ_ERR_INVALID_ARG);
  EXPECT(fj_encode_map_keys(NULL, keys, 1), FJ_ERR_INVALID_ARG);
  fj_str null_data = {NULL, 1};
  EXPECT(fj_encode_map_keys(w, &null_data, 1), FJ_ERR_INVALID_ARG);
  fj_writer_free(w);
  fj_buffer_free(&b);
}

/* With FJ_WRITE_REPLACE_INVALID_UTF8 keys are compared as written: two
 * keys that are not UTF-8 may both come out as U+FFFD. Each case: the
 * first key, then 19 others (so that the table is used too when the
 * check runs over 20 keys), the second key last. */
static void test_map_keys_as_replaced(void **state) {
  (void)state;
  static const struct {
    const char *a, *b;
    bool same;
  } cases[] = {
      {"\xff", "\xfe", true},
      {"\xff", "\xef\xbf\xbd", true}, /* an invalid byte and U+FFFD itself */
      {"a\xc0", "a\xc1", true},
      {"\xed\xa0\x80", "\xed\xbf\xbf", true}, /* surrogates: three U+FFFD each */
      {"\xf0\x9f\x98", "\xf0\x9f", true},     /* a cut sequence: one U+FFFD each */
      {"x\xff", "x\xff\xff", false},
      {"\xff\"", "\xef\xbf\xbd\"", true}, /* escaped alike too */
      {"\xe2\x82\xac", "\xe2\x82", false},
  };
  for (int replace = 0; replace <= 1; replace++)
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
      for (size_t n = 2; n <= 20; n += 18) {
        fj_str keys[20];
        char names[20][8];
        keys[0] = (fj_str){cases[c].a, strlen(cases[c].a)};
        for (size_t i = 1; i + 1 < n; i++) {
          snprintf(names[i], sizeof names[i], "k%zu", i);
          keys[i] = (fj_str){names[i], strlen(names[i])};
        }
        keys[n - 1] = (fj_str){cases[c].b, strlen(cases[c].b)};
        fj_writer_options o = {.flags = replace ? FJ_WRITE_REPLACE_INVALID_UTF8 : 0};
        fj_writer *w;
        fj_buffer b = {0};
        OK(fj_writer_new(&w, &o, fj_sink_buffer(&b)));
        EXPECT(fj_encode_map_keys(w, keys, n),
               replace && cases[c].same ? FJ_ERR_DUPLICATE_KEY : FJ_OK);
        fj_writer_free(w);
        fj_buffer_free(&b);
        /* the reader agrees: the written map is read back, or refused */
        int32_t values[20] = {0};
        EXPECT(write_map(&o, keys, values, n, false), !replace        ? FJ_ERR_UTF8
                                                      : cases[c].same ? FJ_ERR_DUPLICATE_KEY
                                                                      : FJ_OK);
      }
  /* the copy's allocation failing */
  budget plenty = {1u << 20};
  fj_allocator enough = {budget_malloc, budget_realloc, budget_free, &plenty};
  fj_buffer b = {0};
  fj_writer *w;
  OK(fj_writer_new(
      &w, &(fj_writer_options){.flags = FJ_WRITE_REPLACE_INVALID_UTF8, .allocator = &enough},
      fj_sink_buffer(&b)));
  plenty.left = 0;
  fj_str two[2] = {{"\xff", 1}, {"a", 1}};
  EXPECT(fj_encode_map_keys(w, two, 2), FJ_ERR_NOMEM);
  two[0] = (fj_str){"b", 1};
  EXPECT(fj_encode_map_keys(w, two, 2), FJ_OK); /* all UTF-8: no copy */
  fj_writer_free(w);
  fj_buffer_free(&b);
}

/* ---- tagged unions --------------------------------------------------------------- */

static void test_union_discriminator_field(void **state) {
  (void)state;
  fj_arena a;
  fj_arena_init(&a, NULL);
  fj_decode_error err;
  Expr x;
  /* the discriminator last, and in a nested variant in the middle */
  const char *json = "{\"op\": \"*\", \"left\": {\"value\": 2, \"type\": \"num\"}, "
                     "\"right\": {\"arg\": {\"type\": \"num\", \"value\": 3}, \"type\": \"neg\"}, "
                     "\"type\": \"bin\"}";
  OK(fj_read_Expr(NULL, json, strlen(json), &a, 0, &x, &err));
  assert_int_equal(x.kind, Expr_bin);
  assert_int_equal(x.as.bin.op, Binary_op_star);
  assert_int_equal(x.as.bin.left->kind, Expr_num);
  assert_true(x.as.bin.left->as.num.value == 2);
  assert_int_equal(x.as.bin.right->kind, Expr_neg);
  assert_true(x.as.bin.right->as.neg.arg->as.num.value == 3);
  fj_buffer b = {0};
  WRITE(Expr, &x, &b);
  assert_string_equal((char *)b.data,
                      "{\"type\":\"bin\",\"op\":\"*\",\"left\":{\"type\":\"num\",\"value\":2.0},"
                      "\"right\":{\"type\":\"neg\",\"arg\":{\"type\":\"num\",\"value\":3.0}}}");
  fj_buffer_free(&b);
  const char *bad[][2] = {
      {"{\"value\": 1}", "(root) at byte 0: missing required field \"type\""},
      {"{\"value\": 1, \"type\": \"sqrt\"}", "/type at byte 21: \"sqrt\" is not a value of Expr"},
      {"{\"type\": 5}", "/type at byte 9: expected string, got number"},
      {"{\"type\": \"neg\", \"arg\": {\"type\": \"num\", \"value\": \"x\"}}",
       "/arg/value at byte 48: expected number, got string"},
      {"{\"type\": \"neg\", \"arg\": {\"type\": \"num\", \"value\": 1, \"value\": 2}}",
       "/arg/value at byte 51: duplicate key \"value\""},
      {"[]", "(root) at byte 0: expected object (Expr), got array"}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    assert_int_not_equal(fj_read_Expr(NULL, bad[i][0], strlen(bad[i][0]), &a, 0, &x, &err), FJ_OK);
    assert_string_equal(err.message, bad[i][1]);
  }
  fj_arena_free(&a);
}

static void test_union_nested_discriminator(void **state) {
  (void)state;
  fj_arena a;
  fj_arena_init(&a, NULL);
  fj_decode_error err;
  Tree t;
  const char *json = "{\"bin\": {\"right\": {\"neg\": {\"num\": 3}}, \"op\": \"-\", "
                     "\"left\": {\"num\": 2.5}}}";
  OK(fj_read_Tree(NULL, json, strlen(json), &a, 0, &t, &err));
  assert_int_equal(t.kind, Tree_bin);
  assert_int_equal(t.as.bin.op, TreeBinary_op_minus);
  assert_true(t.as.bin.left->kind == Tree_num && t.as.bin.left->as.num == 2.5);
  assert_true(t.as.bin.right->kind == Tree_neg && t.as.bin.right->as.neg->as.num == 3);
  fj_buffer b = {0};
  WRITE(Tree, &t, &b);
  assert_string_equal((char *)b.data, "{\"bin\":{\"op\":\"-\",\"left\":{\"num\":2.5},"
                                      "\"right\":{\"neg\":{\"num\":3.0}}}}");
  fj_buffer_free(&b);
  const char *bad[][2] = {
      {"{}", "(root) at byte 0: expected one key naming the variant of Tree"},
      {"{\"num\": 1, \"neg\": {\"num\": 1}}",
       "(root) at byte 11: one key only in Tree (its variant's name)"},
      {"{\"sqrt\": 1}", "/sqrt at byte 1: unknown field \"sqrt\""},
      {"{\"bin\": {\"op\": \"+\", \"left\": {\"num\": 1}, \"right\": {\"neg\": {\"num\": \"x\"}}}}",
       "/bin/right/neg/num at byte 65: expected number, got string"},
      {"{\"bin\": {\"op\": \"+\", \"left\": {\"num\": 1}}}",
       "/bin at byte 8: missing required field \"right\""},
      /* a union's end, at the root and inside: what follows is refused */
      {"{\"num\": 1} 2", "(root) at byte 11: unexpected content after the end of the document"},
      {"{\"neg\": {\"num\": 1} \"x\"}",
       "(root) at byte 19: expected ',' or the end of the array or object"},
      {"{\"neg\": {\"num\": 1}}}",
       "(root) at byte 19: unexpected content after the end of the document"}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    assert_int_not_equal(fj_read_Tree(NULL, bad[i][0], strlen(bad[i][0]), &a, 0, &t, &err), FJ_OK);
    assert_string_equal(err.message, bad[i][1]);
  }
  fj_arena_free(&a);
}

/* Deep recursion is bounded by the parser's depth limit, not the C stack. */
static void test_deep_recursion(void **state) {
  (void)state;
  size_t depth = 2000;
  char *json = malloc(depth * 8 + 16);
  assert_non_null(json);
  size_t n = 0;
  for (size_t i = 0; i < depth; i++)
    n += (size_t)sprintf(json + n, "{\"neg\":");
  n += (size_t)sprintf(json + n, "{\"num\":1}");
  for (size_t i = 0; i < depth; i++)
    json[n++] = '}';
  fj_arena a;
  fj_arena_init(&a, NULL);
  fj_decode_error err;
  Tree t;
  EXPECT(fj_read_Tree(NULL, json, n, &a, 0, &t, &err), FJ_ERR_DEPTH);
  if (!strstr(err.message, "/neg/neg/")) fail_msg("%s", err.message);
  assert_true(strncmp(err.message, "/...", 4) == 0); /* the path is truncated at its outer end */
  /* a parser allowed any depth: the codecs' own cap (FJ_DECODE_MAX_DEPTH),
   * not a stack overflow, for records (Tree) and nested arrays (Deep) */
  fj_parser *p;
  fj_parser_options opt = {FJ_MAX_DEPTH, 0, NULL};
  OK(fj_parser_new(&p, &opt));
  EXPECT(fj_read_Tree(p, json, n, &a, 0, &t, &err), FJ_ERR_DEPTH);
  assert_non_null(strstr(err.message, "FJ_DECODE_MAX_DEPTH"));
  free(json);
  enum { ARRAYS = 100000 };
  json = malloc(8 + 2 * ARRAYS + 1);
  assert_non_null(json);
  memcpy(json, "{\"nest\":", 8);
  memset(json + 8, '[', ARRAYS);
  memset(json + 8 + ARRAYS, ']', ARRAYS);
  json[8 + 2 * ARRAYS] = '}';
  Deep deep;
  EXPECT(fj_read_Deep(p, json, 8 + 2 * ARRAYS + 1, &a, 0, &deep, &err), FJ_ERR_DEPTH);
  assert_non_null(strstr(err.message, "FJ_DECODE_MAX_DEPTH"));
  assert_int_equal(err.offset, 8 + FJ_DECODE_MAX_DEPTH - 1); /* the '[' opening level 1025 */
  fj_parser_free(p);
  free(json);
  fj_arena_free(&a);
}

/* A million nested arrays (issue 9): a depth error at the first bracket past
 * the limit, with its offset and path, whether the brackets close or not;
 * never a stack overflow. The generated reader recurses once per level, so
 * only the parser's limit keeps the C stack bounded. */
static void test_million_brackets(void **state) {
  (void)state;
  const size_t n = 1000000, head = 8; /* {"nest": */
  char *json = malloc(head + 2 * n + 1);
  assert_non_null(json);
  memcpy(json, "{\"nest\":", head);
  memset(json + head, '[', n);
  memset(json + head + n, ']', n);
  json[head + 2 * n] = '}';
  size_t lens[] = {head + n, head + 2 * n + 1}; /* unclosed, then closed */
  for (int i = 0; i < 2; i++) {
    fj_arena a;
    fj_arena_init(&a, NULL);
    fj_decode_error err;
    Deep d;
    EXPECT(fj_read_Deep(NULL, json, lens[i], &a, 0, &d, &err), FJ_ERR_DEPTH);
    /* the root object is level 1: the 1024th '[' opens level 1025 */
    assert_int_equal(err.offset, head + FJ_DEFAULT_MAX_DEPTH - 1);
    assert_true(strncmp(err.path, "/...", 4) == 0 && strstr(err.path, "/0/0/0"));
    fj_arena_free(&a);
  }
  free(json);
}

/* ---- runtime pieces ----------------------------------------------------------------- */

/* The typed reads refuse a missing out-pointer and a zeroed handle. */
static void test_decode_bad_arguments(void **state) {
  (void)state;
  fj_parser *p;
  OK(fj_parser_new(&p, NULL));
  fj_value root, zero = {0};
  OK(fj_parser_parse(p, "12", 2, &root));
  fj_decode_error err;
  fj_decoder d;
  fj_decoder_init(&d, p, NULL, 0, &err);
  int32_t i32;
  int64_t i64;
  uint64_t u64;
  double dbl;
  EXPECT(fj_decode_int32(&d, &root, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_decode_int64(&d, &root, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_decode_uint64(&d, &root, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_decode_double(&d, &root, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_decode_int32(&d, &zero, &i32), FJ_ERR_INVALID_ARG);
  EXPECT(fj_decode_int64(&d, &zero, &i64), FJ_ERR_INVALID_ARG);
  EXPECT(fj_decode_uint64(&d, &zero, &u64), FJ_ERR_INVALID_ARG);
  EXPECT(fj_decode_double(&d, &zero, &dbl), FJ_ERR_INVALID_ARG);
  OK(fj_decode_int64(&d, &root, &i64)); /* and the handle still reads */
  assert_int_equal(i64, 12);
  fj_parser_free(p);
}

/* NULL where the generated functions want a struct, an arena, or array
 * items: refused (FJ_ERR_INVALID_ARG), never dereferenced. */
static void test_generated_null_arguments(void **state) {
  (void)state;
  fj_arena a = {0};
  fj_decode_error err;
  const char *json = "{\"id\": 1, \"status\": \"sent\", \"meta\": {\"author\": \"x\", "
                     "\"created\": 2, \"tags\": []}, \"items\": []}";
  Document doc;
  EXPECT(fj_read_Document(NULL, json, strlen(json), &a, 0, NULL, &err), FJ_ERR_INVALID_ARG);
  assert_string_equal(err.message, "(root) at byte 0: no struct to read into");
  EXPECT(fj_read_Document(NULL, json, strlen(json), NULL, 0, &doc, &err), FJ_ERR_INVALID_ARG);
  /* a bit that is no FJ_DECODE_* flag: refused, as fj_writer_new() refuses
   * unknown FJ_WRITE_* bits (before, ignored) */
  EXPECT(fj_read_Document(NULL, json, strlen(json), &a, 1u << 3, &doc, &err), FJ_ERR_INVALID_ARG);
  assert_string_equal(err.message, "(document) at byte 0: unknown decode flags 0x8");
  OK(fj_read_Document(NULL, json, strlen(json), &a, FJ_DECODE_VALIDATE, &doc, &err));
  OK(fj_read_Document(NULL, json, strlen(json), &a, 0, &doc, &err));
  json = "{\"type\": \"num\", \"value\": 1}";
  EXPECT(fj_read_Expr(NULL, json, strlen(json), &a, 0, NULL, &err), FJ_ERR_INVALID_ARG);

  fj_buffer b = {0};
  fj_writer *w;
  OK(fj_writer_new(&w, NULL, fj_sink_buffer(&b)));
  EXPECT(fj_write_Document(w, NULL), FJ_ERR_INVALID_ARG);
  EXPECT(fj_write_Expr(w, NULL), FJ_ERR_INVALID_ARG);
  assert_true(fj_equal_Document(NULL, NULL));
  assert_false(fj_equal_Document(&doc, NULL));
  assert_false(fj_equal_Expr(NULL, &(Expr){0}));
  Document broken = doc; /* items claimed but not there */
  broken.items.items = NULL;
  broken.items.count = 2;
  EXPECT(fj_write_Document(w, &broken), FJ_ERR_INVALID_ARG);
  assert_false(fj_equal_Document(&doc, &broken));
  broken.meta.tags.items = NULL;
  broken.meta.tags.count = 1;
  broken.items = doc.items;
  fj_writer_free(w);
  OK(fj_writer_new(&w, NULL, fj_sink_buffer(&b)));
  EXPECT(fj_write_Document(w, &broken), FJ_ERR_INVALID_ARG);
  assert_false(fj_equal_Document(&broken, &doc));
  fj_writer_free(w);
  fj_buffer_free(&b);
  fj_arena_free(&a);
}

/* The arena takes its blocks from the caller's allocator and returns them all;
 * a reset keeps one block for reuse. */
static void test_arena(void **state) {
  (void)state;
  fj_test_alloc_count count = {0, 0};
  fj_allocator al = fj_test_counting_allocator(&count);
  fj_arena a;
  fj_arena_init(&a, &al);
  assert_int_equal(fj_arena_size(&a), 0);
  for (int i = 0; i < 1000; i++) {
    char *p = fj_arena_alloc(&a, (size_t)i % 97 + 1);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % _Alignof(max_align_t), 0);
    memset(p, 1, (size_t)i % 97 + 1);
  }
  assert_non_null(fj_arena_alloc(&a, 1 << 20)); /* a large request gets its own block */
  assert_null(fj_arena_alloc(&a, SIZE_MAX));
  assert_true(count.live > 0 && count.live == fj_arena_size(&a));
  size_t len;
  char *json = payload("company", &len);
  Company c;
  fj_decode_error err;
  OK(fj_read_Company(NULL, json, len, &a, 0, &c, &err));
  /* reset keeps the largest block (the 1 MiB one) and frees the others */
  fj_arena_reset(&a);
  size_t kept = fj_arena_size(&a);
  assert_true(kept >= 1 << 20 && count.live == kept);
  for (int round = 0; round < 3; round++) { /* warm: decoding again takes no new memory */
    OK(fj_read_Company(NULL, json, len, &a, 0, &c, &err));
    assert_int_equal(fj_arena_size(&a), kept);
    fj_arena_reset(&a);
  }
  fj_arena_free(&a);
  assert_int_equal(count.live, 0);
  fj_arena_reset(&a); /* an empty arena, and NULL, are left alone */
  fj_arena_reset(NULL);
  assert_int_equal(fj_arena_size(&a), 0);
  free(json);
}

/* An array element that fails before its record is entered (not an
 * object) is left zeroed, as every element is, even in arena memory that
 * an earlier document filled: record elements are zeroed once, when read. */
static void test_failed_element_is_zeroed(void **state) {
  (void)state;
  fj_arena a;
  fj_arena_init(&a, NULL);
  Policy p;
  const char *fill = "{\"qty\": 1, \"items\": [{\"qty\": 7, \"sku\": \"abcdefgh\"}, "
                     "{\"qty\": 8, \"sku\": \"ijkl\"}, {\"qty\": 9, \"sku\": \"mn\"}]}";
  assert_string_equal(policy(fill, 0, &p, &a), "");
  assert_int_equal(p.items.count, 3);
  assert_int_equal(p.items.items[1].qty, 8);
  fj_arena_reset(&a); /* the same memory again, as it was left */
  assert_string_equal(policy("{\"qty\": 1, \"items\": [{\"qty\": 2}, 5]}", 0, &p, &a),
                      "/items/1 at byte 33: expected object (Item), got number");
  assert_int_equal(p.items.count, 2);
  assert_int_equal(p.items.items[0].qty, 2);
  Item zero;
  memset(&zero, 0, sizeof zero);
  assert_memory_equal(&p.items.items[1], &zero, sizeof zero);
  fj_arena_free(&a);
}

/* A document that does not parse (stage 1's errors, found before any value
 * is read) leaves the struct zeroed, as later errors leave what was read:
 * it was left as the caller had it (uninitialised memory, here 0xAB bytes,
 * that fj_write_Policy() then followed). Its message names the document,
 * not the root value. */
static void test_failed_parse_zeroes_out(void **state) {
  (void)state;
  static const struct {
    const char *json;
    fj_error code;
    const char *message;
  } cases[] = {
      {"", FJ_ERR_EMPTY, "(document) at byte 0: "},
      {"{\"sku\": \"\xff\"}", FJ_ERR_UTF8, "(document) at byte 9: "},
      {"{\"sku\": \"x}", FJ_ERR_UNCLOSED_STRING, "(document) at byte 8: "},
      {"\xEF\xBB\xBF{}", FJ_ERR_BOM, "(document) at byte 0: "},
  };
  Policy zero;
  memset(&zero, 0, sizeof zero);
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    fj_arena a;
    fj_arena_init(&a, NULL);
    fj_decode_error err;
    Policy p;
    memset(&p, 0xAB, sizeof p);
    EXPECT(fj_read_Policy(NULL, cases[i].json, strlen(cases[i].json), &a, 0, &p, &err),
           cases[i].code);
    assert_memory_equal(&p, &zero, sizeof p);
    assert_string_equal(err.path, "");
    if (strncmp(err.message, cases[i].message, strlen(cases[i].message)) != 0)
      fail_msg("case %zu: message \"%s\", expected it to start \"%s\"", i, err.message,
               cases[i].message);
    fj_arena_free(&a);
  }
  /* an error in a value keeps naming the value: the root here */
  fj_arena a;
  fj_arena_init(&a, NULL);
  assert_string_equal(policy("[]", 0, NULL, &a),
                      "(root) at byte 0: expected object (Policy), got array");
  fj_arena_free(&a);
}

/* Strings of 0 to 40 bytes, one after another in the arena, the last ones
 * close to the input's end: each intact and NUL-terminated (short ones are
 * copied 16 bytes at a time when the input has them). */
static void test_string_copies(void **state) {
  (void)state;
  fj_arena a;
  fj_arena_init(&a, NULL);
  Policy p;
  char json[4096], sku[64];
  for (int last = 0; last <= 40; last++) {
    size_t o = (size_t)snprintf(json, sizeof json, "{\"qty\": 1, \"items\": [");
    for (int k = 0; k <= last; k++) {
      for (int j = 0; j < k; j++)
        sku[j] = (char)('a' + (j + k) % 26);
      sku[k] = '\0';
      o += (size_t)snprintf(json + o, sizeof json - o, "%s{\"qty\": %d, \"sku\": \"%s\"}",
                            k ? ", " : "", k, sku);
    }
    snprintf(json + o, sizeof json - o, "]}");
    assert_string_equal(policy(json, 0, &p, &a), "");
    assert_int_equal(p.items.count, (size_t)last + 1);
    for (int k = 0; k <= last; k++) {
      const fj_str s = p.items.items[k].sku;
      assert_int_equal(s.len, (size_t)k);
      for (int j = 0; j < k; j++)
        assert_int_equal(s.data[j], 'a' + (j + k) % 26);
      assert_int_equal(s.data[k], '\0');
    }
    fj_arena_reset(&a);
  }
  fj_arena_free(&a);
}

/* Defaults of a record of 71 fields (two words of seen-bits), built by
 * hand as the generator would: absent fields get theirs and their has-flag,
 * present ones keep what they read, on both sides of bit 64. */
#define WIDE 71
typedef struct Wide {
  int32_t v[WIDE];
  bool has[WIDE];
} Wide;

static fj_error read_wide(fj_decoder *d, const fj_value *v, void *out) {
  static char names[WIDE][4];
  static const char *name_ptrs[WIDE];
  static uint32_t lens[WIDE];
  static uint16_t slots[256];
  static int32_t defs[WIDE];
  static fj_decode_member members[WIDE];
  static const uint64_t required[2] = {0, 0};
  static fj_decode_record r;
  if (!r.names) {
    for (int i = 0; i < WIDE; i++) {
      snprintf(names[i], sizeof names[i], "f%d", i);
      name_ptrs[i] = names[i];
      lens[i] = (uint32_t)strlen(names[i]);
      defs[i] = 1000 + i;
      members[i] = (fj_decode_member){FJ_MEMBER_INT32,
                                      0,
                                      0,
                                      (uint32_t)offsetof(Wide, v[i]),
                                      (uint32_t)offsetof(Wide, has[i]),
                                      NULL,
                                      NULL,
                                      i % 3 ? &defs[i] : NULL};
      uint32_t at = fj_decode_key_hash(names[i], lens[i]) & 255u;
      while (slots[at])
        at = (at + 1) & 255u;
      slots[at] = (uint16_t)(i + 1);
    }
    r = (fj_decode_record){name_ptrs, lens,    slots,           WIDE,         255,  required, -1,
                           -1,        members, "object (Wide)", sizeof(Wide), true, NULL,     NULL};
  }
  return fj_decode_record_value(d, v, &r, out);
}

static void test_wide_record_defaults(void **state) {
  (void)state;
  fj_arena a;
  fj_arena_init(&a, NULL);
  fj_decode_error err;
  Wide w;
  const char *json = "{\"f1\": 5, \"f66\": 7, \"f69\": 9, \"f3\": 4}";
  OK(fj_decode_document(NULL, json, strlen(json), &a, 0, &err, read_wide, &w));
  for (int i = 0; i < WIDE; i++) {
    const int read = i == 1 || i == 66 || i == 69 || i == 3;
    const int32_t want = i == 1 ? 5 : i == 66 ? 7 : i == 69 ? 9 : i == 3 ? 4 : i % 3 ? 1000 + i : 0;
    assert_int_equal(w.v[i], want);
    assert_int_equal(w.has[i], read || i % 3 != 0);
  }
  fj_arena_free(&a);
}
#undef WIDE

/* Doubles read into a struct against strtod: the short decimals the record
 * reader converts itself ('-'?, 1-3 integer digits, 1-17 fraction digits,
 * long ones past 2^53 included), then a field or the end, as prices are. */
static void test_doubles_vs_strtod(void **state) {
  (void)state;
  fj_arena a;
  fj_arena_init(&a, NULL);
  Policy p;
  uint64_t x = 0x9E3779B97F4A7C15u;
  long bad = 0;
  for (int i = 0; i < 50000; i++) {
    char num[40], json[128];
    size_t o = 0;
    x = x * 6364136223846793005u + 1442695040888963407u;
    uint64_t r = x >> 11;
    if (r & 1) num[o++] = '-';
    int id = 1 + (int)((r >> 1) % 3), fd = 1 + (int)((r >> 3) % 17);
    for (int k = 0; k < id + fd; k++) {
      x = x * 6364136223846793005u + 1442695040888963407u;
      int dig = (x >> 40) % 4 ? (int)((x >> 33) % 10) : (x >> 45) & 1 ? 9 : 0; /* runs of 0, 9 */
      if (k == 0 && id > 1 && !dig) dig = 1;
      if (k == id) num[o++] = '.';
      num[o++] = (char)('0' + dig);
    }
    num[o] = '\0';
    if (i % 2)
      snprintf(json, sizeof json, "{\"ratio\": %s, \"qty\": 1, \"name\": \"padding\"}", num);
    else
      snprintf(json, sizeof json, "{\"qty\": 1, \"ratio\": %s}", num);
    const double want = strtod(num, NULL);
    const char *m = policy(json, 0, &p, &a);
    if (*m) printf("%s: %s\n", json, m);
    assert_string_equal(m, "");
    if (memcmp(&p.ratio, &want, sizeof want) != 0 && bad++ < 10)
      printf("%s: %.17g, want %.17g\n", json, p.ratio, want);
    fj_arena_reset(&a);
  }
  assert_int_equal(bad, 0);
  fj_arena_free(&a);
}

/* fj_decode_alloc() gives zeroed memory also where an earlier document
 * left bytes (the arena's inline bump step zeroes what it hands out). */
static fj_error alloc_some(fj_decoder *d, const fj_value *v, void *out) {
  for (size_t size = 1; size <= 200; size += 13) {
    unsigned char *p;
    fj_error e = fj_decode_alloc(d, v, size, (void **)&p);
    if (e) return e;
    for (size_t i = 0; i < size; i++)
      if (p[i]) return FJ_ERR_INVALID_ARG;
  }
  *(bool *)out = true;
  return FJ_OK;
}

static void test_decode_alloc_zeroed(void **state) {
  (void)state;
  fj_arena a;
  fj_arena_init(&a, NULL);
  memset(fj_arena_alloc(&a, 3000), 0xA5, 3000);
  fj_arena_reset(&a);
  fj_decode_error err;
  bool done = false;
  OK(fj_decode_document(NULL, "{}", 2, &a, 0, &err, alloc_some, &done));
  assert_true(done);
  fj_arena_free(&a);
}

/* A parser can be reused across documents; errors survive in *err. */
static void test_reused_parser(void **state) {
  (void)state;
  fj_parser *p;
  OK(fj_parser_new(&p, NULL));
  fj_arena a;
  fj_arena_init(&a, NULL);
  fj_decode_error err;
  Policy x;
  for (int i = 0; i < 3; i++) {
    OK(fj_read_Policy(p, "{\"qty\": 3}", 10, &a, 0, &x, &err));
    assert_int_equal(x.qty, 3);
    assert_int_equal(err.code, FJ_OK);
    EXPECT(fj_read_Policy(p, "{\"qty\": []}", 11, &a, 0, &x, &err), FJ_ERR_WRONG_TYPE);
    assert_string_equal(err.path, "/qty");
    assert_int_equal(err.offset, 8);
    assert_string_equal(err.detail, "expected int32, got array");
  }
  fj_arena_free(&a);
  fj_parser_free(p);
}

/* ---- descriptor tables -------------------------------------------------------------- */

/* Tables for the generated Document structs: the run-time reader must decode
 * the same values and report the same errors as the generated one. */
static const char *const status_values[] = {"draft", "sent", "paid", "void"};
static const fj_field_desc item_fields[] = {{.name = "sku",
                                             .offset = offsetof(Document_items_item, sku),
                                             .type = FJ_FIELD_STRING,
                                             .flags = FJ_FIELD_REQUIRED,
                                             .has_offset = FJ_NO_HAS_FLAG},
                                            {.name = "qty",
                                             .offset = offsetof(Document_items_item, qty),
                                             .type = FJ_FIELD_INT32,
                                             .flags = FJ_FIELD_REQUIRED,
                                             .has_offset = FJ_NO_HAS_FLAG},
                                            {.name = "price",
                                             .offset = offsetof(Document_items_item, price),
                                             .type = FJ_FIELD_DOUBLE,
                                             .flags = FJ_FIELD_REQUIRED,
                                             .has_offset = FJ_NO_HAS_FLAG}};
static const fj_record_desc item_desc = {
    "Document_items_item", sizeof(Document_items_item), item_fields, 3, -1, -1};
static const fj_field_desc meta_fields[] = {{.name = "author",
                                             .offset = offsetof(Document_meta, author),
                                             .type = FJ_FIELD_STRING,
                                             .flags = FJ_FIELD_REQUIRED,
                                             .has_offset = FJ_NO_HAS_FLAG},
                                            {.name = "created",
                                             .offset = offsetof(Document_meta, created),
                                             .type = FJ_FIELD_INT64,
                                             .flags = FJ_FIELD_REQUIRED,
                                             .has_offset = FJ_NO_HAS_FLAG},
                                            {.name = "tags",
                                             .offset = offsetof(Document_meta, tags),
                                             .type = FJ_FIELD_ARRAY,
                                             .flags = FJ_FIELD_REQUIRED,
                                             .has_offset = FJ_NO_HAS_FLAG,
                                             .elem = FJ_FIELD_STRING,
                                             .elem_size = sizeof(fj_str)}};
static const fj_record_desc meta_desc = {
    "Document_meta", sizeof(Document_meta), meta_fields, 3, -1, -1};
static const fj_field_desc document_fields[] = {{.name = "id",
                                                 .offset = offsetof(Document, id),
                                                 .type = FJ_FIELD_UINT64,
                                                 .flags = FJ_FIELD_REQUIRED,
                                                 .has_offset = FJ_NO_HAS_FLAG},
                                                {.name = "status",
                                                 .offset = offsetof(Document, status),
                                                 .type = FJ_FIELD_ENUM,
                                                 .flags = FJ_FIELD_REQUIRED,
                                                 .has_offset = FJ_NO_HAS_FLAG,
                                                 .enum_values = status_values,
                                                 .enum_count = 4,
                                                 .enum_name = "Document_status"},
                                                {.name = "meta",
                                                 .offset = offsetof(Document, meta),
                                                 .type = FJ_FIELD_RECORD,
                                                 .flags = FJ_FIELD_REQUIRED,
                                                 .has_offset = FJ_NO_HAS_FLAG,
                                                 .record = &meta_desc},
                                                {.name = "items",
                                                 .offset = offsetof(Document, items),
                                                 .type = FJ_FIELD_ARRAY,
                                                 .flags = FJ_FIELD_REQUIRED,
                                                 .has_offset = FJ_NO_HAS_FLAG,
                                                 .record = &item_desc,
                                                 .elem = FJ_FIELD_RECORD,
                                                 .elem_size = sizeof(Document_items_item)},
                                                {.name = "note",
                                                 .offset = offsetof(Document, note),
                                                 .type = FJ_FIELD_STRING,
                                                 .flags = FJ_FIELD_NULLABLE,
                                                 .has_offset = offsetof(Document, has_note)}};
static const fj_record_desc document_desc = {"Document", sizeof(Document), document_fields, 5, -1,
                                             -1};
_Static_assert(sizeof(Document_status) == sizeof(int), "descriptor enums are ints");

/* fj_desc_read() refuses unknown flag bits as the generated readers do. */
static void test_desc_read_unknown_flags(void **state) {
  (void)state;
  fj_arena a;
  fj_arena_init(&a, NULL);
  fj_decode_error err;
  Document doc;
  const char *json = "{\"id\": 1, \"status\": \"sent\", \"meta\": {\"author\": \"x\", "
                     "\"created\": 2, \"tags\": []}, \"items\": []}";
  EXPECT(fj_desc_read(NULL, json, strlen(json), &a, 0x80000000u, &document_desc, &doc, &err),
         FJ_ERR_INVALID_ARG);
  assert_string_equal(err.message, "(document) at byte 0: unknown decode flags 0x80000000");
  OK(fj_desc_read(NULL, json, strlen(json), &a, FJ_DECODE_DUPLICATES_LAST_WINS, &document_desc,
                  &doc, &err));
  fj_arena_free(&a);
}

static void test_descriptors_match_generated(void **state) {
  (void)state;
  size_t len;
  char *json = payload("document", &len);
  const char *docs[] = {
      json,
      "{\"id\": 1, \"status\": \"paid\", \"note\": \"n\", \"meta\": {\"tags\": [], "
      "\"created\": -5, \"author\": \"\\u00e9\"}, \"items\": [], \"x\": [1]}",
      "{\"id\": 1, \"status\": \"lost\"}",
      "{\"id\": -1}",
      "{\"id\": 1, \"id\": 2}",
      "{\"id\": 1, \"status\": \"paid\", \"meta\": {\"tags\": [1]}}",
      "{\"id\": 1, \"status\": \"paid\", \"meta\": []}",
      "{\"id\": 1, \"status\": \"paid\", \"meta\": {\"author\": \"a\", \"created\": 1, "
      "\"tags\": []}, \"items\": [{\"sku\": \"s\", \"qty\": 1, \"price\": 1}, {\"sku\": \"t\", "
      "\"qty\": 4294967296, \"price\": 2}]}",
      "{\"id\": 1, \"status\": \"paid\", \"meta\": {\"author\": \"a\", \"created\": 1, "
      "\"tags\": []}, \"items\": [{\"sku\": \"s\", \"qty\": 1}]}",
      "{\"id\": 1, \"status\": \"paid\", \"meta\": {\"author\": \"a\", \"created\": 1, "
      "\"tags\": []}, \"items\": [], \"note\": 5}",
      "{\"id\": 1,"};
  for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
    size_t n = i ? strlen(docs[i]) : len;
    for (uint32_t flags = 0; flags < 4; flags++) {
      fj_arena a1, a2;
      fj_arena_init(&a1, NULL);
      fj_arena_init(&a2, NULL);
      Document x, y;
      fj_decode_error e1, e2;
      fj_error r1 = fj_read_Document(NULL, docs[i], n, &a1, flags, &x, &e1);
      fj_error r2 = fj_desc_read(NULL, docs[i], n, &a2, flags, &document_desc, &y, &e2);
      assert_string_equal(fj_error_name(r1), fj_error_name(r2));
      assert_string_equal(e1.message, e2.message);
      if (!r1) {
        assert_true(fj_equal_Document(&x, &y));
        fj_buffer b1 = {0}, b2 = {0};
        WRITE(Document, &x, &b1);
        fj_writer *w;
        OK(fj_writer_new(&w, NULL, fj_sink_buffer(&b2)));
        OK(fj_desc_write(w, &document_desc, &y));
        OK(fj_writer_finish(w));
        fj_writer_free(w);
        assert_string_equal((char *)b1.data, (char *)b2.data);
        fj_buffer_free(&b1);
        fj_buffer_free(&b2);
      }
      fj_arena_free(&a1);
      fj_arena_free(&a2);
    }
  }
  free(json);
}

/* The tables above again, each field's name_len filled in (and the nested
 * records pointing at the filled copies). */
typedef struct sized_tables {
  fj_field_desc item[3], meta[3], doc[5];
  fj_record_desc item_desc, meta_desc, doc_desc;
} sized_tables;

static void fill_lens(fj_field_desc *dst, const fj_field_desc *src, size_t n) {
  for (size_t i = 0; i < n; i++) {
    dst[i] = src[i];
    dst[i].name_len = strlen(src[i].name);
  }
}

static void make_sized(sized_tables *t) {
  fill_lens(t->item, item_fields, 3);
  fill_lens(t->meta, meta_fields, 3);
  fill_lens(t->doc, document_fields, 5);
  t->item_desc = item_desc;
  t->item_desc.fields = t->item;
  t->meta_desc = meta_desc;
  t->meta_desc.fields = t->meta;
  t->doc_desc = document_desc;
  t->doc_desc.fields = t->doc;
  t->doc[2].record = &t->meta_desc;
  t->doc[3].record = &t->item_desc;
}

/* Reads and writes with name_len given must be those with names measured:
 * the same values, the same errors (the paths in messages name the keys),
 * the same bytes written. */
static void test_descriptors_name_len(void **state) {
  (void)state;
  sized_tables t;
  make_sized(&t);
  size_t len;
  char *json = payload("document", &len);
  const char *docs[] = {
      json,
      "{\"id\": 1, \"status\": \"paid\", \"meta\": {\"author\": \"a\", "
      "\"created\": 1, \"tags\": []}, \"items\": [{\"sku\": \"s\", \"qty\": "
      "4294967296, \"price\": 2}]}",
      "{\"id\": 1, \"status\": \"paid\", \"meta\": {\"author\": 7}}",
      "{\"id\": 1, \"i\": 2, \"idx\": 3, \"\": 4, \"status\": \"void\", \"meta\": "
      "{\"author\": \"\", \"created\": 0, \"tags\": [\"t\"]}, \"items\": []}"};
  for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
    size_t n = i ? strlen(docs[i]) : len;
    fj_arena a1, a2;
    fj_arena_init(&a1, NULL);
    fj_arena_init(&a2, NULL);
    Document x, y;
    fj_decode_error e1, e2;
    fj_error r1 = fj_desc_read(NULL, docs[i], n, &a1, 0, &document_desc, &x, &e1);
    fj_error r2 = fj_desc_read(NULL, docs[i], n, &a2, 0, &t.doc_desc, &y, &e2);
    assert_string_equal(fj_error_name(r1), fj_error_name(r2));
    assert_string_equal(e1.message, e2.message);
    if (i == 1) assert_non_null(strstr(e2.message, "/items/0/qty"));
    if (i == 2) assert_non_null(strstr(e2.message, "/meta/author"));
    if (!r1) {
      assert_true(fj_equal_Document(&x, &y));
      fj_buffer b1 = {0}, b2 = {0};
      fj_writer *w1, *w2;
      OK(fj_writer_new(&w1, NULL, fj_sink_buffer(&b1)));
      OK(fj_writer_new(&w2, NULL, fj_sink_buffer(&b2)));
      OK(fj_desc_write(w1, &document_desc, &x));
      OK(fj_desc_write(w2, &t.doc_desc, &y));
      OK(fj_writer_finish(w1));
      OK(fj_writer_finish(w2));
      fj_writer_free(w1);
      fj_writer_free(w2);
      assert_int_equal(b1.len, b2.len);
      assert_memory_equal(b1.data, b2.data, b1.len);
      assert_non_null(strstr((char *)b2.data, "\"created\":"));
      fj_buffer_free(&b1);
      fj_buffer_free(&b2);
    }
    fj_arena_free(&a1);
    fj_arena_free(&a2);
  }
  free(json);
}

/* fj_desc_check() accepts the Document tables and names the first bad
 * field of each broken copy; reads and writes refuse the NULL pointers of
 * a broken table without crashing; a write refuses an absent required
 * field that is not nullable. */
static void test_descriptor_checks(void **state) {
  (void)state;
  const fj_field_desc *bad = NULL;
  OK(fj_desc_check(&document_desc, &bad));
  assert_null(bad);
  assert_int_equal(fj_desc_check(NULL, &bad), FJ_ERR_INVALID_ARG);
  sized_tables t;
  for (int k = 0; k < 11; k++) {
    make_sized(&t);
    fj_field_desc *f = &t.item[1]; /* qty, int32 */
    switch (k) {
    case 0: f->name = NULL; break;
    case 1: f->name_len = 2; break; /* "qty" is 3 */
    case 9: f->name_len = 9; break; /* past the name's end: not read there (ASan) */
    case 2: f->offset = sizeof(Document_items_item) - 2; break;
    case 3: f->has_offset = sizeof(Document_items_item); break;
    case 4: f->type = FJ_FIELD_RECORD; break;                  /* no record */
    case 5: f->type = FJ_FIELD_ENUM, f->enum_count = 2; break; /* no strings */
    case 6: f = &t.doc[3], f->elem = FJ_FIELD_ARRAY; break;
    case 7: f = &t.doc[3], f->elem_size = 1; break;
    case 8: f = &t.doc[2], f->record = NULL; break;
    /* the name of the field before it: the reader took {"sku": .., "sku":
     * ..} as both fields, the writer wrote the key twice */
    case 10: f->name = "sku"; break;
    }
    EXPECT(fj_desc_check(&t.doc_desc, &bad), FJ_ERR_INVALID_ARG);
    assert_ptr_equal(bad, f);
  }
  /* the pointers a read or write follows: refused, not followed */
  size_t len;
  char *json = payload("document", &len);
  for (int k = 0; k < 3; k++) {
    make_sized(&t);
    if (k == 0) t.doc[2].record = NULL;
    if (k == 1) t.doc[1].enum_values = NULL;
    if (k == 2) t.meta[0].name = NULL;
    fj_arena a;
    fj_arena_init(&a, NULL);
    Document x;
    fj_decode_error e;
    EXPECT(fj_desc_read(NULL, json, len, &a, 0, &t.doc_desc, &x, &e), FJ_ERR_INVALID_ARG);
    fj_arena_free(&a);
    OK(fj_desc_read(NULL, json, len, &a, 0, &document_desc, &x, &e));
    fj_buffer b = {0};
    fj_writer *w;
    OK(fj_writer_new(&w, NULL, fj_sink_buffer(&b)));
    EXPECT(fj_desc_write(w, &t.doc_desc, &x), FJ_ERR_INVALID_ARG);
    fj_writer_free(w);
    fj_buffer_free(&b);
    fj_arena_free(&a);
  }
  /* an absent required field: null if nullable, else refused */
  {
    make_sized(&t);
    t.doc[4].flags = FJ_FIELD_REQUIRED | FJ_FIELD_NULLABLE; /* note, has_note false */
    fj_arena a;
    fj_arena_init(&a, NULL);
    Document x;
    fj_decode_error e;
    OK(fj_desc_read(NULL, json, len, &a, 0, &document_desc, &x, &e));
    x.has_note = false;
    fj_buffer b = {0};
    fj_writer *w;
    OK(fj_writer_new(&w, NULL, fj_sink_buffer(&b)));
    OK(fj_desc_write(w, &t.doc_desc, &x));
    OK(fj_writer_finish(w));
    assert_non_null(strstr((char *)b.data, "\"note\":null"));
    fj_writer_free(w);
    fj_buffer_free(&b);
    t.doc[4].flags = FJ_FIELD_REQUIRED;
    OK(fj_writer_new(&w, NULL, fj_sink_buffer(&b)));
    EXPECT(fj_desc_write(w, &t.doc_desc, &x), FJ_ERR_INVALID_ARG);
    fj_writer_free(w);
    fj_buffer_free(&b);
    fj_arena_free(&a);
  }
  free(json);
}

/* fj_desc_write() writes plain fields (present; a scalar but an enum) in
 * line, without the writer's calls: for every kind of key and value that
 * path takes or leaves to the calls (short and long keys and strings,
 * bytes to escape or check, long integers, non-finite doubles, absent
 * fields, a window too small), under every writer option, it must write
 * the bytes and return the errors that fj_writer_member_*() calls do. */
typedef struct plain_rec {
  bool b;
  int32_t i32;
  int64_t i64;
  uint64_t u64;
  double d;
  fj_str s;
  bool has[6]; /* for the fields given has-flags */
} plain_rec;

static fj_error plain_by_calls(fj_writer *w, const fj_field_desc *f, const plain_rec *r) {
  fj_error e = fj_writer_begin_object(w);
  for (int i = 0; !e && i < 6; i++) {
    const char *k = f[i].name;
    size_t n = strlen(k);
    if (f[i].has_offset != FJ_NO_HAS_FLAG && !r->has[i]) { /* absent */
      if (!(f[i].flags & FJ_FIELD_REQUIRED)) continue;
      e = f[i].flags & FJ_FIELD_NULLABLE ? fj_writer_member_null(w, k, n) : FJ_ERR_INVALID_ARG;
      continue;
    }
    switch (i) {
    case 0: e = fj_writer_member_bool(w, k, n, r->b); break;
    case 1: e = fj_writer_member_int64(w, k, n, r->i32); break;
    case 2: e = fj_writer_member_int64(w, k, n, r->i64); break;
    case 3: e = fj_writer_member_uint64(w, k, n, r->u64); break;
    case 4: e = fj_writer_member_double(w, k, n, r->d); break;
    default: e = fj_writer_member_stringn(w, k, n, r->s.data, r->s.len); break;
    }
  }
  return e ? e : fj_writer_end_object(w);
}

/* The same events written twice, by calls (w1, its result e1) and by
 * fj_desc_write() (w2, e2), into fixed buffers b1 and b2: the same errors,
 * sizes and bytes (past len: scratch, either way). Frees both writers. */
static void same_writes(fj_writer *w1, fj_writer *w2, fj_error e1, fj_error e2,
                        const fj_fixed_buffer *b1, const fj_fixed_buffer *b2) {
  assert_string_equal(fj_error_name(e1), fj_error_name(e2));
  if (!e1)
    assert_string_equal(fj_error_name(fj_writer_finish(w1)), fj_error_name(fj_writer_finish(w2)));
  size_t s1 = 0, s2 = 0;
  fj_writer_size(w1, &s1);
  fj_writer_size(w2, &s2);
  assert_int_equal(s1, s2);
  assert_int_equal(b1->len, b2->len);
  assert_int_equal(b1->needed, b2->needed);
  assert_memory_equal(b1->data, b2->data, b1->len);
  fj_writer_free(w1);
  fj_writer_free(w2);
}

/* Both ways into fixed buffers of `cap` bytes: the same error, bytes and
 * counts. */
static void plain_compare(const fj_record_desc *desc, const plain_rec *r, uint32_t flags,
                          size_t cap) {
  static char m1[512], m2[512];
  memset(m1, 'x', sizeof m1);
  memset(m2, 'x', sizeof m2);
  fj_fixed_buffer b1 = {m1, cap, 0, 0}, b2 = {m2, cap, 0, 0};
  fj_writer_options o = {flags, 0, 0, NULL};
  fj_writer *w1, *w2;
  OK(fj_writer_new(&w1, &o, fj_sink_fixed(&b1)));
  OK(fj_writer_new(&w2, &o, fj_sink_fixed(&b2)));
  fj_error e1 = plain_by_calls(w1, desc->fields, r);
  same_writes(w1, w2, e1, fj_desc_write(w2, desc, r), &b1, &b2);
}

static void test_descriptor_plain_fields(void **state) {
  (void)state;
  static const char *const keys[] = {"a",
                                     "ab",
                                     "abc",
                                     "abcd",
                                     "\"",
                                     "a\\",
                                     "\x01",
                                     "\x7f",
                                     "\xc3\xa9",
                                     "\xff",
                                     "a/",
                                     "/",
                                     "k\"k",
                                     "",
                                     "key5",
                                     "\t",
                                     "ab\xff",
                                     "abcdefghijklmnopqrstuvwxyz01234",   /* 31 */
                                     "abcdefghijklmnopqrstuvwxyz012345",  /* 32 */
                                     "abcdefghijklmnopqrstuvwxyz0123456", /* 33 */
                                     "abcdefghijklmnopqrstuvwxyz0123456789ABCDEF\"",
                                     "abcdefgh\\"};
  static const char *const strs[] = {"",
                                     "x",
                                     "value of z",
                                     "a\"b",
                                     "a/b",
                                     "\xc3\xa9t\xc3\xa9",
                                     "\xff",
                                     "\x1f",
                                     "abcdefghijklmnopqrstuvwxyz012345",
                                     "abcdefghijklmnopqrstuvwxyz0123456",
                                     NULL};
  static const uint32_t opts[] = {0,
                                  FJ_WRITE_PRETTY,
                                  FJ_WRITE_ESCAPE_SLASH,
                                  FJ_WRITE_ESCAPE_UNICODE,
                                  FJ_WRITE_NO_VALIDATE_UTF8,
                                  FJ_WRITE_REPLACE_INVALID_UTF8,
                                  FJ_WRITE_NONFINITE_AS_NULL};
  const size_t nkeys = sizeof keys / sizeof *keys, nstrs = sizeof strs / sizeof *strs;
  const size_t nopts = sizeof opts / sizeof *opts;
  fj_field_desc f[6];
  memset(f, 0, sizeof f);
  const fj_field_type types[6] = {FJ_FIELD_BOOL,   FJ_FIELD_INT32,  FJ_FIELD_INT64,
                                  FJ_FIELD_UINT64, FJ_FIELD_DOUBLE, FJ_FIELD_STRING};
  const size_t offs[6] = {offsetof(plain_rec, b),   offsetof(plain_rec, i32),
                          offsetof(plain_rec, i64), offsetof(plain_rec, u64),
                          offsetof(plain_rec, d),   offsetof(plain_rec, s)};
  for (int i = 0; i < 6; i++) {
    f[i].type = types[i];
    f[i].offset = offs[i];
    f[i].has_offset = FJ_NO_HAS_FLAG;
    f[i].flags = FJ_FIELD_REQUIRED;
  }
  fj_record_desc desc = {"Plain", sizeof(plain_rec), f, 6, -1, -1};
  plain_rec zero;
  memset(&zero, 0, sizeof zero);
  f[0].name = f[1].name = f[2].name = f[3].name = f[4].name = f[5].name = "k";
  EXPECT(fj_desc_write(NULL, &desc, &zero), FJ_ERR_INVALID_ARG); /* no writer: no crash */
  for (size_t v = 0; v < 12; v++) {
    plain_rec r;
    memset(&r, 0, sizeof r);
    static const int32_t i32s[] = {0, -1, INT32_MIN, INT32_MAX};
    static const int64_t i64s[] = {0,         -99999999,          99999999, 100000000,
                                   INT64_MIN, 9999999999999999LL, INT64_MAX};
    static const uint64_t u64s[] = {0, 9999999999999999ULL, 10000000000000000ULL, UINT64_MAX};
    const double ds[] = {0.5, -0.0, 1e300, 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, 123456.789};
    r.b = v & 1;
    r.i32 = i32s[v % 4];
    r.i64 = i64s[v % 7];
    r.u64 = u64s[(v / 2) % 4];
    r.d = ds[v % 7];
    for (size_t si = 0; si < nstrs; si++) {
      r.s.data = strs[si];
      r.s.len = strs[si] ? strlen(strs[si]) : 0;
      if (!strs[si] && v & 1) r.s.len = 3; /* no bytes but a length: refused */
      for (size_t k = 0; k < nkeys; k++) {
        for (int i = 0; i < 6; i++) {
          /* a different key each field; every second one with its length */
          f[i].name = keys[(k + (size_t)i * 5) % nkeys];
          f[i].name_len = (i + k) & 1 ? strlen(f[i].name) : 0;
          /* every third with a has-flag, set or not; required or not */
          size_t h = (k + (size_t)i) % 3 ? FJ_NO_HAS_FLAG
                                         : offsetof(plain_rec, has) + (size_t)i * sizeof(bool);
          f[i].has_offset = h;
          r.has[i] = (k + v + (size_t)i) % 4 != 0;
          static const uint32_t fl[3] = {FJ_FIELD_REQUIRED, 0,
                                         FJ_FIELD_REQUIRED | FJ_FIELD_NULLABLE};
          f[i].flags = fl[(k / 3 + (size_t)i) % 3];
        }
        for (size_t o = 0; o < nopts; o++)
          plain_compare(&desc, &r, opts[o], 512);
        /* windows too small at every point of the record */
        if (si == 2 && v < 3)
          for (size_t cap = 0; cap < 300; cap += 7)
            plain_compare(&desc, &r, 0, cap);
      }
    }
  }
}

/* Fields that are not scalars (an enum, a record, an array) have their key
 * written in line by fj_desc_write() and their value by the value's calls:
 * the bytes and errors of fj_writer_keyn() and those calls, an enum index
 * out of range included, under every writer option and window size. */
typedef struct inner_rec {
  int64_t x;
} inner_rec;
typedef struct mixed_rec {
  int level;
  inner_rec inner;
  struct {
    int32_t *items;
    size_t count;
  } nums;
} mixed_rec;

static fj_error mixed_by_calls(fj_writer *w, const fj_field_desc *f, const mixed_rec *r) {
  fj_error e;
  if ((e = fj_writer_begin_object(w))) return e;
  if ((e = fj_writer_keyn(w, f[0].name, strlen(f[0].name)))) return e;
  if (r->level < 0 || (size_t)r->level >= f[0].enum_count) return FJ_ERR_INVALID_ARG;
  if ((e = fj_writer_string(w, f[0].enum_values[r->level]))) return e;
  if ((e = fj_writer_keyn(w, f[1].name, strlen(f[1].name))) || (e = fj_writer_begin_object(w)) ||
      (e = fj_writer_member_int64(w, "x", 1, r->inner.x)) || (e = fj_writer_end_object(w)))
    return e;
  if ((e = fj_writer_keyn(w, f[2].name, strlen(f[2].name))) || (e = fj_writer_begin_array(w)))
    return e;
  for (size_t i = 0; i < r->nums.count; i++)
    if ((e = fj_writer_int64(w, r->nums.items[i]))) return e;
  if ((e = fj_writer_end_array(w))) return e;
  return fj_writer_end_object(w);
}

static void test_descriptor_inline_keys(void **state) {
  (void)state;
  static const char *const levels[] = {"low", "hi\"gh", "\xc3\xa9levated"};
  static const fj_field_desc inner_f[] = {{.name = "x",
                                           .offset = offsetof(inner_rec, x),
                                           .type = FJ_FIELD_INT64,
                                           .has_offset = FJ_NO_HAS_FLAG}};
  static const fj_record_desc inner_d = {"Inner", sizeof(inner_rec), inner_f, 1, -1, -1};
  static const char *const keys[] = {"level", "l", "a/b", "k\"", "\xc3\xa9", ""};
  fj_field_desc f[3];
  memset(f, 0, sizeof f);
  f[0].offset = offsetof(mixed_rec, level);
  f[0].type = FJ_FIELD_ENUM;
  f[0].enum_values = levels;
  f[0].enum_count = 3;
  f[1].offset = offsetof(mixed_rec, inner);
  f[1].type = FJ_FIELD_RECORD;
  f[1].record = &inner_d;
  f[2].offset = offsetof(mixed_rec, nums);
  f[2].type = FJ_FIELD_ARRAY;
  f[2].elem = FJ_FIELD_INT32;
  f[2].elem_size = sizeof(int32_t);
  for (int i = 0; i < 3; i++)
    f[i].has_offset = FJ_NO_HAS_FLAG;
  fj_record_desc desc = {"Mixed", sizeof(mixed_rec), f, 3, -1, -1};
  int32_t nums[3] = {1, -22, 333};
  static const uint32_t opts[] = {0, FJ_WRITE_PRETTY, FJ_WRITE_ESCAPE_SLASH,
                                  FJ_WRITE_ESCAPE_UNICODE};
  static char m1[256], m2[256];
  for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
    for (int level = -1; level <= 3; level++)
      for (size_t o = 0; o < sizeof opts / sizeof *opts; o++)
        for (size_t cap = 0; cap <= 256; cap += o ? 256 : 5) {
          for (int i = 0; i < 3; i++) {
            f[i].name = keys[(k + (size_t)i) % (sizeof keys / sizeof *keys)];
            f[i].name_len = strlen(f[i].name);
          }
          mixed_rec r = {level, {-7}, {nums, (size_t)(level & 3)}};
          memset(m1, 'x', sizeof m1);
          memset(m2, 'x', sizeof m2);
          fj_fixed_buffer b1 = {m1, cap, 0, 0}, b2 = {m2, cap, 0, 0};
          fj_writer_options wo = {opts[o], 0, 0, NULL};
          fj_writer *w1, *w2;
          OK(fj_writer_new(&w1, &wo, fj_sink_fixed(&b1)));
          OK(fj_writer_new(&w2, &wo, fj_sink_fixed(&b2)));
          fj_error e1 = mixed_by_calls(w1, f, &r);
          same_writes(w1, w2, e1, fj_desc_write(w2, &desc, &r), &b1, &b2);
        }
}

/* A recursive table read from input nested far deeper than the codecs
 * read, with the parser allowed any depth: FJ_ERR_DEPTH, not a stack
 * overflow. */
typedef struct tree_node {
  struct tree_node *child;
} tree_node;
static const fj_record_desc tree_desc;
static const fj_field_desc tree_fields[] = {{.name = "child",
                                             .offset = offsetof(tree_node, child),
                                             .type = FJ_FIELD_RECORD_PTR,
                                             .has_offset = FJ_NO_HAS_FLAG,
                                             .record = &tree_desc}};
static const fj_record_desc tree_desc = {"Tree", sizeof(tree_node), tree_fields, 1, -1, -1};

static void test_descriptor_depth(void **state) {
  (void)state;
  OK(fj_desc_check(&tree_desc, NULL));
  enum { DEEP = 50000 };
  char *json = malloc(DEEP * 10 + 4), *o = json;
  assert_non_null(json);
  for (int i = 0; i < DEEP; i++)
    o += sprintf(o, "{\"child\":");
  o += sprintf(o, "{}");
  for (int i = 0; i < DEEP; i++)
    *o++ = '}';
  fj_parser *p;
  fj_parser_options opt = {FJ_MAX_DEPTH, 0, NULL};
  OK(fj_parser_new(&p, &opt));
  for (size_t depth = FJ_DECODE_MAX_DEPTH - 1; depth <= FJ_DECODE_MAX_DEPTH + 1; depth++) {
    /* `depth` objects: the innermost {} at depth levels */
    size_t skip = DEEP + 1 - depth; /* outer wrappers left out */
    const char *doc = json + skip * 9;
    size_t n = (size_t)(o - json) - skip * 9 - skip;
    fj_arena a;
    fj_arena_init(&a, NULL);
    tree_node root;
    fj_decode_error e;
    fj_error r = fj_desc_read(p, doc, n, &a, 0, &tree_desc, &root, &e);
    if (depth <= FJ_DECODE_MAX_DEPTH)
      OK(r);
    else
      EXPECT(r, FJ_ERR_DEPTH);
    fj_arena_free(&a);
  }
  fj_arena a;
  fj_arena_init(&a, NULL);
  tree_node root;
  fj_decode_error e;
  EXPECT(fj_desc_read(p, json, (size_t)(o - json), &a, 0, &tree_desc, &root, &e), FJ_ERR_DEPTH);
  assert_non_null(strstr(e.message, "FJ_DECODE_MAX_DEPTH"));
  fj_arena_free(&a);
  fj_parser_free(p);
  free(json);
}

/* An array of FJ_FIELD_RECORD_PTR: fj_desc_read() never stores a NULL
 * element (null is not allowed there), so fj_desc_write() must not write
 * one either: a NULL element is refused, not written as null that the same
 * table then refuses to read back. */
typedef struct kid_node {
  int64_t v;
  struct {
    struct kid_node **items;
    size_t count;
  } kids;
} kid_node;
static const fj_record_desc kid_desc;
static const fj_field_desc kid_fields[] = {{.name = "v",
                                            .offset = offsetof(kid_node, v),
                                            .type = FJ_FIELD_INT64,
                                            .has_offset = FJ_NO_HAS_FLAG},
                                           {.name = "kids",
                                            .offset = offsetof(kid_node, kids),
                                            .type = FJ_FIELD_ARRAY,
                                            .has_offset = FJ_NO_HAS_FLAG,
                                            .record = &kid_desc,
                                            .elem = FJ_FIELD_RECORD_PTR,
                                            .elem_size = sizeof(kid_node *)}};
static const fj_record_desc kid_desc = {"Kid", sizeof(kid_node), kid_fields, 2, -1, -1};

static fj_error write_kid(const kid_node *n, fj_buffer *b) {
  fj_writer *w;
  OK(fj_writer_new(&w, NULL, fj_sink_buffer(b)));
  fj_error e = fj_desc_write(w, &kid_desc, n);
  if (!e) e = fj_writer_finish(w);
  fj_writer_free(w);
  return e;
}

static void test_descriptor_null_pointer_element(void **state) {
  (void)state;
  OK(fj_desc_check(&kid_desc, NULL));
  kid_node leaf = {7, {NULL, 0}}, *some[2] = {&leaf, &leaf}, *holes[2] = {&leaf, NULL};
  kid_node root = {1, {some, 2}};
  fj_buffer b = {0};
  OK(write_kid(&root, &b));
  const char *want = "{\"v\":1,\"kids\":[{\"v\":7,\"kids\":[]},{\"v\":7,\"kids\":[]}]}";
  assert_int_equal(b.len, strlen(want));
  assert_memory_equal(b.data, want, b.len);
  fj_buffer_free(&b);
  root.kids.items = holes;
  EXPECT(write_kid(&root, &b), FJ_ERR_INVALID_ARG);
  fj_buffer_free(&b);
  /* and the reader refuses the null that was written before */
  fj_arena a;
  fj_arena_init(&a, NULL);
  kid_node back;
  fj_decode_error e;
  const char *json = "{\"v\":1,\"kids\":[null]}";
  EXPECT(fj_desc_read(NULL, json, strlen(json), &a, 0, &kid_desc, &back, &e), FJ_ERR_WRONG_TYPE);
  fj_arena_free(&a);
}

/* Writes `T` value `in` with a writer that allows any depth; the result. */
#define WRITE_ANY_DEPTH(T, in, buf, result)                                                        \
  do {                                                                                             \
    fj_writer *w_;                                                                                 \
    OK(fj_writer_new(&w_, &(fj_writer_options){.max_depth = FJ_MAX_DEPTH}, fj_sink_buffer(buf)));  \
    (result) = fj_write_##T(w_, in);                                                               \
    if (!(result)) (result) = fj_writer_finish(w_);                                                \
    fj_writer_free(w_);                                                                            \
  } while (0)

/* `n` times `open`, then `inner`, then n '}' (malloc'd, NUL-terminated;
 * its length in *len): a value nested n levels deep. */
static char *nested_text(size_t n, const char *open, const char *inner, size_t *len) {
  size_t lo = strlen(open), li = strlen(inner);
  char *json = malloc(n * (lo + 1) + li + 1);
  assert_non_null(json);
  for (size_t i = 0; i < n; i++)
    memcpy(json + i * lo, open, lo);
  memcpy(json + n * lo, inner, li);
  memset(json + n * lo + li, '}', n);
  *len = n * (lo + 1) + li;
  json[*len] = '\0';
  return json;
}

/* Structs built by hand nest as deep as memory allows, and the struct
 * writers recurse once per level: they stop past FJ_DECODE_MAX_DEPTH with
 * FJ_ERR_DEPTH whatever the writer's max_depth (a million levels crashed),
 * and write every depth the readers accept. */
static void test_deep_write(void **state) {
  (void)state;
  enum { HUGE = 200000 };
  Tree *nodes = calloc(HUGE + 1, sizeof *nodes);
  assert_non_null(nodes);
  fj_parser *p;
  OK(fj_parser_new(&p, &(fj_parser_options){FJ_MAX_DEPTH, 0, NULL}));
  int outcomes[2] = {0, 0};
  const size_t depths[] = {FJ_DECODE_MAX_DEPTH - 2, FJ_DECODE_MAX_DEPTH - 1, FJ_DECODE_MAX_DEPTH,
                           FJ_DECODE_MAX_DEPTH + 1, HUGE};
  for (size_t k = 0; k < sizeof depths / sizeof *depths; k++) {
    size_t n = depths[k]; /* n "neg" levels around a number */
    for (size_t i = 0; i < n; i++)
      nodes[i] = (Tree){.kind = Tree_neg, .as.neg = &nodes[i + 1]};
    nodes[n] = (Tree){.kind = Tree_num, .as.num = 1};
    fj_buffer out = {0};
    fj_error written;
    WRITE_ANY_DEPTH(Tree, &nodes[0], &out, written);
    fj_arena a;
    fj_arena_init(&a, NULL);
    fj_decode_error err;
    Tree back;
    outcomes[written != FJ_OK]++;
    if (written == FJ_OK) { /* what is written reads back */
      OK(fj_read_Tree(p, out.data, out.len, &a, 0, &back, &err));
      assert_true(fj_equal_Tree(&back, &nodes[0]));
    } else {
      EXPECT(written, FJ_ERR_DEPTH);
      assert_true(n > FJ_DECODE_MAX_DEPTH - 2);
    }
    if (k + 1 < sizeof depths / sizeof *depths && written != FJ_OK) {
      /* what is refused is also what the reader refuses */
      size_t len;
      char *json = nested_text(n, "{\"neg\":", "{\"num\":1}", &len);
      EXPECT(fj_read_Tree(p, json, len, &a, 0, &back, &err), FJ_ERR_DEPTH);
      free(json);
    }
    fj_arena_free(&a);
    fj_buffer_free(&out);
  }
  assert_int_equal(outcomes[0], 2); /* 1022 and 1023 levels: written and read */
  assert_int_equal(outcomes[1], 3); /* 1024 on: refused by both */
  free(nodes);
  fj_parser_free(p);

  /* a union with the tag inside (expr_field): its variant records share
   * its object, so they take its depth, not one more: written exactly when
   * the reader accepts the same text */
  Expr *exprs = calloc(FJ_DECODE_MAX_DEPTH + 2, sizeof *exprs);
  assert_non_null(exprs);
  OK(fj_parser_new(&p, &(fj_parser_options){FJ_MAX_DEPTH, 0, NULL}));
  int expr_outcomes[2] = {0, 0};
  for (size_t n = FJ_DECODE_MAX_DEPTH - 2; n <= FJ_DECODE_MAX_DEPTH + 1; n++) {
    for (size_t i = 0; i < n; i++)
      exprs[i] = (Expr){.kind = Expr_neg, .as.neg = {.arg = &exprs[i + 1]}};
    exprs[n] = (Expr){.kind = Expr_num, .as.num = {.value = 1.5}};
    fj_buffer out = {0};
    fj_error written;
    WRITE_ANY_DEPTH(Expr, &exprs[0], &out, written);
    size_t len;
    char *json =
        nested_text(n, "{\"type\":\"neg\",\"arg\":", "{\"type\":\"num\",\"value\":1.5}", &len);
    fj_arena a;
    fj_arena_init(&a, NULL);
    fj_decode_error err;
    Expr back;
    fj_error read = fj_read_Expr(p, json, len, &a, 0, &back, &err);
    EXPECT(written, read);
    if (!written) assert_memory_equal(out.data, json, len);
    expr_outcomes[written != FJ_OK]++;
    free(json);
    fj_arena_free(&a);
    fj_buffer_free(&out);
  }
  assert_int_equal(expr_outcomes[0], 2);
  assert_int_equal(expr_outcomes[1], 2);
  free(exprs);
  fj_parser_free(p);

  /* arrays of arrays (a recursive array type) */
  Nest_array *arrays = calloc(HUGE + 1, sizeof *arrays);
  assert_non_null(arrays);
  for (size_t i = 0; i < HUGE; i++)
    arrays[i] = (Nest_array){.items = &arrays[i + 1], .count = 1};
  Deep deep = {.nest = arrays[0], .has_nest = true};
  fj_buffer out = {0};
  fj_error written;
  WRITE_ANY_DEPTH(Deep, &deep, &out, written);
  EXPECT(written, FJ_ERR_DEPTH);
  fj_buffer_free(&out);
  free(arrays);

  /* descriptor tables */
  tree_node *chain = calloc(HUGE + 1, sizeof *chain);
  assert_non_null(chain);
  for (size_t i = 0; i < HUGE; i++)
    chain[i].child = &chain[i + 1];
  fj_writer *w;
  OK(fj_writer_new(&w, &(fj_writer_options){.max_depth = FJ_MAX_DEPTH}, fj_sink_buffer(&out)));
  EXPECT(fj_desc_write(w, &tree_desc, &chain[0]), FJ_ERR_DEPTH);
  fj_writer_free(w);
  fj_buffer_free(&out);
  free(chain);
}

/* ---- the generator's schema errors ------------------------------------------------ */

/* Runs the shell command `cmd`; returns its exit status (-1 if it did not
 * exit), its output (cut to cap - 1 bytes) in out. */
static int run_cmd(const char *cmd, char *out, size_t cap) {
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  size_t n = fread(out, 1, cap - 1, p);
  out[n] = '\0';
  int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Runs fastjson-gen on `schema`; returns its exit status and its stderr in buf. */
static int generate_as(const char *schema, const char *name, char *buf, size_t cap) {
  char in[128], cmd[512];
  snprintf(in, sizeof in, "%s/schema.json", g_dir);
  FILE *f = fopen(in, "wb");
  assert_non_null(f);
  fputs(schema, f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "%s %s %s/%s 2>&1", FJ_GEN, in, g_dir, name);
  return run_cmd(cmd, buf, cap);
}

static int generate(const char *schema, char *buf, size_t cap) {
  return generate_as(schema, "gen_out", buf, cap);
}

/* Whether the generated header alone, and a main() after it, compiles with
 * compiler `cc` and `flags` (warnings are errors) as language `lang` ("c"
 * or "c++"); the compiler's messages in out. */
static bool header_compiles(const char *cc, const char *flags, const char *lang, char *out,
                            size_t cap) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd,
           "printf '#include \"gen_out.h\"\\nint main(void) { return 0; }\\n' | %s %s -Werror "
           "-fsyntax-only -I%s/include -I%s -x %s - 2>&1",
           cc, flags, FJ_SOURCE_DIR, g_dir, lang);
  return run_cmd(cmd, out, cap) == 0;
}

/* Fails unless the generated file `name` holds both texts (`what` names
 * them). */
static void expect_in_generated(const char *name, const char *a, const char *b, const char *what) {
  char path[128];
  snprintf(path, sizeof path, "%s/%s", g_dir, name);
  size_t hlen;
  char *h = slurp(path, &hlen);
  assert_non_null(h);
  if (!strstr(h, a) || !strstr(h, b)) fail_msg("%s are not %s and %s:\n%s", what, a, b, h);
  free(h);
}

/* Fails if a name in the generated file `name` (outside comments, strings
 * and the library's own fj__ names) holds "__" after its first byte. */
static void expect_no_double_underscore(const char *name, const char *schema) {
  char path[128];
  snprintf(path, sizeof path, "%s/%s", g_dir, name);
  size_t len;
  char *text = slurp(path, &len); /* ends in '\0' for strstr */
  assert_non_null(text);
  const unsigned char *t = (const unsigned char *)text;
  for (size_t i = 0; i < len;) {
    if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
      const char *end = strstr((const char *)t + i + 2, "*/");
      i = end ? (size_t)(end - (const char *)t) + 2 : len;
    } else if (t[i] == '"' || t[i] == '\'') {
      unsigned char q = t[i++];
      while (i < len && t[i] != q)
        i += t[i] == '\\' ? 2 : 1;
      i++;
    } else if (isalpha(t[i]) || t[i] == '_') {
      size_t start = i;
      while (i < len && (isalnum(t[i]) || t[i] == '_'))
        i++;
      const char *id = (const char *)t + start;
      size_t n = i - start;
      bool dbl = false; /* the compiler's __cplusplus and __attribute__ start so */
      for (size_t k = 1; k + 1 < n; k++)
        dbl |= id[k] == '_' && id[k + 1] == '_';
      if (dbl && strncmp(id, "fj__", 4) && strncmp(id, "__", 2))
        fail_msg("%s: %.*s in %s", schema, (int)n, id, name);
    } else {
      i++;
    }
  }
  free(text);
}

/* Schemas whose type names would clash (with each other, the library's,
 * a C header's, or a name the generated code uses) and shapes that read no
 * member: the output compiles warning-free (a redefinition of struct X or
 * fj_str, an unused `in`, before). */
static void test_generated_names_compile(void **state) {
  (void)state;
  static const char *const schemas[] = {
      "{\"title\": \"X\", \"type\": \"object\", \"properties\": {\"a\": {\"title\": \"X\", "
      "\"type\": \"object\", \"properties\": {\"b\": {\"type\": \"integer\"}}}}}",
      "{\"title\": \"R\", \"type\": \"object\", \"properties\": {\"a\": {\"title\": \"fj_str\", "
      "\"type\": \"object\"}, \"b\": {\"title\": \"FILE\", \"type\": \"object\"}, \"c\": "
      "{\"title\": \"_Bool\", \"type\": \"object\"}}}",
      "{\"title\": \"json\", \"type\": \"object\", \"properties\": {\"a\": {\"title\": \"e\", "
      "\"type\": \"object\", \"properties\": {\"s\": {\"type\": \"array\", \"items\": {\"title\": "
      "\"write_fj_string_array_rest\", \"type\": \"object\"}}}}}}",
      "{\"type\": \"object\"}",
      /* a definition that is only a $ref to a later one (named a type that
       * was never defined) */
      "{\"type\": \"object\", \"properties\": {\"a\": {\"$ref\": \"#/$defs/A\"}}, \"$defs\": "
      "{\"A\": {\"$ref\": \"#/$defs/B\"}, \"B\": {\"type\": \"string\"}}}",
      /* names the preprocessor would replace (standard headers' macros, gnu
       * mode's linux) or that C reserves (_Bool), as members and types */
      "{\"type\": \"object\", \"properties\": {\"EOF\": {\"type\": \"boolean\"}, \"linux\": "
      "{\"type\": \"boolean\"}, \"_Bool\": {\"type\": \"integer\"}, \"SIZE_MAX\": {\"type\": "
      "\"string\"}, \"SEEK_SET\": {\"title\": \"INT64_MAX\", \"type\": \"object\", "
      "\"properties\": {\"unix\": {\"type\": \"boolean\"}}}, \"BUFSIZ\": {\"title\": \"EOF\", "
      "\"type\": \"object\"}}}",
      "{\"type\": \"object\", \"properties\": {\"u\": {\"oneOf\": [{\"type\": \"object\", "
      "\"properties\": {\"k\": {\"const\": \"a\"}}, \"required\": [\"k\"]}, {\"type\": "
      "\"object\", \"properties\": {\"k\": {\"const\": \"b\"}}, \"required\": [\"k\"]}]}}}",
      /* constants that meet across types: enum ab_cd's "e" and enum ab's
       * "cd_e" (both ab_cd_e), union uu's tags "p-q" and "p_q" (one member
       * p_q, one constant uu_p_q) and the record type uu_p_q */
      "{\"type\": \"object\", \"properties\": {\"a\": {\"title\": \"ab_cd\", \"enum\": "
      "[\"e\"]}, \"b\": {\"title\": \"ab\", \"enum\": [\"cd_e\", \"cd-e\"]}, \"c\": "
      "{\"title\": \"uu\", \"oneOf\": [{\"type\": \"object\", \"properties\": {\"k\": "
      "{\"const\": \"p-q\"}}, \"required\": [\"k\"]}, {\"type\": \"object\", "
      "\"properties\": {\"k\": {\"const\": \"p_q\"}}, \"required\": [\"k\"]}]}, \"d\": "
      "{\"title\": \"uu_p_q\", \"type\": \"object\"}}}",
      /* type names that make one generated name with another's: union gg's
       * enum gg_kind and a type gg_kind; fj_read_aa_value (aa from a cursor)
       * and the bytes reader of a type aa_value */
      "{\"title\": \"R\", \"type\": \"object\", \"properties\": {\"u\": {\"title\": \"gg\", "
      "\"oneOf\": [{\"type\": \"object\", \"properties\": {\"t\": {\"const\": \"a\"}}, "
      "\"required\": [\"t\"]}, {\"type\": \"object\", \"properties\": {\"t\": {\"const\": "
      "\"b\"}}, \"required\": [\"t\"]}]}, \"e\": {\"title\": \"gg_kind\", \"enum\": [\"z\"]}, "
      "\"a\": {\"title\": \"aa\", \"type\": \"object\", \"properties\": {\"v\": {\"type\": "
      "\"integer\"}}}, \"b\": {\"title\": \"aa_value\", \"type\": \"object\", \"properties\": "
      "{\"w\": {\"type\": \"string\"}}}}}",
      /* definitions named as another type's containers (Item_array,
       * Item_map, Item_array_array: the structs were declared twice), and
       * one named main, which a caller's main() would clash with
       * (fresh-user trial) */
      "{\"title\": \"Doc\", \"type\": \"object\", \"properties\": {\"items\": {\"type\": "
      "\"array\", \"items\": {\"$ref\": \"#/$defs/Item\"}}, \"m\": {\"type\": \"object\", "
      "\"additionalProperties\": {\"$ref\": \"#/$defs/Item\"}}, \"aa\": {\"type\": \"array\", "
      "\"items\": {\"type\": \"array\", \"items\": {\"$ref\": \"#/$defs/Item\"}}}, \"o\": "
      "{\"$ref\": \"#/$defs/Item_array\"}, \"p\": {\"$ref\": \"#/$defs/Item_map\"}, \"q\": "
      "{\"$ref\": \"#/$defs/Item_array_array\"}, \"r\": {\"$ref\": \"#/$defs/main\"}}, "
      "\"$defs\": {\"Item\": {\"type\": \"object\", \"properties\": {\"x\": {\"type\": "
      "\"integer\"}}}, \"Item_array\": {\"type\": \"object\", \"properties\": {\"y\": "
      "{\"type\": \"integer\"}}}, \"Item_map\": {\"type\": \"object\"}, \"Item_array_array\": "
      "{\"type\": \"object\"}, \"main\": {\"type\": \"object\"}}}",
      /* titles twice that a number after would put in the library's
       * prefixes (fj_2, read_2, FJ_2): the generator looped for ever,
       * every such name being taken (codec trial) */
      "{\"title\": \"R\", \"type\": \"object\", \"properties\": {\"a\": {\"title\": \"fj\", "
      "\"type\": \"object\"}, \"b\": {\"title\": \"fj\", \"type\": \"object\"}, \"c\": "
      "{\"title\": \"read\", \"enum\": [\"x\"]}, \"d\": {\"title\": \"read\", \"type\": "
      "\"object\"}, \"e\": {\"title\": \"FJ\", \"type\": \"object\"}, \"f\": {\"title\": "
      "\"FJ\", \"type\": \"object\"}}}",
      /* C++'s keywords, as members and types (the header is also C++) */
      "{\"type\": \"object\", \"properties\": {\"class\": {\"type\": \"string\"}, \"new\": "
      "{\"type\": \"integer\"}, \"this\": {\"title\": \"template\", \"type\": \"object\", "
      "\"properties\": {\"delete\": {\"type\": \"boolean\"}}}, \"kids\": {\"type\": \"array\", "
      "\"items\": {\"$ref\": \"#\"}}}}",
      /* keys that are not C: empty, non-ASCII, a digit first, underscores
       * at the ends and in runs, a flag's name, keyword titles; C++
       * reserves any name with "__" (x__, has__1abc, Root__id before) */
      "{\"title\": \"_R_\", \"type\": \"object\", \"properties\": {\"\": {\"type\": "
      "\"integer\"}, \"\\u00e9\": {\"type\": \"string\"}, \"1abc\": {\"type\": \"boolean\"}, "
      "\"_id\": {\"type\": \"string\"}, \"id\": {\"type\": \"string\"}, \"has_id\": {\"type\": "
      "\"integer\"}, \"a..b\": {\"type\": \"integer\"}, \"__x__\": {\"type\": \"object\", "
      "\"properties\": {\"y__z\": {\"enum\": [\"int\", \"__\", \"_a_\", \"\\u00e9\", \"<=\"], "
      "\"type\": \"string\"}}}, "
      "\"u_\": {\"oneOf\": [{\"type\": \"object\", \"properties\": {\"k\": {\"const\": \"_c_\"}}, "
      "\"required\": [\"k\"]}, {\"type\": \"object\", \"properties\": {\"k\": {\"const\": "
      "\"class\"}}, \"required\": [\"k\"]}]}, \"l\": {\"type\": \"array\", \"items\": "
      "{\"title\": \"_int_\", \"type\": \"object\", \"properties\": {\"q\": {\"type\": "
      "\"integer\"}}}}}}",
      /* variants titled as plain names: the union's members take the
       * types' names, which C++ (-pedantic) refuses untagged */
      "{\"title\": \"Drawing\", \"type\": \"object\", \"properties\": {\"shape\": {\"title\": "
      "\"Shape\", \"oneOf\": [{\"title\": \"circle\", \"type\": \"object\", \"properties\": "
      "{\"type\": {\"const\": \"circle\"}, \"r\": {\"type\": \"number\"}}, \"required\": "
      "[\"type\"]}, {\"title\": \"square\", \"type\": \"object\", \"properties\": {\"type\": "
      "{\"const\": \"square\"}, \"s\": {\"type\": \"number\"}}, \"required\": [\"type\"]}]}}}",
      /* text that would end or open a C comment in the header's comments
       * (an enum value, a constant property, a union tag, the name); keys
       * without an ASCII letter or digit named by character as enum values
       * are ("\u00e9": sym, "\u00fc": sym_2; they were _ and _2) */
      "{\"title\": \"Cmt\", \"type\": \"object\", \"properties\": {\"x*/y\": {\"const\": "
      "\"a*/b\"}, \"e\": {\"enum\": [\"*/\", \"/*\"]}, \"\\u00e9\": {\"type\": \"integer\"}, "
      "\"\\u00fc\": {\"type\": \"boolean\"}, \"u\": {\"oneOf\": [{\"type\": \"object\", "
      "\"properties\": {\"k\": {\"const\": \"*/\"}}, \"required\": [\"k\"]}, {\"type\": "
      "\"object\", \"properties\": {\"k\": {\"const\": \"/*x\"}}, \"required\": [\"k\"]}]}}, "
      "\"required\": [\"x*/y\"]}",
      /* names the generated code has already (adversarial trial): the
       * container readers' locals as type names (a map of "values" records
       * compiled and read past its buffer: sizeof(values) was the local
       * pointer's), the tables of a type (Shadow_names), enum constants that
       * are the library's, a standard macro or a C++ keyword (fj_str,
       * UINT64_MAX, thread_local; no _2, _3 frees fj_..., so it gets E_), members
       * named as types later members use (C++), typeof (GNU C, C23);
       * defaults whose text C reads otherwise (too large an integer,
       * underflow, -2^63); a union tag key holding \u0000 */
      "{\"title\": \"Shadow\", \"type\": \"object\", \"properties\": {\"m\": {\"type\": \"objec"
      "t\", \"additionalProperties\": {\"$ref\": \"#/$defs/values\"}}, \"t\": {\"type\": \"obje"
      "ct\", \"additionalProperties\": {\"$ref\": \"#/$defs/total\"}}, \"a\": {\"type\": \"arra"
      "y\", \"items\": {\"type\": \"array\", \"items\": {\"$ref\": \"#/$defs/items\"}}}, \"c\":"
      " {\"type\": \"array\", \"items\": {\"type\": \"array\", \"items\": {\"$ref\": \"#/$defs/"
      "cap\"}}}, \"e\": {\"type\": \"array\", \"items\": {\"type\": \"array\", \"items\": {\"$r"
      "ef\": \"#/$defs/elem\"}}}, \"n\": {\"$ref\": \"#/$defs/Shadow_names\"}, \"s\": {\"$ref\""
      ": \"#/$defs/Shadow_slots\"}, \"k\": {\"title\": \"fj\", \"enum\": [\"str\", \"read_x\", "
      "\"OK\"]}, \"u\": {\"title\": \"uint64\", \"enum\": [\"t\", \"MAX\"]}, \"th\": {\"title\""
      ": \"thread\", \"enum\": [\"local\"]}, \"ev\": {\"title\": \"Ev\", \"enum\": [\"values\","
      " \"value_lens\"]}, \"fj_str\": {\"type\": \"string\"}, \"int64_t\": {\"type\": \"integer"
      "\", \"format\": \"int64\"}, \"later\": {\"type\": \"string\"}, \"typeof\": {\"type\": \""
      "boolean\"}, \"d1\": {\"type\": \"number\", \"default\": 123456789012345678901234567890},"
      " \"d2\": {\"type\": \"number\", \"default\": 1e-400}, \"d3\": {\"type\": \"integer\", \""
      "format\": \"int64\", \"default\": -9223372036854775808}, \"g\": {\"oneOf\": [{\"type\": "
      "\"object\", \"properties\": {\"k\\u0000x\": {\"const\": \"a\"}}, \"required\": [\"k\\u00"
      "00x\"]}, {\"type\": \"object\", \"properties\": {\"k\\u0000x\": {\"const\": \"b\"}}, \"r"
      "equired\": [\"k\\u0000x\"]}]}}, \"$defs\": {\"values\": {\"type\": \"object\", \"propert"
      "ies\": {\"q\": {\"type\": \"string\"}}}, \"total\": {\"type\": \"object\", \"properties"
      "\": {\"q\": {\"type\": \"string\"}}}, \"items\": {\"type\": \"object\", \"properties\": "
      "{\"q\": {\"type\": \"string\"}}}, \"cap\": {\"type\": \"object\", \"properties\": {\"q\""
      ": {\"type\": \"string\"}}}, \"elem\": {\"type\": \"object\", \"properties\": {\"q\": {\""
      "type\": \"string\"}}}, \"Shadow_names\": {\"type\": \"object\", \"properties\": {\"q\": "
      "{\"type\": \"string\"}}}, \"Shadow_slots\": {\"type\": \"object\", \"properties\": {\"q"
      "\": {\"type\": \"string\"}}}}}"};
  for (size_t i = 0; i < sizeof schemas / sizeof *schemas; i++) {
    char out[4096], cmd[1024];
    if (generate(schemas[i], out, sizeof out) != 0) fail_msg("%s: %s", schemas[i], out);
    expect_no_double_underscore("gen_out.h", schemas[i]);
    expect_no_double_underscore("gen_out.c", schemas[i]);
    /* enum values without a letter or digit are named by character: "é"
     * is one ("sym"; it was sym_sym, a byte each), "<=" two */
    if (strstr(schemas[i], "<="))
      expect_in_generated("gen_out.h", "_sym, /* \"\\303\\251\" */", "_lt_eq, /* \"<=\" */",
                          "the enum constants of \"\\u00e9\" and \"<=\"");
    if (strstr(schemas[i], "x*/y"))
      expect_in_generated("gen_out.h", "  int64_t sym;\n", "  bool sym_2;\n",
                          "the members of \"\\u00e9\" and \"\\u00fc\"");
    if (strstr(schemas[i], "Shadow_names")) {
      expect_in_generated("gen_out.h", "struct values_2 {", "struct total_2 {",
                          "the types named as the readers' locals");
      expect_in_generated("gen_out.c", "\"k\\000x\", 3", "1.2345678901234568e+29",
                          "the tag key with \\u0000 and the large default");
    }
    /* strict C11, and gnu11, which predefines linux and unix; declarations
     * first in every block (a caller's C90-style flag; the fresh-user trial
     * found containers' and unions' code mixing them) */
    for (int gnu = 0; gnu < 2; gnu++) {
      snprintf(cmd, sizeof cmd,
               "%s -std=%s -Wall -Wextra -Wdeclaration-after-statement -Werror -fsyntax-only "
               "-I%s/include %s/gen_out.c 2>&1",
               FJ_CC, gnu ? "gnu11" : "c11", FJ_SOURCE_DIR, g_dir);
      if (run_cmd(cmd, out, sizeof out) != 0) fail_msg("%s does not compile:\n%s", schemas[i], out);
    }
    /* the header alone under the strict warnings the library's own headers
     * pass (tests/CMakeLists.txt, headers_strict): its inline functions
     * compile in the caller's files */
    if (!header_compiles(
            FJ_CC,
            "-std=c11 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow "
            "-Wcast-qual -Wundef -Wstrict-prototypes -Wdeclaration-after-statement",
            "c", out, sizeof out))
      fail_msg("%s: the header fails strict C11:\n%s", schemas[i], out);
#ifdef FJ_CXX
    /* the header from C++ (its declarations in extern "C") */
    if (!header_compiles(FJ_CXX, "-std=c++11 -Wall -Wextra -Wpedantic", "c++", out, sizeof out))
      fail_msg("%s: the header is no C++:\n%s", schemas[i], out);
#endif
  }
}

/* Two generated headers in one file: the containers of primitives they
 * share (fj_double_array, and fj_double_array_array, which was declared by
 * both: fresh-user trial) are guarded. */
static void test_two_generated_headers(void **state) {
  (void)state;
  static const char *const containers =
      "\"type\": \"object\", \"properties\": {\"m\": {\"type\": \"array\", \"items\": "
      "{\"type\": \"array\", \"items\": {\"type\": \"number\"}}}, \"s\": {\"type\": "
      "\"object\", \"additionalProperties\": {\"type\": \"array\", \"items\": {\"type\": "
      "\"string\"}}}}}";
  char schema[1024], out[4096], cmd[1024];
  snprintf(schema, sizeof schema, "{\"title\": \"Alpha\", %s", containers);
  if (generate_as(schema, "gen_alpha", out, sizeof out)) fail_msg("%s: %s", schema, out);
  snprintf(schema, sizeof schema, "{\"title\": \"Beta\", %s", containers);
  if (generate_as(schema, "gen_beta", out, sizeof out)) fail_msg("%s: %s", schema, out);
  snprintf(cmd, sizeof cmd,
           "printf '#include \"gen_alpha.h\"\\n#include \"gen_beta.h\"\\nAlpha a; Beta b;\\n' | "
           "%s -std=c11 -Wall -Wextra -Werror -fsyntax-only -I%s/include -I%s -x c - 2>&1",
           FJ_CC, FJ_SOURCE_DIR, g_dir);
  if (run_cmd(cmd, out, sizeof out) != 0) fail_msg("two generated headers clash:\n%s", out);
}

/* Two generated headers of one file name in two folders (g1/codec.h,
 * g2/codec.h) included in one file: their include guards were both
 * FJ_GEN_CODEC_H, so the second was silently skipped ("unknown type name
 * 'Beta'": codec trial). */
static void test_headers_of_one_name(void **state) {
  (void)state;
  static const char *const schemas[][2] = {
      {"g1", "{\"title\": \"Alpha\", \"type\": \"object\", \"properties\": {\"a\": "
             "{\"type\": \"integer\"}}}"},
      {"g2", "{\"title\": \"Beta\", \"type\": \"object\", \"properties\": {\"b\": "
             "{\"type\": \"integer\"}}}"}};
  char out[4096], cmd[1024], name[64];
  for (size_t i = 0; i < 2; i++) {
    snprintf(cmd, sizeof cmd, "mkdir -p %s/%s", g_dir, schemas[i][0]);
    assert_int_equal(run_cmd(cmd, out, sizeof out), 0);
    snprintf(name, sizeof name, "%s/codec", schemas[i][0]);
    if (generate_as(schemas[i][1], name, out, sizeof out)) fail_msg("%s: %s", schemas[i][1], out);
  }
  snprintf(cmd, sizeof cmd,
           "printf '#include \"g1/codec.h\"\\n#include \"g2/codec.h\"\\nAlpha a; Beta b;\\n' | "
           "%s -std=c11 -Wall -Wextra -Werror -fsyntax-only -I%s/include -I%s -x c - 2>&1",
           FJ_CC, FJ_SOURCE_DIR, g_dir);
  if (run_cmd(cmd, out, sizeof out) != 0) fail_msg("g1/codec.h and g2/codec.h clash:\n%s", out);
}

/* A record of 300 properties: the writers' pre-quoted keys (over 4095
 * bytes, the longest string literal -Wpedantic allows) still compile
 * (adversarial trial: they were one literal). */
static void test_many_properties_pedantic(void **state) {
  (void)state;
  size_t cap = 64 + 300 * 48;
  char *schema = malloc(cap), out[4096], cmd[1024];
  assert_non_null(schema);
  size_t n = (size_t)snprintf(schema, cap,
                              "{\"title\": \"Many\", \"type\": \"object\", "
                              "\"properties\": {");
  for (int i = 0; i < 300; i++)
    n += (size_t)snprintf(schema + n, cap - n, "%s\"property_%04d\": {\"type\": \"string\"}",
                          i ? ", " : "", i);
  snprintf(schema + n, cap - n, "}}");
  if (generate(schema, out, sizeof out)) fail_msg("%s", out);
  free(schema);
  snprintf(cmd, sizeof cmd,
           "%s -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I%s/include %s/gen_out.c "
           "2>&1",
           FJ_CC, FJ_SOURCE_DIR, g_dir);
  if (run_cmd(cmd, out, sizeof out) != 0) fail_msg("300 properties do not compile:\n%s", out);
}

/* Enums no member, element or variant is of ($defs that nothing
 * references) get no value tables: unused static tables broke -Werror
 * builds (-Wunused-const-variable). Compiled to an object file, not
 * -fsyntax-only, under which gcc does not warn of them. A root that is an
 * enum, or a schema with no type and no $defs, is refused: both gave empty
 * files and exit status 0. */
static void test_unreferenced_enum_compiles(void **state) {
  (void)state;
  const char *schema =
      "{\"title\": \"Root\", \"type\": \"object\", \"properties\": {\"a\": {\"type\": "
      "\"integer\"}, \"used\": {\"$ref\": \"#/$defs/Used\"}}, \"$defs\": {\"Color\": {\"enum\": "
      "[\"red\", \"green\"]}, \"Used\": {\"enum\": [\"x\", \"y\"]}}}";
  char out[4096], cmd[1024];
  if (generate(schema, out, sizeof out)) fail_msg("%s: %s", schema, out);
  snprintf(cmd, sizeof cmd,
           "%s -std=c11 -Wall -Wextra -Werror -c -o %s/gen_out.o -I%s/include %s/gen_out.c 2>&1",
           FJ_CC, g_dir, FJ_SOURCE_DIR, g_dir);
  if (run_cmd(cmd, out, sizeof out) != 0) fail_msg("%s does not compile:\n%s", schema, out);
  expect_in_generated("gen_out.c", "Used_values", "Used_value_lens", "the used enum's tables");
  static const struct {
    const char *schema, *message;
  } refused[] = {
      {"{\"title\": \"Shade\", \"enum\": [\"light\", \"dark\"]}",
       "the root must be an object or a oneOf"},
      {"{\"title\": \"T\"}", "nothing to generate"},
  };
  for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
    if (!generate(refused[i].schema, out, sizeof out))
      fail_msg("%s was accepted", refused[i].schema);
    if (!strstr(out, refused[i].message)) fail_msg("%s: %s", refused[i].schema, out);
  }
}

/* Whether this test runs under AddressSanitizer (gcc defines
 * __SANITIZE_ADDRESS__; clang 14 only answers __has_feature). */
#if defined(__SANITIZE_ADDRESS__)
#define FJ_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FJ_TEST_ASAN 1
#endif
#endif
#ifndef FJ_TEST_ASAN
#define FJ_TEST_ASAN 0
#endif

/* Runs fastjson-gen on `schema` in at most 1 GiB of address space (not
 * under AddressSanitizer, whose shadow memory alone is more); its exit
 * status, its messages in buf. */
static int generate_bounded(const char *schema, char *buf, size_t cap) {
  char in[128], cmd[512];
  snprintf(in, sizeof in, "%s/schema.json", g_dir);
  FILE *f = fopen(in, "wb");
  assert_non_null(f);
  fputs(schema, f);
  fclose(f);
  const char *limit = FJ_TEST_ASAN ? "" : "ulimit -v 1048576 && ";
  snprintf(cmd, sizeof cmd, "(%s%s %s %s/gen_big) 2>&1", limit, FJ_GEN, in, g_dir);
  return run_cmd(cmd, buf, cap);
}

/* A schema of `n` boolean properties p0, p1, ..., and an examples array of
 * `n` numbers in a property "x". */
static char *wide_schema(size_t n) {
  size_t cap = 64 + n * 40, len = 0;
  char *s = malloc(cap);
  assert_non_null(s);
  len += (size_t)snprintf(s + len, cap - len,
                          "{\"type\": \"object\", \"properties\": {\"x\": "
                          "{\"type\": \"integer\", \"examples\": [0");
  for (size_t i = 1; i < n; i++)
    len += (size_t)snprintf(s + len, cap - len, ",%zu", i);
  len += (size_t)snprintf(s + len, cap - len, "]}");
  for (size_t i = 0; i < n; i++)
    len += (size_t)snprintf(s + len, cap - len, ", \"p%zu\": {\"type\": \"boolean\"}", i);
  snprintf(s + len, cap - len, "}}");
  return s;
}

/* The generator's memory is linear in the schema: arrays grown one element
 * at a time in an arena that frees nothing, and lists searched from the
 * start per key, took 1.5 GB for a 20,000-number examples array and 1.3 GB
 * and 7 s for 8,000 properties (codec trial). */
static void test_generator_large_schemas(void **state) {
  (void)state;
  char buf[1024];
  char *schema = wide_schema(20000);
  if (generate_bounded(schema, buf, sizeof buf) != 0) fail_msg("20000 properties: %s", buf);
  free(schema);
  expect_in_generated("gen_big.h", "  bool p19999;\n", "  bool has_p19999;", "the last members");
  /* past the library's limit: the error, not the memory, runs out first */
  schema = wide_schema(70000);
  assert_int_equal(generate_bounded(schema, buf, sizeof buf), 1);
  free(schema);
  if (!strstr(buf, "(root): more than 65534 properties")) fail_msg("%s", buf);
}

static void test_generator_errors(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"{\"type\": \"object\", \"properties\": {\"qty\": {\"type\": \"integer\", \"minimum\": 0}}}",
       "/properties/qty/minimum: unsupported keyword \"minimum\""},
      {"{\"type\": \"object\", \"patternProperties\": {}}",
       "/patternProperties: unsupported keyword \"patternProperties\""},
      {"{\"$defs\": {\"A\": {\"type\": \"array\", \"items\": {\"anyOf\": []}}}}",
       "/$defs/A/items/anyOf: unsupported keyword \"anyOf\""},
      {"{\"type\": \"string\", \"format\": \"date-time\"}",
       "/format: \"format\" is supported on integers only"},
      {"{\"type\": \"integer\", \"format\": \"int8\"}", "/format: unsupported format \"int8\""},
      {"{\"type\": \"object\", \"properties\": {\"a/b\": {\"$ref\": \"#/$defs/Nope\"}}}",
       "/properties/a~1b/$ref: $ref \"#/$defs/Nope\": no such definition"},
      {"{\"type\": \"object\", \"properties\": {}, \"required\": [\"x\"]}",
       "/required/0: required property is not in \"properties\""},
      {"{\"oneOf\": [{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}, "
       "\"b\": {\"type\": \"string\"}}}]}",
       "/oneOf/0: cannot tell the union's wire shape"},
      /* single-key variants that allow other keys ("additionalProperties"
       * absent): {"r": 1, "x": 2} is a valid Circle, which the single-key
       * union form would refuse (fresh-user trial: the records were
       * silently made a single-key union) */
      {"{\"oneOf\": [{\"type\": \"object\", \"properties\": {\"r\": {\"type\": \"number\"}}, "
       "\"required\": [\"r\"], \"additionalProperties\": false}, {\"type\": \"object\", "
       "\"properties\": {\"t\": {\"type\": \"string\"}}, \"required\": [\"t\"]}]}",
       "/oneOf/1: cannot tell the union's wire shape"},
      /* a constant has no C type of its own to hold in an array or map
       * (the generated code declared none: adversarial trial) */
      {"{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"array\", \"items\": "
       "{\"const\": \"z\"}}}}",
       "/properties/a/items: \"const\" is supported on properties only"},
      {"{\"type\": [\"string\", \"integer\"]}",
       "/type: a union of types other than [T, \"null\"] is not supported"},
      {"{\"type\": \"object\", \"properties\": {\"n\": {\"type\": \"integer\", \"format\": "
       "\"int32\", \"default\": 2147483648}}}",
       "/properties/n/default: default out of range"},
      {"{\"type\": \"object\", \"properties\": {\"n\": {\"type\": \"integer\"}",
       "schema.json:1:59: the document ends before its value is complete (open brackets, or cut "
       "off) "
       "(FJ_ERR_TRUNCATED, byte 58)"},
      /* the root's own type must be a struct for "#" to name it (was broken C) */
      {"{\"type\": \"array\", \"items\": {\"$ref\": \"#\"}}",
       "/items/$ref: \"$ref\": \"#\" needs a root that is an object or a oneOf"},
      /* a root that is no struct would get no reader at all (was silent) */
      {"{\"type\": \"array\", \"items\": {\"type\": \"string\"}}",
       "(root): the root must be an object or a oneOf"},
      {"{\"type\": \"object\", \"additionalProperties\": {\"type\": \"integer\"}}",
       "(root): the root must be an object with properties or a oneOf: an object of "
       "additionalProperties alone is a map"},
      {"{\"$ref\": \"#/$defs/A\", \"$defs\": {\"A\": {\"type\": \"object\", "
       "\"properties\": {\"a\": {\"$ref\": \"#\"}}}}}",
       "/$defs/A/properties/a/$ref: \"$ref\": \"#\" needs a root"},
      /* definitions that are only $refs to each other: no type (was C
       * naming a type never defined, with exit status 0) */
      {"{\"type\": \"object\", \"properties\": {\"a\": {\"$ref\": \"#/$defs/A\"}}, "
       "\"$defs\": {\"A\": {\"$ref\": \"#/$defs/A\"}}}",
       "/$defs/A: a cycle of definitions that are only a $ref to each other"},
      {"{\"type\": \"object\", \"properties\": {\"a\": {\"$ref\": \"#/$defs/A\"}}, "
       "\"$defs\": {\"A\": {\"$ref\": \"#/$defs/B\"}, \"B\": {\"$ref\": \"#/$defs/A\"}}}",
       "a cycle of definitions that are only a $ref to each other"},
      /* the policy extensions act on records only: on a map, a scalar, an
       * array or next to $ref they did nothing (exit 0; codec trial) */
      {"{\"type\": \"object\", \"properties\": {\"m\": {\"type\": \"object\", "
       "\"additionalProperties\": {\"type\": \"integer\"}, \"x-fastjson-duplicates\": "
       "\"last-wins\"}}}",
       "/properties/m/x-fastjson-duplicates: is supported on a record's own schema only"},
      {"{\"type\": \"object\", \"properties\": {\"n\": {\"type\": \"integer\", "
       "\"x-fastjson-unknown-fields\": \"error\"}}}",
       "/properties/n/x-fastjson-unknown-fields: is supported on a record's own schema only"},
      {"{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"array\", \"items\": "
       "{\"type\": \"string\"}, \"x-fastjson-duplicates\": \"error\"}}}",
       "/properties/a/x-fastjson-duplicates: is supported on a record's own schema only"},
      {"{\"type\": \"object\", \"properties\": {\"a\": {\"$ref\": \"#\", "
       "\"x-fastjson-unknown-fields\": \"skip\"}}}",
       "/properties/a/x-fastjson-unknown-fields: is supported on a record's own schema only"},
      /* schemas whose words would be silently ignored or contradict each
       * other (codec trial: accepted without a word) */
      {"{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}}, "
       "\"required\": [\"a\", \"a\"]}",
       "/required/1: \"a\" is listed twice"},
      {"{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\", \"default\": "
       "\"x\"}}, \"required\": [\"a\"]}",
       "/properties/a/default: a required property never takes its default"},
      {"{\"type\": \"object\", \"properties\": {}, \"additionalProperties\": true, "
       "\"x-fastjson-unknown-fields\": \"error\"}",
       "/x-fastjson-unknown-fields: contradicts \"additionalProperties\": true"},
      /* a key twice: two members, whose output the reader refused */
      {"{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}, \"a\": "
       "{\"type\": \"string\"}}}",
       "/properties/a: the key \"a\" appears twice in this object"},
      /* keywords that do not apply to the schema's type: read by nothing,
       * they were ignored, exit 0 (codec trial) */
      {"{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"object\", \"properties\": "
       "{\"z\": {\"type\": \"integer\"}}, \"oneOf\": [{\"type\": \"object\", \"properties\": "
       "{\"k\": {\"const\": \"a\"}}, \"required\": [\"k\"]}, {\"type\": \"object\", "
       "\"properties\": {\"k\": {\"const\": \"b\"}}, \"required\": [\"k\"]}]}}}",
       "/properties/a/properties: \"properties\" does not apply to a oneOf"},
      {"{\"type\": \"object\", \"properties\": {\"m\": {\"type\": \"object\", "
       "\"additionalProperties\": {\"type\": \"integer\"}, \"required\": [\"x\"]}}}",
       "/properties/m/required: \"required\" does not apply to a map"},
      {"{\"type\": \"object\", \"properties\": {\"s\": {\"type\": \"string\", \"items\": "
       "{\"type\": \"integer\"}}}}",
       "/properties/s/items: \"items\" does not apply to a value of type \"string\""},
      {"{\"type\": \"object\", \"properties\": {\"s\": {\"type\": \"integer\", "
       "\"properties\": {}}}}",
       "/properties/s/properties: \"properties\" does not apply to a value of type \"integer\""},
      {"{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"array\", \"items\": "
       "{\"type\": \"string\"}, \"additionalProperties\": false}}}",
       "/properties/a/additionalProperties: \"additionalProperties\" does not apply to an array"},
      {"{\"type\": \"object\", \"properties\": {\"e\": {\"enum\": [\"x\"], \"required\": "
       "[]}}}",
       "/properties/e/required: \"required\" does not apply to an enum"},
      {"{\"type\": \"object\", \"items\": {\"type\": \"string\"}, \"properties\": {}}",
       "/items: \"items\" does not apply to an object"},
      /* a const has no member to say "null": {"c": null} was read, and
       * written back as "x" (codec trial) */
      {"{\"type\": \"object\", \"properties\": {\"c\": {\"type\": [\"string\", \"null\"], "
       "\"const\": \"x\"}}}",
       "/properties/c/const: a nullable const is not supported"},
      /* "$ref" is a URI fragment holding a JSON Pointer (RFC 6901): "/"
       * separates tokens, '~' starts an escape, '%' a URI escape (all were
       * matched as raw text: codec trial) */
      {"{\"type\": \"object\", \"properties\": {\"b\": {\"$ref\": \"#/$defs/a/b\"}}, "
       "\"$defs\": {\"a/b\": {\"type\": \"integer\"}}}",
       "/properties/b/$ref: $ref \"#/$defs/a/b\": a pointer into a definition is not supported"},
      {"{\"type\": \"object\", \"properties\": {\"b\": {\"$ref\": \"#/$defs/a~b\"}}, "
       "\"$defs\": {\"a~b\": {\"type\": \"integer\"}}}",
       "/properties/b/$ref: $ref \"#/$defs/a~b\": '~' is not followed by 0 or 1"},
      {"{\"type\": \"object\", \"properties\": {\"b\": {\"$ref\": \"#/$defs/A\"}}, "
       "\"$defs\": {\"A\": {\"$ref\": \"#/$defs/a%zb\"}, \"a%zb\": {\"type\": \"integer\"}}}",
       "/$defs/A/$ref: $ref \"#/$defs/a%zb\": '%' is not followed by two hex digits"},
      /* a default no double holds (was +inf, which the writer refuses) */
      {"{\"type\": \"object\", \"properties\": {\"x\": {\"type\": \"number\", \"default\": "
       "-1e400}}}",
       "/properties/x/default: default out of range for a double"}};
  char buf[1024];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    assert_int_equal(generate(cases[i][0], buf, sizeof buf), 1);
    if (!strstr(buf, cases[i][1])) fail_msg("case %zu: \"%s\" not in \"%s\"", i, cases[i][1], buf);
  }
  assert_int_equal(generate("{\"type\": \"object\", \"title\": \"T\", \"description\": \"d\", "
                            "\"$comment\": \"c\", \"properties\": {}}",
                            buf, sizeof buf),
                   0);
  /* escaped names: b and c name "a/b" (not "a~1b"), d "a%b", e "a~1" */
  assert_int_equal(
      generate("{\"title\": \"A\", \"type\": \"object\", \"properties\": {\"b\": "
               "{\"$ref\": \"#/$defs/a~1b\"}, \"c\": {\"$ref\": \"#/%24defs/a~1b\"}, \"d\": "
               "{\"$ref\": \"#/$defs/a%25b\"}, \"e\": {\"$ref\": \"#/$defs/a~01\"}}, \"$defs\": "
               "{\"a~1b\": {\"type\": \"object\", \"properties\": {\"q\": {\"type\": "
               "\"integer\"}}}, \"a/b\": {\"type\": \"object\", \"properties\": {\"r\": "
               "{\"type\": \"string\"}}}, \"a%b\": {\"type\": \"integer\"}, \"a~1\": "
               "{\"type\": \"string\"}}}",
               buf, sizeof buf),
      0);
  expect_in_generated("gen_out.h", "  a_b b;\n", "  a_b c;\n", "the members of \"#/$defs/a~1b\"");
  expect_in_generated("gen_out.h", "  int64_t d;\n", "  fj_str e;\n",
                      "the members of \"#/$defs/a%25b\" and \"#/$defs/a~01\"");
  /* null is every nullable field's default already; a non-nullable one
   * still refuses it */
  assert_int_equal(generate("{\"type\": \"object\", \"properties\": {\"s\": {\"type\": "
                            "[\"string\", \"null\"], \"default\": null}}}",
                            buf, sizeof buf),
                   0);
  assert_int_equal(generate("{\"type\": \"object\", \"properties\": {\"s\": {\"type\": "
                            "\"string\", \"default\": null}}}",
                            buf, sizeof buf),
                   1);
  assert_non_null(strstr(buf, "/properties/s/default: default must be a string"));
  /* an output name #include "..." cannot hold is a usage error (exit 2),
   * not a .c file that does not compile (adversarial trial) */
  assert_int_equal(generate_as("{\"type\": \"object\"}", "'o\"ut'", buf, sizeof buf), 2);
  assert_non_null(strstr(buf, "#include"));
  /* an OUT_BASE with no file name (a folder's, or none) is a usage error:
   * it wrote the hidden files .h and .c (codec trial) */
  char cmd[512], want[512];
  assert_int_equal(generate_as("{\"type\": \"object\"}", "", buf, sizeof buf), 2);
  assert_string_equal(buf,
                      "fastjson-gen: OUT_BASE has no file name (it ends in '/' or is empty)\n");
  snprintf(want, sizeof want, "%s/.h", g_dir);
  assert_int_equal(access(want, F_OK), -1);
  snprintf(cmd, sizeof cmd, "%s %s/schema.json '' 2>&1", FJ_GEN, g_dir);
  assert_int_equal(run_cmd(cmd, buf, sizeof buf), 2);
  assert_string_equal(buf,
                      "fastjson-gen: OUT_BASE has no file name (it ends in '/' or is empty)\n");
  /* a folder as SCHEMA cannot be read: an I/O error (exit 3), as the
   * fastjson command says, not a schema error "document is empty" (exit 1) */
  snprintf(cmd, sizeof cmd, "%s %s %s/gen_out 2>&1", FJ_GEN, g_dir, g_dir);
  assert_int_equal(run_cmd(cmd, buf, sizeof buf), 3);
  snprintf(want, sizeof want, "fastjson-gen: cannot read %s: %s\n", g_dir, strerror(EISDIR));
  assert_string_equal(buf, want);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_models_round_trip_and_match_python),
      cmocka_unit_test(test_model_values),
      cmocka_unit_test(test_policy_values),
      cmocka_unit_test(test_policy_errors),
      cmocka_unit_test(test_required_nullable_writes_null),
      cmocka_unit_test(test_enum_out_of_range_is_refused),
      cmocka_unit_test(test_union_discriminator_field),
      cmocka_unit_test(test_union_nested_discriminator),
      cmocka_unit_test(test_deep_recursion),
      cmocka_unit_test(test_million_brackets),
      cmocka_unit_test(test_arena),
      cmocka_unit_test(test_failed_element_is_zeroed),
      cmocka_unit_test(test_failed_parse_zeroes_out),
      cmocka_unit_test(test_map_duplicate_keys_not_written),
      cmocka_unit_test(test_map_keys_as_replaced),
      cmocka_unit_test(test_string_copies),
      cmocka_unit_test(test_wide_record_defaults),
      cmocka_unit_test(test_doubles_vs_strtod),
      cmocka_unit_test(test_decode_alloc_zeroed),
      cmocka_unit_test(test_decode_bad_arguments),
      cmocka_unit_test(test_generated_null_arguments),
      cmocka_unit_test(test_desc_read_unknown_flags),
      cmocka_unit_test(test_reused_parser),
      cmocka_unit_test(test_two_generated_headers),
      cmocka_unit_test(test_headers_of_one_name),
      cmocka_unit_test(test_many_properties_pedantic),
      cmocka_unit_test(test_unreferenced_enum_compiles),
      cmocka_unit_test(test_generator_errors),
      cmocka_unit_test(test_generator_large_schemas),
      cmocka_unit_test(test_descriptors_match_generated),
      cmocka_unit_test(test_descriptors_name_len),
      cmocka_unit_test(test_descriptor_checks),
      cmocka_unit_test(test_descriptor_plain_fields),
      cmocka_unit_test(test_descriptor_inline_keys),
      cmocka_unit_test(test_descriptor_depth),
      cmocka_unit_test(test_descriptor_null_pointer_element),
      cmocka_unit_test(test_deep_write),
      cmocka_unit_test(test_generated_names_compile),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
