/* Byte-at-a-time UTF-8 validation (RFC 3629 section 4), shared by the scalar
 * kernel and the error locator so both agree on every input.
 *
 * The state is the number of continuation bytes still due and the allowed
 * range of the next one: the first continuation byte carries the extra
 * limits that exclude overlong forms (E0, F0), surrogates (ED) and code
 * points above U+10FFFF (F4).
 */
#ifndef FJ_SCAN_UTF8_SCALAR_H
#define FJ_SCAN_UTF8_SCALAR_H

#include <stdbool.h>
#include <stdint.h>

typedef struct fj__utf8_dfa {
  uint8_t need; /* continuation bytes still due */
  uint8_t lo, hi;
} fj__utf8_dfa;

/* Feeds one byte; returns false if the byte makes the input invalid. */
static inline bool fj__utf8_step(fj__utf8_dfa *s, uint8_t c) {
  if (s->need) {
    if (c < s->lo || c > s->hi) return false;
    s->need--;
    s->lo = 0x80;
    s->hi = 0xBF;
    return true;
  }
  if (c < 0x80) return true;
  s->lo = 0x80;
  s->hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    s->need = 1;
  } else if (c >= 0xE0 && c <= 0xEF) {
    s->need = 2;
    if (c == 0xE0) s->lo = 0xA0; /* overlong below U+0800 */
    if (c == 0xED) s->hi = 0x9F; /* U+D800..DFFF are surrogates */
  } else if (c >= 0xF0 && c <= 0xF4) {
    s->need = 3;
    if (c == 0xF0) s->lo = 0x90; /* overlong below U+10000 */
    if (c == 0xF4) s->hi = 0x8F; /* above U+10FFFF */
  } else {
    return false; /* 80..C1 as a lead byte, F5..FF */
  }
  return true;
}

#endif
