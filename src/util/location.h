/* Lines and columns of byte offsets, by fj_location's rule (private): a
 * line ends at LF (0x0A); a column is one code point of valid UTF-8, or one
 * byte that is not part of a valid sequence (a lone continuation byte, a
 * cut-off or overlong sequence, a surrogate), so that invalid input moves
 * the column on as a byte-oriented editor would and valid input as a
 * character-oriented one. The parser's errors and the stream's use it. */
#ifndef FJ_UTIL_LOCATION_H
#define FJ_UTIL_LOCATION_H

#include <stddef.h>
#include <stdint.h>

#include "scan/utf8_scalar.h"

/* The length of the valid UTF-8 sequence that starts at d[i] and ends
 * before d[end] (1 for ASCII), or 1 when none does: the byte then counts
 * alone (RFC 3629 section 4, as the validators decide it). */
static inline size_t fj__column_bytes(const uint8_t *d, size_t i, size_t end) {
  if (d[i] < 0x80) return 1;
  fj__utf8_dfa s = {0, 0, 0};
  size_t k = i;
  do {
    if (!fj__utf8_step(&s, d[k])) return 1;
    k++;
  } while (s.need && k < end);
  return s.need ? 1 : k - i;
}

/* Moves (*line, *column) over the bytes d[a, b). A valid sequence that
 * begins before b and ends after it counts as bytes: callers pass ranges
 * that end at a structural or a line end, where none can. */
static inline void fj__advance_location(const uint8_t *d, size_t a, size_t b, uint64_t *line,
                                        uint64_t *column) {
  for (size_t i = a; i < b;) {
    if (d[i] == '\n') {
      ++*line;
      *column = 1;
      i++;
    } else {
      ++*column;
      i += fj__column_bytes(d, i, b);
    }
  }
}

/* The columns the bytes d[a, b), which hold no LF, take. */
static inline uint64_t fj__columns(const uint8_t *d, size_t a, size_t b) {
  uint64_t line = 1, column = 0;
  fj__advance_location(d, a, b, &line, &column);
  return column;
}

#endif
