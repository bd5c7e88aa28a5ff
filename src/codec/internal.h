/* Struct codecs internals (private): what the decode helpers need from the
 * arena beyond its public functions. */
#ifndef FJ_CODEC_INTERNAL_H
#define FJ_CODEC_INTERNAL_H

#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>

#include "fastjson/codec.h"

/* What every arena allocation is aligned and rounded up to. */
#define FJ_ARENA_ALIGN alignof(max_align_t)

/* Grows the arena's newest allocation `p` of `old_size` bytes to `new_size`
 * in place, when nothing was allocated after it and its block has room.
 * @return whether it did (else nothing changed). */
bool fj__arena_extend(fj_arena *a, void *p, size_t old_size, size_t new_size);

/* The index of an earlier key among keys[0, set->n) equal to keys[set->n]
 * (bytes compared), hashing it into set->slots when it is new and the set
 * has a table (keyset.c), or set->n when it is new. */
size_t fj__keyset_find(const fj_str *keys, fj_decode_keyset *set);

/* fj_decode_next_field() on the generated readers' fast step: the next
 * field of `o`, its key as a value and as raw bytes, its value. */
fj_error fj__decode_next_raw(fj_decoder *d, fj_object *o, fj_value *key, const char **k, size_t *n,
                             fj_value *value);

/* The iteration of one object's fields against a record: the record
 * readers' state (decode.c). `r` and `seen` ((nfields + 63) / 64 words, a
 * bit per field read) are kept by pointer. */
typedef struct fj_decode_fields {
  fj_object o;
  const fj_decode_record *r;
  uint64_t *seen;
  uint32_t want; /* the field expected next in schema order */
  bool unknown_error, last_wins;
} fj_decode_fields;

/* Whether a value at the cursor's current depth is nested deeper than the
 * codecs read (FJ_DECODE_MAX_DEPTH): checked where a reader enters an
 * object, before it recurses. */
static inline bool fj__decode_too_deep(const fj_decoder *d) {
  return fj__cursor_of(d->parser)->depth >= FJ_DECODE_MAX_DEPTH;
}

/* The error for it, described at value v. */
fj_error fj__decode_depth_error(fj_decoder *d, const fj_value *v);

#endif
