/* libFuzzer target: a document stream read in chunks of random sizes gives
 * exactly what the same stream over the whole buffer gives.
 *
 * The input is a header — format (NDJSON, JSON text sequences, concatenated,
 * array elements), validation, small document and batch limits, a shallow
 * parser, a shared parser, a read error at some offset, the array's JSON
 * Pointer, and the seed of a small PRNG that picks the chunk size and how
 * much each read returns — followed by the stream's bytes.
 *
 * The buffer stream is the reference. The callback stream must deliver the
 * same documents in the same order (none lost, none repeated): the same
 * result, index, offset, line, bytes, error and error position, and the
 * same values when walked with the cursor (a digest of a full walk). Each
 * good document must also walk the same as its bytes parsed on their own.
 * With a read error injected, the callback stream must deliver a prefix of
 * the reference's documents, then the error once (not before the end of
 * the last document delivered, not after the failing read), then FJ_END. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fastjson.h"

/* ---- a digest of what the cursor sees ------------------------------------- */

static uint64_t mix(uint64_t h, const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 0x100000001B3u; /* FNV-1a */
  return h;
}

static uint64_t mix_u64(uint64_t h, uint64_t v) { return mix(h, &v, sizeof v); }

/* The result of a call that gives text, and the text when there is one. */
static uint64_t mix_text(uint64_t h, fj_error e, const char *s, size_t n) {
  h = mix_u64(h, (uint64_t)e);
  return e ? h : mix(h, s, n);
}

static uint64_t walk(const fj_value *v, uint64_t h);

static uint64_t walk_array(const fj_value *v, uint64_t h) {
  fj_array a;
  fj_value el;
  fj_error e = fj_value_get_array(v, &a);
  while (!e && (e = fj_array_next(&a, &el)) == FJ_OK)
    h = walk(&el, h);
  return mix_u64(h, (uint64_t)e);
}

static uint64_t walk_object(const fj_value *v, uint64_t h) {
  fj_object o;
  fj_value k, val;
  const char *s;
  size_t n;
  fj_error e = fj_value_get_object(v, &o);
  while (!e && (e = fj_object_next(&o, &k, &val)) == FJ_OK) {
    fj_error ke = fj_value_get_string(&k, &s, &n); /* before s and n are read */
    h = mix_text(h, ke, s, n);
    h = walk(&val, h);
  }
  return mix_u64(h, (uint64_t)e);
}

/* Types, errors, offsets (from the document's start), raw texts, string
 * contents, everything the cursor reports on a full walk. */
static uint64_t walk(const fj_value *v, uint64_t h) {
  fj_type t;
  fj_error e = fj_value_get_type(v, &t);
  h = mix_u64(mix_u64(h, (uint64_t)e), fj_value_offset(v));
  if (e) return h;
  const char *s = NULL;
  size_t n = 0;
  if (t == FJ_TYPE_ARRAY) return walk_array(v, h);
  if (t == FJ_TYPE_OBJECT) return walk_object(v, h);
  e = fj_value_get_raw(v, &s, &n);
  h = mix_text(h, e, s, n);
  if (t != FJ_TYPE_STRING) return h;
  e = fj_value_get_string(v, &s, &n);
  return mix_text(h, e, s, n);
}

static uint64_t digest(const fj_value *root) {
  fj_location loc = {0};
  uint64_t h = walk(root, 0xCBF29CE484222325u);
  /* a stream does not expose its parser; the root's handle names it */
  h = mix_u64(h, (uint64_t)fj_parser_last_error(root->parser, &loc));
  return mix_u64(h, loc.offset);
}

/* ---- what a stream delivered ------------------------------------------------ */

typedef struct delivery {
  fj_error ret;
  fj_document doc; /* its data pointer is stale: the bytes are at text_off */
  size_t text_off; /* in the owning list's text */
  bool has_data;
  uint64_t walked; /* the digest of a good document */
} delivery;

typedef struct deliveries {
  delivery *d;
  size_t n, cap;
  uint8_t *text;
  size_t text_len, text_cap;
} deliveries;

static void keep(deliveries *l, fj_error ret, const fj_document *doc) {
  if (l->n == l->cap) {
    l->cap = l->cap * 2 + 16;
    l->d = realloc(l->d, l->cap * sizeof *l->d);
    if (!l->d) abort();
  }
  delivery *d = &l->d[l->n++];
  *d = (delivery){.ret = ret, .doc = *doc, .text_off = l->text_len, .has_data = doc->data != NULL};
  if (d->has_data && l->text_len + doc->len > l->text_cap) {
    l->text_cap = (l->text_len + doc->len) * 2;
    l->text = realloc(l->text, l->text_cap);
    if (!l->text) abort();
  }
  if (d->has_data && doc->len) memcpy(l->text + l->text_len, doc->data, doc->len);
  l->text_len += d->has_data ? doc->len : 0;
  if (ret == FJ_OK) d->walked = digest(&doc->root);
}

static const uint8_t *text_of(const deliveries *l, const delivery *d) {
  return l->text + d->text_off;
}

static bool same_delivery(const deliveries *la, const delivery *a, const deliveries *lb,
                          const delivery *b) {
  const fj_document *x = &a->doc, *y = &b->doc;
  if (a->ret != b->ret || x->index != y->index || x->offset != y->offset || x->line != y->line ||
      x->error != y->error || x->error_offset != y->error_offset ||
      x->error_line != y->error_line || x->error_column != y->error_column)
    return false;
  if (a->has_data != b->has_data || x->len != y->len || a->walked != b->walked) return false;
  return !x->len || memcmp(text_of(la, a), text_of(lb, b), x->len) == 0;
}

static void deliveries_free(deliveries *l) {
  free(l->d);
  free(l->text);
}

/* ---- the chunked source -------------------------------------------------------- */

typedef struct source {
  const uint8_t *data;
  size_t len, pos;
  size_t fail_at; /* SIZE_MAX: never */
  bool failed;
  uint32_t rng;
} source;

static uint32_t next_random(uint32_t *x) { /* xorshift32 */
  *x ^= *x << 13;
  *x ^= *x >> 17;
  *x ^= *x << 5;
  return *x;
}

static fj_error source_read(void *ctx, void *buf, size_t cap, size_t *got) {
  source *s = ctx;
  size_t left = s->len - s->pos, n = 1 + next_random(&s->rng) % cap;
  if (s->pos >= s->fail_at) {
    s->failed = true;
    return FJ_ERR_IO;
  }
  if (n > left) n = left;
  if (s->fail_at != SIZE_MAX && n > s->fail_at - s->pos) n = s->fail_at - s->pos;
  memcpy(buf, s->data + s->pos, n);
  s->pos += n;
  *got = n;
  return FJ_OK;
}

/* ---- the two streams -------------------------------------------------------- */

static const char *const pointers[] = {"", "/a", "/a/1", "/0", "/x~1y", "/a~0", "/-", "/a/b/c"};

typedef struct setup {
  fj_stream_options o;
  fj_parser_options po;
  size_t fail_at;
  uint32_t seed;
  bool shared_parser;
} setup;

#define HEADER 10

static setup read_header(const uint8_t *h) {
  setup s = {0};
  s.o.format = (fj_stream_format)(h[0] & 3);
  s.o.flags = h[0] & 4 ? FJ_STREAM_VALIDATE : 0;
  if (h[0] & 8) s.o.max_document_size = (size_t)h[1] + 1;
  if (h[0] & 16) s.o.batch_size = (size_t)h[2] + 1;
  s.fail_at = h[0] & 32 ? (size_t)h[3] | (size_t)h[4] << 8 : SIZE_MAX;
  s.shared_parser = h[0] & 64;
  if (h[0] & 128) s.po.max_depth = h[2] % 8 + 1;
  s.po.flags = h[5] & 128 ? FJ_PARSE_REPLACE_LONE_SURROGATES : 0;
  s.o.pointer = pointers[h[5] % (sizeof pointers / sizeof *pointers)];
  memcpy(&s.seed, h + 6, 4);
  s.seed |= 1; /* xorshift never leaves zero */
  return s;
}

/* Runs a stream to its end, twice past it (FJ_END must stay). */
/* Delivers every document; a good one's root handle must be stale after
 * the next call, whatever it returns (its bytes may have moved). */
static void drain(fj_stream *st, deliveries *out) {
  fj_document doc;
  fj_error e;
  fj_value last = {0};
  const char *raw;
  size_t n;
  while ((e = fj_stream_next(st, &doc)) != FJ_END) {
    keep(out, e, &doc); /* first: its digest takes in the parser's last error */
    if (last.parser && fj_value_get_raw(&last, &raw, &n) != FJ_ERR_STALE_DOCUMENT) abort();
    last = e == FJ_OK ? doc.root : (fj_value){0};
  }
  if (last.parser && fj_value_get_raw(&last, &raw, &n) != FJ_ERR_STALE_DOCUMENT) abort();
  if (fj_stream_next(st, &doc) != FJ_END) abort();
}

/* Each good document walks as its bytes do when parsed alone. */
static void check_alone(const deliveries *l, const fj_parser_options *po) {
  static fj_parser *p;
  static fj_parser_options made;
  if (!p || memcmp(&made, po, sizeof made)) {
    fj_parser_free(p);
    if (fj_parser_new(&p, po)) abort();
    made = *po;
  }
  for (size_t i = 0; i < l->n; i++) {
    const delivery *d = &l->d[i];
    fj_value root;
    if (d->ret != FJ_OK) continue;
    if (fj_parser_parse(p, text_of(l, d), d->doc.len, &root)) abort();
    if (digest(&root) != d->walked) abort();
  }
}

static void compare(const deliveries *ref, const deliveries *got, const source *src) {
  size_t n = got->n;
  if (!src->failed) {
    if (n != ref->n) abort();
  } else { /* a prefix, then the read error once */
    if (n == 0 || n - 1 > ref->n || got->d[n - 1].ret != FJ_ERR_IO) abort();
    const fj_document *io = &got->d[n - 1].doc;
    const fj_document *last = n > 1 ? &got->d[n - 2].doc : NULL;
    if (io->offset > src->fail_at || (last && io->offset < last->offset + last->len)) abort();
    if (io->index != (last ? last->index + 1 : 0)) abort();
    n--;
  }
  for (size_t i = 0; i < n; i++)
    if (!same_delivery(ref, &ref->d[i], got, &got->d[i])) abort();
}

/* FJ_STREAM_ARRAY with FJ_STREAM_VALIDATE and no small limits over input
 * that fj_parser_validate() refuses must report an error somewhere: inside
 * an element, or around the elements (which the stream checks itself; it
 * used to pass over `[}` and `{"c":[1]]`). A depth error is the exception:
 * the stream does not count the containers around the array. */
static void check_refused(const deliveries *ref, const setup *s, const uint8_t *data, size_t size) {
  static fj_parser *p;
  if (s->o.format != FJ_STREAM_ARRAY || !(s->o.flags & FJ_STREAM_VALIDATE) ||
      s->o.max_document_size || s->po.max_depth || s->po.flags)
    return;
  if (!p && fj_parser_new(&p, NULL)) abort();
  fj_error v = fj_parser_validate(p, data, size);
  if (v == FJ_OK || v == FJ_ERR_DEPTH) return;
  for (size_t i = 0; i < ref->n; i++)
    if (ref->d[i].ret != FJ_OK) return;
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static fj_parser *shared;
  if (size < HEADER) return 0;
  setup s = read_header(data);
  data += HEADER;
  size -= HEADER;
  deliveries ref = {0}, got = {0};
  fj_stream *st;
  s.o.parser = &s.po;
  if (fj_stream_new_buffer(&st, data, size, &s.o)) abort();
  drain(st, &ref);
  fj_stream_free(st);

  source src = {data, size, 0, s.fail_at, false, s.seed};
  static const size_t chunks[] = {1, 2, 3, 7, 16, 64, 4096};
  s.o.chunk_size = chunks[next_random(&src.rng) % 7];
  /* a parser reused across inputs (its documents go stale): only with the
   * default options, which it was made with */
  if (s.shared_parser && !s.po.max_depth && !s.po.flags) {
    if (!shared && fj_parser_new(&shared, NULL)) abort();
    s.o.use_parser = shared;
  }
  if (fj_stream_new_callback(&st, source_read, &src, &s.o)) abort();
  drain(st, &got);
  fj_stream_free(st);
  compare(&ref, &got, &src);
  check_alone(&ref, &s.po);
  check_refused(&ref, &s, data, size);
  deliveries_free(&ref);
  deliveries_free(&got);
  return 0;
}
