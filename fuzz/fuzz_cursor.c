/* libFuzzer target: the cursor driven along a path chosen by the input.
 * The first bytes (up to the first NUL) are a program of cursor calls —
 * enter, next, find (in any order), typed getters, raw, skip, JSON Pointer,
 * rewind, and stale handles from earlier steps; the rest is the document.
 * Errors are expected; crashes, sanitizer reports and hangs are not. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fastjson.h"

#define STACK 16

typedef struct frame {
  int is_object;
  fj_array a;
  fj_object o;
} frame;

static const char *const keys[] = {"a", "b", "id", "user", "", "statuses", "x\"y", "\xc3\xa9"};

/* fj_value_copy_string() against fj_value_get_string(): the same error
 * (but NOMEM, which only the scratch copy can meet), else the sizing call's
 * capacity and, into exactly that much heap memory (so that ASan sees a
 * write past it), the same bytes and a NUL. */
static void check_copy(const fj_value *v) {
  const char *s;
  size_t n, need = 0, got = 0;
  const fj_error es = fj_value_get_string(v, &s, &n);
  const fj_error ez = fj_value_copy_string(v, NULL, 0, &need);
  if (es == FJ_ERR_NOMEM) return;
  if (es != FJ_OK) {
    if (ez != es) __builtin_trap();
    return;
  }
  if (ez != FJ_ERR_BUFFER_TOO_SMALL || need != n + 1) __builtin_trap();
  char *dst = malloc(need);
  if (!dst) return;
  if (fj_value_copy_string(v, dst, need, &got) != FJ_OK || got != n || memcmp(dst, s, n) != 0 ||
      dst[n] != '\0')
    __builtin_trap();
  free(dst);
}

static void read_scalars(const fj_value *v) {
  int64_t i;
  uint64_t u;
  double d;
  bool b;
  const char *s;
  size_t n;
  char buf[8];
  fj_value_get_int64(v, &i);
  fj_value_get_uint64(v, &u);
  fj_value_get_double(v, &d);
  fj_value_get_bool(v, &b);
  fj_value_is_null(v, &b);
  fj_value_copy_string(v, buf, sizeof buf, &n);
  check_copy(v);
  fj_value_get_raw(v, &s, &n);
}

static void enter(frame *stack, int *depth, const fj_value *v) {
  if (*depth >= STACK) return;
  frame *f = &stack[*depth];
  if (fj_value_get_object(v, &f->o) == FJ_OK) {
    f->is_object = 1;
    (*depth)++;
  } else if (fj_value_get_array(v, &f->a) == FJ_OK) {
    f->is_object = 0;
    (*depth)++;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static fj_parser *p;
  static fj_value earlier; /* a handle from the previous document: stale */
  if (!p && fj_parser_new(&p, NULL)) return 0;
  const uint8_t *nul = memchr(data, 0, size);
  if (!nul) return 0;
  size_t prog_len = (size_t)(nul - data);
  const uint8_t *doc = nul + 1;
  size_t doc_len = size - prog_len - 1;
  fj_value root, cur, old = {0};
  if (fj_parser_parse(p, doc, doc_len, &root)) return 0;
  frame stack[STACK];
  int depth = 0;
  cur = root;
  for (size_t i = 0; i < prog_len; i++) {
    uint8_t op = data[i];
    frame *top = depth ? &stack[depth - 1] : NULL;
    switch (op % 12) {
    case 0: enter(stack, &depth, &cur); break;
    case 1:
      if (top && !top->is_object) fj_array_next(&top->a, &cur);
      if (top && top->is_object) fj_object_next(&top->o, NULL, &cur);
      break;
    case 2:
      if (top && top->is_object) fj_object_find(&top->o, keys[(op >> 4) % 8], &cur);
      break;
    case 3: read_scalars(&cur); break;
    case 4: fj_value_skip(&cur); break;
    case 5:
      if (depth) depth--;
      break;
    case 6: fj_value_at_pointer(&root, (op & 0x80) ? "/statuses/0/id" : "/a/1", &cur); break;
    case 7:
      fj_parser_rewind(p);
      depth = 0;
      cur = root;
      break;
    case 8: old = cur; break;
    case 9:
      if (earlier.parser) read_scalars(&earlier);
      if (old.parser) read_scalars(&old);
      if (old.parser) enter(stack, &depth, &old);
      break;
    case 10:
      if (top && !top->is_object) fj_array_at(&top->a, op >> 4, &cur);
      break;
    case 11: {
      size_t n;
      if (top && top->is_object) fj_object_count(&top->o, &n);
      if (top && !top->is_object) fj_array_count(&top->a, &n);
      break;
    }
    }
  }
  fj_location loc;
  fj_parser_last_error(p, &loc);
  earlier = cur;
  return 0;
}
