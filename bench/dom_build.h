/* Building a DOM library's tree from recorded events (dom_peers.h), shared
 * by dom_jansson.c and dom_jsonc.c. Each file passes a constant table of its
 * library's constructors; the function is inline so that the compiler calls
 * them directly. */
#ifndef FJ_BENCH_DOM_BUILD_H
#define FJ_BENCH_DOM_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "dom_peers.h"

/* A library's constructors; each returns NULL on failure (out of memory, or
 * a value the library cannot hold). set() and append() take the value (it is
 * released on failure). */
typedef struct fjb_build_ops {
  void *(*object)(void);
  void *(*array)(void);
  void *(*string)(const char *s, size_t n);
  void *(*int64)(int64_t i);
  void *(*uint64)(uint64_t u);
  void *(*real)(double d);
  void *(*boolean)(bool b);
  void *(*null)(void);
  bool (*set)(void *object, const char *key, size_t key_len, void *value);
  bool (*append)(void *array, void *value);
  void (*release)(void *value);
} fjb_build_ops;

/* The open containers while building, kept by the caller between builds. */
typedef struct fjb_build_stack {
  struct fjb_build_frame {
    void *container;
    bool object;
  } * frames;
  size_t cap;
} fjb_build_stack;

/* The tree of ev[0, n), or NULL if the events are not one well-formed value
 * or a constructor fails. */
static inline void *fjb_build(const fjb_build_ops *ops, fjb_build_stack *stack, const fjb_event *ev,
                              size_t n, const char *arena) {
  void *root = NULL;
  size_t depth = 0;
  const char *key = NULL;
  size_t key_len = 0;
  for (size_t i = 0; i < n; i++) {
    const fjb_event *e = &ev[i];
    void *v;
    switch ((enum fjb_event_kind)e->kind) {
    case FJB_END_OBJECT:
    case FJB_END_ARRAY:
      if (depth == 0) goto fail;
      depth--;
      continue;
    case FJB_KEY:
      key = arena + e->off;
      key_len = e->len;
      continue;
    case FJB_BEGIN_OBJECT: v = ops->object(); break;
    case FJB_BEGIN_ARRAY: v = ops->array(); break;
    case FJB_STRING: v = ops->string(arena + e->off, e->len); break;
    case FJB_INT64: v = ops->int64(e->i); break;
    case FJB_UINT64: v = ops->uint64(e->u); break;
    case FJB_DOUBLE: v = ops->real(e->d); break;
    case FJB_TRUE: v = ops->boolean(true); break;
    case FJB_FALSE: v = ops->boolean(false); break;
    case FJB_NULL: v = ops->null(); break;
    default: goto fail;
    }
    if (!v) goto fail;
    if (depth == 0) {
      if (root) {
        ops->release(v);
        goto fail;
      }
      root = v;
    } else if (stack->frames[depth - 1].object) {
      if (!key || !ops->set(stack->frames[depth - 1].container, key, key_len, v)) {
        if (!key) ops->release(v);
        goto fail;
      }
      key = NULL;
    } else if (!ops->append(stack->frames[depth - 1].container, v)) {
      goto fail;
    }
    if (e->kind == FJB_BEGIN_OBJECT || e->kind == FJB_BEGIN_ARRAY) {
      if (depth == stack->cap) {
        size_t cap = stack->cap ? 2 * stack->cap : 64;
        struct fjb_build_frame *f = realloc(stack->frames, cap * sizeof *f);
        if (!f) goto fail;
        stack->frames = f;
        stack->cap = cap;
      }
      stack->frames[depth].container = v;
      stack->frames[depth].object = e->kind == FJB_BEGIN_OBJECT;
      depth++;
    }
  }
  if (depth == 0 && root) return root;
fail:
  if (root) ops->release(root);
  return NULL;
}

#endif
