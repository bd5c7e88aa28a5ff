/* fj_error names and messages: generated from one list, so every code has
 * both, and names match the enum spelling. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fastjson.h"

static void names_match_enum(void **state) {
  (void)state;
  assert_string_equal(fj_error_name(FJ_OK), "FJ_OK");
  assert_string_equal(fj_error_name(FJ_ERR_UTF8), "FJ_ERR_UTF8");
  assert_string_equal(fj_error_name(FJ_ERR_KERNEL), "FJ_ERR_KERNEL");
  assert_string_equal(fj_error_name((fj_error)9999), "FJ_ERR_UNKNOWN");
  assert_string_equal(fj_error_message((fj_error)-1), "unknown error");
}

static void every_code_has_a_message(void **state) {
  (void)state;
  for (int e = 0; e < FJ_ERROR_COUNT; e++) {
    const char *name = fj_error_name((fj_error)e), *msg = fj_error_message((fj_error)e);
    assert_true(strncmp(name, "FJ_", 3) == 0);
    assert_true(strlen(msg) > 5);
    assert_int_not_equal(msg[strlen(msg) - 1], '.');
    for (int f = 0; f < e; f++)
      assert_string_not_equal(name, fj_error_name((fj_error)f));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(names_match_enum),
      cmocka_unit_test(every_code_has_a_message),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
