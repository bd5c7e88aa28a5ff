/* Allocation through the caller's hooks (private). */
#ifndef FJ_UTIL_ALLOC_H
#define FJ_UTIL_ALLOC_H

#include "fastjson/parser.h"

/* The C library's malloc/realloc/free as an fj_allocator. */
extern const fj_allocator fj__default_allocator;

static inline void *fj__malloc(const fj_allocator *a, size_t n) { return a->malloc(a->ctx, n); }
static inline void *fj__realloc(const fj_allocator *a, void *p, size_t old_n, size_t n) {
  return a->realloc(a->ctx, p, old_n, n);
}
static inline void fj__free(const fj_allocator *a, void *p, size_t n) {
  if (p) a->free(a->ctx, p, n);
}

#endif
