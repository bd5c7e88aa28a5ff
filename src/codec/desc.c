/* Descriptor tables: struct codecs without a generator. The reader walks the
 * same cursor calls as generated code and reports through the same decode
 * helpers, so policies and error messages are identical; what it gives up is
 * speed (keys are looked up by a scan of the table after the in-order guess,
 * and every field goes through a switch on its type). */
#include <stdio.h>
#include <string.h>

#include "codec/internal.h"
#include "util/compiler.h"
#include "fastjson/codec.h"
#include "write/dtoa.h"
#include "write/itoa.h"
#include "write/writer_internal.h"

#define MAX_FIELDS 256

static fj_error read_record(fj_decoder *d, fj_object *o, const fj_record_desc *desc, char *out);

/* Arrays share the generated layout: {T *items; size_t count;}. */
typedef struct any_array {
  char *items;
  size_t count;
} any_array;

/* The bytes a member of type t takes in its struct (an element's for
 * arrays); 0 for no such type. */
static size_t member_size(fj_field_type t, const fj_record_desc *record) {
  switch (t) {
  case FJ_FIELD_BOOL: return sizeof(bool);
  case FJ_FIELD_INT32: return sizeof(int32_t);
  case FJ_FIELD_INT64: return sizeof(int64_t);
  case FJ_FIELD_UINT64: return sizeof(uint64_t);
  case FJ_FIELD_DOUBLE: return sizeof(double);
  case FJ_FIELD_STRING: return sizeof(fj_str);
  case FJ_FIELD_ENUM: return sizeof(int);
  case FJ_FIELD_RECORD: return record ? record->size : 0;
  case FJ_FIELD_RECORD_PTR: return sizeof(void *);
  case FJ_FIELD_ARRAY: return sizeof(any_array);
  }
  return 0;
}

/* Whether field f of a struct of `size` bytes is one the codecs can use: a
 * name (and a name_len that ends it), a member and has-flag inside the
 * struct, the nested table or enum strings its type needs, array elements
 * of a known type other than arrays and at least as big as that type. */
static bool field_ok(const fj_field_desc *f, size_t size) {
  /* strlen(), not name[name_len]: a name_len past the name's end must not
   * be read at */
  if (!f->name || (f->name_len && strlen(f->name) != f->name_len)) return false;
  size_t m = member_size(f->type, f->record);
  if (!m || f->offset > size || m > size - f->offset) return false;
  if (f->has_offset != FJ_NO_HAS_FLAG && f->has_offset >= size) return false;
  fj_field_type t = f->type == FJ_FIELD_ARRAY ? f->elem : f->type;
  if (f->type == FJ_FIELD_ARRAY && (t == FJ_FIELD_ARRAY || !member_size(t, f->record) ||
                                    f->elem_size < member_size(t, f->record)))
    return false;
  if ((t == FJ_FIELD_RECORD || t == FJ_FIELD_RECORD_PTR) && !f->record) return false;
  return t != FJ_FIELD_ENUM || !f->enum_count || f->enum_values;
}

/* Whether a table has a shape the codecs can walk: at most MAX_FIELDS
 * fields, and an array of them if any (the check every call makes; the
 * fields themselves are fj_desc_check()'s). */
static bool table_shape_ok(const fj_record_desc *r) {
  return r && r->nfields <= MAX_FIELDS && (r->fields || !r->nfields);
}

/* Whether a field before r->fields[i] has its JSON name: the reader would
 * take the key's occurrences positionally and the writer would write the
 * key twice. (At most 256 fields: the quadratic scan is cheap, and a check
 * runs once per table.) */
static bool name_taken(const fj_record_desc *r, size_t i) {
  for (size_t k = 0; k < i; k++)
    if (!strcmp(r->fields[k].name, r->fields[i].name)) return true;
  return false;
}

#define CHECK_MAX 256 /* distinct tables fj_desc_check() follows */

fj_error fj_desc_check(const fj_record_desc *desc, const fj_field_desc **bad) {
  const fj_record_desc *todo[CHECK_MAX]; /* every table met, in order; [next, n) unchecked */
  size_t n = 0, next = 0;
  if (bad) *bad = NULL;
  if (!desc) return FJ_ERR_INVALID_ARG;
  todo[n++] = desc;
  while (next < n) {
    const fj_record_desc *r = todo[next++];
    if (!table_shape_ok(r)) return FJ_ERR_INVALID_ARG;
    for (size_t i = 0; i < r->nfields; i++) {
      const fj_field_desc *f = &r->fields[i];
      if (!field_ok(f, r->size) || name_taken(r, i)) {
        if (bad) *bad = f;
        return FJ_ERR_INVALID_ARG;
      }
      if (!f->record) continue;
      size_t k = 0;
      while (k < n && todo[k] != f->record)
        k++;
      if (k < n) continue; /* met before: checked, or queued */
      if (n == CHECK_MAX) return FJ_ERR_INVALID_ARG;
      todo[n++] = f->record;
    }
  }
  return FJ_OK;
}

static bool *has_flag(const fj_field_desc *f, char *out) {
  return f->has_offset == FJ_NO_HAS_FLAG ? NULL : (bool *)(out + f->has_offset);
}

/* A field whose table entry the reader cannot use (fj_desc_check() names
 * them all). */
static fj_error bad_table(fj_decoder *d, const fj_value *v, const fj_field_desc *f) {
  return fj_decode_fail(d, FJ_ERR_INVALID_ARG, fj_value_offset(v), "bad descriptor for \"%s\"",
                        f->name ? f->name : "");
}

static fj_error read_enum(fj_decoder *d, const fj_value *v, const fj_field_desc *f, int *out) {
  const char *s;
  size_t n;
  fj_error e = fj_decode_string_view(d, v, &s, &n);
  if (e) return e;
  if (!f->enum_values && f->enum_count) return bad_table(d, v, f);
  for (size_t i = 0; i < f->enum_count; i++)
    if (strlen(f->enum_values[i]) == n && memcmp(f->enum_values[i], s, n) == 0) {
      *out = (int)i;
      return FJ_OK;
    }
  return fj_decode_bad_enum(d, v, f->enum_name ? f->enum_name : f->name);
}

static fj_error read_object_value(fj_decoder *d, const fj_value *v, const fj_record_desc *r,
                                  char *out) {
  if (FJ_UNLIKELY(fj__decode_too_deep(d))) return fj__decode_depth_error(d, v);
  fj_object o;
  if (FJ_UNLIKELY(fj_value_get_object(v, &o) != FJ_OK)) {
    /* the type's name goes into the message: formatted only for the error */
    char what[96];
    snprintf(what, sizeof what, "object (%s)", r->name ? r->name : "record");
    return fj_decode_object(d, v, &o, what);
  }
  return read_record(d, &o, r, out);
}

/* One value of type `t` into `dst` (the element type for arrays). */
static fj_error read_one(fj_decoder *d, const fj_value *v, const fj_field_desc *f, fj_field_type t,
                         char *dst) {
  switch (t) {
  case FJ_FIELD_BOOL: return fj_decode_bool(d, v, (bool *)dst);
  case FJ_FIELD_INT32: return fj_decode_int32(d, v, (int32_t *)dst);
  case FJ_FIELD_INT64: return fj_decode_int64(d, v, (int64_t *)dst);
  case FJ_FIELD_UINT64: return fj_decode_uint64(d, v, (uint64_t *)dst);
  case FJ_FIELD_DOUBLE: return fj_decode_double(d, v, (double *)dst);
  case FJ_FIELD_STRING: return fj_decode_string(d, v, (fj_str *)dst);
  case FJ_FIELD_ENUM: return read_enum(d, v, f, (int *)dst);
  case FJ_FIELD_RECORD:
    if (!f->record) break;
    return read_object_value(d, v, f->record, dst);
  case FJ_FIELD_RECORD_PTR: {
    if (!f->record) break;
    void *p;
    fj_error e = fj_decode_alloc(d, v, f->record->size, &p);
    if (e) return e;
    *(void **)dst = p;
    return read_object_value(d, v, f->record, p);
  }
  case FJ_FIELD_ARRAY: break;
  }
  return bad_table(d, v, f);
}

static fj_error read_array(fj_decoder *d, const fj_value *v, const fj_field_desc *f,
                           any_array *out) {
  fj_array a;
  fj_error e = fj_decode_array(d, v, &a);
  if (e) return e;
  /* appended to a growing block, as generated readers do: no counting pass */
  void *items = NULL, *p;
  size_t cap = 0;
  out->items = NULL;
  out->count = 0;
  fj_value elem;
  while ((e = fj_decode_next(d, &a, &elem)) == FJ_OK) {
    if ((e = fj_decode_push(d, &a, f->elem_size, &items, &out->count, &cap, &p))) return e;
    out->items = items;
    if ((e = read_one(d, &elem, f, f->elem, p))) return fj_decode_path_index(d, out->count - 1, e);
  }
  return e == FJ_END ? FJ_OK : e;
}

static fj_error read_field(fj_decoder *d, const fj_value *v, const fj_field_desc *f, char *out) {
  char *dst = out + f->offset;
  bool *has = has_flag(f, out);
  if ((f->flags & FJ_FIELD_NULLABLE) && fj_decode_is_null(v)) {
    if (has) *has = false;
    if (f->type == FJ_FIELD_RECORD_PTR) *(void **)dst = NULL;
    return fj_decode_null(d, v);
  }
  fj_error e = f->type == FJ_FIELD_ARRAY ? read_array(d, v, f, (any_array *)dst)
                                         : read_one(d, v, f, f->type, dst);
  if (has) *has = e == FJ_OK;
  return e;
}

/* The field whose key the raw bytes are: the next one in table order first. */
static inline bool name_is(const char *name, const char *k, size_t n) {
  /* the first byte rules most names out before strlen: a NUL ends a name */
  return (n ? name[0] == k[0] : name[0] == '\0') && strlen(name) == n && memcmp(name, k, n) == 0;
}

static int find_field(const fj_record_desc *r, const char *k, size_t n, size_t want) {
  if (want < r->nfields && name_is(r->fields[want].name, k, n)) return (int)want;
  for (size_t i = 0; i < r->nfields; i++)
    if (name_is(r->fields[i].name, k, n)) return (int)i;
  return -1;
}

static bool policy(int per_type, uint32_t flags, uint32_t bit) {
  return per_type < 0 ? (flags & bit) != 0 : per_type > 0;
}

static fj_error read_record(fj_decoder *d, fj_object *o, const fj_record_desc *r, char *out) {
  if (r->nfields > MAX_FIELDS)
    return fj_decode_fail(d, FJ_ERR_INVALID_ARG, 0, "descriptor %s has more than 256 fields",
                          r->name ? r->name : "");
  for (size_t i = 0; i < r->nfields; i++) /* names are compared without a check */
    if (FJ_UNLIKELY(!r->fields[i].name))
      return fj_decode_fail(d, FJ_ERR_INVALID_ARG, 0, "descriptor %s: field %zu has no name",
                            r->name ? r->name : "", i);
  memset(out, 0, r->size);
  const bool unknown_error = policy(r->unknown_error, d->flags, FJ_DECODE_UNKNOWN_FIELDS_ERROR);
  const bool last_wins = policy(r->last_wins, d->flags, FJ_DECODE_DUPLICATES_LAST_WINS);
  uint64_t seen[MAX_FIELDS / 64] = {0};
  size_t want = 0;
  fj_value key, val;
  const char *k;
  size_t n;
  fj_error e;
  while ((e = fj__decode_next_raw(d, o, &key, &k, &n, &val)) == FJ_OK) {
    /* a raw key without a backslash is its own unescaped text */
    int f = memchr(k, '\\', n) ? -1 : find_field(r, k, n, want);
    if (f < 0 && memchr(k, '\\', n)) {
      if ((e = fj_decode_key(d, &key, &k, &n))) return e;
      f = find_field(r, k, n, want);
    }
    if (f < 0) {
      if (unknown_error) return fj_decode_unknown(d, &key);
      continue;
    }
    const fj_field_desc *fd = &r->fields[f];
    if (seen[f >> 6] >> (f & 63) & 1) {
      if (!last_wins) return fj_decode_duplicate(d, &key, fd->name);
    }
    seen[f >> 6] |= UINT64_C(1) << (f & 63);
    want = (size_t)f + 1;
    if ((e = read_field(d, &val, fd, out)))
      return fj_decode_path_key(d, fd->name, fd->name_len ? fd->name_len : strlen(fd->name), e);
  }
  if (e != FJ_END) return e;
  for (size_t i = 0; i < r->nfields; i++)
    if ((r->fields[i].flags & FJ_FIELD_REQUIRED) && !(seen[i >> 6] >> (i & 63) & 1))
      return fj_decode_missing(d, o, r->fields[i].name);
  return FJ_OK;
}

fj_error fj_desc_read_value(fj_decoder *d, const fj_value *v, const fj_record_desc *desc,
                            void *out) {
  if (!desc || !out) return fj_decode_fail(d, FJ_ERR_INVALID_ARG, 0, "no table or no struct");
  return read_object_value(d, v, desc, out);
}

/* fj_decode_document() passes one pointer through: the table and the output. */
typedef struct desc_target {
  const fj_record_desc *desc;
  void *out;
} desc_target;

static fj_error read_root(fj_decoder *d, const fj_value *v, void *target) {
  desc_target *t = target;
  return fj_desc_read_value(d, v, t->desc, t->out);
}

fj_error fj_desc_read(fj_parser *parser, const void *json, size_t len, fj_arena *arena,
                      uint32_t flags, const fj_record_desc *desc, void *out, fj_decode_error *err) {
  desc_target t = {desc, out};
  return fj_decode_document(parser, json, len, arena, flags, err, read_root, &t);
}

/* ---- writing ----------------------------------------------------------------- */

/* The first KEY_CACHE record types met below the root in one
 * fj_desc_write() call: each has its key lengths measured once
 * (fj_field_desc.name_len, or counted) rather than once per field written
 * (strlen() was 14% of write_struct/fastjson-desc/company, an array of
 * records with a record in each). LEN_UNKNOWN: measure when written (a
 * name of 255 bytes or more, or a type beyond the cache). The root measures
 * its keys as it writes them. */
#define KEY_CACHE 8
#define LEN_UNKNOWN 255u

typedef struct write_ctx {
  const fj_record_desc *desc[KEY_CACHE];
  uint8_t lens[KEY_CACHE][MAX_FIELDS];
  unsigned n;
  uint32_t depth; /* records being written, one C frame each */
} write_ctx;

/* strlen() in line for the common short name: a call to the library's
 * costs more than counting a few bytes (write_struct abc: 26 1-byte keys). */
static inline size_t name_len(const char *s) {
  for (size_t n = 0; n < 16; n++)
    if (!s[n]) return n;
  return 16 + strlen(s + 16);
}

/* A record type met in this call: FJ_ERR_INVALID_ARG for a table of no
 * usable shape (table_shape_ok()), else *lens its key lengths from the
 * cache, or NULL (measured when written) beyond it. */
static fj_error prepare(write_ctx *c, const fj_record_desc *desc, const uint8_t **lens) {
  for (unsigned i = 0; i < c->n; i++)
    if (c->desc[i] == desc) {
      *lens = c->lens[i];
      return FJ_OK;
    }
  *lens = NULL;
  if (!table_shape_ok(desc)) return FJ_ERR_INVALID_ARG;
  if (c->n == KEY_CACHE) return FJ_OK;
  uint8_t *l = c->lens[c->n];
  for (size_t i = 0; i < desc->nfields; i++) {
    const fj_field_desc *f = &desc->fields[i];
    size_t n = f->name_len ? f->name_len : f->name ? name_len(f->name) : 0;
    l[i] = (uint8_t)(n < LEN_UNKNOWN ? n : LEN_UNKNOWN);
  }
  c->desc[c->n] = desc;
  *lens = l;
  c->n++;
  return FJ_OK;
}

static fj_error write_record(write_ctx *c, fj_writer *w, const fj_record_desc *desc,
                             const char *base, const uint8_t *lens);

static fj_error write_one(write_ctx *c, fj_writer *w, const fj_field_desc *f, fj_field_type t,
                          const char *src) {
  switch (t) {
  case FJ_FIELD_BOOL: return fj_writer_bool(w, *(const bool *)src);
  case FJ_FIELD_INT32: return fj_writer_int64(w, *(const int32_t *)src);
  case FJ_FIELD_INT64: return fj_writer_int64(w, *(const int64_t *)src);
  case FJ_FIELD_UINT64: return fj_writer_uint64(w, *(const uint64_t *)src);
  case FJ_FIELD_DOUBLE: return fj_writer_double(w, *(const double *)src);
  case FJ_FIELD_STRING: {
    const fj_str *s = (const fj_str *)src;
    return fj_writer_stringn(w, s->data, s->len);
  }
  case FJ_FIELD_ENUM: {
    int i = *(const int *)src;
    if (i < 0 || (size_t)i >= f->enum_count || !f->enum_values) return FJ_ERR_INVALID_ARG;
    return fj_writer_string(w, f->enum_values[i]);
  }
  case FJ_FIELD_RECORD:
  case FJ_FIELD_RECORD_PTR: {
    const char *rec = t == FJ_FIELD_RECORD ? src : *(const char *const *)src;
    /* an array's NULL element: the reader allocates every element and
     * refuses null there, so null written here could not be read back */
    if (!rec) return FJ_ERR_INVALID_ARG;
    const uint8_t *lens;
    fj_error e = prepare(c, f->record, &lens);
    return e ? e : write_record(c, w, f->record, rec, lens);
  }
  case FJ_FIELD_ARRAY: {
    const any_array *a = (const any_array *)src;
    if (a->count && !a->items) return FJ_ERR_INVALID_ARG;
    fj_error e = fj_writer_begin_array(w);
    /* the common element types without the switch per element */
    if (f->elem == FJ_FIELD_STRING) {
      for (size_t i = 0; !e && i < a->count; i++) {
        const fj_str *s = (const fj_str *)(const void *)(a->items + i * f->elem_size);
        e = fj_writer_stringn(w, s->data, s->len);
      }
    } else if (f->elem == FJ_FIELD_RECORD && a->count) {
      const uint8_t *lens;
      if (!e) e = prepare(c, f->record, &lens);
      for (size_t i = 0; !e && i < a->count; i++)
        e = write_record(c, w, f->record, a->items + i * f->elem_size, lens);
    } else {
      for (size_t i = 0; !e && i < a->count; i++)
        e = write_one(c, w, f, f->elem, a->items + i * f->elem_size);
    }
    return e ? e : fj_writer_end_array(w);
  }
  }
  return FJ_ERR_INVALID_ARG;
}

/* A present scalar field's key (`n` bytes) and value in one writer call
 * (the fj_writer_member_* calls); FJ_END, with nothing written, for any
 * other field (and an enum value outside the enum), which the caller writes
 * as a key and then its value. */
static fj_error write_member(fj_writer *w, const fj_field_desc *f, size_t n, const char *src) {
  const char *k = f->name;
  switch (f->type) {
  case FJ_FIELD_BOOL: return fj_writer_member_bool(w, k, n, *(const bool *)src);
  case FJ_FIELD_INT32: return fj_writer_member_int64(w, k, n, *(const int32_t *)src);
  case FJ_FIELD_INT64: return fj_writer_member_int64(w, k, n, *(const int64_t *)src);
  case FJ_FIELD_UINT64: return fj_writer_member_uint64(w, k, n, *(const uint64_t *)src);
  case FJ_FIELD_DOUBLE: return fj_writer_member_double(w, k, n, *(const double *)src);
  case FJ_FIELD_STRING: {
    const fj_str *s = (const fj_str *)src;
    return fj_writer_member_stringn(w, k, n, s->data, s->len);
  }
  case FJ_FIELD_ENUM: {
    int i = *(const int *)src;
    if (i < 0 || (size_t)i >= f->enum_count || !f->enum_values) return FJ_END;
    return fj_writer_member_stringn(w, k, n, f->enum_values[i], strlen(f->enum_values[i]));
  }
  default: return FJ_END;
  }
}

/* Room the inline path of a plain field asks for: the comma, the key's
 * quotes and colon and up to FJ_SHORT_MAX bytes of it (FJ_SHORT_ROOM), and
 * the longest value it writes (a string's quotes and FJ_SHORT_MAX bytes). */
#define PLAIN_ROOM (FJ_SHORT_ROOM + FJ_SHORT_MAX + 2u)

/* Bytes a key may hold as they are, with no escape and no UTF-8 check
 * under any writer option but '/' escaping (which the inline path is not
 * taken under): 0x20 to 0x7F but '"' and '\\'. */
#define K1 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
#define K0 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
/* clang-format off */
static const uint8_t key_byte_ok[256] = {
    /* 0x00 */ K0, /* 0x10 */ K0,
    /* 0x20 */ 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /* 0x30 */ K1, /* 0x40 */ K1,
    /* 0x50 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
    /* 0x60 */ K1, /* 0x70 */ K1,
    /* 0x80 to 0xFF */ K0, K0, K0, K0, K0, K0, K0, K0};
/* clang-format on */
#undef K1
#undef K0

/* Copies the key of n <= FJ_SHORT_MAX bytes at s to d and returns true
 * when none of its bytes needs escaping or checking (key_byte_ok(), or
 * fj__fj__copy_short()); returns false otherwise, bytes of d possibly changed. Keys
 * of 1 to 3 bytes (write_struct abc's) are gathered and looked up: less
 * work than fj__fj__copy_short()'s vector check of them. */
static inline bool copy_key(uint8_t *d, const char *s, size_t n, const uint8_t *k) {
  if (n - 1 < 3) {
    uint8_t a = (uint8_t)s[0], b = (uint8_t)s[n >> 1], c = (uint8_t)s[n - 1];
    if (!(key_byte_ok[a] & key_byte_ok[b] & key_byte_ok[c])) return false;
    d[0] = a;
    d[n >> 1] = b;
    d[n - 1] = c;
    return true;
  }
  return fj__copy_short(d, (const uint8_t *)s, n, k);
}

/* A field always present (no has-flag, not a pointer) with a key of n
 * bytes, written in line as fj_writer_member_*() write a scalar on their
 * inline path, but without the call and with the writer's mode checked
 * once per record (`w` is compact, and '/' is not escaped) and its state
 * known (in an object, a key due). Returns FJ_END, with nothing written
 * (bytes past the window's position may have changed), for a key that
 * path does not take (long, or to escape or check) or too little room: the
 * caller writes the field the general way. A scalar value it does not take
 * (a long or escaped string, a long integer, a non-finite double) follows
 * the key through the value's call, as in the member calls (and the key is
 * not copied and checked twice); so do an enum, a record and an array
 * (write_one()), as after fj_writer_keyn(). write_struct abc (26 scalar
 * fields) spent more than half its instructions on the calls, checks and
 * decisions per field this saves. */
static inline fj_error write_plain(write_ctx *c, fj_writer *w, const fj_field_desc *f,
                                   fj_field_type t, size_t n, const char *src) {
  uint8_t *p = w->h.pos;
  if (!(n <= FJ_SHORT_MAX && (size_t)(w->h.end - p) >= PLAIN_ROOM)) return FJ_END;
  *p = ',';
  p += ST_COMMA(w->h.state);
  *p++ = '"';
  if (!copy_key(p, f->name, n, w->h.short_k)) return FJ_END;
  p += n;
  p[0] = '"';
  p[1] = ':';
  p += 2;
  switch (t) {
  case FJ_FIELD_BOOL: p += fj__put_bool(p, *(const bool *)src); break;
  case FJ_FIELD_INT32: p += fj__i64toa16((char *)p, *(const int32_t *)src); break;
  case FJ_FIELD_INT64: {
    int64_t v = *(const int64_t *)src;
    if (!fj__i64_short(v)) goto value_call;
    p += fj__i64toa16((char *)p, v);
    break;
  }
  case FJ_FIELD_UINT64: {
    uint64_t v = *(const uint64_t *)src;
    p += v < FJ_U64TOA_INLINE_LIMIT ? fj__u64toa16((char *)p, v) : fj__u64toa_long((char *)p, v);
    break;
  }
  case FJ_FIELD_DOUBLE: {
    double v = *(const double *)src;
    if (!fj__writer_finite(v)) goto value_call;
    p += fj__dtoa((char *)p, v);
    break;
  }
  case FJ_FIELD_STRING: {
    const fj_str *s = (const fj_str *)src;
    if (!s->data || s->len > FJ_SHORT_MAX) goto value_call;
    *p = '"';
    if (!fj__copy_short(p + 1, (const uint8_t *)s->data, s->len, w->h.short_k)) goto value_call;
    p[s->len + 1] = '"';
    p += s->len + 2;
    break;
  }
  default: /* an enum, a record, an array: the key here, the value by write_one() */
    w->h.pos = p;
    w->h.state = ST_OBJ_VALUE;
    return write_one(c, w, f, t, src);
  }
  w->h.pos = p;
  w->h.state = ST_OBJ_KEY_NEXT;
  return FJ_OK;
value_call:
  /* the key as fj_writer_keyn() leaves it, then the value's own call */
  w->h.pos = p;
  w->h.state = ST_OBJ_VALUE;
  switch (t) {
  case FJ_FIELD_INT64: return fj_writer_int64(w, *(const int64_t *)src);
  case FJ_FIELD_DOUBLE: return fj_writer_double(w, *(const double *)src);
  default: {
    const fj_str *s = (const fj_str *)src;
    return fj_writer_stringn(w, s->data, s->len);
  }
  }
}

/* A record; `lens`: its key lengths (key_lens()), or NULL to measure. */
static fj_error write_record(write_ctx *c, fj_writer *w, const fj_record_desc *desc,
                             const char *base, const uint8_t *lens) {
  /* a recursive struct built by hand may nest deeper than the C stack allows */
  if (FJ_UNLIKELY(c->depth >= FJ_DECODE_MAX_DEPTH)) return FJ_ERR_DEPTH;
  c->depth++;
  fj_error e = fj_writer_begin_object(w);
  /* compact output, '/' not escaped: the inline paths apply. After the
   * object's start and after each member the state is one that takes a
   * key (write_plain() needs it) */
  const bool plain_ok = e == FJ_OK && w->h.pair_fast != 0 && w->h.short_in; /* no writer: e */
  for (size_t i = 0; !e && i < desc->nfields; i++) {
    const fj_field_desc *f = &desc->fields[i];
    const char *src = base + f->offset;
    fj_field_type t = f->type;
    if (FJ_LIKELY(plain_ok && t != FJ_FIELD_RECORD_PTR && f->has_offset == FJ_NO_HAS_FLAG &&
                  f->name != NULL)) {
      size_t n = f->name_len                                        ? f->name_len
                 : lens && i < MAX_FIELDS && lens[i] != LEN_UNKNOWN ? lens[i]
                                                                    : name_len(f->name);
      if (FJ_LIKELY((e = write_plain(c, w, f, t, n, src)) != FJ_END)) continue;
      e = FJ_OK;
    }
    bool present = t == FJ_FIELD_RECORD_PTR          ? *(const void *const *)src != NULL
                   : f->has_offset == FJ_NO_HAS_FLAG ? true
                                                     : *(const bool *)(base + f->has_offset);
    if (!present && !(f->flags & FJ_FIELD_REQUIRED)) continue;
    /* required and absent: null when the field allows it, else the struct
     * is not one the reader would accept */
    if (!present && !(f->flags & FJ_FIELD_NULLABLE)) {
      e = FJ_ERR_INVALID_ARG;
      break;
    }
    if (FJ_UNLIKELY(!f->name)) {
      e = FJ_ERR_INVALID_ARG;
      break;
    }
    size_t n = f->name_len                                        ? f->name_len
               : lens && i < MAX_FIELDS && lens[i] != LEN_UNKNOWN ? lens[i]
                                                                  : name_len(f->name);
    if (present && (e = write_member(w, f, n, src)) != FJ_END) continue;
    if ((e = fj_writer_keyn(w, f->name, n))) break;
    e = present ? write_one(c, w, f, f->type, src) : fj_writer_null(w);
  }
  c->depth--;
  return e ? e : fj_writer_end_object(w);
}

fj_error fj_desc_write(fj_writer *w, const fj_record_desc *desc, const void *in) {
  if (!desc || !in) return FJ_ERR_INVALID_ARG;
  write_ctx c;
  c.n = 0;
  c.depth = 0;
  /* the root's key lengths are measured as written: a table of one record
   * (flat, abc) wrote 7% slower through prepare() */
  if (!table_shape_ok(desc)) return FJ_ERR_INVALID_ARG;
  return write_record(&c, w, desc, in, NULL);
}
