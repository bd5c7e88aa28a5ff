/* Full validation against RFC 8259: one pass over the structural index with
 * an explicit stack (no recursion, so depth costs memory, not C stack). */
#include "ondemand/internal.h"
#include "ondemand/number.h"

enum { IN_ARRAY = 1, IN_OBJECT = 2 };

/* Checks the scalar at structural pos: string escapes, number grammar,
 * literal spelling, and that numbers and literals end at a delimiter. */
fj_error fj__check_scalar(fj_parser *p, uint32_t pos) {
  const uint8_t *s = p->hot.buf + p->hot.idx[pos], *end = p->hot.buf + p->hot.len;
  size_t n = 0;
  if (*s == '"') return fj__check_string(p, pos);
  fj_error err = FJ_OK;
  if (*s == '-' || (*s >= '0' && *s <= '9')) {
    int is_integer;
    err = fj__number_scan(s, end, &n, &is_integer);
  } else {
    static const char *const words[] = {"true", "false", "null"};
    const char *w = *s == 't' ? words[0] : *s == 'f' ? words[1] : *s == 'n' ? words[2] : NULL;
    if (!w) return fj__fail(p, FJ_ERR_EXPECTED_VALUE, p->hot.idx[pos]);
    while (w[n] && s + n < end && s[n] == (uint8_t)w[n])
      n++;
    if (w[n]) /* cut off by the end of the input ("[tru"): truncated, not misspelt */
      return fj__cut_off(p, s + n) ? fj__fail(p, FJ_ERR_TRUNCATED, p->hot.idx[pos] + n)
                                   : fj__fail(p, FJ_ERR_BAD_LITERAL, p->hot.idx[pos]);
  }
  if (err) /* a number cut off by the end of the input ("[1.", "-"): truncated */
    return fj__fail(p, err == FJ_ERR_BAD_NUMBER && fj__cut_off(p, s + n) ? FJ_ERR_TRUNCATED : err,
                    p->hot.idx[pos] + n);
  if (s + n < end && !fj__is_delimiter(s[n]))
    return fj__fail(p,
                    *s == '-' || (*s >= '0' && *s <= '9') ? FJ_ERR_BAD_NUMBER : FJ_ERR_BAD_LITERAL,
                    p->hot.idx[pos] + n);
  return FJ_OK;
}

/* Whether the literal `word` (n bytes) is at s, followed by a delimiter or
 * `end`; memcmp of a constant length compiles to one or two compares. */
static inline bool good_literal(const uint8_t *s, const uint8_t *end, const char *word, size_t n) {
  return (size_t)(end - s) >= n && memcmp(s, word, n) == 0 &&
         (s + n == end || fj__is_delimiter(s[n]));
}

/* The number of ASCII digits at the start of the 8 bytes at s (8: perhaps
 * more follow), from one load. */
static inline size_t digit_run8(const uint8_t *s) {
#if FJ_SWAR
  uint64_t w;
  memcpy(&w, s, 8);
  uint64_t bad = fj__nondigit_bytes(w);
  return bad ? (size_t)__builtin_ctzll(bad) / 8 : 8;
#else
  (void)s;
  return 0; /* unused: plain_number_ok() declines first */
#endif
}

/* Past the digits from q on, 8 a step (the rest of a long integer: citm's
 * 9- and 13-digit ids); NULL where the caller's memory ends too soon. Out
 * of line: inline, the loop moved the code of every other scalar and cost
 * short-number documents (random, github_events) 7-25%. */
static FJ_NOINLINE const uint8_t *skip_digits(const uint8_t *q, const uint8_t *read_end) {
  size_t a;
  do {
    if (read_end - q < 9) return NULL;
    q += a = digit_run8(q);
  } while (a == 8);
  return q;
}

/* Whether a number without an exponent is well formed and ends at a
 * delimiter or at `end`, reading whole words where the caller's memory
 * reaches far enough. False decides nothing: fj__number_scan() then
 * decides, exactly as before. */
static inline bool plain_number_ok(const uint8_t *s, const uint8_t *end, const uint8_t *read_end) {
  const uint8_t *q = s + (*s == '-');
  if (!FJ_SWAR || read_end - q < 24) return false;
  /* one digit and a delimiter (64 % of instruments.json's numbers) needs no
   * word: s[1] is readable, and past `end` only a delimiter is taken, which
   * ends the number there as `end` would. It costs every other number a
   * few instructions: validate instruments.json 12 % faster, twitter 3 %;
   * marine_ik, mesh and numbers 5-9 % slower (A/B, bench/ab), which were
   * 1.3-1.6x simdjson's speed and instruments below it. */
  if ((unsigned)(s[0] - '0') < 10u && fj__is_delimiter(s[1])) return true;
  size_t a = digit_run8(q);
  if (a == 0 || (q[0] == '0' && a > 1)) return false;
  q += a;
  if (a == 8 && !(q = skip_digits(q, read_end))) return false;
  if (*q == '.') {
    if (read_end - q < 9) return false; /* after a long integer part: '.' and 8 more */
    size_t b = digit_run8(++q);
    if (b == 0) return false;
    q += b;
    while (b == 8) { /* long fractions (coordinates): 8 digits a step */
      if (read_end - q < 9) return false;
      q += b = digit_run8(q);
    }
  }
  if (q >= end) return q == end;
  return (*q | 0x20) != 'e' && fj__is_delimiter(*q);
}

/* Whether stage 1 saw no \u escape in the blocks holding the bytes from s
 * to last: then the string between them is known good (stage 1 checked its
 * bytes and escape characters; only \u escapes are left), without the scan
 * for a backslash, which reads the whole string (gsoc's long texts, whose
 * blocks often hold a \n but rarely a \u: 16% of its validation). */
static inline bool no_u_escape(const fj_parser *p, const uint8_t *s, const uint8_t *last) {
  if (!p->u_blocks) return false;
  return fj__blocks_zero(p->u_blocks, (size_t)(s - p->hot.bs_base) >> 6,
                         (size_t)(last - p->hot.bs_base) >> 6);
}

/* fj__check_scalar(), with the common cases inline (forced: gcc kept it a
 * call, whose frame cost 13-26% of validation time): any string of a
 * document without \u escapes (stage 1 has checked its bytes and escape
 * characters; only a \u escape's hex digits and surrogates are left), a
 * string without a backslash (about half of all structurals in typical
 * documents), a well-formed literal, a number without an exponent. */
static inline FJ_ALWAYS_INLINE fj_error check_scalar(fj_parser *p, uint32_t pos) {
  const uint8_t *s = p->hot.buf + p->hot.idx[pos], *end = p->hot.buf + p->hot.len;
  /* tests, strings first, not a switch: its jump table is one indirect
   * branch for every kind of scalar, which predicted worse (and moved
   * with the code's layout): validate twitter 144 -> 131 us, update-center
   * 155 -> 130, instruments 62 -> 59; canada and mesh 3-9% slower */
  const uint8_t c = *s;
  if (FJ_LIKELY(c == '"')) {
    if (!p->u_escapes) return FJ_OK;
    const uint8_t *close = fj__string_close(p, pos);
    if (no_u_escape(p, s, close)) return FJ_OK;
    size_t len = (size_t)(close - s - 1);
    if (FJ_LIKELY(fj__find_backslash(p, s + 1, len) == len)) return FJ_OK;
  } else if (c == 't') {
    if (good_literal(s, end, "true", 4)) return FJ_OK;
  } else if (c == 'f') {
    if (good_literal(s, end, "false", 5)) return FJ_OK;
  } else if (c == 'n') {
    if (good_literal(s, end, "null", 4)) return FJ_OK;
  } else if (plain_number_ok(s, end, p->read_end)) {
    return FJ_OK; /* numbers; near the end of the input, and with exponents, out of line */
  }
  return fj__check_scalar(p, pos);
}

static fj_error fail_at(fj_parser *p, fj_error e, uint32_t pos) {
  p->err_wanted = e;
  return fj__fail(p, pos >= p->hot.n ? FJ_ERR_TRUNCATED : e, fj__offset(p, pos));
}

/* Whether the string opened at byte `open` closes before byte x (its
 * escapes followed: a backslash takes the next byte). */
static bool closes_before(const uint8_t *buf, size_t open, size_t x) {
  for (size_t i = open + 1; i < x; i++) {
    if (buf[i] == '\\')
      i++;
    else if (buf[i] == '"')
      return true;
  }
  return false;
}

/* Stage 1 refused the byte at x (its first error: invalid UTF-8, a control
 * character, a bad escape letter, an unclosed string), but the document may
 * go wrong earlier in a way only the structure shows (`{"a":1}}` before a
 * bad escape on the next line). Stage 1 indexed the whole input all the
 * same, and the structurals before x are right, so they are validated as a
 * document that is cut short where the last whole token before x ends. A
 * string last before x that does not close before it reaches past it, so
 * the cut comes before it, and the string only counts as "something is
 * there": an error if the structure wanted no value or key there. An error
 * in front of the cut is the first in the document; reaching the cut is
 * none (that looks like a truncated document), and stage 1's stands.
 * An unclosed string (x is its quote) is cut the same way: whether it is
 * refused depends on what follows it, so what the structure says of its
 * quote comes first, as when it closes (`[1"a`, `{"a""b`: BAD_NUMBER and
 * EXPECTED_COLON at the quote, as `[1"a"]` and `{"a""b":1}`). */
fj_error fj__first_error(fj_parser *p, fj_error err, size_t x) {
  const uint32_t n = p->hot.n;
  const size_t len = p->hot.len;
  if (len >= 3 && memcmp(p->hot.buf, "\xEF\xBB\xBF", 3) == 0) return fj__fail(p, FJ_ERR_BOM, 0);
  uint32_t lo = 0, hi = n; /* the number of structurals before x */
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (p->hot.idx[mid] < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  bool string_cut =
      lo && fj__char(p, lo - 1) == '"' && !closes_before(p->hot.buf, p->hot.idx[lo - 1], x);
  size_t cut = x;
  if (string_cut)
    cut = p->hot.idx[--lo];
  else
    string_cut = err == FJ_ERR_UNCLOSED_STRING; /* x is its quote */
  fj_error first = FJ_OK;
  p->err_wanted = FJ_OK;
  if (lo) {
    const bool goes_on = p->text_goes_on;
    fj__cursor_set_count(&p->hot, lo);
    /* the quote at the cut stays (not its structural): a number or literal
     * run into it is broken there, as in `[1"a"]`, whatever the string holds */
    fj__cursor_set_document(&p->hot, p->hot.buf, cut + string_cut);
    p->text_goes_on = true; /* a number or literal at the cut is not cut off: `[tr"` is bad */
    first = fj__validate_document(p);
    fj__cursor_set_count(&p->hot, n);
    fj__cursor_set_document(&p->hot, p->hot.buf, len);
    p->text_goes_on = goes_on;
  }
  /* a number or literal broken by the quote of a string cut off is the
   * first fault too (`[-"\xff`); one broken by the refused byte itself is
   * a tie, which stage 1's error takes (`[1\xff]`: FJ_ERR_UTF8) */
  const bool broken = string_cut && (first == FJ_ERR_BAD_NUMBER || first == FJ_ERR_BAD_LITERAL);
  if (first && (p->err_offset < cut || (p->err_offset == cut && broken))) return first;
  if (string_cut && lo) { /* the string at the cut: was something else due? */
    if (!first) return fj__fail(p, FJ_ERR_TRAILING_CONTENT, cut);
    fj_error wanted = p->err_wanted;
    if (first == FJ_ERR_TRUNCATED &&
        (wanted == FJ_ERR_EXPECTED_COMMA || wanted == FJ_ERR_EXPECTED_COLON))
      return fj__fail(p, wanted, cut);
  }
  return fj__fail(p, err, x);
}

fj_error fj_parser_validate(fj_parser *p, const void *json, size_t len) {
  fj_value root;
  fj_error err = fj__parse_for_validation(p, json, len, &root);
  if (err) return err;
  err = fj__validate_document(p);
  /* an invalid document is not held, whichever stage found it (its error
   * and location are): fj_parser_rewind() refuses it, as after a failed
   * fj_parser_parse() */
  if (err) p->doc = p->hot.cur = 0;
  return err;
}

fj_error fj__validate_document(fj_parser *p) {
  uint64_t *kind = p->hot.open; /* reused as the container stack */
  uint32_t pos = 0, depth = 0;
  fj_error result = FJ_OK;
  for (;;) {
    /* a value is due at pos */
    uint8_t c = fj__char(p, pos);
    if (c == '[' || c == '{') {
      if (++depth > p->hot.max_depth) {
        result = fj__fail(p, FJ_ERR_DEPTH, p->hot.idx[pos]);
        break;
      }
      kind[depth] = c == '[' ? IN_ARRAY : IN_OBJECT;
      uint8_t next = fj__char(p, ++pos);
      if (next == (c == '[' ? ']' : '}')) {
        pos++;
        depth--;
      } else if (c == '[') {
        continue;
      } else {
        goto key;
      }
    } else if (pos >= p->hot.n) {
      result = fail_at(p, FJ_ERR_EXPECTED_VALUE, pos);
      break;
    } else {
      if ((result = check_scalar(p, pos))) break;
      pos++;
    }
    /* after a value: close containers, or find the next value */
    for (;;) {
      if (depth == 0) {
        if (pos != p->hot.n) result = fj__fail(p, FJ_ERR_TRAILING_CONTENT, p->hot.idx[pos]);
        goto done;
      }
      c = fj__char(p, pos);
      if (c == (kind[depth] == IN_ARRAY ? ']' : '}')) {
        pos++;
        depth--;
        continue;
      }
      if (c != ',') {
        result = fail_at(p, FJ_ERR_EXPECTED_COMMA, pos);
        goto done;
      }
      pos++;
      break;
    }
    if (kind[depth] == IN_ARRAY) continue;
  key:
    if (fj__char(p, pos) != '"') {
      result = fail_at(p, FJ_ERR_EXPECTED_KEY, pos);
      break;
    }
    if ((result = check_scalar(p, pos))) break;
    if (fj__char(p, pos + 1) != ':') {
      result = fail_at(p, FJ_ERR_EXPECTED_COLON, pos + 1);
      break;
    }
    pos += 2;
  }
done:
  /* the stack was overwritten: start over at the root if read again (deeper
   * handles then fail their depth check) */
  p->hot.pos = p->hot.depth = 0;
  p->hot.open[0] = p->hot.cur = p->doc;
  return result;
}
