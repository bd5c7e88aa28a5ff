/* The on-demand cursor: entering containers, stepping through elements and
 * fields, skipping, and the checks that turn misuse into errors.
 *
 * The parser keeps one forward-moving position in the structural index and
 * the number of containers it is inside. Each container entry gets a serial
 * number, stored in open[depth]; a handle remembers the serial of its
 * parent, so a handle whose container has been left (or re-entered after a
 * rewind) no longer matches and is refused instead of misread. */
#include <string.h>

#include "ondemand/field_table.h"

/* Bytes that can start a JSON value. */
const bool fj__value_start[256] = {
    ['"'] = true, ['{'] = true, ['['] = true, ['-'] = true, ['0'] = true, ['1'] = true,
    ['2'] = true, ['3'] = true, ['4'] = true, ['5'] = true, ['6'] = true, ['7'] = true,
    ['8'] = true, ['9'] = true, ['t'] = true, ['f'] = true, ['n'] = true};

/* Bytes that may follow a number or literal (fj__is_delimiter). */
const bool fj__delimiter[256] = {
    [' '] = true, ['\n'] = true, ['\r'] = true, ['\t'] = true, [','] = true,
    [']'] = true, ['}'] = true,  [':'] = true,  ['['] = true,  ['{'] = true};

const int8_t fj__bracket_delta[256] = {['['] = 1, ['{'] = 1, [']'] = -1, ['}'] = -1};

/* Branch-free depth steps, four structurals a step, from *pos up to `end`
 * while none of the four reaches the target and the depth limit is out of
 * reach (a step moves the depth by at most one): one branch for four, their
 * loads side by side. Skipped structurals are mostly unpredictable. */
static inline void skip_fours(const uint8_t *buf, const uint32_t *idx, uint32_t end,
                              uint32_t *pos_io, uint32_t *depth_io, uint32_t target,
                              uint32_t max_depth) {
  const int8_t *delta = fj__bracket_delta;
  uint32_t pos = *pos_io, depth = *depth_io;
  while (depth > target && pos + 4 <= end && depth + 4 <= max_depth) {
    uint32_t a = depth + (uint32_t)(int32_t)delta[buf[idx[pos]]];
    uint32_t b = a + (uint32_t)(int32_t)delta[buf[idx[pos + 1]]];
    uint32_t c = b + (uint32_t)(int32_t)delta[buf[idx[pos + 2]]];
    uint32_t d = c + (uint32_t)(int32_t)delta[buf[idx[pos + 3]]];
    if (!((a > target) & (b > target) & (c > target) & (d > target))) break;
    depth = d;
    pos += 4;
  }
  *pos_io = pos;
  *depth_io = depth;
}

fj_error fj__skip_to_depth(fj_parser *p, uint32_t target) {
  uint32_t pos = p->hot.pos, depth = p->hot.depth;
  const uint32_t n = p->hot.n, *idx = p->hot.idx, max_depth = p->hot.max_depth;
  const uint8_t *buf = p->hot.buf;
  /* most skips are short: their first 16 structurals four at a time, and
   * only a longer one goes on in groups of 16 (skip.c), if the kernel has a
   * group skipper; the last few one by one */
  const uint32_t quick_end = pos + 16 < n ? pos + 16 : n;
  skip_fours(buf, idx, quick_end, &pos, &depth, target, max_depth);
  if (pos == quick_end && depth > target && pos + 16 <= n && p->skip_groups) {
    p->skip_groups(buf, p->read_end, idx, n, &pos, &depth, target, max_depth);
    skip_fours(buf, idx, n, &pos, &depth, target, max_depth);
  }
  while (depth > target) {
    if (FJ_UNLIKELY(pos >= n)) {
      p->hot.pos = pos;
      p->hot.depth = depth;
      p->hot.cur = 0; /* no entry is open at that depth: handles take the slow check */
      return fj__fail(p, FJ_ERR_TRUNCATED, p->hot.len);
    }
    depth += (uint32_t)(int32_t)fj__bracket_delta[buf[idx[pos++]]];
    if (FJ_UNLIKELY(depth > max_depth)) {
      p->hot.pos = pos - 1;
      return fj__fail(p, FJ_ERR_DEPTH, idx[pos - 1]);
    }
  }
  p->hot.pos = pos;
  p->hot.depth = depth;
  p->hot.cur = p->hot.open[depth];
  return FJ_OK;
}

fj_error fj__mismatched_close(fj_parser *p, uint32_t close) {
  /* named as validation names it: after '{' a key was due, after '[', ','
   * or ':' a value, else a ',' or the matching bracket */
  uint8_t before = close ? fj__char(p, close - 1) : 0;
  fj_error e = before == '{'                                     ? FJ_ERR_EXPECTED_KEY
               : before == '[' || before == ',' || before == ':' ? FJ_ERR_EXPECTED_VALUE
                                                                 : FJ_ERR_EXPECTED_COMMA;
  return fj__fail(p, e, fj__offset(p, close));
}

/* Skips the container whose opening bracket is at the cursor. */
static fj_error skip_container(fj_parser *p) {
  const uint32_t depth = p->hot.depth, open = p->hot.pos;
  const uint64_t cur = p->hot.cur;
  if (depth + 1 > p->hot.max_depth) return fj__fail(p, FJ_ERR_DEPTH, fj__offset(p, p->hot.pos));
  p->hot.pos++;
  p->hot.depth = depth + 1;
  fj_error err = fj__skip_to_depth(p, depth);
  if (!err) err = fj__check_pair(p, open, p->hot.pos - 1);
  if (!err) {
    p->hot.left = fj__left_word(open, p->hot.pos);
    return FJ_OK;
  }
  /* the cursor goes back to the bracket: the same call again skips again
   * and reports the same error, not a cursor it cannot account for */
  p->hot.pos = open;
  p->hot.depth = depth;
  p->hot.cur = cur;
  return err;
}

/* fj__skip_current, inlined where the cursor steps over values: a scalar
 * is one structural. */
static inline fj_error skip_value(fj_parser *p) {
  uint8_t c = fj__char(p, p->hot.pos);
  if (FJ_LIKELY(c != '[' && c != '{')) {
    p->hot.pos++;
    return FJ_OK;
  }
  return skip_container(p);
}

fj_error fj__skip_current(fj_parser *p) { return skip_value(p); }

/* A call that fails zeroes the handle it would have written (if any): a
 * zeroed handle is refused (FJ_ERR_INVALID_ARG) by every later call, so a
 * caller who ignores the error cannot read through a stale or uninitialised
 * one. Returns err. */
static fj_error refused(fj_error err, fj_value *out) {
  if (out) *out = (fj_value){0};
  return err;
}

/* Whether v is the cursor's current, unread value. */
static bool is_current(const fj_parser *p, const fj_value *v) {
  return p->hot.pos == v->pos && p->hot.depth == fj__depth(v);
}

/* The depth of the children of the container v. */
static inline uint32_t child_depth(const fj_value *v) { return fj__depth(v) + 1; }

/* Enters the container v, which must be of `type`. */
static fj_error enter(const fj_value *v, fj_type type, uint64_t *serial) {
  fj_error err = fj__check_value(v);
  if (err) return err;
  fj_parser *p = v->parser;
  /* the handle's type, not the byte: no loads for the cursor to wait on */
  if (fj_value_type(v) != type) return fj__fail(p, FJ_ERR_WRONG_TYPE, fj__offset(p, v->pos));
  if (!is_current(p, v)) return fj__fail(p, FJ_ERR_OUT_OF_ORDER, fj__offset(p, v->pos));
  const uint32_t depth = fj__depth(v) + 1;
  if (depth > p->hot.max_depth) return fj__fail(p, FJ_ERR_DEPTH, fj__offset(p, v->pos));
  *serial = ++p->hot.serial;
  p->hot.open[depth] = *serial;
  p->hot.open_at[depth] = v->pos;
  p->hot.cur = *serial;
  p->hot.depth = depth;
  p->hot.pos = v->pos + 1;
  return FJ_OK;
}

fj_error(fj_value_get_array)(const fj_value *v, fj_array *out) {
  if (!out) return FJ_ERR_INVALID_ARG; /* before entering: the cursor stays */
  uint64_t serial;
  fj_error err = enter(v, FJ_TYPE_ARRAY, &serial);
  if (err) {
    *out = (fj_array){0}; /* refused by every later call */
    return err;
  }
  *out = (fj_array){v->parser, serial, v->pos, child_depth(v), v->pos, FJ_ITER_FRESH};
  return FJ_OK;
}

fj_error(fj_value_get_object)(const fj_value *v, fj_object *out) {
  if (!out) return FJ_ERR_INVALID_ARG; /* before entering: the cursor stays */
  uint64_t serial;
  fj_error err = enter(v, FJ_TYPE_OBJECT, &serial);
  if (err) {
    *out = (fj_object){0}; /* refused by every later call */
    return err;
  }
  *out = (fj_object){v->parser, serial, v->pos, child_depth(v), v->pos, FJ_ITER_FRESH};
  return FJ_OK;
}

/* The step of an iteration that has ended: FJ_END, or for the root
 * container's, when content follows it, FJ_ERR_TRAILING_CONTENT again (as
 * the step that closed it said): a caller that tries once more is not told
 * the document ended well. The root's entry stays in open[1] after it
 * closes, and nothing moves the cursor from its closing bracket but a
 * rewind (fj_parser_rewind(), a JSON Pointer), which clears it (entering
 * the root again then replaces it): if it is not this iteration's serial,
 * the iteration is out of date and the cursor's position says nothing of
 * what follows the root. */
static fj_error ended(fj_parser *p, uint64_t serial, uint32_t depth, uint32_t start) {
  if (depth != 1) return FJ_END;
  if (p->hot.open[1] != serial) return fj__fail(p, FJ_ERR_OUT_OF_ORDER, fj__offset(p, start));
  if (p->hot.pos < p->hot.n) return fj__fail(p, FJ_ERR_TRAILING_CONTENT, fj__offset(p, p->hot.pos));
  return FJ_END;
}

/* Whether the cursor, directly inside an iteration, stands where that
 * iteration left it: on its previous element (at `last`), or right after
 * it, having stepped over a scalar or left or skipped a container; for a
 * fresh iteration, on its first structural. Otherwise another copy of the
 * iteration has stepped on, and this one is out of date. */
static inline bool where_left(const fj_parser *p, uint32_t state, uint32_t last, uint32_t start) {
  const uint32_t pos = p->hot.pos;
  if (state == FJ_ITER_FRESH) return pos == start + 1 && p->hot.handed != pos;
  return pos == last || pos == last + 1 || fj__left_word(last, pos) == p->hot.left;
}

/* Leaves the containers the caller entered and has not finished, from the
 * cursor's depth out to `depth`, matching each one's closing bracket with
 * its opening one, as skipping a container whole does (what lies between
 * is only bracket-matched): {"a":[1,2},"b":2}, read as far as the 1, is
 * FJ_ERR_EXPECTED_COMMA at the '}' when the object steps on. A container
 * the cursor stands on (handed out, not entered) is skipped first, its own
 * pair checked too: {"a":[[1}],"b":2}, read as far as the [1}. */
static fj_error leave_to_depth(fj_parser *p, uint32_t depth) {
  if (p->hot.pos < p->hot.n) {
    const uint8_t c = fj__char(p, p->hot.pos);
    if (c == '[' || c == '{') {
      fj_error err = skip_container(p);
      if (err) return err;
    }
  }
  for (uint32_t level = p->hot.depth; level > depth; level--) {
    const uint32_t open = p->hot.open_at[level];
    fj_error err = fj__skip_to_depth(p, level - 1);
    if (!err) err = fj__check_pair(p, open, p->hot.pos - 1);
    if (err) return err;
  }
  return FJ_OK;
}

/* Checks an iteration and brings the cursor to the position after its
 * previous element: out of whatever child the caller entered, and over the
 * previous element if the caller did not read it. The usual case (the
 * cursor at the iteration's depth) costs a few compares. An iteration that
 * is not where it left the cursor (a copy of it stepped on) is refused:
 * reading on would skip what the copy read. */
static inline fj_error settle(fj_parser *p, uint64_t serial, uint32_t depth, uint32_t state,
                              uint32_t last, uint32_t start) {
  if (FJ_LIKELY(p->hot.cur == serial)) { /* directly inside: open, not done */
    if (FJ_UNLIKELY(!where_left(p, state, last, start)))
      return fj__fail(p, FJ_ERR_OUT_OF_ORDER, fj__offset(p, start));
    return p->hot.pos == last ? skip_value(p) : FJ_OK;
  }
  if (FJ_UNLIKELY(!p->doc || serial < p->doc)) return fj__fail(p, FJ_ERR_STALE_DOCUMENT, 0);
  if (FJ_UNLIKELY(state == FJ_ITER_DONE)) return ended(p, serial, depth, start);
  /* the caller entered the previous element, and no other */
  if (!fj__entry_open(p, serial, depth) || state != FJ_ITER_MIDDLE ||
      p->hot.open_at[depth + 1] != last)
    return fj__fail(p, FJ_ERR_OUT_OF_ORDER, fj__offset(p, start));
  const uint32_t pos = p->hot.pos, inner = p->hot.depth;
  const uint64_t cur = p->hot.cur;
  fj_error err = leave_to_depth(p, depth);
  if (err) { /* as skip_container(): back to where the skip began */
    p->hot.pos = pos;
    p->hot.depth = inner;
    p->hot.cur = cur;
  }
  return err;
}

fj_error fj__check_value_slow(const fj_value *v) {
  fj_parser *p = v->parser;
  if (!p->doc || v->parent < p->doc) return fj__fail(p, FJ_ERR_STALE_DOCUMENT, 0);
  if (!fj__entry_open(p, v->parent, fj__depth(v)))
    return fj__fail(p, FJ_ERR_OUT_OF_ORDER, fj__offset(p, v->pos));
  return FJ_OK;
}

/* Leaves the container whose closing bracket is at the cursor (its opening
 * one at structural start). */
static fj_error close_container(fj_parser *p, uint32_t start, uint32_t *state) {
  p->hot.left = fj__left_word(start, ++p->hot.pos);
  p->hot.depth--;
  p->hot.cur = p->hot.open[p->hot.depth];
  *state = FJ_ITER_DONE;
  if (p->hot.depth == 0 && p->hot.pos != p->hot.n)
    return fj__fail(p, FJ_ERR_TRAILING_CONTENT, fj__offset(p, p->hot.pos));
  return FJ_END;
}

/* The error for a byte where a value was due. */
static fj_error expected_value(fj_parser *p, uint32_t pos) {
  return fj__fail(p, pos >= p->hot.n ? FJ_ERR_TRUNCATED : FJ_ERR_EXPECTED_VALUE,
                  fj__offset(p, pos));
}

static fj_error expected_comma(fj_parser *p, uint32_t pos) {
  return fj__fail(p, pos >= p->hot.n ? FJ_ERR_TRUNCATED : FJ_ERR_EXPECTED_COMMA,
                  fj__offset(p, pos));
}

/* The general step of fj_array_next(). */
static FJ_NOINLINE fj_error array_next(fj_array *a, fj_value *elem) {
  if (FJ_UNLIKELY(!a || !a->parser)) return FJ_ERR_INVALID_ARG;
  fj_parser *p = a->parser;
  fj_error err = settle(p, a->serial, a->depth, a->state, a->last, a->start);
  if (FJ_UNLIKELY(err)) return err;
  uint32_t pos = p->hot.pos;
  uint8_t c = fj__char(p, pos);
  if (FJ_LIKELY(a->state == FJ_ITER_MIDDLE)) {
    if (FJ_LIKELY(c == ','))
      c = fj__char(p, ++pos);
    else if (c == ']')
      return close_container(p, a->start, &a->state);
    else
      return expected_comma(p, pos);
  } else if (c == ']') {
    return close_container(p, a->start, &a->state);
  }
  /* the cursor moves only with an element: after an error it stays, and the
   * same call again reports the same error */
  if (FJ_UNLIKELY(!fj__is_value_start(c))) return expected_value(p, pos);
  p->hot.pos = pos;
  a->state = FJ_ITER_MIDDLE;
  a->last = pos;
  p->hot.handed = pos; /* the cursor stays on it */
  if (elem) fj__put_handle(elem, p, pos, a->depth, a->serial, c);
  return FJ_OK;
}

/* The leaf steps of fj_array_next() and fj_object_next() cover the common
 * cases: the cursor is at the iteration's depth with at least `reach`
 * structurals after it, and the previous element is a scalar the cursor has
 * stepped over (or, if it came from a lookup, is still on), or a container
 * read to its end, or there is none yet. Containers to skip, the end of the
 * index, errors and misuse take the general step, which repeats every
 * check. */
enum { LEAF_GENERAL, LEAF_CLOSED, LEAF_NEXT };

/* Closes the container when its closing bracket `close` comes next (the
 * root's is left to the general step, which checks what follows it), or
 * finds the structural where the next element starts: *at, after the ','
 * that must come first unless the iteration is fresh. */
static inline int leaf_step(fj_parser *p, uint64_t serial, uint32_t depth, uint32_t *state,
                            uint32_t last, uint32_t start, uint32_t reach, uint8_t close,
                            uint32_t *at) {
  uint32_t pos = p->hot.pos;
  if (FJ_UNLIKELY(p->hot.cur != serial || pos + reach >= p->hot.n)) return LEAF_GENERAL;
  if (FJ_UNLIKELY(!where_left(p, *state, last, start))) return LEAF_GENERAL;
  const uint8_t *buf = p->hot.buf;
  const uint32_t *idx = p->hot.idx;
  uint8_t c;
  if (*state == FJ_ITER_MIDDLE) {
    if (pos == last) { /* still on the previous element: a scalar is one structural */
      uint8_t prev = buf[idx[pos]];
      if (prev == '[' || prev == '{') return LEAF_GENERAL;
      pos++;
    }
    c = buf[idx[pos]];
    if (FJ_LIKELY(c == ',')) {
      *at = pos + 1;
      return LEAF_NEXT;
    }
  } else if (*state == FJ_ITER_FRESH) {
    c = buf[idx[pos]];
    if (c != close) {
      *at = pos;
      return LEAF_NEXT;
    }
  } else {
    return LEAF_GENERAL;
  }
  if (c != close || (depth == 1 && pos + 1 != p->hot.n)) return LEAF_GENERAL;
  p->hot.pos = pos + 1;
  p->hot.left = fj__left_word(start, pos + 1);
  p->hot.depth--;
  p->hot.cur = p->hot.open[p->hot.depth];
  *state = FJ_ITER_DONE;
  return LEAF_CLOSED;
}

/* The byte of structural pos, which a leaf step has checked is in the index. */
static inline uint8_t leaf_char(const fj_parser *p, uint32_t pos) {
  return p->hot.buf[p->hot.idx[pos]];
}

void fj__clean_window(fj__cursor *c, const uint8_t *s) {
  /* blocks up to the document's end (a stream's batch may go on) */
  const size_t b = (size_t)(s - c->bs_base) >> 6,
               blocks = ((size_t)(c->buf - c->bs_base) + c->len + 63) >> 6;
  size_t next = b;        /* the first block with a backslash from b on, or blocks */
  while (next < blocks) { /* 8 map bytes a load (8 zeroed bytes of slack follow them) */
    uint64_t w;
    memcpy(&w, c->bs_blocks + next, sizeof w);
    if (w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
      next += (size_t)__builtin_clzll(w) >> 3; /* byte next is the highest */
#else
      next += (size_t)__builtin_ctzll(w) >> 3; /* byte next is the lowest */
#endif
      break;
    }
    next += 8;
  }
  c->clean_lo = c->bs_base + (b << 6);
  c->clean_hi = next >= blocks ? c->buf + c->len : c->bs_base + (next << 6);
}

fj_error(fj_array_next)(fj_array *a, fj_value *elem) {
  if (FJ_LIKELY(a && a->parser)) {
    fj_parser *p = a->parser;
    uint32_t pos;
    int r = leaf_step(p, a->serial, a->depth, &a->state, a->last, a->start, 2, ']', &pos);
    if (r == LEAF_CLOSED) return refused(FJ_END, elem);
    unsigned t;
    if (r == LEAF_NEXT && FJ_LIKELY(t = fj__type_of[leaf_char(p, pos)])) {
      fj__step_over(&p->hot, pos, t);
      a->state = FJ_ITER_MIDDLE;
      a->last = pos;
      if (elem) fj__put_handle_t(elem, p, pos, a->depth, a->serial, t);
      return FJ_OK;
    }
  }
  fj_error err = array_next(a, elem);
  return err ? refused(err, elem) : FJ_OK;
}

fj_error fj_array_at(fj_array *a, size_t i, fj_value *elem) {
  fj_value v;
  for (size_t k = 0;; k++) {
    fj_error err = fj_array_next(a, &v);
    if (err == FJ_END)
      err = fj__fail(a->parser, FJ_ERR_INDEX_RANGE, fj__offset(a->parser, a->start));
    if (err) return refused(err, elem);
    if (k == i) break;
  }
  if (elem) *elem = v;
  return FJ_OK;
}

/* Reads one field at the cursor (which is at ',' / '}' or, in a fresh
 * iteration, at the first key) and moves the cursor onto its value. *closed
 * is set when the object ends there; the cursor then stays on the '}'. On an
 * error the cursor stays: the same call again reports the same error. */
static inline fj_error read_field(fj_parser *p, uint32_t state, uint32_t *key_pos, bool *closed) {
  uint32_t pos = p->hot.pos;
  uint8_t c = fj__char(p, pos);
  *closed = false;
  if (FJ_LIKELY(state == FJ_ITER_MIDDLE)) {
    if (FJ_LIKELY(c == ',')) {
      c = fj__char(p, ++pos);
    } else if (c == '}') {
      *closed = true;
      return FJ_OK;
    } else {
      return expected_comma(p, pos);
    }
  } else if (c == '}') {
    *closed = true;
    return FJ_OK;
  }
  if (FJ_UNLIKELY(c != '"'))
    return fj__fail(p, pos >= p->hot.n ? FJ_ERR_TRUNCATED : FJ_ERR_EXPECTED_KEY,
                    fj__offset(p, pos));
  *key_pos = pos;
  if (FJ_UNLIKELY(fj__char(p, pos + 1) != ':'))
    return fj__fail(p, pos + 1 >= p->hot.n ? FJ_ERR_TRUNCATED : FJ_ERR_EXPECTED_COLON,
                    fj__offset(p, pos + 1));
  pos += 2;
  if (FJ_UNLIKELY(!fj__is_value_start(fj__char(p, pos)))) return expected_value(p, pos);
  p->hot.pos = pos;
  return FJ_OK;
}

/* The general step of fj_object_next(). */
static FJ_NOINLINE fj_error object_next(fj_object *o, fj_value *key, fj_value *value) {
  if (FJ_UNLIKELY(!o || !o->parser)) return FJ_ERR_INVALID_ARG;
  fj_parser *p = o->parser;
  fj_error err = settle(p, o->serial, o->depth, o->state, o->last, o->start);
  if (FJ_UNLIKELY(err)) return err;
  uint32_t key_pos;
  bool closed;
  if (FJ_UNLIKELY(err = read_field(p, o->state, &key_pos, &closed))) return err;
  if (FJ_UNLIKELY(closed)) return close_container(p, o->start, &o->state);
  o->state = FJ_ITER_MIDDLE;
  o->last = p->hot.pos;
  if (key) fj__put_handle(key, p, key_pos, o->depth, o->serial, '"');
  if (value) fj__put_handle(value, p, p->hot.pos, o->depth, o->serial, fj__char(p, p->hot.pos));
  return FJ_OK;
}

/* The step of fj_object_next() and fj_object_next_key(): the key's
 * structural into *key_pos and the value's handle. As fj_array_next(); a
 * field is a key, ':' and the start of a value. */
static inline fj_error object_step(fj_object *o, uint32_t *key_pos, fj_value *value) {
  if (FJ_LIKELY(o && o->parser)) {
    fj_parser *p = o->parser;
    uint32_t pos;
    int r = leaf_step(p, o->serial, o->depth, &o->state, o->last, o->start, 4, '}', &pos);
    if (r == LEAF_CLOSED) return refused(FJ_END, value);
    unsigned t;
    if (r == LEAF_NEXT && FJ_LIKELY(leaf_char(p, pos) == '"' && leaf_char(p, pos + 1) == ':' &&
                                    (t = fj__type_of[leaf_char(p, pos + 2)]))) {
      fj__step_over(&p->hot, pos + 2, t);
      o->state = FJ_ITER_MIDDLE;
      o->last = pos + 2;
      *key_pos = pos;
      if (value) fj__put_handle_t(value, p, pos + 2, o->depth, o->serial, t);
      return FJ_OK;
    }
  }
  fj_value key;
  fj_error err = object_next(o, &key, value);
  if (err) return refused(err, value);
  *key_pos = key.pos;
  return FJ_OK;
}

fj_error fj_object_next(fj_object *o, fj_value *key, fj_value *value) {
  uint32_t key_pos;
  fj_error err = object_step(o, &key_pos, value);
  if (key && err)
    *key = (fj_value){0};
  else if (key)
    fj__put_handle(key, o->parser, key_pos, o->depth, o->serial, '"');
  return err;
}

fj_error(fj_object_next_key)(fj_object *o, const char **key, size_t *key_len, fj_value *value) {
  if (FJ_UNLIKELY(!key || !key_len)) return refused(FJ_ERR_INVALID_ARG, value);
  uint32_t key_pos;
  fj_error err = object_step(o, &key_pos, value);
  if (FJ_LIKELY(!err) && FJ_LIKELY(!(err = fj__string_at(o->parser, key_pos, key, key_len))))
    return FJ_OK;
  *key = NULL;
  *key_len = 0;
  return refused(err, value);
}

/* A lookup found its field's value at structural vpos. */
static fj_error found_at(fj_parser *p, fj_object *o, uint32_t vpos, fj_value *value) {
  p->hot.pos = vpos;
  /* the cursor may have come back (wrapped around) past values handed out
   * before: the mark must not make a fresh iteration of this value's first
   * element look like a copy that already stepped */
  p->hot.handed = vpos;
  o->state = FJ_ITER_MIDDLE;
  o->last = vpos;
  if (value) fj__put_handle(value, p, vpos, o->depth, o->serial, fj__char(p, vpos));
  return FJ_OK;
}

/* fj_object_findn(), told whether the key holds a backslash (checked). */
static fj_error find_field(fj_object *o, const char *key, size_t key_len, bool key_has_bs,
                           fj_value *value) {
  fj_parser *p = o->parser;
  /* a miss puts everything back, even an unread value settle() passes over */
  const uint32_t saved_pos = p->hot.pos, saved_depth = p->hot.depth, saved_last = o->last;
  const uint64_t saved_left = p->hot.left;
  const uint64_t saved_cur = p->hot.cur;
  fj_error err = settle(p, o->serial, o->depth, o->state, o->last, o->start);
  if (err == FJ_END) return fj__fail(p, FJ_ERR_OUT_OF_ORDER, fj__offset(p, o->start));
  if (err) return err;
  const uint32_t from = p->hot.pos, from_state = o->state;
  bool wrapped = false;
  uint32_t found;
  int hit;
  if (!key_has_bs && (hit = fj__fields_lookup(p, o, key, key_len, &found)) >= 0) goto table;
  /* Fast scan over well-formed fields with the cursor in registers. It stops
   * (committing nothing of the field it is on) at anything unusual: a
   * possible error, the end of the index, the end of the search, a key with
   * escapes; the general loop below then takes over from the same state and
   * reports exactly what it always did. */
  {
    const uint8_t *const buf = p->hot.buf;
    const uint32_t *const idx = p->hot.idx;
    const uint32_t n = p->hot.n, start = o->start;
    uint32_t pos = from, state = o->state, last = o->last;
    for (;;) {
      if (wrapped && pos == from) break;
      uint32_t q = pos;
      if (FJ_UNLIKELY(q >= n)) break;
      uint8_t c = buf[idx[q]];
      if (state == FJ_ITER_MIDDLE) {
        if (FJ_LIKELY(c == ',')) {
          if (FJ_UNLIKELY(++q >= n)) break;
          c = buf[idx[q]];
        } else if (c == '}' && !wrapped) {
          if (!key_has_bs && fj__fields_wrapped(p, o)) goto indexed;
          pos = start + 1;
          state = FJ_ITER_FRESH;
          wrapped = true;
          continue;
        } else {
          break;
        }
      } else if (c == '}') {
        break;
      }
      if (FJ_UNLIKELY(c != '"' || q + 2 >= n)) break;
      const uint8_t *colon = buf + idx[q + 1], *open = buf + idx[q];
      const uint32_t vpos = q + 2;
      const uint8_t vc = buf[idx[vpos]];
      if (FJ_UNLIKELY(*colon != ':' || !fj__is_value_start(vc))) break;
      const uint8_t *close = colon - 1;
      while (*close != '"') /* whitespace */
        close--;
      const size_t raw_len = (size_t)(close - open - 1);
      if (raw_len == key_len) {
        if (!key_has_bs && fj__bytes_equal(open + 1, key, key_len))
          return found_at(p, o, vpos, value);
      } else if (raw_len > key_len && fj__key_may_shorten_to(open + 1, key, key_len) &&
                 fj__find_backslash(p, open + 1, raw_len) != raw_len) {
        break; /* escapes that may shorten it to the key: the general loop unescapes */
      }
      if (FJ_UNLIKELY(vc == '[' || vc == '{')) {
        p->hot.pos = vpos;
        if (FJ_UNLIKELY(err = skip_container(p))) {
          o->state = FJ_ITER_MIDDLE;
          o->last = vpos;
          return err;
        }
        pos = p->hot.pos;
      } else {
        pos = vpos + 1;
      }
      state = FJ_ITER_MIDDLE;
      last = vpos;
    }
    p->hot.pos = pos;
    o->state = state;
    o->last = last;
  }
  for (;;) {
    if (wrapped && p->hot.pos == from) /* searched the whole object */
      goto missing;
    uint32_t key_pos;
    bool closed;
    if (FJ_UNLIKELY(err = read_field(p, o->state, &key_pos, &closed))) return err;
    if (FJ_UNLIKELY(closed)) { /* wrap around to the first field, once */
      if (!key_has_bs && fj__fields_wrapped(p, o)) goto indexed;
      p->hot.pos = o->start + 1;
      o->state = FJ_ITER_FRESH;
      wrapped = true;
      continue;
    }
    o->state = FJ_ITER_MIDDLE;
    o->last = p->hot.pos;
    const uint8_t *raw;
    size_t raw_len;
    bool equal;
    fj__raw_key(p, key_pos, &raw, &raw_len);
    if (FJ_UNLIKELY(err = fj__key_equals(p, raw, raw_len, key, key_len, key_has_bs, &equal)))
      return err;
    if (equal) return found_at(p, o, p->hot.pos, value);
    if (FJ_UNLIKELY(err = skip_value(p))) return err;
  }
indexed: /* the object has just been given a field table */
  hit = fj__fields_lookup(p, o, key, key_len, &found);
table:
  if (hit > 0) return found_at(p, o, found, value);
missing:
  o->state = from_state;
  o->last = saved_last;
  p->hot.pos = saved_pos;
  p->hot.depth = saved_depth;
  p->hot.cur = saved_cur;
  p->hot.left = saved_left; /* skips on the way may have moved it */
  return fj__fail(p, FJ_ERR_NO_SUCH_FIELD, fj__offset(p, o->start));
}

/* The common out-of-order lookup, kept out of find_field (whose frame costs
 * more than the lookup): the object has a field table, the cursor is in it
 * at its depth (not inside a field's value) where this copy of the
 * iteration left it (no other copy stepped since), and the key is a field.
 * Then the cursor jumps to the value; the value it was on needs no
 * skipping, as building the table walked every field. Anything else, a
 * miss or a stale copy included, returns false and find_field decides (or
 * refuses) as always. */
static inline bool table_hit(fj_object *o, const char *key, size_t key_len, fj_value *value) {
  fj_parser *p = o->parser;
  uint32_t vpos;
  if (p->hot.cur != o->serial || o->state != FJ_ITER_MIDDLE ||
      !where_left(p, FJ_ITER_MIDDLE, o->last, o->start) ||
      fj__fields_lookup(p, o, key, key_len, &vpos) <= 0)
    return false;
  found_at(p, o, vpos, value);
  return true;
}

/* find_field() and the refusal: out of line, so that the table hits of
 * fj_object_find() and fj_object_findn() end in a tail call instead of a
 * frame that saves registers at every lookup (callgrind, query abc: 17 of
 * 61 instructions per lookup). */
static FJ_NOINLINE fj_error find_or_refuse(fj_object *o, const char *key, size_t key_len,
                                           bool key_has_bs, fj_value *value) {
  if (!key_has_bs && key_len > 8 && table_hit(o, key, key_len, value)) return FJ_OK;
  fj_error err = find_field(o, key, key_len, key_has_bs, value);
  return err ? refused(err, value) : FJ_OK;
}

fj_error fj_object_findn(fj_object *o, const char *key, size_t key_len, fj_value *value) {
  if (FJ_UNLIKELY(!o || !o->parser || (!key && key_len))) return refused(FJ_ERR_INVALID_ARG, value);
  bool has_bs = false;
  if (key_len <= 16) /* the usual key: a short loop beats a call to memchr */
    for (size_t i = 0; i < key_len; i++)
      has_bs |= key[i] == '\\';
  else
    has_bs = memchr(key, '\\', key_len) != NULL;
  if (!has_bs && key_len <= 8 && table_hit(o, key, key_len, value)) return FJ_OK;
  return find_or_refuse(o, key, key_len, has_bs, value);
}

fj_error fj_object_find(fj_object *o, const char *key, fj_value *value) {
  if (FJ_UNLIKELY(!key)) return fj_object_findn(o, NULL, 1, value); /* as findn refuses it */
  if (FJ_UNLIKELY(!o || !o->parser)) return refused(FJ_ERR_INVALID_ARG, value);
  size_t n = 0;
  bool has_bs = false;
  for (; key[n]; n++) /* length and backslashes in one pass */
    has_bs |= key[n] == '\\';
  if (!has_bs && n <= 8 && table_hit(o, key, n, value)) return FJ_OK;
  return find_or_refuse(o, key, n, has_bs, value);
}

fj_error fj_value_skip(const fj_value *v) {
  fj_error err = fj__check_value(v);
  if (err) return err;
  fj_parser *p = v->parser;
  if (!is_current(p, v)) return FJ_OK;
  return skip_value(p);
}

/* What count_children() expects next among a container's own structurals:
 * in an array value, comma; in an object key, colon, value, comma.
 * WANT_NOTHING: the structural seen is not allowed where it stands. */
enum { WANT_VALUE, WANT_COMMA, WANT_KEY, WANT_COLON, WANT_NOTHING };

/* The error for an own structural of the container that the phase `want`
 * does not allow, as fj_parser_validate() names it. */
static fj_error separator_error(unsigned want) {
  return want == WANT_VALUE   ? FJ_ERR_EXPECTED_VALUE
         : want == WANT_COMMA ? FJ_ERR_EXPECTED_COMMA
         : want == WANT_KEY   ? FJ_ERR_EXPECTED_KEY
                              : FJ_ERR_EXPECTED_COLON;
}

/* The phase after the container's own structural c at phase want, or
 * WANT_NOTHING. A value's first byte (a container's opening
 * bracket included) counts as the value; what follows it inside a child is
 * not checked, as for a skip. */
static unsigned next_phase(unsigned want, uint8_t c, bool object) {
  switch (want) {
  case WANT_COMMA: return c == ',' ? (object ? WANT_KEY : WANT_VALUE) : WANT_NOTHING;
  case WANT_KEY: return c == '"' ? WANT_COLON : WANT_NOTHING;
  case WANT_COLON: return c == ':' ? WANT_VALUE : WANT_NOTHING;
  default: return fj__type_of[c] ? WANT_COMMA : WANT_NOTHING; /* `[x]`: no value starts so */
  }
}

/* Counts the children of the container at structural `start` by bracket
 * matching from a local position; the cursor does not move. Its own
 * commas and colons are checked on the way ([1 2] is not one element), and
 * each child's first byte and, for a container, its own bracket pair ([1}
 * passed over is an error, as in a skip); the children's contents are only
 * bracket-matched. */
static fj_error count_children(fj_parser *p, uint32_t start, uint32_t base_depth, size_t *count) {
  uint32_t pos = start + 1, depth = 1, child = 0;
  size_t commas = 0;
  uint8_t c = fj__char(p, pos);
  const bool object = fj__char(p, start) == '{';
  unsigned want = object ? WANT_KEY : WANT_VALUE;
  if (c == ']' || c == '}') {
    *count = 0;
    return fj__check_pair(p, start, pos);
  }
  while (depth) {
    if (pos >= p->hot.n) return fj__fail(p, FJ_ERR_TRUNCATED, p->hot.len);
    c = p->hot.buf[p->hot.idx[pos]];
    if (depth == 1 && !((c == ']' || c == '}') && want == WANT_COMMA)) {
      unsigned next = next_phase(want, c, object);
      if (next == WANT_NOTHING) return fj__fail(p, separator_error(want), p->hot.idx[pos]);
      commas += c == ',';
      want = next;
    }
    if (c == '[' || c == '{') {
      if (base_depth + ++depth > p->hot.max_depth)
        return fj__fail(p, FJ_ERR_DEPTH, p->hot.idx[pos]);
      child = depth == 2 ? pos : child;
    } else if (c == ']' || c == '}') {
      fj_error err = --depth == 1 ? fj__check_pair(p, child, pos) : FJ_OK;
      if (err) return err;
    }
    pos++;
  }
  fj_error err = fj__check_pair(p, start, pos - 1);
  if (err) return err;
  *count = commas + 1;
  return FJ_OK;
}

fj_error fj_array_count(fj_array *a, size_t *count) {
  if (!a || !a->parser || !count) return FJ_ERR_INVALID_ARG;
  if (!a->parser->doc || a->serial < a->parser->doc)
    return fj__fail(a->parser, FJ_ERR_STALE_DOCUMENT, 0);
  return count_children(a->parser, a->start, a->depth - 1, count);
}

fj_error fj_object_count(fj_object *o, size_t *count) {
  if (!o || !o->parser || !count) return FJ_ERR_INVALID_ARG;
  if (!o->parser->doc || o->serial < o->parser->doc)
    return fj__fail(o->parser, FJ_ERR_STALE_DOCUMENT, 0);
  return count_children(o->parser, o->start, o->depth - 1, count);
}

size_t fj_value_offset(const fj_value *v) {
  return v && v->parser ? fj__offset(v->parser, v->pos) : 0; /* a zeroed handle: 0 */
}
