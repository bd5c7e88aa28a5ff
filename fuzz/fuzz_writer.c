/* libFuzzer target: writer events in, the same values back out.
 *
 * The input is a header (writer flags, indent, depth limit, which sink and
 * its parameter) and then a program of writer events. Every event goes to
 * up to three writers: the one under test with the chosen sink, a
 * reference with a growable buffer sink and the same options, and, when
 * pretty, a compact twin. A model of the state machine that writer.h
 * documents predicts every result, misuse included, so a wrong error is
 * caught as surely as a crash. At the end:
 *  - the reference output parses (with the cursor) to exactly the accepted
 *    values: strings byte for byte (invalid UTF-8 replaced by U+FFFD per
 *    maximal subpart, Unicode section 3.9, when asked; copied when not
 *    checked, and then the parse must fail with FJ_ERR_UTF8), doubles bit
 *    for bit, integers exactly, raw text unchanged;
 *  - the sink under test holds the same bytes (a fixed buffer: a prefix,
 *    with `needed` exact; a failing callback: a prefix);
 *  - pretty output minifies to what the compact twin minifies to.
 * Any disagreement aborts. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fastjson.h"

/* ---- growable bytes ------------------------------------------------------- */

typedef struct bytes {
  uint8_t *data;
  size_t len, cap;
} bytes;

static void bytes_add(bytes *b, const void *p, size_t n) {
  if (b->len + n > b->cap) {
    size_t cap = (b->len + n) * 2 + 64;
    uint8_t *d = realloc(b->data, cap);
    if (!d) abort();
    b->data = d;
    b->cap = cap;
  }
  if (n) memcpy(b->data + b->len, p, n);
  b->len += n;
}

static fj_error bytes_sink(void *ctx, const void *p, size_t n) {
  bytes_add(ctx, p, n);
  return FJ_OK;
}

/* ---- the input ------------------------------------------------------------ */

typedef struct input {
  const uint8_t *p;
  size_t n;
} input;

static uint8_t take(input *in) {
  if (!in->n) return 0;
  in->n--;
  return *in->p++;
}

/* Up to `want` bytes of the input (fewer at its end). */
static const uint8_t *take_n(input *in, size_t want, size_t *got) {
  const uint8_t *p = in->p;
  *got = want < in->n ? want : in->n;
  in->p += *got;
  in->n -= *got;
  return p;
}

static uint64_t take_u64(input *in) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v = v << 8 | take(in);
  return v;
}

/* ---- UTF-8 oracle (Unicode 15, section 3.9, table 3-7) ---------------------- */

/* The length of the maximal subpart of a well-formed sequence at s (at
 * least 1); *whole says it is a complete character. */
static size_t utf8_subpart(const uint8_t *s, size_t n, bool *whole) {
  uint8_t c = s[0], lo = 0x80, hi = 0xBF;
  size_t need;
  if (c < 0x80)
    need = 1;
  else if (c >= 0xC2 && c <= 0xDF)
    need = 2;
  else if (c == 0xE0)
    need = 3, lo = 0xA0;
  else if (c == 0xED)
    need = 3, hi = 0x9F;
  else if (c >= 0xE1 && c <= 0xEF)
    need = 3;
  else if (c == 0xF0)
    need = 4, lo = 0x90;
  else if (c == 0xF4)
    need = 4, hi = 0x8F;
  else if (c >= 0xF1 && c <= 0xF3)
    need = 4;
  else
    need = 0; /* never a lead byte */
  size_t i = 1;
  for (; i < need && i < n; i++) {
    uint8_t b = s[i];
    if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xBF)) break;
  }
  *whole = need && i == need;
  return i;
}

enum { UTF8_CHECK, UTF8_REPLACE, UTF8_COPY };

/* Appends what a string should read back as to `out`; returns whether the
 * input was well-formed. */
static bool expected_text(int mode, const uint8_t *s, size_t n, bytes *out) {
  if (!n) return true; /* s may be NULL */
  bool valid = true;
  size_t kept = 0; /* s[kept, i) is copied as it is, in one go */
  for (size_t i = 0; i < n;) {
    bool whole;
    size_t k = utf8_subpart(s + i, n - i, &whole);
    valid &= whole;
    if (!whole && mode != UTF8_COPY) {
      bytes_add(out, s + kept, i - kept);
      bytes_add(out, "\xEF\xBF\xBD", 3);
      kept = i + k;
    }
    i += k;
  }
  bytes_add(out, s + kept, n - kept);
  return valid;
}

/* ---- events --------------------------------------------------------------- */

enum {
  EV_BEGIN_OBJ,
  EV_END_OBJ,
  EV_BEGIN_ARR,
  EV_END_ARR,
  EV_KEY,
  EV_STRING,
  EV_INT,
  EV_UINT,
  EV_DOUBLE,
  EV_BOOL,
  EV_NULL,
  EV_RAW,
  EV_FLUSH
};

typedef struct event {
  int op;
  const char *s; /* EV_KEY, EV_STRING, EV_RAW: may be NULL with n > 0 (misuse) */
  size_t n;
  uint64_t u; /* EV_INT, EV_UINT, EV_BOOL */
  double d;
} event;

static const char *const raws[] = {"0",
                                   "-12.5e-3",
                                   "true",
                                   "null",
                                   "\"r\\u00e9\\ud83d\\ude00\"",
                                   "[]",
                                   "{}",
                                   "[1,[2,{\"k\":\"v\"}]]",
                                   "\"\"",
                                   "{\"a\" : [ null ] }",
                                   "1e400"};
#define RAW_COUNT (sizeof raws / sizeof *raws)
#define RAW_DEPTH 3 /* the deepest raw value */

static double special_double(uint8_t k) {
  static const double table[] = {0.0,
                                 -0.0,
                                 1.0,
                                 0.1,
                                 1e21,
                                 1e-7,
                                 5e-324,
                                 1.7976931348623157e308,
                                 9007199254740993.0,
                                 2.2250738585072014e-308,
                                 123456789012345680000.0,
                                 1e23};
  k %= sizeof table / sizeof *table + 3;
  if (k == 0) return NAN;
  if (k == 1) return INFINITY;
  if (k == 2) return -INFINITY;
  return table[k - 3];
}

/* A string longer than the writer's 4 KiB chunks: a short pattern of the
 * input repeated, so multi-byte sequences straddle every chunk boundary. */
static const char *long_text(input *in, bytes *scratch, size_t *n) {
  uint8_t b = take(in); /* lengths around one or two chunk boundaries */
  size_t len = (b & 128 ? 8150 : 4050) + (size_t)(b & 127), plen;
  const uint8_t *pat = take_n(in, (size_t)take(in) % 16 + 1, &plen);
  scratch->len = 0;
  while (plen && scratch->len < len)
    bytes_add(scratch, pat, plen < len - scratch->len ? plen : len - scratch->len);
  *n = scratch->len;
  return (const char *)scratch->data;
}

/* Decodes the next event; its strings point into the input or `scratch`. */
static event next_event(input *in, bytes *scratch) {
  uint8_t b = take(in);
  event e = {.op = b & 15};
  switch (b & 15) {
  case EV_BEGIN_OBJ:
  case EV_END_OBJ:
  case EV_BEGIN_ARR:
  case EV_END_ARR: break;
  case 4:
  case 5: e.s = (const char *)take_n(in, take(in), &e.n); break;
  case 6: e.op = EV_INT, e.u = take_u64(in); break;
  case 7: e.op = EV_UINT, e.u = take_u64(in); break;
  case 8: {
    uint64_t bits = take_u64(in);
    e.op = EV_DOUBLE;
    memcpy(&e.d, &bits, 8);
    break;
  }
  case 9: e.op = EV_DOUBLE, e.d = special_double(b >> 4); break;
  case 10: e.op = EV_BOOL, e.u = b >> 7; break;
  case 11: e.op = EV_NULL; break;
  case 12: e.op = EV_RAW, e.s = raws[(b >> 4) % RAW_COUNT], e.n = strlen(e.s); break;
  case 13: e.op = EV_FLUSH; break;
  case 14: /* a long key or string */
    e.op = b & 16 ? EV_KEY : EV_STRING;
    e.s = long_text(in, scratch, &e.n);
    break;
  case 15: /* a NULL pointer: empty is fine, a length is misuse */
    e.op = b & 16 ? EV_KEY : EV_STRING;
    e.n = (b >> 5) & 1;
    break;
  }
  return e;
}

static fj_error apply(fj_writer *w, const event *e) {
  switch (e->op) {
  case EV_BEGIN_OBJ: return fj_writer_begin_object(w);
  case EV_END_OBJ: return fj_writer_end_object(w);
  case EV_BEGIN_ARR: return fj_writer_begin_array(w);
  case EV_END_ARR: return fj_writer_end_array(w);
  case EV_KEY: return fj_writer_keyn(w, e->s, e->n);
  case EV_STRING: return fj_writer_stringn(w, e->s, e->n);
  case EV_INT: return fj_writer_int64(w, (int64_t)e->u);
  case EV_UINT: return fj_writer_uint64(w, e->u);
  case EV_DOUBLE: return fj_writer_double(w, e->d);
  case EV_BOOL: return fj_writer_bool(w, e->u != 0);
  case EV_NULL: return fj_writer_null(w);
  case EV_RAW: return fj_writer_raw(w, e->s, e->n);
  default: return fj_writer_flush(w);
  }
}

/* ---- the model of writer.h ------------------------------------------------ */

enum { M_ROOT, M_ARRAY, M_KEY, M_VALUE, M_DONE };

typedef struct model {
  uint8_t is_object[1u << 10]; /* per open level */
  uint32_t depth, max_depth;
  int state;
  int utf8;        /* UTF8_* */
  bool nan_null;   /* FJ_WRITE_NONFINITE_AS_NULL */
  fj_error failed; /* the sink's error: the state is frozen from then on */
} model;

static fj_error value_misuse(const model *m) {
  if (m->state == M_KEY) return FJ_ERR_EXPECTED_KEY;
  return m->state == M_DONE ? FJ_ERR_TRAILING_CONTENT : FJ_OK;
}

static fj_error key_misuse(const model *m) {
  if (m->state == M_KEY) return FJ_OK;
  return m->state == M_DONE ? FJ_ERR_TRAILING_CONTENT : FJ_ERR_EXPECTED_VALUE;
}

static fj_error end_misuse(const model *m, bool object) {
  switch (m->state) {
  case M_ARRAY: return object ? FJ_ERR_WRONG_TYPE : FJ_OK;
  case M_KEY: return object ? FJ_OK : FJ_ERR_WRONG_TYPE;
  case M_DONE: return FJ_ERR_TRAILING_CONTENT;
  default: return FJ_ERR_EXPECTED_VALUE;
  }
}

static fj_error misuse(const model *m, const event *e) {
  if (!e->s && e->n && (e->op == EV_KEY || e->op == EV_STRING)) return FJ_ERR_INVALID_ARG;
  switch (e->op) {
  case EV_END_OBJ: return end_misuse(m, true);
  case EV_END_ARR: return end_misuse(m, false);
  case EV_KEY: return key_misuse(m);
  case EV_FLUSH: return FJ_OK;
  default: return value_misuse(m);
  }
}

/* The error the writer may report besides misuse (UTF-8, depth, range). */
static fj_error extra_error(const model *m, const event *e) {
  bool whole = true;
  if ((e->op == EV_KEY || e->op == EV_STRING) && e->s && m->utf8 == UTF8_CHECK)
    for (size_t i = 0; i < e->n && whole;
         i += utf8_subpart((const uint8_t *)e->s + i, e->n - i, &whole))
      ;
  if (!whole) return FJ_ERR_UTF8;
  if ((e->op == EV_BEGIN_OBJ || e->op == EV_BEGIN_ARR) && m->depth >= m->max_depth)
    return FJ_ERR_DEPTH;
  if (e->op == EV_DOUBLE && !isfinite(e->d) && !m->nan_null) return FJ_ERR_NUMBER_RANGE;
  return FJ_OK;
}

/* Whether `got` is a result the writer may give for `e` in state `m`. */
static bool acceptable(const model *m, const event *e, fj_error got) {
  fj_error want = misuse(m, e);
  if (want) return got == want;
  want = extra_error(m, e);
  /* after a sink failure, the order of the extra checks and the sink's
   * error is not specified */
  if (m->failed) return got == m->failed || (want && got == want);
  return got == want;
}

static void model_commit(model *m, const event *e) {
  static const int after[] = {[M_ROOT] = M_DONE, [M_ARRAY] = M_ARRAY, [M_VALUE] = M_KEY};
  switch (e->op) {
  case EV_BEGIN_OBJ:
  case EV_BEGIN_ARR:
    m->is_object[m->depth++] = e->op == EV_BEGIN_OBJ;
    m->state = e->op == EV_BEGIN_OBJ ? M_KEY : M_ARRAY;
    break;
  case EV_END_OBJ:
  case EV_END_ARR:
    m->depth--;
    m->state = m->depth == 0 ? M_DONE : m->is_object[m->depth - 1] ? M_KEY : M_ARRAY;
    break;
  case EV_KEY: m->state = M_VALUE; break;
  case EV_FLUSH: break;
  default: m->state = after[m->state]; break;
  }
}

/* ---- the record of accepted values ------------------------------------------ */

enum {
  T_BEGIN_OBJ,
  T_END_OBJ,
  T_BEGIN_ARR,
  T_END_ARR,
  T_KEY,
  T_STRING,
  T_INT,
  T_UINT,
  T_DOUBLE,
  T_BOOL,
  T_NULL,
  T_RAW
};

typedef struct token {
  int type;
  uint64_t u;
  double d;
  size_t off, len; /* T_KEY, T_STRING, T_RAW: the expected text in record.text */
} token;

typedef struct record {
  token *t;
  size_t n, cap, at;
  bytes text;
  bool invalid_copied; /* invalid UTF-8 was written unchecked */
} record;

static void record_add(record *r, token t) {
  if (r->n == r->cap) {
    r->cap = r->cap * 2 + 64;
    r->t = realloc(r->t, r->cap * sizeof *r->t);
    if (!r->t) abort();
  }
  r->t[r->n++] = t;
}

static void record_event(record *r, const model *m, const event *e) {
  static const int types[] = {T_BEGIN_OBJ, T_END_OBJ, T_BEGIN_ARR, T_END_ARR, T_KEY,  T_STRING,
                              T_INT,       T_UINT,    T_DOUBLE,    T_BOOL,    T_NULL, T_RAW};
  if (e->op == EV_FLUSH) return;
  token t = {.type = types[e->op], .u = e->u, .d = e->d, .off = r->text.len};
  if (e->op == EV_DOUBLE && !isfinite(e->d)) t.type = T_NULL; /* FJ_WRITE_NONFINITE_AS_NULL */
  if (e->op == EV_KEY || e->op == EV_STRING)
    r->invalid_copied |=
        !expected_text(m->utf8, (const uint8_t *)e->s, e->n, &r->text) && m->utf8 == UTF8_COPY;
  if (e->op == EV_RAW) bytes_add(&r->text, e->s, e->n);
  t.len = r->text.len - t.off;
  record_add(r, t);
}

/* ---- reading the output back ------------------------------------------------ */

static void must(fj_error e) {
  if (e) abort();
}

static void same_text(const record *r, const token *t, const char *s, size_t n) {
  if (n != t->len || (n && memcmp(s, r->text.data + t->off, n))) abort();
}

static void check_value(record *r, fj_value *v);

static void check_object(record *r, fj_value *v) {
  fj_object o;
  fj_value k, val;
  const char *s;
  size_t n;
  must(fj_value_get_object(v, &o));
  while (r->t[r->at].type != T_END_OBJ) {
    must(fj_object_next(&o, &k, &val));
    const token *t = &r->t[r->at++];
    if (t->type != T_KEY) abort();
    must(fj_value_get_string(&k, &s, &n));
    same_text(r, t, s, n);
    check_value(r, &val);
  }
  if (fj_object_next(&o, &k, &val) != FJ_END) abort();
  r->at++;
}

static void check_array(record *r, fj_value *v) {
  fj_array a;
  fj_value el;
  must(fj_value_get_array(v, &a));
  while (r->t[r->at].type != T_END_ARR) {
    must(fj_array_next(&a, &el));
    check_value(r, &el);
  }
  if (fj_array_next(&a, &el) != FJ_END) abort();
  r->at++;
}

static void check_value(record *r, fj_value *v) {
  const token *t = &r->t[r->at++];
  const char *s;
  size_t n;
  int64_t i;
  uint64_t u;
  double d;
  bool b = true;
  switch (t->type) {
  case T_BEGIN_OBJ: check_object(r, v); break;
  case T_BEGIN_ARR: check_array(r, v); break;
  case T_STRING: must(fj_value_get_string(v, &s, &n)), same_text(r, t, s, n); break;
  case T_RAW: must(fj_value_get_raw(v, &s, &n)), same_text(r, t, s, n); break;
  case T_INT: must(fj_value_get_int64(v, &i)), b = i == (int64_t)t->u; break;
  case T_UINT: must(fj_value_get_uint64(v, &u)), b = u == t->u; break;
  case T_DOUBLE: must(fj_value_get_double(v, &d)), b = memcmp(&d, &t->d, 8) == 0; break;
  case T_BOOL: must(fj_value_get_bool(v, &b)), b = b == (t->u != 0); break;
  case T_NULL: must(fj_value_is_null(v, &b)); break;
  default: abort(); /* a key or an end where a value belongs */
  }
  if ((t->type >= T_INT && t->type <= T_NULL) && !b) abort();
}

static fj_parser *reader(void) {
  static fj_parser *p;
  fj_parser_options o = {.max_depth = (1u << 10) + RAW_DEPTH};
  if (!p && fj_parser_new(&p, &o)) abort();
  return p;
}

/* The reference output against the record. */
static void check_output(record *r, const bytes *out) {
  fj_parser *p = reader();
  fj_error v = fj_parser_validate(p, out->data, out->len);
  if (r->invalid_copied) {
    if (v != FJ_ERR_UTF8) abort();
    return;
  }
  must(v);
  fj_value root;
  must(fj_parser_parse(p, out->data, out->len, &root));
  r->at = 0;
  check_value(r, &root);
  if (r->at != r->n) abort();
}

/* minify(a) == minify(b): pretty output is compact output plus whitespace. */
static void check_same_minified(const bytes *a, const bytes *b) {
  bytes ma = {0}, mb = {0};
  must(fj_minify(reader(), a->data, a->len, (fj_sink){bytes_sink, &ma}));
  must(fj_minify(reader(), b->data, b->len, (fj_sink){bytes_sink, &mb}));
  if (ma.len != mb.len || memcmp(ma.data, mb.data, ma.len)) abort();
  free(ma.data);
  free(mb.data);
}

/* ---- the sinks under test ---------------------------------------------------- */

enum { S_CALLBACK, S_FIXED, S_COUNT_ONLY, S_FAILING, S_BUFFER_APPEND, S_KINDS };

typedef struct target {
  int kind;
  size_t param;
  bytes got;        /* S_CALLBACK, S_FAILING: what the sink accepted */
  bool sink_failed; /* S_FAILING: the callback has returned its error */
  fj_fixed_buffer fb;
  fj_buffer buf; /* S_BUFFER_APPEND: `param` bytes already there */
} target;

/* A callback sink that fails once `param` bytes would be exceeded. */
static fj_error target_write(void *ctx, const void *p, size_t n) {
  target *t = ctx;
  if (n > 65536) abort(); /* writer.h: chunks of up to 64 KiB */
  if (t->kind == S_FAILING && (t->sink_failed || t->got.len + n > t->param)) {
    t->sink_failed = true;
    return FJ_ERR_IO;
  }
  bytes_add(&t->got, p, n);
  return FJ_OK;
}

static fj_sink target_sink(target *t) {
  switch (t->kind) {
  case S_FIXED:
    t->fb = (fj_fixed_buffer){malloc(t->param ? t->param : 1), t->param, 0, 0};
    return fj_sink_fixed(&t->fb);
  case S_COUNT_ONLY: return fj_sink_fixed(&t->fb);
  case S_BUFFER_APPEND: {
    fj_sink s = fj_sink_buffer(&t->buf);
    for (size_t i = 0; i < t->param; i++)
      if (s.write(s.ctx, "x", 1)) abort();
    return s;
  }
  default: return (fj_sink){target_write, t};
  }
}

/* The bytes the sink under test holds, and whether they may be a prefix only. */
static const uint8_t *target_bytes(target *t, size_t *n, bool *prefix) {
  *prefix = t->kind == S_FAILING || t->kind == S_FIXED || t->kind == S_COUNT_ONLY;
  switch (t->kind) {
  case S_FIXED:
  case S_COUNT_ONLY: *n = t->fb.len; return t->fb.data;
  case S_BUFFER_APPEND:
    /* no prefix and no output: the buffer may still hold no memory (NULL) */
    if (t->buf.len < t->param ||
        (t->param && memcmp(t->buf.data, "xxxx", t->param < 4 ? t->param : 4)))
      abort();
    *n = t->buf.len - t->param;
    return t->buf.data ? t->buf.data + t->param : NULL; /* no arithmetic on NULL */
  default: *n = t->got.len; return t->got.data;
  }
}

static void target_free(target *t) {
  free(t->got.data);
  if (t->kind == S_FIXED) free(t->fb.data);
  fj_buffer_free(&t->buf);
}

/* ---- one run ---------------------------------------------------------------- */

typedef struct run {
  fj_writer *w[3]; /* under test, reference, compact twin (or NULL) */
  model m[3];
  fj_buffer out[2]; /* of the reference and the twin */
  target t;
  record r;
  bytes scratch;
} run;

static void setup(run *x, input *in) {
  uint32_t flags = take(in) & 0x7F, indent = take(in) % 17;
  x->t.kind = take(in) % S_KINDS;
  uint32_t max_depth = take(in) & 31;
  x->t.param = take(in);
  x->t.param |= (size_t)take(in) << 8;
  if (x->t.kind == S_BUFFER_APPEND) x->t.param %= 100;
  fj_writer_options o = {.flags = flags, .indent = indent, .max_depth = max_depth};
  fj_writer_options compact = o;
  compact.flags &= ~(uint32_t)(FJ_WRITE_PRETTY | FJ_WRITE_TABS);
  if (fj_writer_new(&x->w[0], &o, target_sink(&x->t)) ||
      fj_writer_new(&x->w[1], &o, fj_sink_buffer(&x->out[0])) ||
      ((flags & FJ_WRITE_PRETTY) && fj_writer_new(&x->w[2], &compact, fj_sink_buffer(&x->out[1]))))
    abort();
  bool unicode = flags & FJ_WRITE_ESCAPE_UNICODE, replace = flags & FJ_WRITE_REPLACE_INVALID_UTF8;
  for (int i = 0; i < 3; i++) {
    x->m[i].max_depth = max_depth ? max_depth : FJ_DEFAULT_MAX_DEPTH;
    x->m[i].nan_null = flags & FJ_WRITE_NONFINITE_AS_NULL;
    x->m[i].utf8 = (flags & FJ_WRITE_NO_VALIDATE_UTF8) && !unicode ? UTF8_COPY
                   : replace                                       ? UTF8_REPLACE
                                                                   : UTF8_CHECK;
  }
}

/* One event through writer i, checked against its model. */
static void step(run *x, int i, const event *e) {
  if (!x->w[i]) return;
  model *m = &x->m[i];
  fj_error got = apply(x->w[i], e);
  if (got == FJ_ERR_NOMEM) abort(); /* nothing here is big enough */
  if (!acceptable(m, e, got)) {
    /* the callback may fail during any event that writes */
    if (!(i == 0 && x->t.sink_failed && got == FJ_ERR_IO && !misuse(m, e))) abort();
    m->failed = FJ_ERR_IO;
  }
  if (got) return;
  if (i == 1) record_event(&x->r, m, e);
  model_commit(m, e);
}

/* What fj_writer_finish() must return for writer i. */
static fj_error finish_expected(const run *x, int i) {
  const model *m = &x->m[i];
  if (m->failed) return m->failed; /* before an incomplete document: nothing can complete it */
  if (m->state == M_ROOT) return FJ_ERR_EMPTY;
  if (m->state != M_DONE) return FJ_ERR_TRUNCATED;
  return m->failed;
}

/* Finishes writer i (flushing what there is when the document is not
 * complete); returns whether the document is complete. */
static bool finish(run *x, int i) {
  fj_error want = finish_expected(x, i), got = fj_writer_finish(x->w[i]);
  if (i == 0 && !want && x->t.kind == S_FAILING && got == FJ_ERR_IO && x->t.sink_failed) {
    x->m[0].failed = got;
    want = got;
  }
  if (i == 0 && !want && (x->t.kind == S_FIXED || x->t.kind == S_COUNT_ONLY) &&
      x->t.fb.needed > x->t.fb.cap)
    want = FJ_ERR_BUFFER_TOO_SMALL;
  if (got != want) abort();
  if (got && got != FJ_ERR_BUFFER_TOO_SMALL) {
    fj_error f = fj_writer_flush(x->w[i]);
    if (f != x->m[i].failed && !(i == 0 && f == FJ_ERR_IO && x->t.sink_failed)) abort();
  }
  size_t size;
  must(fj_writer_size(x->w[i], &size));
  if (i == 1 && size != x->out[0].len) abort();
  return got == FJ_OK;
}

/* The sink under test against the reference. */
static void check_target(run *x) {
  size_t n;
  bool prefix;
  const uint8_t *got = target_bytes(&x->t, &n, &prefix);
  const fj_buffer *ref = &x->out[0];
  if (n > ref->len || (!prefix && n != ref->len) || (n && memcmp(got, ref->data, n))) abort();
  bool fixed = x->t.kind == S_FIXED || x->t.kind == S_COUNT_ONLY;
  if (fixed &&
      (x->t.fb.needed != ref->len || n > x->t.fb.cap || (ref->len <= x->t.fb.cap && n != ref->len)))
    abort();
  if (x->t.kind == S_CALLBACK && n != ref->len) abort();
  if (x->t.kind == S_FAILING && !x->t.sink_failed && n != ref->len) abort();
}

static void teardown(run *x) {
  for (int i = 0; i < 3; i++)
    fj_writer_free(x->w[i]);
  fj_buffer_free(&x->out[0]);
  fj_buffer_free(&x->out[1]);
  target_free(&x->t);
  free(x->r.t);
  free(x->r.text.data);
  free(x->scratch.data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  input in = {data, size};
  static run x; /* the model's stack is large: not on the stack */
  memset(&x, 0, sizeof x);
  setup(&x, &in);
  while (in.n) {
    event e = next_event(&in, &x.scratch);
    for (int i = 0; i < 3; i++)
      step(&x, i, &e);
  }
  bool complete = finish(&x, 1);
  finish(&x, 0);
  check_target(&x);
  if (x.w[2] && finish(&x, 2) != complete) abort();
  if (complete) check_output(&x.r, &(bytes){x.out[0].data, x.out[0].len, x.out[0].cap});
  if (complete && x.w[2] && !x.r.invalid_copied)
    check_same_minified(&(bytes){x.out[0].data, x.out[0].len, 0},
                        &(bytes){x.out[1].data, x.out[1].len, 0});
  teardown(&x);
  return 0;
}
