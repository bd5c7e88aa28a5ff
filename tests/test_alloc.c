/* Allocation failure: a caller allocator that fails the k-th request, for
 * every k until a run needs no failure. Each public entry point that
 * allocates must return FJ_ERR_NOMEM (or succeed), never crash, and leave
 * nothing allocated once the parser is freed. The allocator also checks
 * that every free and realloc names the size that was allocated. Memory
 * that only speeds things up (the field tables of out-of-order lookups) may
 * fail silently: the run must then still give the right values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fastjson.h"
#include "test_util.h"

typedef struct counting {
  long fail_at; /* the request number that fails; -1 for none */
  long requests;
  long live_blocks;
  size_t live_bytes;
} counting;

/* Each block carries its size in a header, to check the sizes we are told. */
static void *c_malloc(void *ctx, size_t n) {
  counting *c = ctx;
  if (c->requests++ == c->fail_at) return NULL;
  size_t *b = malloc(n + sizeof(size_t) * 2);
  if (!b) return NULL;
  b[0] = n;
  c->live_blocks++;
  c->live_bytes += n;
  return b + 2;
}

static void c_free(void *ctx, void *ptr, size_t n) {
  counting *c = ctx;
  size_t *b = (size_t *)ptr - 2;
  assert_int_equal(b[0], n);
  c->live_blocks--;
  c->live_bytes -= n;
  free(b);
}

static void *c_realloc(void *ctx, void *ptr, size_t old_n, size_t n) {
  counting *c = ctx;
  if (!ptr) return c_malloc(ctx, n);
  if (c->requests++ == c->fail_at) return NULL;
  size_t *b = (size_t *)ptr - 2;
  assert_int_equal(b[0], old_n);
  size_t *nb = realloc(b, n + sizeof(size_t) * 2);
  if (!nb) return NULL;
  nb[0] = n;
  c->live_bytes += n - old_n;
  return nb + 2;
}

static fj_error discard(void *ctx, const void *bytes, size_t len) {
  (void)ctx;
  (void)bytes;
  (void)len;
  return FJ_OK;
}

/* Reads the 100 fields of an object in reverse order (lookups that build
 * and grow a field table); a wrong value is FJ_ERR_INVALID_ARG. */
static fj_error reverse_lookups(fj_parser *p) {
  static char doc[100 * 16];
  size_t len = 0;
  len += (size_t)snprintf(doc, sizeof doc, "{");
  for (int i = 0; i < 100; i++)
    len += (size_t)snprintf(doc + len, sizeof doc - len, "%s\"k%d\":%d", i ? "," : "", i, i);
  len += (size_t)snprintf(doc + len, sizeof doc - len, "}");
  fj_value root, v;
  fj_object o;
  fj_error err = fj_parser_parse(p, doc, len, &root);
  if (!err) err = fj_value_get_object(&root, &o);
  for (int i = 99; i >= 0 && !err; i--) {
    char key[8];
    int64_t x;
    snprintf(key, sizeof key, "k%d", i);
    err = fj_object_find(&o, key, &v);
    if (!err) err = fj_value_get_int64(&v, &x);
    if (!err && x != i) err = FJ_ERR_INVALID_ARG;
  }
  return err;
}

/* One run of everything that allocates; returns the first error. */
static fj_error run_all(counting *c, const unsigned char *doc, size_t len) {
  fj_allocator a = {c_malloc, c_realloc, c_free, c};
  fj_parser_options opts = {0, 0, &a};
  fj_parser *p;
  fj_error err = fj_parser_new(&p, &opts);
  if (err) return err;
  fj_value root, v;
  const char *s;
  size_t n;
  err = fj_parser_parse(p, doc, len, &root);
  /* escaped strings go to scratch memory: read enough to need new blocks */
  for (int i = 0; i < 40 && !err; i++) {
    char ptr[64];
    snprintf(ptr, sizeof ptr, "/statuses/%d/text", i % 100);
    err = fj_value_at_pointer(&root, ptr, &v);
    if (!err) err = fj_value_get_string(&v, &s, &n);
  }
  if (!err) err = reverse_lookups(p);
  if (!err) err = fj_parser_validate(p, doc, len);
  if (!err) err = fj_minify(p, doc, len, (fj_sink){discard, NULL});
  /* three escaped strings of 100 KB each need scratch blocks beyond the first */
  static char big[3 * 100012 + 8];
  if (!big[0]) {
    size_t k = 0;
    big[k++] = '[';
    for (int i = 0; i < 3; i++) {
      big[k++] = '"';
      for (int j = 0; j < 50000; j++)
        big[k++] = '\\', big[k++] = 'n';
      big[k++] = '"';
      big[k++] = i < 2 ? ',' : ']';
    }
  }
  fj_array arr;
  if (!err) err = fj_parser_parse(p, big, strlen(big), &root);
  if (!err) err = fj_value_get_array(&root, &arr);
  while (!err && (err = fj_array_next(&arr, &v)) == FJ_OK) {
    err = fj_value_get_string(&v, &s, &n);
    if (!err && (n != 50000 || s[0] != '\n')) err = FJ_ERR_INVALID_ARG;
  }
  if (err == FJ_END) err = FJ_OK;
  fj_parser_free(p);
  return err;
}

static void every_allocation_fails_cleanly(void **state) {
  (void)state;
  size_t len;
  unsigned char *doc = fj_test_read_file(FJ_DATA_DIR "/corpus/twitterescaped.json", &len);
  if (!doc) skip();
  long k = 0;
  for (;; k++) {
    counting c = {k, 0, 0, 0};
    fj_error err = run_all(&c, doc, len);
    assert_int_equal(c.live_blocks, 0);
    assert_int_equal(c.live_bytes, 0);
    if (err == FJ_OK && c.requests > k) continue; /* a field table went without */
    if (err == FJ_OK) break;                      /* no failure was injected */
    assert_int_equal(err, FJ_ERR_NOMEM);
    assert_true(k < 10000);
  }
  printf("allocation points exercised: %ld\n", k);
  assert_true(k >= 3); /* parser, open stack, index, scratch at least */
  free(doc);
}

/* The memory a parse takes: its structural index is reserved for the worst
 * case, one structural per input byte (4 bytes each), and must not be
 * rounded up far beyond that (it once doubled to a power of two: up to 8
 * bytes per input byte). Sizes just above and below powers of two, and a
 * parser reused for growing documents. */
static void index_reservation_is_bounded(void **state) {
  (void)state;
  const size_t sizes[] = {1u << 20, (1u << 20) + 100, (3u << 19) - 7, (1u << 21) + 1};
  counting c = {-1, 0, 0, 0};
  fj_allocator a = {c_malloc, c_realloc, c_free, &c};
  fj_parser_options opts = {0, 0, &a};
  fj_parser *p;
  assert_int_equal(fj_parser_new(&p, &opts), FJ_OK);
  const size_t base = c.live_bytes;
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    size_t len = sizes[i];
    char *doc = malloc(len);
    assert_non_null(doc);
    memset(doc, ' ', len);
    doc[0] = '[';
    doc[len - 1] = ']';
    fj_value root;
    assert_int_equal(fj_parser_parse(p, doc, len, &root), FJ_OK);
    size_t index = c.live_bytes - base; /* no string or field table was needed */
    assert_true(index >= 4 * len);      /* room for the worst case */
    /* an eighth more for growth, 2 bits per byte of block maps, rounding */
    assert_true(index <= 4 * len + len * 5 / 8 + 65536);
    free(doc);
  }
  fj_parser_free(p);
  assert_int_equal(c.live_bytes, 0);
}

static void incomplete_allocator_is_rejected(void **state) {
  (void)state;
  fj_allocator a = {c_malloc, NULL, c_free, NULL};
  fj_parser_options opts = {0, 0, &a};
  fj_parser *p = (fj_parser *)1;
  assert_int_equal(fj_parser_new(&p, &opts), FJ_ERR_INVALID_ARG);
  assert_null(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_allocation_fails_cleanly),
      cmocka_unit_test(index_reservation_is_bounded),
      cmocka_unit_test(incomplete_allocator_is_rejected),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
