/* Field tables (private): the lookup side, inline in fj_object_findn(); the
 * tables are built in field_table.c, whose opening comment says why and
 * when. */
#ifndef FJ_ONDEMAND_FIELD_TABLE_H
#define FJ_ONDEMAND_FIELD_TABLE_H

#include "ondemand/internal.h"

/* Up to eight bytes of the n at s as a word, by whole loads (a byte-wise
 * copy into a word stalls the load that reads it back). */
static inline uint64_t fj__key_word(const uint8_t *s, size_t n) {
  if (n >= 8) {
    uint64_t w;
    memcpy(&w, s, 8);
    return w;
  }
  if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, s, 4);
    memcpy(&b, s + n - 4, 4);
    return a | (uint64_t)b << 32;
  }
  return n ? s[0] | (uint64_t)s[n / 2] << 8 | (uint64_t)s[n - 1] << 16 : 0;
}

/* A hash of a raw key: its length and all its bytes, eight at a time (the
 * usual key of up to 16 bytes is two overlapping words). Every byte counts:
 * keys that share their first and last eight bytes (fixed-width ids,
 * paths) otherwise all fell into one probe chain. */
static inline uint32_t fj__key_hash(const uint8_t *s, size_t n) {
  const uint64_t k = 0x9E3779B97F4A7C15ull;
  uint64_t h = fj__key_word(s, n) ^ n;
  if (n > 8) {
    for (size_t i = 8; i + 8 < n; i += 8) { /* the middle words of a long key */
      h = (h ^ fj__key_word(s + i, 8)) * k;
      h ^= h >> 29;
    }
    h ^= fj__key_word(s + n - 8, 8) * k;
  }
  h *= 0xD6E8FEB86659FD93ull;
  return (uint32_t)(h >> 32);
}

/* The longest probe a table may need: build() gives up a table (the linear
 * search stays in charge) rather than let colliding keys make one slow, so
 * a key in a table is always within this many slots of its first. */
enum { FJ__FIELDS_MAX_PROBE = 64 };

/* The slot for raw key (s, n): the one holding it, or the empty one where it
 * would go; NULL if neither comes within FJ__FIELDS_MAX_PROBE slots (then
 * the key is not in the table, and cannot be put in it). */
static inline fj__field_slot *fj__fields_probe(const fj_parser *p, const uint8_t *s, size_t n,
                                               uint32_t h) {
  const fj__field_table *t = &p->fields;
  uint32_t i = h & t->mask;
  for (unsigned d = 0; d <= FJ__FIELDS_MAX_PROBE; d++, i = (i + 1) & t->mask) {
    fj__field_slot *slot = &t->slots[i];
    if (slot->vpos == 0) return slot; /* 0 is the root's position: never a field value */
    if (slot->hash == h && slot->key_len == n && fj__bytes_equal(p->hot.buf + slot->key_off, s, n))
      return slot;
  }
  return NULL;
}

/* With a usable table for o: 1 and *vpos the value's structural if the key
 * (which must hold no backslash) is a field, else 0. Without one: -1. */
static inline int fj__fields_lookup(const fj_parser *p, const fj_object *o, const char *key,
                                    size_t key_len, uint32_t *vpos) {
  const fj__field_table *t = &p->fields;
  if (t->serial != o->serial || !t->usable) return -1;
  const uint8_t *s = (const uint8_t *)key;
  const fj__field_slot *slot = fj__fields_probe(p, s, key_len, fj__key_hash(s, key_len));
  if (!slot || !slot->vpos) return 0;
  *vpos = slot->vpos;
  return 1;
}

#endif
