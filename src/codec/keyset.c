/* Sets of map keys: the duplicate check of map readers (fj_decode_map_key)
 * and of map writers (fj_encode_map_keys). A scan for small maps, from 17
 * keys on an open-addressing hash table of key indexes. */
#include <stdint.h>
#include <string.h>

#include "codec/internal.h"
#include "util/alloc.h"
#include "write/writer_internal.h"

/* The maps the check scans instead of hashing: up to this many keys. */
#define FJ_KEYSET_SCAN_MAX 16u

/* FNV-1a of a key's bytes. */
static uint64_t key_hash(const char *s, size_t n) {
  uint64_t h = UINT64_C(0xcbf29ce484222325);
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * UINT64_C(0x100000001b3);
  return h;
}

static int same_key(fj_str a, fj_str b) {
  return a.len == b.len && (!a.len || memcmp(a.data, b.data, a.len) == 0);
}

size_t fj__keyset_find(const fj_str *keys, fj_decode_keyset *set) {
  const fj_str k = keys[set->n];
  if (!set->slots) { /* small maps: a scan */
    for (size_t j = 0; j < set->n; j++)
      if (same_key(keys[j], k)) return j;
    return set->n;
  }
  for (size_t i = key_hash(k.data, k.len) & set->mask;; i = (i + 1) & set->mask) {
    uint32_t slot = set->slots[i];
    if (!slot) {
      set->slots[i] = (uint32_t)(set->n + 1);
      return set->n;
    }
    if (same_key(keys[slot - 1], k)) return slot - 1;
  }
}

fj_error fj_encode_map_keys(fj_writer *w, const fj_str *keys, size_t n) {
  if (!w || (!keys && n)) return FJ_ERR_INVALID_ARG;
  for (size_t i = 0; i < n; i++)
    if (!keys[i].data && keys[i].len) return FJ_ERR_INVALID_ARG;
  fj_decode_keyset set = {0};
  size_t bytes = 0;
  if (n > FJ_KEYSET_SCAN_MAX) {
    if (n > UINT32_MAX / 2) return FJ_ERR_NOMEM; /* indexes are 32 bits */
    size_t size = 32;
    while (size < 2 * n) /* at most half full */
      size *= 2;
    bytes = size * sizeof *set.slots;
    if (!(set.slots = fj__malloc(&w->alloc, bytes))) return FJ_ERR_NOMEM;
    memset(set.slots, 0, bytes);
    set.mask = size - 1;
  }
  fj_error e = FJ_OK;
  for (; set.n < n; set.n++)
    if (fj__keyset_find(keys, &set) != set.n) {
      e = FJ_ERR_DUPLICATE_KEY;
      break;
    }
  fj__free(&w->alloc, set.slots, bytes);
  return e;
}
