/* Equality of generated structs, member by member from the record's member
 * table: scalars, nested records and arrays are compared here, once for
 * every type, and only the custom members (unions, maps, arrays of arrays)
 * go back to the generated callback, which would otherwise hold a
 * comparison per field that the compiler has to optimise for every type. */
#include <string.h>

#include "fastjson/codec.h"

static bool values_equal(fj_member_kind k, const fj_decode_member *m, const char *a, const char *b);

static bool arrays_equal(const fj_decode_member *m, const char *a, const char *b) {
  typedef struct {
    const char *items;
    size_t count;
  } array;
  const array *x = (const array *)a, *y = (const array *)b;
  if (x->count != y->count) return false;
  if (x->count && (!x->items || !y->items)) return x->items == y->items;
  const fj_member_kind k = (fj_member_kind)m->elem;
  size_t size = 0;
  switch (k) {
  case FJ_MEMBER_BOOL: size = sizeof(bool); break;
  case FJ_MEMBER_INT32: size = sizeof(int32_t); break;
  case FJ_MEMBER_INT64:
  case FJ_MEMBER_UINT64: size = sizeof(int64_t); break;
  case FJ_MEMBER_DOUBLE: size = sizeof(double); break;
  case FJ_MEMBER_STRING: size = sizeof(fj_str); break;
  case FJ_MEMBER_ENUM: size = sizeof(int); break;
  case FJ_MEMBER_RECORD: size = m->record->size; break;
  default: return false;
  }
  for (size_t i = 0; i < x->count; i++)
    if (!values_equal(k, m, x->items + i * size, y->items + i * size)) return false;
  return true;
}

/* Two values of kind `k` (member `m` says the rest). */
static bool values_equal(fj_member_kind k, const fj_decode_member *m, const char *a,
                         const char *b) {
  switch (k) {
  case FJ_MEMBER_BOOL: return *(const bool *)a == *(const bool *)b;
  case FJ_MEMBER_INT32: return *(const int32_t *)a == *(const int32_t *)b;
  case FJ_MEMBER_INT64: return *(const int64_t *)a == *(const int64_t *)b;
  case FJ_MEMBER_UINT64: return *(const uint64_t *)a == *(const uint64_t *)b;
  case FJ_MEMBER_DOUBLE: return *(const double *)a == *(const double *)b; /* NaN != NaN, as C */
  case FJ_MEMBER_ENUM: return *(const int *)a == *(const int *)b;
  case FJ_MEMBER_STRING: {
    const fj_str *x = (const fj_str *)a, *y = (const fj_str *)b;
    return x->len == y->len && (!x->len || memcmp(x->data, y->data, x->len) == 0);
  }
  case FJ_MEMBER_RECORD: return fj_decode_record_equal(m->record, a, b);
  case FJ_MEMBER_ARRAY: return arrays_equal(m, a, b);
  case FJ_MEMBER_CONST: /* nothing stored */
  case FJ_MEMBER_CUSTOM: break;
  }
  return true;
}

bool fj_decode_record_equal(const fj_decode_record *r, const void *a, const void *b) {
  if (a == b) return true;
  if (!a || !b) return false;
  const char *x = a, *y = b;
  for (uint32_t f = 0; f < r->nfields; f++) {
    const fj_decode_member *m = &r->members[f];
    if (m->has != FJ_MEMBER_NO_HAS) { /* present in both, or in neither */
      bool hx = *(const bool *)(x + m->has), hy = *(const bool *)(y + m->has);
      if (hx != hy) return false;
      if (!hx) continue;
    }
    const char *px = x + m->offset, *py = y + m->offset;
    if (m->flags & FJ_MEMBER_POINTER) { /* the same child, or two to compare */
      px = *(const char *const *)px;
      py = *(const char *const *)py;
      if (px == py) continue;
      if (!px || !py) return false;
    }
    if (m->kind == FJ_MEMBER_CUSTOM) {
      if (!r->equal_custom((int)f, a, b)) return false;
    } else if (!values_equal((fj_member_kind)m->kind, m, px, py)) {
      return false;
    }
  }
  return true;
}
