/* Lines and columns of byte offsets, by fj_location's rule (private): a
 * line ends at LF (0x0A); a column is one code point of valid UTF-8, or one
 * byte that is not part of a valid sequence (a lone continuation byte, a
 * cut-off or overlong sequence, a surrogate), so that invalid input moves
 * the column on as a byte-oriented editor would and valid input as a
 * character-oriented one. The parser's errors and the stream's use it.
 *
 * Bytes go through a state machine one at a time (fj__column_state), so
 * that a stream can count a line in pieces cut anywhere and get what one
 * pass gets: a sequence's first byte takes a column at once; its
 * continuation bytes take theirs only if the sequence breaks off (they are
 * kept pending until then). A column asked for inside an unfinished
 * sequence counts it as one character. */
#ifndef FJ_UTIL_LOCATION_H
#define FJ_UTIL_LOCATION_H

#include <stddef.h>
#include <stdint.h>

#include "scan/utf8_scalar.h"

typedef struct fj__column_state {
  fj__utf8_dfa dfa; /* the sequence in progress (need 0: none) */
  uint8_t pending;  /* its continuation bytes so far */
} fj__column_state;

/* A state at a line's start, or wherever counting starts afresh. */
static inline fj__column_state fj__column_start(void) {
  fj__column_state st = {{0, 0, 0}, 0};
  return st;
}

/* Moves *column over byte c (not LF). */
static inline void fj__column_byte(fj__column_state *st, uint8_t c, uint64_t *column) {
  if (st->dfa.need) {
    /* the validator's step: a byte out of range leaves its state as it was */
    if (fj__utf8_step(&st->dfa, c)) { /* continues the sequence */
      st->pending = st->dfa.need ? (uint8_t)(st->pending + 1) : 0;
      return;
    }
    *column += st->pending; /* broken off: its bytes were each invalid */
    st->pending = 0;
    st->dfa.need = 0;
  }
  ++*column;
  if (c >= 0x80 && !fj__utf8_step(&st->dfa, c)) st->dfa.need = 0; /* a byte alone */
}

/* Moves (*line, *column, *st) over the bytes d[a, b). */
static inline void fj__advance_location(const uint8_t *d, size_t a, size_t b, uint64_t *line,
                                        uint64_t *column, fj__column_state *st) {
  for (size_t i = a; i < b; i++) {
    if (d[i] == '\n') {
      ++*line;
      *column = 1;
      *st = fj__column_start();
    } else {
      fj__column_byte(st, d[i], column);
    }
  }
}

/* Moves (*column, *st) over the bytes d[a, b), which hold no LF. */
static inline void fj__advance_columns(const uint8_t *d, size_t a, size_t b, uint64_t *column,
                                       fj__column_state *st) {
  for (size_t i = a; i < b; i++)
    fj__column_byte(st, d[i], column);
}

#endif
