/* Tests for src/write (writer.c, sink.c, escape.c, itoa.c):
 *  - events -> exact expected text, compact and pretty;
 *  - every output re-read by this library's validator, and (as the
 *    independent oracle) by Python's json module through popen: a Python
 *    script rebuilds each document from its event list and compares it with
 *    json.loads of the output (floats bit for bit, key order kept);
 *  - random documents (fixed seed): compact, pretty, and escaping options;
 *    fj_minify(pretty) must equal compact and fj_pretty(compact) the
 *    writer's pretty output;
 *  - misuse errors (which write nothing), every sink including fixed-buffer
 *    overflow with the exact size needed, the options. */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fastjson.h"

/* splitmix64 (Steele, Lea, Flood 2014): a reproducible PRNG. */
static uint64_t rng_state = UINT64_C(0x6A09E667F3BCC908);
static uint64_t rng(void) {
  uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* ---- documents as event lists ---------------------------------------------
 * An event list drives the writer and is also written out for the Python
 * oracle, one event per line: { } [ ] k<hex> s<hex> i<int> u<uint> d<hex bits>
 * t f n. */

typedef enum ev_kind {
  EV_BO,
  EV_EO,
  EV_BA,
  EV_EA,
  EV_KEY,
  EV_STR,
  EV_I64,
  EV_U64,
  EV_DBL,
  EV_TRUE,
  EV_FALSE,
  EV_NULL
} ev_kind;

typedef struct event {
  ev_kind kind;
  const char *s; /* key or string bytes (owned by the list when `owned`) */
  size_t n;
  int64_t i;
  uint64_t u;
  double d;
  bool owned;
} event;

typedef struct events {
  event *e;
  size_t n, cap;
} events;

static void ev_push(events *l, event e) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    l->e = realloc(l->e, l->cap * sizeof *l->e);
    assert_non_null(l->e);
  }
  l->e[l->n++] = e;
}

static void ev_free(events *l) {
  for (size_t i = 0; i < l->n; i++)
    if (l->e[i].owned) free((void *)l->e[i].s);
  free(l->e);
  memset(l, 0, sizeof *l);
}

static fj_error ev_one(fj_writer *w, const event *e) {
  switch (e->kind) {
  case EV_BO: return fj_writer_begin_object(w);
  case EV_EO: return fj_writer_end_object(w);
  case EV_BA: return fj_writer_begin_array(w);
  case EV_EA: return fj_writer_end_array(w);
  case EV_KEY: return fj_writer_keyn(w, e->s, e->n);
  case EV_STR: return fj_writer_stringn(w, e->s, e->n);
  case EV_I64: return fj_writer_int64(w, e->i);
  case EV_U64: return fj_writer_uint64(w, e->u);
  case EV_DBL: return fj_writer_double(w, e->d);
  case EV_TRUE: return fj_writer_bool(w, true);
  case EV_FALSE: return fj_writer_bool(w, false);
  case EV_NULL: return fj_writer_null(w);
  }
  return FJ_ERR_INVALID_ARG;
}

static fj_error ev_play(fj_writer *w, const events *l) {
  for (size_t i = 0; i < l->n; i++) {
    fj_error err = ev_one(w, &l->e[i]);
    if (err) return err;
  }
  return fj_writer_finish(w);
}

/* Writes the member key k: v in one fj_writer_member_*() call, if v is a
 * scalar; false (nothing written) for a container. */
static bool ev_member(fj_writer *w, const event *k, const event *v, fj_error *err) {
  switch (v->kind) {
  case EV_STR: *err = fj_writer_member_stringn(w, k->s, k->n, v->s, v->n); return true;
  case EV_I64: *err = fj_writer_member_int64(w, k->s, k->n, v->i); return true;
  case EV_U64: *err = fj_writer_member_uint64(w, k->s, k->n, v->u); return true;
  case EV_DBL: *err = fj_writer_member_double(w, k->s, k->n, v->d); return true;
  case EV_TRUE: *err = fj_writer_member_bool(w, k->s, k->n, true); return true;
  case EV_FALSE: *err = fj_writer_member_bool(w, k->s, k->n, false); return true;
  case EV_NULL: *err = fj_writer_member_null(w, k->s, k->n); return true;
  default: return false;
  }
}

/* As ev_play(), with every key that a scalar follows written together with
 * it by one member call: the output must be identical. */
static fj_error ev_play_members(fj_writer *w, const events *l) {
  for (size_t i = 0; i < l->n; i++) {
    fj_error err;
    if (l->e[i].kind == EV_KEY && i + 1 < l->n && ev_member(w, &l->e[i], &l->e[i + 1], &err))
      i++;
    else
      err = ev_one(w, &l->e[i]);
    if (err) return err;
  }
  return fj_writer_finish(w);
}

/* A key as fj_writer_qkey() takes it, if it may be (printable ASCII but for
 * '"', '\\' and '/'): `"key":` in a malloc'ed block of FJ_QKEY_SPAN()
 * bytes, the spare bytes filled with '"' so that a writer that copied any
 * of them out would write invalid JSON, and *qlen; NULL otherwise. */
static char *quote_key(const char *k, size_t n, size_t *qlen) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)k[i];
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '/') return NULL;
  }
  *qlen = n + 3;
  char *q = malloc(FJ_QKEY_SPAN(*qlen));
  assert_non_null(q);
  memset(q, '"', FJ_QKEY_SPAN(*qlen));
  q[0] = '"';
  memcpy(q + 1, k, n);
  memcpy(q + 1 + n, "\":", 2);
  return q;
}

/* As ev_member(), with the key pre-quoted (fj_writer_qmember_*()); keys
 * quote_key() refuses go to ev_member(). */
static bool ev_qmember(fj_writer *w, const event *k, const event *v, fj_error *err) {
  size_t n;
  char *q = quote_key(k->s, k->n, &n);
  if (!q) return ev_member(w, k, v, err);
  bool done = true;
  switch (v->kind) {
  case EV_STR: *err = fj_writer_qmember_stringn(w, q, n, v->s, v->n); break;
  case EV_I64: *err = fj_writer_qmember_int64(w, q, n, v->i); break;
  case EV_U64: *err = fj_writer_qmember_uint64(w, q, n, v->u); break;
  case EV_DBL: *err = fj_writer_qmember_double(w, q, n, v->d); break;
  case EV_TRUE: *err = fj_writer_qmember_bool(w, q, n, true); break;
  case EV_FALSE: *err = fj_writer_qmember_bool(w, q, n, false); break;
  case EV_NULL: *err = fj_writer_qmember_null(w, q, n); break;
  default: done = false;
  }
  free(q);
  return done;
}

/* As ev_play_members(), with pre-quoted keys wherever they may be: members
 * through ev_qmember(), keys of containers with their bracket through
 * fj_writer_qkey_begin_object/array(), other keys through fj_writer_qkey().
 * The output must be identical. */
static fj_error ev_play_qmembers(fj_writer *w, const events *l) {
  for (size_t i = 0; i < l->n; i++) {
    fj_error err;
    const event *e = &l->e[i];
    size_t n;
    char *q;
    if (e->kind == EV_KEY && i + 1 < l->n && ev_qmember(w, e, &l->e[i + 1], &err)) {
      i++;
    } else if (e->kind == EV_KEY && (q = quote_key(e->s, e->n, &n)) != NULL) {
      ev_kind next = i + 1 < l->n ? l->e[i + 1].kind : EV_KEY;
      if (next == EV_BO || next == EV_BA) { /* the key and the bracket in one call */
        err = next == EV_BO ? fj_writer_qkey_begin_object(w, q, n)
                            : fj_writer_qkey_begin_array(w, q, n);
        i++;
      } else {
        err = fj_writer_qkey(w, q, n);
      }
      free(q);
    } else {
      err = ev_one(w, e);
    }
    if (err) return err;
  }
  return fj_writer_finish(w);
}

static void ev_dump(FILE *f, const events *l) {
  for (size_t i = 0; i < l->n; i++) {
    const event *e = &l->e[i];
    switch (e->kind) {
    case EV_BO: fputs("{\n", f); break;
    case EV_EO: fputs("}\n", f); break;
    case EV_BA: fputs("[\n", f); break;
    case EV_EA: fputs("]\n", f); break;
    case EV_KEY:
    case EV_STR:
      fputc(e->kind == EV_KEY ? 'k' : 's', f);
      for (size_t j = 0; j < e->n; j++)
        fprintf(f, "%02x", (unsigned char)e->s[j]);
      fputc('\n', f);
      break;
    case EV_I64: fprintf(f, "i%" PRId64 "\n", e->i); break;
    case EV_U64: fprintf(f, "u%" PRIu64 "\n", e->u); break;
    case EV_DBL: {
      uint64_t b;
      memcpy(&b, &e->d, 8);
      fprintf(f, "d%016" PRIx64 "\n", b);
      break;
    }
    case EV_TRUE: fputs("t\n", f); break;
    case EV_FALSE: fputs("f\n", f); break;
    case EV_NULL: fputs("n\n", f); break;
    }
  }
}

/* Writes events with options into a growable buffer; returns the text
 * (malloc'ed, NUL-terminated) or NULL on a writer error (*err). */
static char *render_with(fj_error (*play)(fj_writer *, const events *), const events *l,
                         const fj_writer_options *opts, size_t *len, fj_error *err) {
  fj_buffer b = {0};
  fj_writer *w;
  assert_int_equal(fj_writer_new(&w, opts, fj_sink_buffer(&b)), FJ_OK);
  *err = play(w, l);
  fj_writer_free(w);
  void *data;
  assert_int_equal(fj_buffer_take(&b, &data, len), FJ_OK);
  if (*err) {
    free(data);
    return NULL;
  }
  return data;
}

static char *render(const events *l, const fj_writer_options *opts, size_t *len, fj_error *err) {
  return render_with(ev_play, l, opts, len, err);
}

/* ---- the Python oracle ------------------------------------------------------ */

static const char *oracle_py =
    "import json, struct, sys\n"
    "def rebuild(lines):\n"
    "    stack = [[]]; keys = [None]\n"
    "    def add(v):\n"
    "        top = stack[-1]\n"
    "        if isinstance(top, tuple): top[0].append((keys[-1], v))\n"
    "        else: top.append(v)\n"
    "    for ln in lines:\n"
    "        c, a = ln[0], ln[1:]\n"
    "        if c == '{': stack.append(([],)); keys.append(None)\n"
    "        elif c == '[': stack.append([]); keys.append(None)\n"
    "        elif c in '}]':\n"
    "            v = stack.pop(); keys.pop(); add(('obj', v[0]) if isinstance(v, tuple) else v)\n"
    "        elif c == 'k': keys[-1] = bytes.fromhex(a).decode('utf-8')\n"
    "        elif c == 's': add(bytes.fromhex(a).decode('utf-8'))\n"
    "        elif c in 'iu': add(int(a))\n"
    "        elif c == 'd': add(('f', int(a, 16)))\n"
    "        elif c == 't': add(True)\n"
    "        elif c == 'f': add(False)\n"
    "        elif c == 'n': add(None)\n"
    "    return stack[0][0]\n"
    "def norm(v):\n"
    "    if isinstance(v, float): return ('f', struct.unpack('<Q', struct.pack('<d', v))[0])\n"
    "    if isinstance(v, list): return [norm(x) for x in v]\n"
    "    if isinstance(v, tuple) and v[0] == 'obj': return ('obj', [(k, norm(x)) for k, x in "
    "v[1]])\n"
    "    return v\n"
    "def bad(c): raise ValueError('non-standard constant ' + c)\n"
    "fails = 0\n"
    "for line in sys.stdin:\n"
    "    evf, outf = line.split()\n"
    "    want = rebuild(open(evf).read().split('\\n')[:-1])\n"
    "    text = open(outf, 'rb').read().decode('utf-8')\n"
    "    try:\n"
    "        got = json.loads(text, parse_constant=bad,\n"
    "                         object_pairs_hook=lambda p: ('obj', p))\n"
    "    except ValueError as e:\n"
    "        print('PARSE', outf, e); fails += 1; continue\n"
    "    if norm(got) != want:\n"
    "        print('DIFF', outf); fails += 1\n"
    "print('checked', fails)\n";

typedef struct oracle {
  char dir[64];
  FILE *list; /* pairs "events-file output-file" */
  size_t count;
} oracle;

static void oracle_open(oracle *o) {
  snprintf(o->dir, sizeof o->dir, "/tmp/fj_test_writer_XXXXXX");
  assert_non_null(mkdtemp(o->dir));
  char path[128];
  snprintf(path, sizeof path, "%s/list", o->dir);
  o->list = fopen(path, "w");
  assert_non_null(o->list);
  o->count = 0;
}

static void oracle_add(oracle *o, const events *l, const char *text, size_t len) {
  char ev[128], out[128];
  snprintf(ev, sizeof ev, "%s/%zu.ev", o->dir, o->count);
  snprintf(out, sizeof out, "%s/%zu.json", o->dir, o->count);
  o->count++;
  FILE *f = fopen(ev, "w");
  assert_non_null(f);
  ev_dump(f, l);
  fclose(f);
  f = fopen(out, "wb");
  assert_non_null(f);
  fwrite(text, 1, len, f);
  fclose(f);
  fprintf(o->list, "%s %s\n", ev, out);
}

/* Runs Python over everything added; skips (not fails) without python3. */
static void oracle_run(oracle *o) {
  fclose(o->list);
  char script[128], cmd[512];
  snprintf(script, sizeof script, "%s/oracle.py", o->dir);
  FILE *f = fopen(script, "w");
  assert_non_null(f);
  fputs(oracle_py, f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "python3 %s < %s/list", script, o->dir);
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  char line[1024];
  long fails = -1;
  while (fgets(line, sizeof line, p)) {
    if (sscanf(line, "checked %ld", &fails) == 1) continue;
    print_message("python: %s", line);
  }
  int status = pclose(p);
  snprintf(cmd, sizeof cmd, "rm -rf %s", o->dir);
  if (system(cmd) != 0) print_message("could not remove %s\n", o->dir);
  if (fails < 0 && status != 0) {
    print_message("python3 not available: the Python oracle was skipped\n");
    return;
  }
  print_message("python oracle: %zu outputs, %ld failures\n", o->count, fails);
  assert_int_equal(fails, 0);
}

/* ---- helpers ----------------------------------------------------------------- */

static fj_parser *parser(void) {
  static fj_parser *p;
  if (!p) assert_int_equal(fj_parser_new(&p, NULL), FJ_OK);
  return p;
}

static void assert_valid_json(const char *text, size_t len) {
  fj_error err = fj_parser_validate(parser(), text, len);
  if (err) print_message("invalid (%s): %.*s\n", fj_error_name(err), (int)len, text);
  assert_int_equal(err, FJ_OK);
}

#define EV(k) ((event){.kind = (k)})
#define EVS(k, str) ((event){.kind = (k), .s = (str), .n = sizeof(str) - 1})
#define EVI(v) ((event){.kind = EV_I64, .i = (v)})
#define EVU(v) ((event){.kind = EV_U64, .u = (v)})
#define EVD(v) ((event){.kind = EV_DBL, .d = (v)})

static events ev_list(const event *e, size_t n) {
  events l = {0};
  for (size_t i = 0; i < n; i++)
    ev_push(&l, e[i]);
  return l;
}

/* The sample document of the exact-text tests. */
static events sample(void) {
  const event e[] = {EV(EV_BO),
                     EVS(EV_KEY, "name"),
                     EVS(EV_STR, "fast\"json\"\n\t\\ /\x01\x1f caf\xc3\xa9 \xf0\x9f\x98\x80"),
                     EVS(EV_KEY, "ints"),
                     EV(EV_BA),
                     EVI(0),
                     EVI(-1),
                     EVI(INT64_MIN),
                     EVI(INT64_MAX),
                     EVU(UINT64_MAX),
                     EVU(1234567890123ULL),
                     EV(EV_EA),
                     EVS(EV_KEY, "doubles"),
                     EV(EV_BA),
                     EVD(0.5),
                     EVD(-0.0),
                     EVD(1e21),
                     EVD(1e-7),
                     EVD(100.0),
                     EV(EV_EA),
                     EVS(EV_KEY, "empty"),
                     EV(EV_BO),
                     EV(EV_EO),
                     EVS(EV_KEY, "none"),
                     EV(EV_BA),
                     EV(EV_EA),
                     EVS(EV_KEY, "lits"),
                     EV(EV_BA),
                     EV(EV_TRUE),
                     EV(EV_FALSE),
                     EV(EV_NULL),
                     EV(EV_EA),
                     EVS(EV_KEY, ""),
                     EVS(EV_STR, ""),
                     EV(EV_EO)};
  return ev_list(e, sizeof e / sizeof *e);
}

static const char sample_compact[] =
    "{\"name\":\"fast\\\"json\\\"\\n\\t\\\\ /\\u0001\\u001f caf\xc3\xa9 \xf0\x9f\x98\x80\","
    "\"ints\":[0,-1,-9223372036854775808,9223372036854775807,18446744073709551615,1234567890123],"
    "\"doubles\":[0.5,-0.0,1e21,1e-7,100.0],\"empty\":{},\"none\":[],\"lits\":[true,false,null],"
    "\"\":\"\"}";

static const char sample_pretty[] =
    "{\n"
    "  \"name\": \"fast\\\"json\\\"\\n\\t\\\\ /\\u0001\\u001f caf\xc3\xa9 \xf0\x9f\x98\x80\",\n"
    "  \"ints\": [\n    0,\n    -1,\n    -9223372036854775808,\n    9223372036854775807,\n"
    "    18446744073709551615,\n    1234567890123\n  ],\n"
    "  \"doubles\": [\n    0.5,\n    -0.0,\n    1e21,\n    1e-7,\n    100.0\n  ],\n"
    "  \"empty\": {},\n  \"none\": [],\n"
    "  \"lits\": [\n    true,\n    false,\n    null\n  ],\n"
    "  \"\": \"\"\n"
    "}\n";

/* ---- exact text -------------------------------------------------------------- */

static void test_compact_and_pretty(void **state) {
  (void)state;
  events l = sample();
  size_t len;
  fj_error err;
  char *t = render(&l, NULL, &len, &err);
  assert_int_equal(err, FJ_OK);
  assert_string_equal(t, sample_compact);
  assert_int_equal(len, strlen(sample_compact));
  assert_valid_json(t, len);
  free(t);

  fj_writer_options o = {.flags = FJ_WRITE_PRETTY};
  t = render(&l, &o, &len, &err);
  assert_int_equal(err, FJ_OK);
  assert_string_equal(t, sample_pretty);
  assert_valid_json(t, len);
  free(t);

  o.flags = FJ_WRITE_PRETTY | FJ_WRITE_TABS;
  t = render(&l, &o, &len, &err);
  assert_non_null(strstr(t, "{\n\t\"name\": "));
  assert_non_null(strstr(t, "\n\t\t0,\n"));
  free(t);
  o.flags = FJ_WRITE_PRETTY;
  o.indent = 4;
  t = render(&l, &o, &len, &err);
  assert_non_null(strstr(t, "\n        0,\n"));
  free(t);
  ev_free(&l);

  /* scalars at the root */
  const event roots[] = {EVI(42), EVS(EV_STR, "x"), EVD(2.5), EV(EV_NULL), EV(EV_TRUE)};
  const char *want[] = {"42", "\"x\"", "2.5", "null", "true"};
  for (size_t i = 0; i < 5; i++) {
    events r = ev_list(&roots[i], 1);
    t = render(&r, NULL, &len, &err);
    assert_string_equal(t, want[i]);
    free(t);
    t = render(&r, &(fj_writer_options){.flags = FJ_WRITE_PRETTY}, &len, &err);
    assert_int_equal(len, strlen(want[i]) + 1);
    assert_int_equal(t[len - 1], '\n');
    free(t);
    ev_free(&r);
  }
}

static void test_integers(void **state) {
  (void)state;
  /* every power of ten and its neighbours, and random values, against printf */
  fj_buffer b = {0};
  fj_writer *w;
  assert_int_equal(fj_writer_new(&w, NULL, fj_sink_buffer(&b)), FJ_OK);
  char want[64];
  for (int i = 0; i < 200000; i++) {
    uint64_t u;
    if (i < 20 * 3) {
      u = 1;
      for (int k = 0; k < i / 3; k++)
        u *= 10;
      u += (uint64_t)(i % 3) - 1;
    } else {
      u = rng() >> (rng() % 64);
    }
    int64_t s = (int64_t)u;
    b.len = 0;
    assert_int_equal(fj_writer_reset(w, fj_sink_buffer(&b)), FJ_OK);
    assert_int_equal(fj_writer_begin_array(w), FJ_OK);
    assert_int_equal(fj_writer_uint64(w, u), FJ_OK);
    assert_int_equal(fj_writer_int64(w, s), FJ_OK);
    /* negative values of every length too (the inline paths split by length) */
    int64_t neg = s == INT64_MIN ? s : -s;
    assert_int_equal(fj_writer_int64(w, neg), FJ_OK);
    assert_int_equal(fj_writer_end_array(w), FJ_OK);
    assert_int_equal(fj_writer_finish(w), FJ_OK);
    snprintf(want, sizeof want, "[%" PRIu64 ",%" PRId64 ",%" PRId64 "]", u, s, neg);
    assert_string_equal((char *)b.data, want);
  }
  fj_writer_free(w);
  fj_buffer_free(&b);
}

/* Between fj_writer_reset() (or fj_writer_new()) on a buffer and the next
 * event, the buffer is the caller's (sink.h): emptied, taken or appended to,
 * the output goes after its len then. The writer mapped its window at the
 * old len at the reset: "12" for "2", a lost separator, and a use after free
 * of a taken buffer (writer trial). */
static void test_buffer_between_reset_and_event(void **state) {
  (void)state;
  fj_buffer b = {0};
  fj_writer *w;
  assert_int_equal(fj_writer_new(&w, NULL, fj_sink_buffer(&b)), FJ_OK);
  char want[32];
  for (int i = 1; i <= 3; i++) { /* emptied after each record */
    assert_int_equal(fj_writer_int64(w, i), FJ_OK);
    assert_int_equal(fj_writer_finish(w), FJ_OK);
    assert_int_equal(fj_writer_reset(w, fj_sink_buffer(&b)), FJ_OK);
    snprintf(want, sizeof want, "%d", i);
    assert_int_equal(b.len, strlen(want));
    assert_memory_equal(b.data, want, b.len);
    b.len = 0;
  }
  fj_sink s = fj_sink_buffer(&b); /* appended to: a separator between records */
  assert_int_equal(fj_writer_reset(w, s), FJ_OK);
  assert_int_equal(s.write(s.ctx, "7\n", 2), FJ_OK);
  assert_int_equal(fj_writer_int64(w, 8), FJ_OK);
  assert_int_equal(fj_writer_finish(w), FJ_OK);
  assert_string_equal((char *)b.data, "7\n8");
  void *taken; /* taken: the next record goes to new memory */
  size_t n;
  assert_int_equal(fj_writer_reset(w, fj_sink_buffer(&b)), FJ_OK);
  assert_int_equal(fj_buffer_take(&b, &taken, &n), FJ_OK);
  assert_int_equal(n, 3);
  free(taken);
  assert_int_equal(fj_writer_string(w, "ok"), FJ_OK);
  assert_int_equal(fj_writer_finish(w), FJ_OK);
  assert_string_equal((char *)b.data, "\"ok\"");
  fj_writer_free(w);
  b.len = 1; /* a new writer on a buffer emptied after its creation */
  assert_int_equal(fj_writer_new(&w, NULL, fj_sink_buffer(&b)), FJ_OK);
  b.len = 0;
  assert_int_equal(fj_writer_null(w), FJ_OK);
  assert_int_equal(fj_writer_finish(w), FJ_OK);
  assert_string_equal((char *)b.data, "null");
  fj_writer_free(w);
  fj_buffer_free(&b);
}

/* Deep nesting: containers of random kinds to the depth limit (a value at
 * each level), closed again with the right ends, compact and pretty; the
 * expected text is built here byte by byte. A level more is refused, and
 * an end of the wrong kind at every level. */
static void test_deep_nesting(void **state) {
  (void)state;
  const uint32_t depths[] = {FJ_DEFAULT_MAX_DEPTH, 3000};
  for (size_t t = 0; t < 2 * sizeof depths / sizeof *depths; t++) {
    uint32_t max = depths[t / 2];
    bool pretty = t % 2;
    fj_buffer b = {0};
    fj_writer *w;
    fj_writer_options o = {.max_depth = t < 2 ? 0 : max, .flags = pretty ? FJ_WRITE_PRETTY : 0};
    assert_int_equal(fj_writer_new(&w, &o, fj_sink_buffer(&b)), FJ_OK);
    bool *obj = malloc(max);
    assert_non_null(obj);
    uint32_t kinds = 0x2545F491u + (uint32_t)t; /* own sequence: rng()'s is the other tests' */
    for (uint32_t d = 0; d < max; d++) {
      kinds = kinds * 1103515245u + 12345u;
      obj[d] = (kinds >> 16) & 1;
      if (d) { /* a member or an element before the next level */
        if (obj[d - 1]) assert_int_equal(fj_writer_key(w, "k"), FJ_OK);
        assert_int_equal(fj_writer_int64(w, d), FJ_OK);
        if (obj[d - 1]) assert_int_equal(fj_writer_key(w, ""), FJ_OK);
      }
      assert_int_equal(obj[d] ? fj_writer_begin_object(w) : fj_writer_begin_array(w), FJ_OK);
    }
    if (obj[max - 1]) assert_int_equal(fj_writer_key(w, "x"), FJ_OK);
    assert_int_equal(fj_writer_begin_array(w), FJ_ERR_DEPTH);
    assert_int_equal(fj_writer_begin_object(w), FJ_ERR_DEPTH);
    if (obj[max - 1]) assert_int_equal(fj_writer_null(w), FJ_OK);
    for (uint32_t d = max; d-- > 0;) {
      assert_int_equal(obj[d] ? fj_writer_end_array(w) : fj_writer_end_object(w),
                       FJ_ERR_WRONG_TYPE);
      assert_int_equal(obj[d] ? fj_writer_end_object(w) : fj_writer_end_array(w), FJ_OK);
    }
    assert_int_equal(fj_writer_finish(w), FJ_OK);
    if (!pretty) {
      size_t cap = (size_t)max * 32, n = 0;
      char *want = malloc(cap);
      assert_non_null(want);
      for (uint32_t d = 0; d < max; d++) {
        if (d) n += (size_t)snprintf(want + n, cap - n, obj[d - 1] ? "\"k\":%u,\"\":" : "%u,", d);
        want[n++] = obj[d] ? '{' : '[';
      }
      if (obj[max - 1]) n += (size_t)snprintf(want + n, cap - n, "\"x\":null");
      for (uint32_t d = max; d-- > 0;)
        want[n++] = obj[d] ? '}' : ']';
      assert_int_equal(b.len, n);
      assert_memory_equal(b.data, want, n);
      free(want);
    }
    free(obj);
    fj_writer_free(w);
    fj_buffer_free(&b);
  }
}

/* ---- misuse ------------------------------------------------------------------ */

/* Member calls refuse what their key or value call refuses, with the same
 * error; a refused value leaves its key written and a value due. */
static void test_member_misuse(void **state) {
  (void)state;
  fj_buffer b = {0};
  fj_writer *w;
  assert_int_equal(fj_writer_new(&w, NULL, fj_sink_buffer(&b)), FJ_OK);
  assert_int_equal(fj_writer_member_int64(w, "k", 1, 1), FJ_ERR_EXPECTED_VALUE); /* at the root */
  assert_int_equal(fj_writer_begin_array(w), FJ_OK);
  assert_int_equal(fj_writer_member_null(w, "k", 1), FJ_ERR_EXPECTED_VALUE); /* in an array */
  assert_int_equal(fj_writer_begin_object(w), FJ_OK);
  assert_int_equal(fj_writer_member_bool(w, NULL, 1, true), FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_writer_member_stringn(w, "\xff", 1, "v", 1), FJ_ERR_UTF8); /* bad key */
  assert_int_equal(fj_writer_member_double(w, "d", 1, NAN), FJ_ERR_NUMBER_RANGE);
  assert_int_equal(fj_writer_member_uint64(w, "e", 1, 2), FJ_ERR_EXPECTED_VALUE); /* "d" waits */
  assert_int_equal(fj_writer_uint64(w, 7), FJ_OK);
  assert_int_equal(fj_writer_member_stringn(w, "s", 1, "\xff", 1), FJ_ERR_UTF8); /* bad value */
  assert_int_equal(fj_writer_stringn(w, "a\"b", 3), FJ_OK);
  assert_int_equal(fj_writer_member_stringn(w, "t", 1, "needs \\ escaping", 16), FJ_OK);
  assert_int_equal(fj_writer_member_double(w, "x", 1, 0.25), FJ_OK);
  assert_int_equal(fj_writer_end_object(w), FJ_OK);
  assert_int_equal(fj_writer_end_array(w), FJ_OK);
  assert_int_equal(fj_writer_finish(w), FJ_OK);
  const char *want = "[{\"d\":7,\"s\":\"a\\\"b\",\"t\":\"needs \\\\ escaping\",\"x\":0.25}]";
  assert_int_equal(b.len, strlen(want));
  assert_memory_equal(b.data, want, b.len);
  fj_writer_free(w);
  fj_buffer_free(&b);
}

/* Pre-quoted keys: the errors of the unquoted calls, and NULL or a qlen
 * below 3 refused; a key longer than the inline limit still written. */
static void test_qmember_misuse(void **state) {
  (void)state;
  fj_buffer b = {0};
  fj_writer *w;
  static const char keys[] = "\"k\":\"d\":\"e\":\"s\":\"t\":\"x\":"
                             "\"a key of thirty-three characters!\":" /* qlen 36 */
                             "\"y\":"
                             "................................";
  assert_int_equal(fj_writer_qkey(NULL, keys, 4), FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_writer_new(&w, NULL, fj_sink_buffer(&b)), FJ_OK);
  assert_int_equal(fj_writer_qmember_int64(w, keys, 4, 1), FJ_ERR_EXPECTED_VALUE); /* root */
  assert_int_equal(fj_writer_begin_array(w), FJ_OK);
  assert_int_equal(fj_writer_qmember_null(w, keys, 4), FJ_ERR_EXPECTED_VALUE); /* in an array */
  assert_int_equal(fj_writer_qkey(w, keys, 4), FJ_ERR_EXPECTED_VALUE);
  assert_int_equal(fj_writer_begin_object(w), FJ_OK);
  assert_int_equal(fj_writer_qmember_bool(w, NULL, 4, true), FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_writer_qmember_bool(w, keys, 2, true), FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_writer_qkey(w, keys, 0), FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_writer_qmember_double(w, keys + 4, 4, NAN), FJ_ERR_NUMBER_RANGE);
  assert_int_equal(fj_writer_qmember_uint64(w, keys + 8, 4, 2), FJ_ERR_EXPECTED_VALUE); /* waits */
  assert_int_equal(fj_writer_qkey(w, keys + 8, 4), FJ_ERR_EXPECTED_VALUE);
  assert_int_equal(fj_writer_uint64(w, 7), FJ_OK);
  assert_int_equal(fj_writer_qmember_stringn(w, keys + 12, 4, "\xff", 1), FJ_ERR_UTF8);
  assert_int_equal(fj_writer_stringn(w, "a\"b", 3), FJ_OK);
  assert_int_equal(fj_writer_qmember_stringn(w, keys + 16, 4, "needs \\ escaping", 16), FJ_OK);
  assert_int_equal(fj_writer_qmember_double(w, keys + 20, 4, 0.25), FJ_OK);
  assert_int_equal(fj_writer_qmember_int64(w, keys + 24, 36, -3), FJ_OK);
  assert_int_equal(fj_writer_qkey(w, keys + 60, 4), FJ_OK);
  assert_int_equal(fj_writer_qmember_null(w, keys + 60, 4), FJ_ERR_EXPECTED_VALUE);
  assert_int_equal(fj_writer_begin_array(w), FJ_OK);
  assert_int_equal(fj_writer_end_array(w), FJ_OK);
  assert_int_equal(fj_writer_end_object(w), FJ_OK);
  assert_int_equal(fj_writer_end_array(w), FJ_OK);
  assert_int_equal(fj_writer_qmember_bool(w, keys, 4, true), FJ_ERR_TRAILING_CONTENT);
  assert_int_equal(fj_writer_qkey_begin_array(w, keys, 4), FJ_ERR_TRAILING_CONTENT);
  assert_int_equal(fj_writer_finish(w), FJ_OK);
  const char *want = "[{\"d\":7,\"s\":\"a\\\"b\",\"t\":\"needs \\\\ escaping\",\"x\":0.25,"
                     "\"a key of thirty-three characters!\":-3,\"y\":[]}]";
  assert_int_equal(b.len, strlen(want));
  assert_memory_equal(b.data, want, b.len);
  fj_writer_free(w);
  fj_buffer_free(&b);
}

/* Many pre-quoted members through a callback sink (the writer's own window,
 * flushed many times) and through an empty growable buffer, compact and
 * pretty: the same bytes as fj_writer_keyn() and the value calls. */
static fj_error collect(void *ctx, const void *bytes, size_t len);

static fj_error qkeys_long(fj_writer *w, bool quoted) {
  static const char keys[] = "\"id\":\"name\":\"price\":\"ok\":\"none\":\"list\":\"sub\":"
                             "................................";
  fj_error e = fj_writer_begin_array(w);
  for (int i = 0; !e && i < 20000; i++) {
    if (!e) e = fj_writer_begin_object(w);
    if (quoted) {
      if (!e) e = fj_writer_qmember_uint64(w, keys, 5, (uint64_t)i * 2654435761u);
      if (!e) e = fj_writer_qmember_stringn(w, keys + 5, 7, "Ada Lovelace", (size_t)i % 13);
      if (!e) e = fj_writer_qmember_double(w, keys + 12, 8, i / 7.0);
      if (!e) e = fj_writer_qmember_bool(w, keys + 20, 5, i & 1);
      if (!e) e = fj_writer_qmember_null(w, keys + 25, 7);
      if (!e) e = fj_writer_qkey_begin_object(w, keys + 39, 6);
      if (!e) e = fj_writer_qmember_int64(w, keys, 5, i);
      if (!e) e = fj_writer_end_object(w);
      if (!e) e = fj_writer_qkey(w, keys + 32, 7);
      if (!e) e = fj_writer_begin_array(w);
      if (!e) e = fj_writer_int64(w, -i);
      if (!e) e = fj_writer_end_array(w);
      if (!e) e = fj_writer_qkey_begin_array(w, keys + 32, 7);
    } else {
      if (!e) e = fj_writer_keyn(w, "id", 2);
      if (!e) e = fj_writer_uint64(w, (uint64_t)i * 2654435761u);
      if (!e) e = fj_writer_keyn(w, "name", 4);
      if (!e) e = fj_writer_stringn(w, "Ada Lovelace", (size_t)i % 13);
      if (!e) e = fj_writer_keyn(w, "price", 5);
      if (!e) e = fj_writer_double(w, i / 7.0);
      if (!e) e = fj_writer_keyn(w, "ok", 2);
      if (!e) e = fj_writer_bool(w, i & 1);
      if (!e) e = fj_writer_keyn(w, "none", 4);
      if (!e) e = fj_writer_null(w);
      if (!e) e = fj_writer_keyn(w, "sub", 3);
      if (!e) e = fj_writer_begin_object(w);
      if (!e) e = fj_writer_keyn(w, "id", 2);
      if (!e) e = fj_writer_int64(w, i);
      if (!e) e = fj_writer_end_object(w);
      if (!e) e = fj_writer_keyn(w, "list", 4);
      if (!e) e = fj_writer_begin_array(w);
      if (!e) e = fj_writer_int64(w, -i);
      if (!e) e = fj_writer_end_array(w);
      if (!e) e = fj_writer_keyn(w, "list", 4);
      if (!e) e = fj_writer_begin_array(w);
    }
    if (!e) e = fj_writer_int64(w, -i);
    if (!e) e = fj_writer_end_array(w);
    if (!e) e = fj_writer_end_object(w);
  }
  if (!e) e = fj_writer_end_array(w);
  return e ? e : fj_writer_finish(w);
}

/* Beyond max_depth, the key stays written and a value is still due. */
static void test_qkey_begin_depth(void **state) {
  (void)state;
  static const char keys[] = "\"k\":\"a\":................................";
  fj_buffer b = {0};
  fj_writer *w;
  assert_int_equal(fj_writer_new(&w, &(fj_writer_options){.max_depth = 1}, fj_sink_buffer(&b)),
                   FJ_OK);
  assert_int_equal(fj_writer_qkey_begin_object(w, keys, 4), FJ_ERR_EXPECTED_VALUE); /* root */
  assert_int_equal(fj_writer_begin_object(w), FJ_OK);
  assert_int_equal(fj_writer_qkey_begin_object(w, keys, 4), FJ_ERR_DEPTH);
  assert_int_equal(fj_writer_qkey_begin_array(w, keys + 4, 4), FJ_ERR_EXPECTED_VALUE);
  assert_int_equal(fj_writer_null(w), FJ_OK);
  assert_int_equal(fj_writer_qkey_begin_array(w, keys + 4, 4), FJ_ERR_DEPTH);
  assert_int_equal(fj_writer_bool(w, false), FJ_OK);
  assert_int_equal(fj_writer_end_object(w), FJ_OK);
  assert_int_equal(fj_writer_finish(w), FJ_OK);
  const char *want = "{\"k\":null,\"a\":false}";
  assert_int_equal(b.len, strlen(want));
  assert_memory_equal(b.data, want, b.len);
  fj_writer_free(w);
  fj_buffer_free(&b);
}

static void test_qmember_long(void **state) {
  (void)state;
  for (int pretty = 0; pretty < 2; pretty++) {
    fj_writer_options o = {.flags = pretty ? FJ_WRITE_PRETTY : 0};
    fj_buffer want = {0}, got = {0}, grown = {0};
    fj_writer *w;
    assert_int_equal(fj_writer_new(&w, &o, fj_sink_buffer(&want)), FJ_OK);
    assert_int_equal(qkeys_long(w, false), FJ_OK);
    assert_int_equal(fj_writer_reset(w, (fj_sink){collect, &got}), FJ_OK);
    assert_int_equal(qkeys_long(w, true), FJ_OK);
    assert_int_equal(fj_writer_reset(w, fj_sink_buffer(&grown)), FJ_OK);
    assert_int_equal(qkeys_long(w, true), FJ_OK);
    fj_writer_free(w);
    assert_true(want.len > 4 * 65536);
    assert_int_equal(got.len, want.len);
    assert_memory_equal(got.data, want.data, want.len);
    assert_int_equal(grown.len, want.len);
    assert_memory_equal(grown.data, want.data, want.len);
    assert_valid_json((const char *)want.data, want.len);
    fj_buffer_free(&want);
    fj_buffer_free(&got);
    fj_buffer_free(&grown);
  }
}

static void test_misuse(void **state) {
  (void)state;
  fj_buffer b = {0};
  fj_writer *w;
  assert_int_equal(fj_writer_new(&w, NULL, fj_sink_buffer(&b)), FJ_OK);
  assert_int_equal(fj_writer_finish(w), FJ_ERR_EMPTY);
  assert_int_equal(fj_writer_key(w, "k"), FJ_ERR_EXPECTED_VALUE);  /* key at the root */
  assert_int_equal(fj_writer_end_array(w), FJ_ERR_EXPECTED_VALUE); /* nothing open */
  assert_int_equal(fj_writer_end_object(w), FJ_ERR_EXPECTED_VALUE);
  assert_int_equal(fj_writer_begin_object(w), FJ_OK);
  assert_int_equal(fj_writer_int64(w, 1), FJ_ERR_EXPECTED_KEY); /* value where a key is due */
  assert_int_equal(fj_writer_string(w, "v"), FJ_ERR_EXPECTED_KEY);
  assert_int_equal(fj_writer_begin_array(w), FJ_ERR_EXPECTED_KEY);
  assert_int_equal(fj_writer_double(w, NAN), FJ_ERR_EXPECTED_KEY);
  assert_int_equal(fj_writer_raw(w, "1", 1), FJ_ERR_EXPECTED_KEY);
  assert_int_equal(fj_writer_end_array(w), FJ_ERR_WRONG_TYPE); /* unbalanced end */
  assert_int_equal(fj_writer_key(w, "a"), FJ_OK);
  assert_int_equal(fj_writer_key(w, "b"), FJ_ERR_EXPECTED_VALUE);   /* key after key */
  assert_int_equal(fj_writer_end_object(w), FJ_ERR_EXPECTED_VALUE); /* key without value */
  assert_int_equal(fj_writer_finish(w), FJ_ERR_TRUNCATED);
  assert_int_equal(fj_writer_begin_array(w), FJ_OK);
  assert_int_equal(fj_writer_key(w, "c"), FJ_ERR_EXPECTED_VALUE); /* key in an array */
  assert_int_equal(fj_writer_end_object(w), FJ_ERR_WRONG_TYPE);
  assert_int_equal(fj_writer_double(w, INFINITY), FJ_ERR_NUMBER_RANGE);
  assert_int_equal(fj_writer_double(w, NAN), FJ_ERR_NUMBER_RANGE);
  assert_int_equal(fj_writer_stringn(w, "\xff", 1), FJ_ERR_UTF8);
  assert_int_equal(fj_writer_stringn(w, NULL, 3), FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_writer_stringn(w, NULL, 0), FJ_OK); /* the empty string */
  assert_int_equal(fj_writer_finish(w), FJ_ERR_TRUNCATED);
  assert_int_equal(fj_writer_end_array(w), FJ_OK);
  assert_int_equal(fj_writer_end_object(w), FJ_OK);
  assert_int_equal(fj_writer_null(w), FJ_ERR_TRAILING_CONTENT); /* a second root */
  assert_int_equal(fj_writer_begin_array(w), FJ_ERR_TRAILING_CONTENT);
  assert_int_equal(fj_writer_key(w, "d"), FJ_ERR_TRAILING_CONTENT);
  assert_int_equal(fj_writer_end_object(w), FJ_ERR_TRAILING_CONTENT);
  assert_int_equal(fj_writer_finish(w), FJ_OK);
  assert_int_equal(fj_writer_finish(w), FJ_OK); /* again: nothing more */
  assert_string_equal((char *)b.data, "{\"a\":[\"\"]}");
  assert_int_equal(fj_writer_int64(NULL, 1), FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_writer_finish(NULL), FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_writer_key(w, NULL), FJ_ERR_INVALID_ARG);
  fj_writer_free(w);

  /* the depth limit */
  b.len = 0;
  assert_int_equal(fj_writer_new(&w, &(fj_writer_options){.max_depth = 3}, fj_sink_buffer(&b)),
                   FJ_OK);
  for (int i = 0; i < 3; i++)
    assert_int_equal(fj_writer_begin_array(w), FJ_OK);
  assert_int_equal(fj_writer_begin_array(w), FJ_ERR_DEPTH);
  assert_int_equal(fj_writer_begin_object(w), FJ_ERR_DEPTH);
  for (int i = 0; i < 3; i++)
    assert_int_equal(fj_writer_end_array(w), FJ_OK);
  assert_int_equal(fj_writer_finish(w), FJ_OK);
  assert_string_equal((char *)b.data, "[[[]]]");
  fj_writer_free(w);
  fj_buffer_free(&b);

  /* bad options */
  assert_int_equal(fj_writer_new(&w, &(fj_writer_options){.indent = 17}, fj_sink_buffer(&b)),
                   FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_writer_new(&w, NULL, (fj_sink){NULL, NULL}), FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_writer_new(NULL, NULL, fj_sink_buffer(&b)), FJ_ERR_INVALID_ARG);
  /* a flag bit no FJ_WRITE_* names (was accepted and ignored); every named one works */
  assert_int_equal(fj_writer_new(&w, &(fj_writer_options){.flags = FJ_WRITE_NONFINITE_AS_NULL << 1},
                                 fj_sink_buffer(&b)),
                   FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_writer_new(&w, &(fj_writer_options){.flags = 1u << 31}, fj_sink_buffer(&b)),
                   FJ_ERR_INVALID_ARG);
  const uint32_t all = FJ_WRITE_PRETTY | FJ_WRITE_TABS | FJ_WRITE_ESCAPE_UNICODE |
                       FJ_WRITE_ESCAPE_SLASH | FJ_WRITE_NO_VALIDATE_UTF8 |
                       FJ_WRITE_REPLACE_INVALID_UTF8 | FJ_WRITE_NONFINITE_AS_NULL;
  assert_int_equal(fj_writer_new(&w, &(fj_writer_options){.flags = all}, fj_sink_buffer(&b)),
                   FJ_OK);
  fj_writer_free(w);
}

/* ---- options ----------------------------------------------------------------- */

static char *one_string(uint32_t flags, const char *s, size_t n, fj_error *err) {
  events l = {0};
  ev_push(&l, EV(EV_BA));
  ev_push(&l, (event){.kind = EV_STR, .s = s, .n = n});
  ev_push(&l, EV(EV_EA));
  size_t len;
  char *t = render(&l, &(fj_writer_options){.flags = flags}, &len, err);
  ev_free(&l);
  return t;
}

static void expect_escaped(uint32_t flags, const char *in, size_t n, const char *want) {
  fj_error err;
  char *t = one_string(flags, in, n, &err);
  assert_int_equal(err, FJ_OK);
  if (strcmp(t, want) != 0) print_message("got  %s\nwant %s\n", t, want);
  assert_string_equal(t, want);
  assert_valid_json(t, strlen(t));
  free(t);
}

static void test_string_options(void **state) {
  (void)state;
  const char mixed[] = "a/b \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \x7f";
  expect_escaped(0, mixed, sizeof mixed - 1,
                 "[\"a/b \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \x7f\"]");
  expect_escaped(FJ_WRITE_ESCAPE_SLASH, mixed, sizeof mixed - 1,
                 "[\"a\\/b \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \x7f\"]");
  expect_escaped(FJ_WRITE_ESCAPE_UNICODE, mixed, sizeof mixed - 1,
                 "[\"a/b \\u00e9 \\u20ac \\ud83d\\ude00 \x7f\"]");
  /* every control character */
  char ctl[32];
  for (int i = 0; i < 32; i++)
    ctl[i] = (char)i;
  expect_escaped(0, ctl, 32,
                 "[\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r"
                 "\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018"
                 "\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f\"]");
  /* invalid UTF-8: error by default, U+FFFD per maximal subpart when asked,
   * bytes as they are without validation */
  const char *bad[] = {
      "\x80",         "\xc0\xaf",   "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
      "\xf0\x9f\x98", "ab\xe2\x82", "\xff",         "\xc3"};
  const char *replaced[] = {"[\"\xef\xbf\xbd\"]",
                            "[\"\xef\xbf\xbd\xef\xbf\xbd\"]",
                            "[\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"]",
                            "[\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"]",
                            "[\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"]",
                            "[\"\xef\xbf\xbd\"]",
                            "[\"ab\xef\xbf\xbd\"]",
                            "[\"\xef\xbf\xbd\"]",
                            "[\"\xef\xbf\xbd\"]"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    fj_error err;
    char *t = one_string(0, bad[i], strlen(bad[i]), &err);
    assert_null(t);
    assert_int_equal(err, FJ_ERR_UTF8);
    expect_escaped(FJ_WRITE_REPLACE_INVALID_UTF8, bad[i], strlen(bad[i]), replaced[i]);
    t = one_string(FJ_WRITE_NO_VALIDATE_UTF8, bad[i], strlen(bad[i]), &err);
    assert_int_equal(err, FJ_OK);
    assert_int_equal(memcmp(t + 2, bad[i], strlen(bad[i])), 0);
    free(t);
  }
  expect_escaped(FJ_WRITE_REPLACE_INVALID_UTF8 | FJ_WRITE_ESCAPE_UNICODE, "x\xff", 2,
                 "[\"x\\ufffd\"]");

  /* non-finite doubles */
  events l = {0};
  ev_push(&l, EV(EV_BA));
  ev_push(&l, EVD(NAN));
  ev_push(&l, EVD(-INFINITY));
  ev_push(&l, EV(EV_EA));
  size_t len;
  fj_error err;
  char *t = render(&l, &(fj_writer_options){.flags = FJ_WRITE_NONFINITE_AS_NULL}, &len, &err);
  assert_string_equal(t, "[null,null]");
  free(t);
  t = render(&l, NULL, &len, &err);
  assert_null(t);
  assert_int_equal(err, FJ_ERR_NUMBER_RANGE);
  ev_free(&l);

  /* raw values */
  fj_buffer b = {0};
  fj_writer *w;
  assert_int_equal(fj_writer_new(&w, NULL, fj_sink_buffer(&b)), FJ_OK);
  assert_int_equal(fj_writer_begin_object(w), FJ_OK);
  assert_int_equal(fj_writer_key(w, "r"), FJ_OK);
  assert_int_equal(fj_writer_raw(w, "[1, 2]", 6), FJ_OK);
  assert_int_equal(fj_writer_key(w, "s"), FJ_OK);
  assert_int_equal(fj_writer_raw(w, "1.50", 4), FJ_OK);
  /* no bytes are no value: refused, nothing written (was a lone ',') */
  assert_int_equal(fj_writer_key(w, "t"), FJ_OK);
  assert_int_equal(fj_writer_raw(w, "", 0), FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_writer_raw(w, NULL, 0), FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_writer_raw(w, "true", 4), FJ_OK);
  assert_int_equal(fj_writer_end_object(w), FJ_OK);
  assert_int_equal(fj_writer_finish(w), FJ_OK);
  assert_string_equal((char *)b.data, "{\"r\":[1, 2],\"s\":1.50,\"t\":true}");
  fj_writer_free(w);
  fj_buffer_free(&b);
}

/* The escaper's last partial block and the UTF-8 check's last bytes, at
 * every length up to 140 (two 64-byte blocks and a tail): a '"' escaped at
 * each position (the tail's bytes before it must not be stored again as
 * they were), then a character of 3 bytes at each position, then a stray
 * continuation byte at each position (refused, or U+FFFD with
 * FJ_WRITE_REPLACE_INVALID_UTF8), then a character cut short at the end;
 * a character cut short by a quote, an escape before a character of 3
 * bytes; then RFC 3629's malformed sequences (overlong, surrogate, above
 * U+10FFFF, bytes never used) and well-formed 2- and 4-byte characters at
 * each position. Run once per kernel: each has its own escaper. */
static void test_string_tails(void **state) {
  (void)state;
  static const char *const bad[] = {
      "\xc0\x80",     "\xc1\xbf",         "\xe0\x80\x80",     "\xe0\x9f\xbf",     "\xed\xa0\x80",
      "\xed\xbf\xbf", "\xf0\x80\x80\x80", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff",
      "\xfe"};
  static const char *const good[] = {"\xc2\x80", "\xdf\xbf", "\xed\x9f\xbf", "\xf0\x90\x80\x80",
                                     "\xf4\x8f\xbf\xbf"};
  for (size_t n = 1; n <= 140; n++) {
    char in[160], want[180];
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
      const size_t m = strlen(bad[k]);
      for (size_t e = 0; e + m <= n; e++) {
        memset(in, 'a', n);
        memcpy(in + e, bad[k], m);
        fj_error err;
        assert_null(one_string(0, in, n, &err));
        assert_int_equal(err, FJ_ERR_UTF8);
      }
    }
    for (size_t k = 0; k < sizeof good / sizeof *good; k++) {
      const size_t m = strlen(good[k]);
      for (size_t e = 0; e + m <= n; e++) {
        memset(in, 'a', n);
        memcpy(in + e, good[k], m);
        snprintf(want, sizeof want, "[\"%.*s\"]", (int)n, in);
        expect_escaped(0, in, n, want);
      }
    }
    for (size_t e = 0; e < n; e++) { /* a quote at e */
      memset(in, 'a', n);
      in[e] = '"';
      snprintf(want, sizeof want, "[\"%.*s\\\"%.*s\"]", (int)e, in, (int)(n - e - 1), in + e + 1);
      expect_escaped(0, in, n, want);
    }
    for (size_t e = 0; n >= 3 && e + 3 <= n; e++) { /* the euro sign at e */
      memset(in, 'a', n);
      memcpy(in + e, "\xe2\x82\xac", 3);
      snprintf(want, sizeof want, "[\"%.*s\"]", (int)n, in);
      expect_escaped(0, in, n, want);
    }
    for (size_t e = 0; e < n; e++) { /* a stray continuation byte at e */
      memset(in, 'a', n);
      in[e] = (char)0x80;
      fj_error err;
      char *t = one_string(0, in, n, &err);
      assert_null(t);
      assert_int_equal(err, FJ_ERR_UTF8);
      snprintf(want, sizeof want, "[\"%.*s\xef\xbf\xbd%.*s\"]", (int)e, in, (int)(n - e - 1),
               in + e + 1);
      expect_escaped(FJ_WRITE_REPLACE_INVALID_UTF8, in, n, want);
    }
    for (size_t e = 0; e + 3 <= n; e++) { /* a character cut short by a quote at e + 2 */
      memset(in, 'a', n);
      memcpy(in + e, "\xe2\x82\"", 3);
      fj_error err;
      assert_null(one_string(0, in, n, &err));
      assert_int_equal(err, FJ_ERR_UTF8);
    }
    for (size_t e = 0; e + 4 <= n; e++) { /* a newline, then the euro sign, at e */
      memset(in, 'a', n);
      memcpy(in + e, "\n\xe2\x82\xac", 4);
      snprintf(want, sizeof want, "[\"%.*s\\n\xe2\x82\xac%.*s\"]", (int)e, in, (int)(n - e - 4),
               in + e + 4);
      expect_escaped(0, in, n, want);
    }
    if (n >= 2) { /* a character cut short at the end */
      memset(in, 'a', n);
      memcpy(in + n - 2, "\xe2\x82", 2);
      fj_error err;
      assert_null(one_string(0, in, n, &err));
      assert_int_equal(err, FJ_ERR_UTF8);
    }
  }
}

/* Strings longer than the writer's chunk (4096 bytes), with escapes and
 * multi-byte characters across chunk boundaries, through every sink. */
static void test_long_strings(void **state) {
  (void)state;
  size_t n = 50000;
  char *s = malloc(n + 8);
  assert_non_null(s);
  size_t i = 0;
  while (i < n) {
    switch (rng() % 6) {
    case 0:
      memcpy(s + i, "\xf0\x9f\x98\x80", 4);
      i += 4;
      break;
    case 1:
      memcpy(s + i, "\xe2\x82\xac", 3);
      i += 3;
      break;
    case 2: s[i++] = '"'; break;
    case 3: s[i++] = '\n'; break;
    default: s[i++] = (char)('a' + rng() % 26);
    }
  }
  n = i;
  oracle o;
  oracle_open(&o);
  events l = {0};
  ev_push(&l, EV(EV_BO));
  ev_push(&l, (event){.kind = EV_KEY, .s = s, .n = n});
  ev_push(&l, (event){.kind = EV_STR, .s = s, .n = n});
  ev_push(&l, EV(EV_EO));
  size_t len;
  fj_error err;
  char *t = render(&l, NULL, &len, &err);
  assert_int_equal(err, FJ_OK);
  assert_valid_json(t, len);
  oracle_add(&o, &l, t, len);
  char *u = render(&l, &(fj_writer_options){.flags = FJ_WRITE_ESCAPE_UNICODE}, &len, &err);
  assert_int_equal(err, FJ_OK);
  oracle_add(&o, &l, u, len);
  free(u);
  /* the same through a FILE sink */
  FILE *f = tmpfile();
  assert_non_null(f);
  fj_writer *w;
  assert_int_equal(fj_writer_new(&w, NULL, fj_sink_file(f)), FJ_OK);
  assert_int_equal(ev_play(w, &l), FJ_OK);
  fj_writer_free(w);
  long fl = ftell(f);
  assert_int_equal((size_t)fl, strlen(t));
  rewind(f);
  char *back = malloc((size_t)fl);
  assert_int_equal(fread(back, 1, (size_t)fl, f), (size_t)fl);
  assert_memory_equal(back, t, (size_t)fl);
  free(back);
  fclose(f);
  free(t);
  ev_free(&l);
  oracle_run(&o);

  /* an invalid byte at the end of a long string: refused, nothing written */
  s[n - 1] = (char)0xff;
  fj_buffer b = {0};
  assert_int_equal(fj_writer_new(&w, NULL, fj_sink_buffer(&b)), FJ_OK);
  assert_int_equal(fj_writer_begin_array(w), FJ_OK);
  assert_int_equal(fj_writer_int64(w, 1), FJ_OK);
  assert_int_equal(fj_writer_stringn(w, s, n), FJ_ERR_UTF8);
  assert_int_equal(fj_writer_stringn(w, s, 100), FJ_OK);
  assert_int_equal(fj_writer_end_array(w), FJ_OK);
  assert_int_equal(fj_writer_finish(w), FJ_OK);
  assert_valid_json((char *)b.data, b.len);
  assert_int_equal(memcmp(b.data, "[1,\"", 4), 0);
  fj_writer_free(w);
  fj_buffer_free(&b);
  free(s);
}

/* ---- sinks ------------------------------------------------------------------- */

typedef struct chunks {
  char *data;
  size_t len, calls, fail_after; /* fail once len would pass fail_after */
} chunks;

static fj_error chunk_write(void *ctx, const void *bytes, size_t len) {
  chunks *c = ctx;
  c->calls++;
  if (c->len + len > c->fail_after) return FJ_ERR_IO;
  c->data = realloc(c->data, c->len + len + 1);
  memcpy(c->data + c->len, bytes, len);
  c->len += len;
  c->data[c->len] = 0;
  return FJ_OK;
}

/* A document of about `items` * 30 bytes. */
static events big_doc(size_t items) {
  events l = {0};
  ev_push(&l, EV(EV_BA));
  for (size_t i = 0; i < items; i++) {
    ev_push(&l, EV(EV_BO));
    ev_push(&l, EVS(EV_KEY, "id"));
    ev_push(&l, EVI((int64_t)i));
    ev_push(&l, EVS(EV_KEY, "v"));
    ev_push(&l, EVD((double)i / 7));
    ev_push(&l, EV(EV_EO));
  }
  ev_push(&l, EV(EV_EA));
  return l;
}

static void test_sinks(void **state) {
  (void)state;
  events l = big_doc(20000);
  size_t len;
  fj_error err;
  char *want = render(&l, NULL, &len, &err); /* buffer sink: the reference */
  assert_int_equal(err, FJ_OK);
  assert_valid_json(want, len);
  fj_writer *w;

  /* callback: same bytes, in chunks */
  chunks c = {NULL, 0, 0, SIZE_MAX};
  assert_int_equal(fj_writer_new(&w, NULL, (fj_sink){chunk_write, &c}), FJ_OK);
  assert_int_equal(ev_play(w, &l), FJ_OK);
  assert_int_equal(c.len, len);
  assert_memory_equal(c.data, want, len);
  assert_true(c.calls > 1);
  size_t size;
  assert_int_equal(fj_writer_size(w, &size), FJ_OK);
  assert_int_equal(size, len);
  /* a failing callback: its error comes back and sticks */
  free(c.data);
  c = (chunks){NULL, 0, 0, 100000};
  assert_int_equal(fj_writer_reset(w, (fj_sink){chunk_write, &c}), FJ_OK);
  assert_int_equal(ev_play(w, &l), FJ_ERR_IO);
  assert_int_equal(fj_writer_flush(w), FJ_ERR_IO);
  /* the document is incomplete too, but no call can complete it now: the
   * sink's error is the cause to report, not "write the rest" */
  assert_int_equal(fj_writer_finish(w), FJ_ERR_IO);
  assert_memory_equal(c.data, want, c.len); /* what got out is a prefix */
  free(c.data);

  /* fixed buffer: exact fit, one byte short, far too small, none at all */
  char *mem = malloc(len + 64);
  for (size_t cap_delta = 0; cap_delta < 4; cap_delta++) {
    size_t caps[4] = {len, len - 1, 10, 0};
    fj_fixed_buffer fb = {caps[cap_delta] ? mem : NULL, caps[cap_delta], 0, 0};
    memset(mem, 'Z', len + 64);
    assert_int_equal(fj_writer_reset(w, fj_sink_fixed(&fb)), FJ_OK);
    err = ev_play(w, &l);
    assert_int_equal(fb.needed, len);
    assert_true(fb.len <= fb.cap);
    if (cap_delta == 0) {
      assert_int_equal(err, FJ_OK);
      assert_int_equal(fb.len, len);
      assert_memory_equal(mem, want, len);
    } else {
      assert_int_equal(err, FJ_ERR_BUFFER_TOO_SMALL);
      if (fb.len) assert_memory_equal(mem, want, fb.len);
    }
    if (fb.cap) assert_int_equal(mem[fb.cap], 'Z'); /* nothing past the end */
  }
  /* small documents that fit exactly, though the writer reserves more */
  const char tiny_want[] = "[1.5,\"ab\"]";
  for (size_t cap = 0; cap <= sizeof tiny_want + 1; cap++) {
    fj_fixed_buffer fb = {mem, cap, 0, 0};
    assert_int_equal(fj_writer_reset(w, fj_sink_fixed(&fb)), FJ_OK);
    fj_writer_begin_array(w);
    fj_writer_double(w, 1.5);
    fj_writer_string(w, "ab");
    fj_writer_end_array(w);
    err = fj_writer_finish(w);
    assert_int_equal(fb.needed, sizeof tiny_want - 1);
    assert_int_equal(err, cap >= sizeof tiny_want - 1 ? FJ_OK : FJ_ERR_BUFFER_TOO_SMALL);
    if (!err) assert_memory_equal(mem, tiny_want, fb.len);
  }
  /* the fixed sink used directly (by fj_minify) reports an overflow */
  fj_fixed_buffer fb = {mem, 5, 0, 0};
  assert_int_equal(fj_minify(parser(), "[1, 2, 3]", 9, fj_sink_fixed(&fb)),
                   FJ_ERR_BUFFER_TOO_SMALL);
  free(mem);

  /* FILE */
  FILE *f = tmpfile();
  assert_non_null(f);
  assert_int_equal(fj_writer_reset(w, fj_sink_file(f)), FJ_OK);
  assert_int_equal(ev_play(w, &l), FJ_OK);
  assert_int_equal((size_t)ftell(f), len);
  rewind(f);
  char *back = malloc(len);
  assert_int_equal(fread(back, 1, len, f), len);
  assert_memory_equal(back, want, len);
  free(back);
  fclose(f);

  /* buffer: appends after existing content; take ownership */
  fj_buffer b = {0};
  for (int rep = 0; rep < 2; rep++) {
    assert_int_equal(fj_writer_reset(w, fj_sink_buffer(&b)), FJ_OK);
    assert_int_equal(ev_play(w, &l), FJ_OK);
  }
  assert_int_equal(b.len, 2 * len);
  assert_int_equal(b.data[b.len], 0);
  void *data;
  size_t dlen;
  assert_int_equal(fj_buffer_take(&b, &data, &dlen), FJ_OK);
  assert_int_equal(dlen, 2 * len);
  assert_memory_equal(data, want, len);
  assert_memory_equal((char *)data + len, want, len);
  assert_null(b.data);
  free(data);
  fj_buffer_free(&b);
  fj_writer_free(w);
  ev_free(&l);
  free(want);
}

/* ---- random documents -------------------------------------------------------- */

static const char *const pieces[] = {"a",
                                     "Z",
                                     " ",
                                     "\"",
                                     "\\",
                                     "/",
                                     "\n",
                                     "\t",
                                     "\x01",
                                     "\x1f",
                                     "\x7f",
                                     "\xc3\xa9",
                                     "\xe2\x82\xac",
                                     "\xef\xbf\xbf",
                                     "\xf0\x9f\x98\x80",
                                     "\xf4\x8f\xbf\xbf",
                                     "hello world ",
                                     "0123456789abcdef"};

static event random_string(ev_kind kind) {
  size_t parts = rng() % 4 == 0 ? rng() % 40 : rng() % 6;
  char *s = malloc(parts * 16 + 1);
  size_t n = 0;
  for (size_t i = 0; i < parts; i++) {
    const char *p = pieces[rng() % (sizeof pieces / sizeof *pieces)];
    size_t pl = strlen(p);
    memcpy(s + n, p, pl);
    n += pl;
  }
  if (rng() % 10 == 0) s[n++] = 0; /* an embedded NUL */
  return (event){.kind = kind, .s = s, .n = n, .owned = true};
}

static double random_double(void) {
  for (;;) {
    uint64_t b = rng();
    switch (rng() % 4) {
    case 0: return (double)(int64_t)(rng() % 2000000) / 1000;
    case 1: return (double)(int32_t)rng();
    default: {
      double d;
      memcpy(&d, &b, 8);
      if (isfinite(d)) return d;
    }
    }
  }
}

static void random_value(events *l, int depth) {
  unsigned r = (unsigned)(rng() % (depth < 6 ? 10 : 7));
  switch (r) {
  case 0: ev_push(l, random_string(EV_STR)); break;
  case 1: ev_push(l, EVI((int64_t)rng() >> (rng() % 64))); break;
  case 2: ev_push(l, EVU(rng() >> (rng() % 64))); break;
  case 3: ev_push(l, EVD(random_double())); break;
  case 4: ev_push(l, EV(rng() % 2 ? EV_TRUE : EV_FALSE)); break;
  case 5: ev_push(l, EV(EV_NULL)); break;
  case 6: ev_push(l, EVI(-(int64_t)(rng() % 1000))); break;
  case 7:
  case 8: {
    ev_push(l, EV(EV_BA));
    size_t k = rng() % 8;
    for (size_t i = 0; i < k; i++)
      random_value(l, depth + 1);
    ev_push(l, EV(EV_EA));
    break;
  }
  default: {
    ev_push(l, EV(EV_BO));
    size_t k = rng() % 8;
    for (size_t i = 0; i < k; i++) {
      ev_push(l, random_string(EV_KEY));
      random_value(l, depth + 1);
    }
    ev_push(l, EV(EV_EO));
  }
  }
}

static fj_error collect(void *ctx, const void *bytes, size_t len) {
  fj_buffer *b = ctx;
  return fj_sink_buffer(b).write(b, bytes, len);
}

/* The growable buffer between syncs is the caller's: after fj_writer_flush()
 * or fj_writer_finish() its bytes may be taken (fj_buffer_take()) and the
 * writer goes on, or finishes again, into the emptied buffer. The writer
 * used to keep pointers into the taken memory: a second finish wrote a NUL
 * there and set len from a stale pointer (use after free, ASan). */
/* The text functions into a fixed buffer too small for their output count
 * on, as the writer does: `needed` is the whole output's size, which the
 * buffer sink's output gives (fresh-user trial: minify and pretty stopped
 * counting at the first overflow, so needed was 16382 for twitter.json's
 * 466906 bytes). What was stored is a prefix of the output, and nothing
 * lies past cap. */
typedef enum { TEXT_MINIFY, TEXT_UNVALIDATED, TEXT_PRETTY } text_fn;

static fj_error run_text(text_fn fn, const fj_file *doc, fj_sink sink) {
  if (fn == TEXT_MINIFY) return fj_minify(parser(), doc->data, doc->len, sink);
  if (fn == TEXT_UNVALIDATED) return fj_minify_unvalidated(doc->data, doc->len, sink);
  return fj_pretty(parser(), doc->data, doc->len, NULL, sink);
}

static void test_text_into_fixed_buffers(void **state) {
  (void)state;
  fj_file doc;
  if (fj_file_load(&doc, FJ_DATA_DIR "/corpus/twitter.json") != FJ_OK) {
    printf("%s/corpus/twitter.json missing: skipping\n", FJ_DATA_DIR);
    skip();
  }
  for (text_fn fn = TEXT_MINIFY; fn <= TEXT_PRETTY; fn++) {
    fj_buffer full = {0};
    assert_int_equal(run_text(fn, &doc, fj_sink_buffer(&full)), FJ_OK);
    const size_t caps[] = {0, 1, 100, 16384, 20000, full.len - 1, full.len, full.len + 1};
    for (size_t i = 0; i < sizeof caps / sizeof *caps; i++) {
      char *mem = malloc(caps[i] + 1);
      assert_non_null(mem);
      mem[caps[i]] = 'Z';
      fj_fixed_buffer fb = {mem, caps[i], 0, 0};
      fj_error err = run_text(fn, &doc, fj_sink_fixed(&fb));
      assert_int_equal(err, caps[i] >= full.len ? FJ_OK : FJ_ERR_BUFFER_TOO_SMALL);
      assert_int_equal(fb.needed, full.len);
      assert_true(fb.len <= caps[i]);
      assert_memory_equal(mem, full.data, fb.len);
      assert_int_equal(mem[caps[i]], 'Z');
      free(mem);
    }
    fj_buffer_free(&full);
  }
  fj_file_free(&doc);
}

/* A fixed buffer that already overflowed stores nothing more (sink.h): a
 * writer started on it only counts, as the sink and fj_minify() do, so
 * `needed` grows by the new output and finish reports the overflow. The
 * writer used to write into it directly again: after "[1,...,9]" (19
 * bytes, cap 10: len 1, needed 19) a second document `7` returned FJ_OK
 * with len 2, needed 2 and data "[7". */
static void test_fixed_after_overflow(void **state) {
  (void)state;
  char mem[16], want[16];
  for (int via_new = 0; via_new < 2; via_new++) {
    memset(mem, '.', sizeof mem);
    fj_fixed_buffer fb = {mem, 10, 0, 0};
    fj_writer *w;
    assert_int_equal(fj_writer_new(&w, NULL, fj_sink_fixed(&fb)), FJ_OK);
    assert_int_equal(fj_writer_begin_array(w), FJ_OK);
    for (int i = 1; i <= 9; i++)
      assert_int_equal(fj_writer_int64(w, i), FJ_OK);
    assert_int_equal(fj_writer_end_array(w), FJ_OK);
    assert_int_equal(fj_writer_finish(w), FJ_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(fb.needed, 19);
    size_t stored = fb.len;
    assert_true(stored <= 10);
    memcpy(want, mem, sizeof mem);
    if (via_new) {
      fj_writer_free(w);
      assert_int_equal(fj_writer_new(&w, NULL, fj_sink_fixed(&fb)), FJ_OK);
    } else {
      assert_int_equal(fj_writer_reset(w, fj_sink_fixed(&fb)), FJ_OK);
    }
    assert_int_equal(fj_writer_int64(w, 7), FJ_OK);
    assert_int_equal(fj_writer_flush(w), FJ_OK); /* counted only */
    assert_int_equal(fb.len, stored);
    assert_int_equal(fb.needed, 20);
    assert_int_equal(fj_writer_finish(w), FJ_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(fb.len, stored);
    assert_int_equal(fb.needed, 20);
    assert_memory_equal(mem, want, sizeof mem); /* nothing more stored */
    fj_writer_free(w);
  }
  /* fj_minify() on such a buffer does the same */
  memset(mem, '.', sizeof mem);
  fj_fixed_buffer fb = {mem, 10, 0, 0};
  assert_int_equal(fj_minify(parser(), "[1,2,3,4,5,6,7,8,9]", 19, fj_sink_fixed(&fb)),
                   FJ_ERR_BUFFER_TOO_SMALL);
  assert_int_equal(fb.needed, 19);
  assert_int_equal(fj_minify(parser(), "7", 1, fj_sink_fixed(&fb)), FJ_ERR_BUFFER_TOO_SMALL);
  assert_int_equal(fb.needed, 20);
  /* a buffer that took a whole output still takes the next one after it */
  fb = (fj_fixed_buffer){mem, 10, 0, 0};
  fj_writer *w;
  assert_int_equal(fj_writer_new(&w, NULL, fj_sink_fixed(&fb)), FJ_OK);
  assert_int_equal(fj_writer_int64(w, 12), FJ_OK);
  assert_int_equal(fj_writer_finish(w), FJ_OK);
  assert_int_equal(fj_writer_reset(w, fj_sink_fixed(&fb)), FJ_OK);
  assert_int_equal(fj_writer_int64(w, 345), FJ_OK);
  assert_int_equal(fj_writer_finish(w), FJ_OK);
  assert_int_equal(fb.len, 5);
  assert_int_equal(fb.needed, 5);
  assert_memory_equal(mem, "12345", 5);
  fj_writer_free(w);
}

/* A fixed buffer the sink cannot store into safely is refused where it is
 * first used, and left as it was. Before, data NULL with cap > 0 made the
 * writer store into NULL (tester's fixed_null_data.c) and len > cap made
 * cap - len wrap around, so that output went past cap. */
static void test_fixed_buffer_refused(void **state) {
  (void)state;
  char mem[32];
  const fj_fixed_buffer bad[] = {
      {NULL, 100, 0, 0}, /* a size but no memory */
      {mem, 4, 5, 5},    /* more stored than fits */
      {mem, 16, 5, 0},   /* less needed than stored */
  };
  fj_buffer b = {0};
  fj_writer *ok;
  assert_int_equal(fj_writer_new(&ok, NULL, fj_sink_buffer(&b)), FJ_OK);
  for (size_t i = 0; i <= sizeof bad / sizeof *bad; i++) {
    memset(mem, 'Z', sizeof mem);
    fj_fixed_buffer fb = i < sizeof bad / sizeof *bad ? bad[i] : (fj_fixed_buffer){0};
    fj_sink sink = i < sizeof bad / sizeof *bad ? fj_sink_fixed(&fb) : fj_sink_fixed(NULL);
    fj_writer *w = ok;
    assert_int_equal(fj_writer_new(&w, NULL, sink), FJ_ERR_INVALID_ARG);
    assert_null(w);
    /* a refused reset leaves the writer on its sink, mid-document */
    assert_int_equal(fj_writer_begin_array(ok), FJ_OK);
    assert_int_equal(fj_writer_reset(ok, sink), FJ_ERR_INVALID_ARG);
    assert_int_equal(fj_writer_end_array(ok), FJ_OK);
    assert_int_equal(fj_writer_finish(ok), FJ_OK);
    assert_string_equal((const char *)b.data, "[]");
    b.len = 0;
    assert_int_equal(fj_writer_reset(ok, fj_sink_buffer(&b)), FJ_OK);
    assert_int_equal(fj_minify(parser(), "[1, 2]", 6, sink), FJ_ERR_INVALID_ARG);
    assert_int_equal(fj_minify_unvalidated("[1, 2]", 6, sink), FJ_ERR_INVALID_ARG);
    assert_int_equal(fj_pretty(parser(), "[1, 2]", 6, NULL, sink), FJ_ERR_INVALID_ARG);
    if (sink.ctx) { /* the sink's own write, called directly */
      assert_int_equal(sink.write(sink.ctx, "[1,2]", 5), FJ_ERR_INVALID_ARG);
      assert_memory_equal(&fb, &bad[i], sizeof fb);
    }
    for (size_t k = 0; k < sizeof mem; k++)
      assert_int_equal(mem[k], 'Z');
  }
  fj_writer_free(ok);
  fj_buffer_free(&b);
}

/* fj_sink_buffer(NULL) and fj_sink_file(NULL) have nowhere to write: the
 * writer, its reset and the text functions refuse them with
 * FJ_ERR_INVALID_ARG, as their own write functions do when called
 * directly. Before, fj_writer_new() took them and the first event wrote
 * through NULL (a trial's fj_sink_buffer(NULL) crashed). */
static void test_null_buffer_and_file_sinks_refused(void **state) {
  (void)state;
  const fj_sink sinks[] = {fj_sink_buffer(NULL), fj_sink_file(NULL)};
  fj_buffer b = {0};
  fj_writer *ok;
  assert_int_equal(fj_writer_new(&ok, NULL, fj_sink_buffer(&b)), FJ_OK);
  for (size_t i = 0; i < sizeof sinks / sizeof *sinks; i++) {
    fj_writer *w = ok;
    assert_int_equal(fj_writer_new(&w, NULL, sinks[i]), FJ_ERR_INVALID_ARG);
    assert_null(w);
    assert_int_equal(fj_writer_reset(ok, sinks[i]), FJ_ERR_INVALID_ARG);
    assert_int_equal(fj_minify(parser(), "[1, 2]", 6, sinks[i]), FJ_ERR_INVALID_ARG);
    assert_int_equal(fj_minify_unvalidated("[1, 2]", 6, sinks[i]), FJ_ERR_INVALID_ARG);
    assert_int_equal(fj_pretty(parser(), "[1, 2]", 6, NULL, sinks[i]), FJ_ERR_INVALID_ARG);
    assert_int_equal(sinks[i].write(sinks[i].ctx, "[1,2]", 5), FJ_ERR_INVALID_ARG);
  }
  /* the writer refused nothing of its own sink on the way */
  assert_int_equal(fj_writer_int64(ok, 7), FJ_OK);
  assert_int_equal(fj_writer_finish(ok), FJ_OK);
  assert_string_equal((const char *)b.data, "7");
  fj_writer_free(ok);
  fj_buffer_free(&b);
}

static fj_error failing_write(void *ctx, const void *bytes, size_t len) {
  (void)ctx;
  (void)bytes;
  (void)len;
  return FJ_ERR_IO;
}

/* After a sink error, every call that passes the misuse and NULL checks
 * returns that error, before its own value errors (writer.h): a NaN double
 * gave FJ_ERR_NUMBER_RANGE, an invalid string or key over 4096 bytes
 * FJ_ERR_UTF8 (one of 4096 bytes FJ_ERR_IO), a begin at max_depth
 * FJ_ERR_DEPTH (tester's sticky_order.c). */
static void test_sink_error_before_value_errors(void **state) {
  (void)state;
  static char bad[5000];
  static const char qk[FJ_QKEY_SPAN(4)] = "\"k\":"; /* readable as the qkey calls require */
  memset(bad, 'a', sizeof bad);
  bad[0] = (char)0xFF;
  for (int as_null = 0; as_null < 2; as_null++) {
    fj_writer_options o = {.max_depth = 1, .flags = as_null ? FJ_WRITE_NONFINITE_AS_NULL : 0};
    fj_writer *w;
    assert_int_equal(fj_writer_new(&w, &o, (fj_sink){failing_write, NULL}), FJ_OK);
    assert_int_equal(fj_writer_begin_array(w), FJ_OK);
    assert_int_equal(fj_writer_flush(w), FJ_ERR_IO);
    assert_int_equal(fj_writer_null(w), FJ_ERR_IO);
    assert_int_equal(fj_writer_double(w, NAN), FJ_ERR_IO);
    assert_int_equal(fj_writer_double(w, -INFINITY), FJ_ERR_IO);
    assert_int_equal(fj_writer_stringn(w, bad, 10), FJ_ERR_IO);
    assert_int_equal(fj_writer_stringn(w, bad, 4096), FJ_ERR_IO);
    assert_int_equal(fj_writer_stringn(w, bad, 4097), FJ_ERR_IO);
    assert_int_equal(fj_writer_stringn(w, bad, sizeof bad), FJ_ERR_IO);
    assert_int_equal(fj_writer_begin_array(w), FJ_ERR_IO); /* at max_depth */
    assert_int_equal(fj_writer_begin_object(w), FJ_ERR_IO);
    /* misuse is still reported as misuse */
    assert_int_equal(fj_writer_keyn(w, bad, sizeof bad), FJ_ERR_EXPECTED_VALUE);
    assert_int_equal(fj_writer_end_object(w), FJ_ERR_WRONG_TYPE);
    assert_int_equal(fj_writer_stringn(w, NULL, 1), FJ_ERR_INVALID_ARG);
    assert_int_equal(fj_writer_finish(w), FJ_ERR_IO);
    /* in an object: keys, members */
    assert_int_equal(fj_writer_reset(w, (fj_sink){failing_write, NULL}), FJ_OK);
    assert_int_equal(fj_writer_begin_object(w), FJ_OK);
    assert_int_equal(fj_writer_flush(w), FJ_ERR_IO);
    assert_int_equal(fj_writer_keyn(w, bad, 10), FJ_ERR_IO);
    assert_int_equal(fj_writer_keyn(w, bad, 4097), FJ_ERR_IO);
    assert_int_equal(fj_writer_member_double(w, "k", 1, NAN), FJ_ERR_IO);
    assert_int_equal(fj_writer_member_stringn(w, "k", 1, bad, 4097), FJ_ERR_IO);
    assert_int_equal(fj_writer_qkey_begin_array(w, qk, 4), FJ_ERR_IO);
    assert_int_equal(fj_writer_double(w, NAN), FJ_ERR_EXPECTED_KEY);
    assert_int_equal(fj_writer_stringn(w, bad, sizeof bad), FJ_ERR_EXPECTED_KEY);
    assert_int_equal(fj_writer_begin_array(w), FJ_ERR_EXPECTED_KEY);
    assert_int_equal(fj_writer_finish(w), FJ_ERR_IO);
    fj_writer_free(w);
  }
}

static fj_error note_chunk(void *ctx, const void *bytes, size_t len) {
  (void)bytes;
  size_t *max = ctx;
  if (len > *max) *max = len;
  return FJ_OK;
}

static void *plain_malloc(void *ctx, size_t n) {
  (void)ctx;
  return malloc(n);
}

static void *no_realloc(void *ctx, void *p, size_t old_n, size_t n) {
  (void)ctx;
  (void)p;
  (void)old_n;
  (void)n;
  return NULL;
}

static void plain_free(void *ctx, void *p, size_t n) {
  (void)ctx;
  (void)n;
  free(p);
}

/* `depth` arrays deep: a raw value of 32 KiB (the most room a value
 * reserves) and a 4 KiB string of control characters (6 bytes each). */
static fj_error deep_events(fj_writer *w, uint32_t depth) {
  static char raw[32768], ctl[4096];
  memset(raw, '1', sizeof raw);
  memset(ctl, 1, sizeof ctl);
  fj_error err = FJ_OK;
  for (uint32_t d = 0; d < depth && !err; d++)
    err = fj_writer_begin_array(w);
  if (!err) err = fj_writer_raw(w, raw, sizeof raw);
  if (!err) err = fj_writer_stringn(w, ctl, sizeof ctl);
  for (uint32_t d = 0; d < depth && !err; d++)
    err = fj_writer_end_array(w);
  return err ? err : fj_writer_finish(w);
}

/* fj_writer_new(): chunks exceed 64 KiB, and the writer's buffer grows
 * (FJ_ERR_NOMEM when it cannot), only in pretty output at depth * indent >
 * 32,766, as the room reserved for an event counts, not its output. The
 * header said past depth 4096 at indent 16 (the line's own length); the
 * tester's chunk_size.c got a 70,996-byte chunk at depth 2900. */
static void test_chunk_bound(void **state) {
  (void)state;
  const fj_allocator no_growth = {plain_malloc, no_realloc, plain_free, NULL};
  fj_writer_options o = {.flags = FJ_WRITE_PRETTY, .indent = 16, .max_depth = 2048};
  o.allocator = &no_growth;
  size_t max = 0;
  fj_writer *w;
  assert_int_equal(fj_writer_new(&w, &o, (fj_sink){note_chunk, &max}), FJ_OK);
  assert_int_equal(deep_events(w, 2047), FJ_OK); /* 2047 * 16 = 32,752 */
  assert_true(max > 0 && max <= 65536);
  assert_int_equal(fj_writer_reset(w, (fj_sink){note_chunk, &max}), FJ_OK);
  assert_int_equal(deep_events(w, 2048), FJ_ERR_NOMEM); /* 2048 * 16 = 32,768 */
  char mem[100];
  fj_fixed_buffer fb = {mem, sizeof mem, 0, 0};
  assert_int_equal(fj_writer_reset(w, fj_sink_fixed(&fb)), FJ_OK);
  assert_int_equal(deep_events(w, 2048), FJ_ERR_NOMEM); /* past its free room */
  fj_writer_free(w);
  /* growing: chunks up to the raw value's room, 2 + 32,768 + 32 KiB */
  o.allocator = NULL;
  max = 0;
  assert_int_equal(fj_writer_new(&w, &o, (fj_sink){note_chunk, &max}), FJ_OK);
  assert_int_equal(deep_events(w, 2048), FJ_OK);
  assert_true(max > 65536 && max <= 2 + 2048 * 16 + 32768);
  fj_writer_free(w);
}

static void test_buffer_taken_between_syncs(void **state) {
  (void)state;
  fj_buffer b = {0};
  fj_writer *w;
  void *data;
  size_t len, size;
  assert_int_equal(fj_writer_new(&w, NULL, fj_sink_buffer(&b)), FJ_OK);
  assert_int_equal(fj_writer_begin_array(w), FJ_OK);
  assert_int_equal(fj_writer_string(w, "hello"), FJ_OK);
  assert_int_equal(fj_writer_flush(w), FJ_OK);
  assert_int_equal(b.len, 8);
  assert_int_equal(fj_buffer_take(&b, &data, &len), FJ_OK);
  assert_memory_equal(data, "[\"hello\"", 9); /* with its NUL */
  free(data);
  assert_int_equal(fj_writer_int64(w, 12345), FJ_OK);
  assert_int_equal(fj_writer_keyn(w, "k", 1), FJ_ERR_EXPECTED_VALUE); /* refused, nothing written */
  assert_int_equal(fj_writer_end_array(w), FJ_OK);
  assert_int_equal(fj_writer_finish(w), FJ_OK);
  assert_int_equal(fj_writer_size(w, &size), FJ_OK);
  assert_int_equal(size, 15); /* the whole document, across the take */
  assert_string_equal((const char *)b.data, ",12345]");
  assert_int_equal(b.len, 7);
  assert_int_equal(fj_buffer_take(&b, &data, &len), FJ_OK);
  free(data);
  assert_int_equal(fj_writer_finish(w),
                   FJ_OK); /* again: nothing more, and the taken memory is not touched */
  assert_null(b.data);
  assert_int_equal(b.len, 0);
  assert_int_equal(fj_writer_size(w, &size), FJ_OK);
  assert_int_equal(size, 15);
  fj_writer_free(w);
  fj_buffer_free(&b);
}

/* A finish that fails leaves the buffer as the last sync did (sink.h): len
 * unchanged, the unfinished bytes after it; the document can still be
 * completed, and then it is whole and NUL-terminated. */
static void test_buffer_after_failed_finish(void **state) {
  (void)state;
  fj_buffer b = {0};
  fj_writer *w;
  assert_int_equal(fj_writer_new(&w, NULL, fj_sink_buffer(&b)), FJ_OK);
  assert_int_equal(fj_writer_begin_array(w), FJ_OK);
  assert_int_equal(fj_writer_string(w, "a\xff"), FJ_ERR_UTF8); /* refused */
  assert_int_equal(fj_writer_finish(w), FJ_ERR_TRUNCATED);
  assert_int_equal(b.len, 0);
  assert_int_equal(fj_writer_string(w, "a"), FJ_OK);
  assert_int_equal(fj_writer_end_array(w), FJ_OK);
  assert_int_equal(fj_writer_finish(w), FJ_OK);
  assert_int_equal(b.len, 5);
  assert_string_equal((const char *)b.data, "[\"a\"]");
  fj_writer_free(w);
  fj_buffer_free(&b);
}

static void test_random_documents(void **state) {
  (void)state;
  oracle o;
  oracle_open(&o);
  const uint32_t variants[] = {0, FJ_WRITE_PRETTY, FJ_WRITE_ESCAPE_UNICODE | FJ_WRITE_ESCAPE_SLASH,
                               FJ_WRITE_PRETTY | FJ_WRITE_TABS};
  size_t docs = 400;
  for (size_t d = 0; d < docs; d++) {
    events l = {0};
    random_value(&l, rng() % 3 == 0 ? 0 : 5);
    char *compact = NULL, *pretty = NULL;
    size_t clen = 0, plen = 0;
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
      size_t len;
      fj_error err;
      char *t = render(&l, &(fj_writer_options){.flags = variants[v]}, &len, &err);
      assert_int_equal(err, FJ_OK);
      size_t mlen;
      char *m =
          render_with(ev_play_members, &l, &(fj_writer_options){.flags = variants[v]}, &mlen, &err);
      assert_int_equal(err, FJ_OK);
      assert_int_equal(mlen, len);
      assert_memory_equal(m, t, len);
      free(m);
      m = render_with(ev_play_qmembers, &l, &(fj_writer_options){.flags = variants[v]}, &mlen,
                      &err);
      assert_int_equal(err, FJ_OK);
      assert_int_equal(mlen, len);
      assert_memory_equal(m, t, len);
      free(m);
      assert_int_equal(strlen(t) <= len, true);
      assert_valid_json(t, len);
      if (d % 2 == 0 || v == 0) oracle_add(&o, &l, t, len);
      if (variants[v] & FJ_WRITE_ESCAPE_UNICODE)
        for (size_t i = 0; i < len; i++)
          assert_true((unsigned char)t[i] < 0x80);
      if (v == 0) {
        compact = t;
        clen = len;
      } else if (v == 1) {
        pretty = t;
        plen = len;
      } else {
        free(t);
      }
    }
    /* the text module agrees: minify(pretty) == compact, pretty(compact) == pretty */
    fj_buffer m = {0};
    assert_int_equal(fj_minify(parser(), pretty, plen, (fj_sink){collect, &m}), FJ_OK);
    assert_int_equal(m.len, clen);
    assert_memory_equal(m.data, compact, clen);
    m.len = 0;
    assert_int_equal(fj_pretty(parser(), compact, clen, NULL, (fj_sink){collect, &m}), FJ_OK);
    assert_int_equal(m.len, plen);
    assert_memory_equal(m.data, pretty, plen);
    fj_buffer_free(&m);
    free(compact);
    free(pretty);
    ev_free(&l);
  }
  oracle_run(&o);
}

static void test_sample_oracle(void **state) {
  (void)state;
  oracle o;
  oracle_open(&o);
  events l = sample();
  oracle_add(&o, &l, sample_compact, strlen(sample_compact));
  oracle_add(&o, &l, sample_pretty, strlen(sample_pretty));
  ev_free(&l);
  oracle_run(&o);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_compact_and_pretty),
      cmocka_unit_test(test_sample_oracle),
      cmocka_unit_test(test_integers),
      cmocka_unit_test(test_buffer_between_reset_and_event),
      cmocka_unit_test(test_deep_nesting),
      cmocka_unit_test(test_misuse),
      cmocka_unit_test(test_member_misuse),
      cmocka_unit_test(test_qmember_misuse),
      cmocka_unit_test(test_qmember_long),
      cmocka_unit_test(test_qkey_begin_depth),
      cmocka_unit_test(test_string_options),
      cmocka_unit_test(test_string_tails),
      cmocka_unit_test(test_long_strings),
      cmocka_unit_test(test_sinks),
      cmocka_unit_test(test_text_into_fixed_buffers),
      cmocka_unit_test(test_fixed_after_overflow),
      cmocka_unit_test(test_fixed_buffer_refused),
      cmocka_unit_test(test_null_buffer_and_file_sinks_refused),
      cmocka_unit_test(test_sink_error_before_value_errors),
      cmocka_unit_test(test_chunk_bound),
      cmocka_unit_test(test_buffer_taken_between_syncs),
      cmocka_unit_test(test_buffer_after_failed_finish),
      cmocka_unit_test(test_random_documents),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  fj_parser_free(parser());
  return rc;
}
