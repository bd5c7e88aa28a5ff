/* Sets of map keys: the duplicate check of map readers (fj_decode_map_key)
 * and of map writers (fj_encode_map_keys). A scan for small maps, from 17
 * keys on an open-addressing hash table of key indexes. */
#include <stdint.h>
#include <string.h>

#include "codec/internal.h"
#include "util/alloc.h"
#include "write/escape.h"
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

/* Whether keys[0, n) are distinct as bytes: FJ_OK, FJ_ERR_DUPLICATE_KEY
 * or FJ_ERR_NOMEM. */
static fj_error distinct(const fj_allocator *alloc, const fj_str *keys, size_t n) {
  fj_decode_keyset set = {0};
  size_t bytes = 0;
  if (n > FJ_KEYSET_SCAN_MAX) {
    if (n > UINT32_MAX / 2) return FJ_ERR_NOMEM; /* indexes are 32 bits */
    size_t size = 32;
    while (size < 2 * n) /* at most half full */
      size *= 2;
    bytes = size * sizeof *set.slots;
    if (!(set.slots = fj__malloc(alloc, bytes))) return FJ_ERR_NOMEM;
    memset(set.slots, 0, bytes);
    set.mask = size - 1;
  }
  fj_error e = FJ_OK;
  for (; set.n < n; set.n++)
    if (fj__keyset_find(keys, &set) != set.n) {
      e = FJ_ERR_DUPLICATE_KEY;
      break;
    }
  fj__free(alloc, set.slots, bytes);
  return e;
}

fj_error fj_encode_map_keys(fj_writer *w, const fj_str *keys, size_t n) {
  if (!w || (!keys && n)) return FJ_ERR_INVALID_ARG;
  for (size_t i = 0; i < n; i++)
    if (!keys[i].data && keys[i].len) return FJ_ERR_INVALID_ARG;
  /* With FJ_WRITE_REPLACE_INVALID_UTF8 two different keys can be written
   * alike ("\xff" and "\xfe" both as U+FFFD): keys that are not UTF-8
   * are compared as they will be written. (Escaping itself writes
   * different keys differently.) Each key is checked once: up to the first
   * that is not UTF-8 here, the rest while copying, room for the copy
   * being reserved for every key from that one on. */
  const bool replace =
      (w->esc & (FJ__ESC_VALIDATE | FJ__ESC_REPLACE)) == (FJ__ESC_VALIDATE | FJ__ESC_REPLACE);
  size_t first = n;
  for (size_t i = 0; replace && i < n && first == n; i++)
    if (keys[i].len && !fj__utf8_valid((const uint8_t *)keys[i].data, keys[i].len)) first = i;
  if (first == n) return distinct(&w->alloc, keys, n);
  size_t extra = 0;
  for (size_t i = first; i < n; i++) {
    if (keys[i].len > (SIZE_MAX - extra) / 3) return FJ_ERR_NOMEM;
    extra += 3 * keys[i].len;
  }
  if (n > (SIZE_MAX - extra) / sizeof *keys) return FJ_ERR_NOMEM;
  const size_t bytes = n * sizeof *keys + extra;
  fj_str *as_written = fj__malloc(&w->alloc, bytes);
  if (!as_written) return FJ_ERR_NOMEM;
  uint8_t *out = (uint8_t *)(as_written + n);
  for (size_t i = 0; i < n; i++) {
    as_written[i] = keys[i];
    if (i == first ||
        (i > first && keys[i].len && !fj__utf8_valid((const uint8_t *)keys[i].data, keys[i].len))) {
      as_written[i].data = (const char *)out;
      as_written[i].len = fj__utf8_replace(out, (const uint8_t *)keys[i].data, keys[i].len);
      out += as_written[i].len;
    }
  }
  fj_error e = distinct(&w->alloc, as_written, n);
  fj__free(&w->alloc, as_written, bytes);
  return e;
}
