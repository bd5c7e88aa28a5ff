/* The writer's state and the pieces of its compact inline paths (private),
 * shared by src/write/writer.c and the descriptor-table writer
 * (src/codec/desc.c), which writes a record's plain scalar fields in line,
 * without a call per field, as generated writers' calls do behind one
 * check each. Anything these paths do not take goes to the public calls,
 * which start over from the unchanged state. */
#ifndef FJ_WRITE_WRITER_INTERNAL_H
#define FJ_WRITE_WRITER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fastjson/writer.h"
#include "util/alloc.h"
#include "util/compiler.h"

#ifdef FJ__WRITER_SSE2 /* fastjson/writer.h: SSE2 (x86-64) */
#define FJ_ESCAPE_SSE2_WRITER 1
#endif

/* Where the document stands: the states of fastjson/writer.h (FJ__WST_*),
 * whose inline paths take the common events without a call. Values are
 * allowed in ST_ROOT and the three states below ST_OBJ_KEY_NEXT (the inline
 * paths take only those three: the root goes the general way); keys and
 * object ends in the pair ST_OBJ_KEY_NEXT, ST_OBJ_KEY_FIRST; array ends in
 * the pair ST_ARR_FIRST, ST_ARR_NEXT. */
enum {
  ST_ARR_FIRST = FJ__WST_ARR_FIRST,
  ST_ARR_NEXT = FJ__WST_ARR_NEXT,
  ST_OBJ_VALUE = FJ__WST_OBJ_VALUE,
  ST_OBJ_KEY_NEXT = FJ__WST_OBJ_KEY_NEXT,
  ST_OBJ_KEY_FIRST = FJ__WST_OBJ_KEY_FIRST,
  ST_ROOT = FJ__WST_ROOT,
  ST_DONE = FJ__WST_DONE
};
/* The inline value paths take the states below this. */
#define ST_VALUE_FAST_END ST_OBJ_KEY_NEXT
/* The state after a value, by the state before it (one allowing a value). */
#define ST_AFTER_VALUE(st) ((st) | 1u)
/* Whether a comma is due before a value or key, in a state the inline
 * paths take (not at the root). */
#define ST_COMMA(st) ((st)&1u)

/* Writes `true` or `false` at p (5 bytes stored either way: one
 * fixed-size store, the length picks) and returns its length. */
static inline size_t fj__put_bool(uint8_t *p, bool v) {
  memcpy(p, v ? "true " : "false", 5);
  return 5u - v;
}

struct fj_writer {
  fj__writer_hot h; /* first: the window, state, depth and the states after each level,
                     * which the public header's inline paths use too */
  uint8_t *mark;    /* where the current event's output began (to take it back) */
  bool vshort;      /* short strings and keys take the AVX-512 inline path (writer.c) */
  bool vescape;     /* other strings take fj__escape_avx512() */
  bool finished;
  bool pretty;
  unsigned esc; /* FJ__ESC_* */
  uint32_t flags;
  fj_error err; /* the sink's first error, returned from then on */
  uint32_t indent;
  uint8_t indent_char;
  int mode;
  uint8_t *base;  /* start of the window's output: [base, pos) is not yet flushed */
  bool unmapped;  /* MODE_BUFFER: the window (empty, at ibuf) is not in gbuf's memory, which
                   * the caller may have taken or grown since: make_room() maps it at gbuf->len */
  size_t flushed; /* bytes of this document before base */
  fj_sink sink;
  fj_buffer *gbuf;
  fj_fixed_buffer *fbuf;
  uint8_t *ibuf; /* own buffer for MODE_SINK */
  size_t icap;
  fj_allocator alloc;
};

/* ---- short strings: copied with a check, no escaping ---------------------- */

/* The longest string or key the inline paths take, and the room they ask
 * for (fastjson/writer.h's inline paths share them). */
#define FJ_SHORT_MAX FJ__SHORT_MAX
#define FJ_SHORT_ROOM FJ__SHORT_ROOM

#endif
