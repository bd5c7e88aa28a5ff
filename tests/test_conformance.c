/* JSONTestSuite (nst/JSONTestSuite, test_parsing/): every y_ file must be
 * accepted, every n_ file rejected, and each i_ file validated as the
 * README's conformance table says. The file name is the oracle. Accepted
 * files are also walked with the cursor, reading every scalar, which must
 * succeed too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "fastjson.h"
#include "test_util.h"

#define SUITE FJ_DATA_DIR "/conformance/JSONTestSuite/test_parsing"

/* Reads every value with the cursor; returns the first error. */
static fj_error walk(fj_value *v) {
  fj_type t;
  fj_error err = fj_value_get_type(v, &t);
  if (err) return err;
  assert_int_equal(fj_value_type(v), t); /* the handle's copy of the type */
  if (t == FJ_TYPE_ARRAY) {
    fj_array a;
    fj_value el;
    if ((err = fj_value_get_array(v, &a))) return err;
    while ((err = fj_array_next(&a, &el)) == FJ_OK)
      if ((err = walk(&el))) return err;
    return err == FJ_END ? FJ_OK : err;
  }
  if (t == FJ_TYPE_OBJECT) {
    fj_object o;
    fj_value k, val;
    const char *s;
    size_t n;
    if ((err = fj_value_get_object(v, &o))) return err;
    while ((err = fj_object_next(&o, &k, &val)) == FJ_OK) {
      assert_int_equal(fj_value_type(&k), FJ_TYPE_STRING);
      if ((err = fj_value_get_string(&k, &s, &n)) || (err = walk(&val))) return err;
    }
    return err == FJ_END ? FJ_OK : err;
  }
  if (t == FJ_TYPE_STRING) {
    const char *s;
    size_t n;
    return fj_value_get_string(v, &s, &n);
  }
  if (t == FJ_TYPE_NUMBER) {
    double d;
    return fj_value_get_double(v, &d);
  }
  if (t == FJ_TYPE_BOOL) {
    bool b;
    return fj_value_get_bool(v, &b);
  }
  bool isnull;
  return fj_value_is_null(v, &isnull);
}

/* What the README's table says validation gives for an i_ file. */
static fj_error readme_says(const char *name) {
  if (!strncmp(name, "i_number_", 9) || !strcmp(name, "i_structure_500_nested_arrays.json"))
    return FJ_OK; /* valid grammar */
  if (!strcmp(name, "i_structure_UTF-8_BOM_empty_object.json")) return FJ_ERR_BOM;
  if (strstr(name, "_no_BOM"))
    return FJ_ERR_EXPECTED_VALUE; /* UTF-16: a NUL where a value is due */
  if (strstr(name, "surrogate") && !strstr(name, "UTF8_surrogate")) return FJ_ERR_BAD_SURROGATE;
  return FJ_ERR_UTF8; /* invalid UTF-8, UTF-16 with a BOM */
}

static void run_prefix(char prefix) {
  size_t count, checked = 0, failures = 0;
  char **names = fj_test_list_dir(SUITE, ".json", &count);
  if (!names) skip();
  fj_parser *p;
  assert_int_equal(fj_parser_new(&p, NULL), FJ_OK);
  for (size_t i = 0; i < count; i++) {
    if (names[i][0] != prefix) continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", SUITE, names[i]);
    size_t len;
    unsigned char *buf = fj_test_read_file(path, &len);
    assert_non_null(buf);
    fj_error err = fj_parser_validate(p, buf, len);
    checked++;
    if (prefix == 'y') {
      fj_value root;
      fj_error werr = fj_parser_parse(p, buf, len, &root);
      if (!werr) werr = walk(&root);
      if (err || werr) {
        printf("REJECTED %s: %s / walk %s\n", names[i], fj_error_name(err), fj_error_name(werr));
        failures++;
      }
    } else if (prefix == 'n' && err == FJ_OK) {
      printf("ACCEPTED %s\n", names[i]);
      failures++;
    } else if (prefix == 'i' && err != readme_says(names[i])) {
      printf("%s: %s, the README says %s\n", names[i], fj_error_name(err),
             fj_error_name(readme_says(names[i])));
      failures++;
    }
    free(buf);
  }
  fj_parser_free(p);
  fj_test_free_list(names, count);
  printf("%c_ files checked: %zu, failures: %zu\n", prefix, checked, failures);
  assert_true(checked > 0);
  assert_int_equal(failures, 0);
}

static void accepts_every_y_file(void **state) {
  (void)state;
  run_prefix('y');
}

static void rejects_every_n_file(void **state) {
  (void)state;
  run_prefix('n');
}

static void i_files_as_the_readme_says(void **state) {
  (void)state;
  run_prefix('i');
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(accepts_every_y_file),
      cmocka_unit_test(rejects_every_n_file),
      cmocka_unit_test(i_files_as_the_readme_says),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
