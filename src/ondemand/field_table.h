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

/* A raw key's id: for a key of up to eight bytes, fj__key_word() of it,
 * which differs between any two keys of one length, so that an id and a
 * length that match are the key and no byte of the document is read; for a
 * longer key, a 64-bit hash of all its bytes, eight at a time, whose match
 * is then checked against the document. Every byte of a long key counts:
 * keys that share their first and last eight bytes (fixed-width ids,
 * paths) otherwise all fell into one probe chain. */
uint64_t fj__key_id_long(const uint8_t *s, size_t n); /* field_table.c */
static inline uint64_t fj__key_id(const uint8_t *s, size_t n) {
  return n <= 8 ? fj__key_word(s, n) : fj__key_id_long(s, n);
}

/* The home slot of a key, by its id and length, in a table of mask + 1
 * slots (a power of two, at least 32): the top bits of a multiplicative
 * hash (Knuth's Fibonacci hashing), which every bit of the id reaches. A
 * product's bits depend only on the factor's bits at or below them, so the
 * low bits of its high half, taken before, left bytes 5 to 8 of a short
 * key (the digits of "item0001") out of the home slot, and fixed-width
 * keys fell into one probe chain. */
static inline uint32_t fj__key_home(uint64_t id, size_t n, uint32_t mask) {
  const uint32_t h = (uint32_t)(((id ^ n) * 0x9E3779B97F4A7C15ull) >> 32);
  return h >> __builtin_clz(mask); /* the top log2(mask + 1) bits */
}

/* The longest probe a table may need: build() gives up a table (the linear
 * search stays in charge) rather than let colliding keys make one slow, so
 * a key in a table is always within this many slots of its first. */
enum { FJ__FIELDS_MAX_PROBE = 64 };

/* The slot among slots[0..mask] for raw key (s, n) of id `id` in the
 * document buf with index idx: the one holding it, or the empty one where
 * it would go; NULL if neither comes within FJ__FIELDS_MAX_PROBE slots
 * (then the key is not in the table, and cannot be put in it). The table
 * comes in as values, not through the parser: a build that stores slots
 * then keeps it in registers. */
static inline fj__field_slot *fj__slots_probe(fj__field_slot *slots, uint32_t mask,
                                              const uint8_t *buf, const uint32_t *idx,
                                              const uint8_t *s, size_t n, uint64_t id) {
  uint32_t i = fj__key_home(id, n, mask);
  for (unsigned d = 0; d <= FJ__FIELDS_MAX_PROBE; d++, i = (i + 1) & mask) {
    fj__field_slot *slot = &slots[i];
    if (slot->vpos == 0) return slot; /* 0 is the root's position: never a field value */
    /* only a long key's bytes need comparing (its id is a hash) */
    if (slot->id == id && slot->key_len == n &&
        (n <= 8 || fj__bytes_equal(buf + idx[slot->vpos - 2] + 1, s, n)))
      return slot;
  }
  return NULL;
}

/* fj__slots_probe() in the parser's table. */
static inline fj__field_slot *fj__fields_probe(const fj_parser *p, const uint8_t *s, size_t n,
                                               uint64_t id) {
  return fj__slots_probe(p->fields.slots, p->fields.mask, p->hot.buf, p->hot.idx, s, n, id);
}

/* With a usable table for o: 1 and *vpos the value's structural if the key
 * (which must hold no backslash) is a field, else 0. Without one: -1. */
static inline int fj__fields_lookup(const fj_parser *p, const fj_object *o, const char *key,
                                    size_t key_len, uint32_t *vpos) {
  const fj__field_table *t = &p->fields;
  if (t->serial != o->serial || !t->usable) return -1;
  const uint8_t *s = (const uint8_t *)key;
  const fj__field_slot *slot = fj__fields_probe(p, s, key_len, fj__key_id(s, key_len));
  if (!slot || !slot->vpos) return 0;
  *vpos = slot->vpos;
  return 1;
}

#endif
