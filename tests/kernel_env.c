/* Linked into every test program by fj_add_test. ctest runs each test once
 * per compiled kernel with FASTJSON_KERNEL=<name>; the library would fall
 * back to the best kernel for a name the CPU cannot run, so before main()
 * this makes sure the named kernel is the one in use: exit 77 (ctest's SKIP)
 * if this CPU lacks it, exit 1 if no kernel has that name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastjson/kernel.h"

__attribute__((constructor)) static void require_kernel(void) {
  const char *want = getenv("FASTJSON_KERNEL");
  if (!want || !*want || strcmp(want, "auto") == 0) return;
  for (size_t i = 0; i < fj_kernel_count(); i++) {
    if (strcmp(fj_kernel_name(i), want) != 0) continue;
    if (!fj_kernel_supported(i)) {
      fprintf(stderr, "FASTJSON_KERNEL=%s: this CPU cannot run it; skipped\n", want);
      exit(77);
    }
    if (strcmp(fj_kernel_active(), want) != 0) {
      fprintf(stderr, "FASTJSON_KERNEL=%s: but %s is in use\n", want, fj_kernel_active());
      exit(1);
    }
    return;
  }
  fprintf(stderr, "FASTJSON_KERNEL=%s: no kernel of that name in this build\n", want);
  exit(1);
}
