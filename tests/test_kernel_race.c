/* fj_kernel_select() in a race with the library's first use, which decides
 * the kernel (FASTJSON_KERNEL, else the best one) and stores it. A select
 * that returned FJ_OK while that first use was deciding must stay in force:
 * the first use used to store its choice over it. The window is made wide
 * on purpose: this program's getenv() stands in for the C library's (the
 * static library's call resolves to it) and, once armed, holds the first
 * use inside getenv("FASTJSON_KERNEL") until the select has returned. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "fastjson.h"

extern char **environ;

static atomic_bool armed, deciding, selected;

char *getenv(const char *name) {
  if (atomic_load(&armed) && strcmp(name, "FASTJSON_KERNEL") == 0) {
    atomic_store(&deciding, true);
    while (!atomic_load(&selected))
      usleep(100);
  }
  size_t n = strlen(name);
  for (char **e = environ; *e; e++)
    if (strncmp(*e, name, n) == 0 && (*e)[n] == '=') return *e + n + 1;
  return NULL;
}

static void *first_use(void *seen) {
  *(const char **)seen = fj_kernel_active();
  return NULL;
}

static void *select_scalar(void *ret) {
  /* at most 10 s: should the first use not come to ask, the select still
   * happens, and the checks below still hold (without the race) */
  for (int i = 0; i < 100000 && !atomic_load(&deciding); i++)
    usleep(100);
  *(fj_error *)ret = fj_kernel_select("scalar");
  atomic_store(&selected, true);
  return NULL;
}

static void select_during_first_use_wins(void **state) {
  (void)state;
  /* with FASTJSON_KERNEL set (ctest's per-kernel runs, CI's NEON run),
   * kernel_env.c has made the first use before main(): no race to make */
  const char *env = getenv("FASTJSON_KERNEL");
  if (env && *env) skip();
  atomic_store(&armed, true);
  const char *seen = NULL;
  fj_error ret = FJ_ERR_INVALID_ARG;
  pthread_t a, b;
  assert_int_equal(pthread_create(&a, NULL, first_use, &seen), 0);
  assert_int_equal(pthread_create(&b, NULL, select_scalar, &ret), 0);
  assert_int_equal(pthread_join(a, NULL), 0);
  assert_int_equal(pthread_join(b, NULL), 0);
  atomic_store(&armed, false);
  assert_int_equal(ret, FJ_OK);
  /* the first use returns the kernel in force when it finished deciding */
  assert_string_equal(seen, "scalar");
  assert_string_equal(fj_kernel_active(), "scalar");
  /* and parsing uses it */
  fj_parser *p;
  fj_value root;
  assert_int_equal(fj_parser_new(&p, NULL), FJ_OK);
  assert_int_equal(fj_parser_parse(p, "[1]", 3, &root), FJ_OK);
  assert_string_equal(fj_kernel_active(), "scalar");
  fj_parser_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(select_during_first_use_wins)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
