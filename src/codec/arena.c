/* The decode arena: a chain of blocks, bump-allocated, freed at once.
 * Decoded values are trees of small allocations (strings, arrays, children)
 * that die together, so a region is both the fastest allocator and the one
 * whose ownership is easiest to state: the arena owns everything. */
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codec/internal.h"
#include "fastjson/codec.h"
#include "util/alloc.h"

#define ALIGN FJ_ARENA_ALIGN
#define FIRST_BLOCK 4096u
#define MAX_BLOCK (1u << 20)

typedef struct fj_arena_block {
  struct fj_arena_block *next;
  size_t size; /* bytes allocated for this block, header included */
  alignas(max_align_t) char data[];
} fj_arena_block;

static const fj_allocator *arena_allocator(const fj_arena *a) {
  return a->alloc.malloc ? &a->alloc : &fj__default_allocator;
}

void fj_arena_init(fj_arena *a, const fj_allocator *allocator) {
  memset(a, 0, sizeof *a);
  if (allocator) a->alloc = *allocator;
}

/* Takes a block with room for `need` bytes and makes it the current one. */
static bool grow(fj_arena *a, size_t need) {
  size_t size = a->next_size ? a->next_size : FIRST_BLOCK;
  if (size < MAX_BLOCK) a->next_size = size * 2;
  if (need > size - sizeof(fj_arena_block)) {
    if (need > SIZE_MAX - sizeof(fj_arena_block)) return false;
    size = sizeof(fj_arena_block) + need; /* a large request gets its own block */
  }
  fj_arena_block *b = fj__malloc(arena_allocator(a), size);
  if (!b) return false;
  b->size = size;
  b->next = a->head;
  a->head = b;
  a->ptr = b->data;
  a->end = (char *)b + size;
  return true;
}

void *fj_arena_alloc(fj_arena *a, size_t size) {
  if (size > SIZE_MAX - ALIGN) return NULL;
  size_t rounded = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
  if ((size_t)(a->end - a->ptr) < rounded || !a->ptr) {
    if (!grow(a, rounded)) return NULL;
  }
  void *p = a->ptr;
  a->ptr += rounded;
  return p;
}

void fj_arena_free(fj_arena *a) {
  if (!a) return;
  const fj_allocator *al = arena_allocator(a);
  for (fj_arena_block *b = a->head, *next; b; b = next) {
    next = b->next;
    fj__free(al, b, b->size);
  }
  fj_allocator keep = a->alloc;
  memset(a, 0, sizeof *a);
  a->alloc = keep;
}

void fj_arena_reset(fj_arena *a) {
  if (!a || !a->head) return;
  fj_arena_block *keep = a->head; /* the largest block: the next document likely fits */
  for (fj_arena_block *b = a->head->next; b; b = b->next)
    if (b->size > keep->size) keep = b;
  const fj_allocator *al = arena_allocator(a);
  for (fj_arena_block *b = a->head, *next; b; b = next) {
    next = b->next;
    if (b != keep) fj__free(al, b, b->size);
  }
  keep->next = NULL;
  a->head = keep;
  a->ptr = keep->data;
  a->end = (char *)keep + keep->size;
}

size_t fj_arena_size(const fj_arena *a) {
  size_t n = 0;
  for (const fj_arena_block *b = a ? a->head : NULL; b; b = b->next)
    n += b->size;
  return n;
}

bool fj__arena_extend(fj_arena *a, void *p, size_t old_size, size_t new_size) {
  size_t old_rounded = (old_size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
  if (!a->ptr || (char *)p + old_rounded != a->ptr || new_size > SIZE_MAX - ALIGN) return false;
  size_t new_rounded = (new_size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
  if (new_rounded - old_rounded > (size_t)(a->end - a->ptr)) return false;
  a->ptr = (char *)p + new_rounded;
  return true;
}
