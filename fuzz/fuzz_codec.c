/* libFuzzer target: a generated struct reader, on any bytes.
 *
 * The reader is generated at build time by fastjson-gen from
 * fuzz/codec/fuzz_record.json, a schema with every construct the generator
 * supports: integers of each width, doubles, booleans, nullable and default
 * fields, enums, a const, string maps, arrays of arrays, arrays of records,
 * both shapes of tagged union, recursion through a pointer, a union and an
 * array, per-type policies, keys that need escaping. The input is the JSON
 * document; its length picks the decode flags.
 *
 *  - A decode never crashes or leaks (everything lives in the arena), and an
 *    error is described: the code, an offset within the input, a JSON
 *    Pointer path, a message.
 *  - A decoded struct written back by the generated writer reads back to an
 *    equal struct, which writes the same bytes again.
 *  - The same decode with an allocator that fails at one of its allocations
 *    (the parser's included) frees everything and reports FJ_ERR_NOMEM, or,
 *    when the allocation was only an optimisation (the cursor's field index
 *    of an object searched out of order), gives the same result as before. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fastjson.h"
#include "fuzz_record.h"

/* ---- an allocator that counts, and fails on request ----------------------- */

typedef struct counter {
  size_t calls;   /* allocations so far (malloc and realloc) */
  size_t fail_at; /* the call that fails, counted from 1; 0: none */
  size_t live;    /* bytes not yet freed */
} counter;

static bool refuse(counter *c) { return ++c->calls == c->fail_at; }

static void *c_malloc(void *ctx, size_t n) {
  counter *c = ctx;
  if (refuse(c)) return NULL;
  void *p = malloc(n);
  if (p) c->live += n;
  return p;
}

static void *c_realloc(void *ctx, void *p, size_t old, size_t n) {
  counter *c = ctx;
  if (refuse(c)) return NULL;
  void *q = realloc(p, n);
  if (q) c->live += n - old;
  return q;
}

static void c_free(void *ctx, void *p, size_t n) {
  counter *c = ctx;
  if (p) c->live -= n;
  free(p);
}

/* ---- checks ----------------------------------------------------------------- */

/* An error must say what, where and on which value. */
static void check_error(fj_error e, const fj_decode_error *err, size_t size) {
  if (err->code != e || err->offset > size) abort();
  if (memchr(err->path, 0, sizeof err->path) == NULL || (err->path[0] && err->path[0] != '/'))
    abort();
  if (memchr(err->message, 0, sizeof err->message) == NULL || !err->message[0]) abort();
}

static void write_record(const FuzzRecord *r, fj_buffer *out) {
  fj_writer *w;
  if (fj_writer_new(&w, NULL, fj_sink_buffer(out)) || fj_write_FuzzRecord(w, r) ||
      fj_writer_finish(w))
    abort(); /* a decoded struct is always writable */
  fj_writer_free(w);
}

/* Written back, read again: the same struct, the same bytes. */
static void check_round_trip(const FuzzRecord *x, uint32_t flags) {
  static fj_parser *p; /* reused across inputs, as a long-running reader would */
  if (!p && fj_parser_new(&p, NULL)) abort();
  fj_buffer b1 = {0}, b2 = {0};
  write_record(x, &b1);
  fj_arena a;
  fj_arena_init(&a, NULL);
  FuzzRecord y;
  fj_decode_error err;
  if (fj_read_FuzzRecord(p, b1.data, b1.len, &a, flags, &y, &err)) abort();
  if (!fj_equal_FuzzRecord(x, &y)) abort();
  write_record(&y, &b2);
  if (b1.len != b2.len || memcmp(b1.data, b2.data, b1.len)) abort();
  fj_buffer_free(&b1);
  fj_buffer_free(&b2);
  fj_arena_free(&a);
}

/* One decode with a counting allocator (a fresh parser on it too); returns
 * the result, with the struct in `a` until the caller frees it. */
static fj_error decode(const uint8_t *data, size_t size, uint32_t flags, counter *c, fj_arena *a,
                       FuzzRecord *out, fj_decode_error *err) {
  fj_allocator al = {c_malloc, c_realloc, c_free, c};
  fj_arena_init(a, &al);
  return fj_read_FuzzRecord(NULL, data, size, a, flags, out, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint32_t flags = size & 3; /* FJ_DECODE_UNKNOWN_FIELDS_ERROR, _DUPLICATES_LAST_WINS */
  counter c = {0};
  fj_arena a;
  FuzzRecord x;
  fj_decode_error err;
  fj_error e = decode(data, size, flags, &c, &a, &x, &err);
  if (e) check_error(e, &err, size);
  if (!e) check_round_trip(&x, flags);
  fj_arena_free(&a);
  if (c.live) abort();
  if (!c.calls) return 0;
  /* again, with one allocation failing (which one: from the input) */
  fj_decode_error first = err;
  counter f = {.fail_at = 1 + (size * 2654435761u + (size ? data[size / 2] : 0)) % c.calls};
  fj_error again = decode(data, size, flags, &f, &a, &x, &err);
  if (again) check_error(again, &err, size);
  if (again && again != FJ_ERR_NOMEM && (again != e || strcmp(err.message, first.message))) abort();
  if (!again && e) abort();
  if (!again) check_round_trip(&x, flags);
  fj_arena_free(&a);
  if (f.live) abort();
  return 0;
}
