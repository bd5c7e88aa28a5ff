/* Equality of generated structs, member by member from the record's member
 * table: the scalar members are compared here, once for every type, and
 * only the custom ones (records, unions, arrays, maps) go back to the
 * generated fj_equal_<Type>(), which would otherwise hold a comparison per
 * field that the compiler has to optimise for every type. */
#include <string.h>

#include "fastjson/codec.h"

static bool scalars_equal(const fj_decode_member *m, const char *a, const char *b) {
  a += m->offset;
  b += m->offset;
  switch ((fj_member_kind)m->kind) {
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
  case FJ_MEMBER_CONST: /* nothing stored */
  case FJ_MEMBER_CUSTOM: break;
  }
  return true;
}

int fj_members_equal(const fj_decode_record *r, const void *a, const void *b, int from) {
  const char *x = a, *y = b;
  for (uint32_t f = (uint32_t)from; f < r->nfields; f++) {
    const fj_decode_member *m = &r->members[f];
    if (m->has != FJ_MEMBER_NO_HAS) { /* present in both, or in neither */
      bool hx = *(const bool *)(x + m->has), hy = *(const bool *)(y + m->has);
      if (hx != hy) return FJ_MEMBERS_UNEQUAL;
      if (!hx) continue;
    }
    if (m->kind != FJ_MEMBER_CUSTOM) {
      if (!scalars_equal(m, x, y)) return FJ_MEMBERS_UNEQUAL;
      continue;
    }
    if (m->flags & FJ_MEMBER_POINTER) { /* the same child, or two to compare */
      const void *px = *(const void *const *)(x + m->offset);
      const void *py = *(const void *const *)(y + m->offset);
      if (px == py) continue;
      if (!px || !py) return FJ_MEMBERS_UNEQUAL;
    }
    return (int)f;
  }
  return FJ_MEMBERS_EQUAL;
}
