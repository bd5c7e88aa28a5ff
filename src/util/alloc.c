/* The default allocator: the C library's. */
#include "util/alloc.h"

#include <stdlib.h>

static void *std_malloc(void *ctx, size_t n) {
  (void)ctx;
  return malloc(n ? n : 1);
}
static void *std_realloc(void *ctx, void *p, size_t old_n, size_t n) {
  (void)ctx;
  (void)old_n;
  return realloc(p, n ? n : 1);
}
static void std_free(void *ctx, void *p, size_t n) {
  (void)ctx;
  (void)n;
  free(p);
}

const fj_allocator fj__default_allocator = {std_malloc, std_realloc, std_free, NULL};
