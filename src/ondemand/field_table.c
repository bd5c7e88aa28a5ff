/* Field tables: constant-time lookups in an object read out of order.
 *
 * fj_object_findn() searches forward from the cursor and wraps around to the
 * start of the object once. Reading the fields of an object in an order
 * other than the document's makes most lookups wrap, so reading all k fields
 * costs O(k^2) key comparisons. When a lookup wraps around, the parser
 * indexes the object's fields once in a small hash table (raw key ->
 * position of the value), which costs about one more pass over the fields;
 * that lookup and later ones in the object jump straight to the value.
 *
 * The table only answers when it gives exactly what the linear search would:
 * every key is free of escapes (raw bytes are then the key) and no key occurs
 * twice (with duplicates the linear search's answer depends on where the
 * cursor is). Otherwise the object is marked as not indexable and the linear
 * search goes on. At a wrap-around every field of the object has been read
 * or skipped once by the cursor, so the structure the table is built from
 * has already been checked. A failed allocation just leaves the
 * linear search in charge. One table per parser: the most recent object. */
#include "ondemand/field_table.h"

/* fj__key_id() of a key over eight bytes: out of line, so that the
 * lookups of short keys, the usual ones, need fewer registers. */
uint64_t fj__key_id_long(const uint8_t *s, size_t n) {
  const uint64_t k = 0x9E3779B97F4A7C15ull;
  uint64_t h = fj__key_word(s, 8) ^ n;
  for (size_t i = 8; i + 8 < n; i += 8) { /* the middle words */
    h = (h ^ fj__key_word(s + i, 8)) * k;
    h ^= h >> 29;
  }
  return h ^ fj__key_word(s + n - 8, 8) * k;
}

/* Objects with fewer fields are searched linearly: a wrap costs little. */
enum { MIN_FIELDS = 8 };

/* Empties the table. It starts with as many slots as the last object needed
 * (at least 32), so a run of similar objects allocates once. */
static bool reset(fj_parser *p) {
  fj__field_table *t = &p->fields;
  uint32_t slots = t->mask + 1 > 32 ? t->mask + 1 : 32;
  if (t->cap < slots) {
    fj__field_slot *s = fj__malloc(&p->alloc, (size_t)slots * sizeof *s);
    if (!s) return false;
    fj__free(&p->alloc, t->slots, (size_t)t->cap * sizeof *t->slots);
    t->slots = s;
    t->cap = slots;
  }
  t->mask = slots - 1;
  memset(t->slots, 0, (size_t)slots * sizeof *t->slots);
  return true;
}

/* Keeps the table at most half full before one more field is added: doubles
 * the slots in use, rehashing into new memory. False with no memory, or
 * when a key would probe too far in the new slots (the table is given up). */
static bool make_room(fj_parser *p, uint32_t fields) {
  fj__field_table *t = &p->fields;
  uint32_t used = t->mask + 1;
  if (2 * (fields + 1) <= used) return true;
  fj__field_slot *old = t->slots, *s = fj__malloc(&p->alloc, 2 * (size_t)used * sizeof *s);
  if (!s) return false;
  memset(s, 0, 2 * (size_t)used * sizeof *s);
  t->slots = s;
  t->mask = 2 * used - 1;
  bool placed = true; /* the keys are distinct: each goes to the first empty slot */
  for (uint32_t i = 0; i < used && placed; i++) {
    if (!old[i].vpos) continue;
    uint32_t j = fj__key_home(old[i].id, old[i].key_len, t->mask);
    unsigned d = 0;
    while (s[j].vpos && d++ < FJ__FIELDS_MAX_PROBE)
      j = (j + 1) & t->mask;
    if ((placed = !s[j].vpos)) s[j] = old[i];
  }
  fj__free(&p->alloc, old, (size_t)t->cap * sizeof *old);
  t->cap = 2 * used;
  return placed;
}

/* The position after the container at structural `pos` (bracket matching
 * from a local position), or 0 if the index ends first. */
static uint32_t past_container(const fj_parser *p, uint32_t pos) {
  uint32_t depth = 0;
  do {
    if (pos >= p->hot.n) return 0;
    uint8_t c = p->hot.buf[p->hot.idx[pos++]];
    depth += (c == '[' || c == '{');
    depth -= (c == ']' || c == '}');
  } while (depth);
  return pos;
}

/* Indexes the fields of the object at structural `start`. False if the
 * table cannot describe it: too few fields, an escaped or duplicate key, a
 * malformed field, keys whose hashes collide too often, no memory. A
 * scalar value is one structural (the cursor has read or skipped every
 * field once); only containers are walked. The document and the table are
 * held in locals: stores to the slots could otherwise alias them, and every
 * field reloaded them (query abc: the build took 178 ns, now 134). */
static bool build(fj_parser *p, uint32_t start) {
  if (!reset(p)) return false;
  const uint8_t *const buf = p->hot.buf;
  const uint32_t *const idx = p->hot.idx;
  const uint32_t n = p->hot.n;
  const bool backslashes = p->hot.backslashes;
  fj__field_slot *slots = p->fields.slots;
  uint32_t mask = p->fields.mask, pos = start + 1, k = 0;
  for (;;) {
    if (pos + 3 >= n) return false;
    const uint8_t *const open = buf + idx[pos], *const colon = buf + idx[pos + 1];
    if (*open != '"' || *colon != ':') return false;
    const uint8_t *close = colon - 1;
    while (*close != '"') /* whitespace */
      close--;
    const uint8_t *const raw = open + 1;
    const size_t len = (size_t)(close - raw);
    if (backslashes && fj__find_backslash(p, raw, len) != len) return false;
    if (2 * (k + 1) > mask + 1) { /* keep it at most half full */
      if (!make_room(p, k)) return false;
      slots = p->fields.slots;
      mask = p->fields.mask;
    }
    const uint64_t id = fj__key_id(raw, len);
    fj__field_slot *slot = fj__slots_probe(slots, mask, buf, idx, raw, len, id);
    if (!slot || slot->vpos) return false; /* too many collisions, or a duplicate key */
    const uint32_t vpos = pos + 2;
    *slot = (fj__field_slot){id, (uint32_t)len, vpos};
    k++;
    const uint8_t vc = buf[idx[vpos]];
    if (!fj__is_value_start(vc)) return false;
    if (vc == '[' || vc == '{') {
      if (!(pos = past_container(p, vpos)) || pos >= n) return false;
    } else {
      pos = vpos + 1; /* < n: checked above */
    }
    const uint8_t c = buf[idx[pos++]];
    if (c == '}') return k >= MIN_FIELDS;
    if (c != ',') return false;
  }
}

bool fj__fields_wrapped(fj_parser *p, const fj_object *o) {
  fj__field_table *t = &p->fields;
  if (t->serial == o->serial) return false; /* described already */
  t->serial = o->serial;
  t->usable = build(p, o->start);
  return t->usable;
}

void fj__fields_free(fj_parser *p) {
  fj__free(&p->alloc, p->fields.slots, (size_t)p->fields.cap * sizeof *p->fields.slots);
}
