/* libFuzzer target: parse, validate, walk with the cursor, and round-trip
 * through minify and pretty. Any crash, sanitizer report, or broken
 * invariant (valid input whose minified form is invalid or pretty-prints
 * differently, or whose unvalidated minify differs from fj_minify) aborts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fastjson.h"

typedef struct buf {
  uint8_t *data;
  size_t len, cap;
} buf;

static fj_error append(void *ctx, const void *bytes, size_t len) {
  buf *b = ctx;
  if (b->len + len > b->cap) {
    size_t cap = (b->len + len) * 2;
    uint8_t *d = realloc(b->data, cap);
    if (!d) return FJ_ERR_NOMEM;
    b->data = d;
    b->cap = cap;
  }
  memcpy(b->data + b->len, bytes, len);
  b->len += len;
  return FJ_OK;
}

/* Reads every value; errors are fine, crashes are not. */
static void walk(fj_value *v, int depth) {
  fj_type t;
  if (depth > 200 || fj_value_get_type(v, &t)) return;
  const char *s;
  size_t n;
  fj_value_get_raw(v, &s, &n);
  if (t == FJ_TYPE_ARRAY) {
    fj_array a;
    fj_value el;
    if (fj_value_get_array(v, &a)) return;
    while (fj_array_next(&a, &el) == FJ_OK)
      walk(&el, depth + 1);
  } else if (t == FJ_TYPE_OBJECT) {
    fj_object o;
    fj_value k, val;
    if (fj_value_get_object(v, &o)) return;
    while (fj_object_next(&o, &k, &val) == FJ_OK) {
      fj_value_get_string(&k, &s, &n);
      walk(&val, depth + 1);
    }
  } else if (t == FJ_TYPE_STRING) {
    fj_value_get_string(v, &s, &n);
  } else if (t == FJ_TYPE_NUMBER) {
    double d;
    int64_t i;
    uint64_t u;
    fj_value_get_double(v, &d);
    fj_value_get_int64(v, &i);
    fj_value_get_uint64(v, &u);
  } else {
    bool b;
    fj_value_get_bool(v, &b);
    fj_value_is_null(v, &b);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static fj_parser *p;
  if (!p && fj_parser_new(&p, NULL)) abort();
  fj_value root;
  if (fj_parser_parse(p, data, size, &root) == FJ_OK) walk(&root, 0);
  fj_error valid = fj_parser_validate(p, data, size);
  fj_location loc;
  if (fj_parser_last_error(p, &loc) != valid || loc.offset > size) abort();
  if (valid) return 0;
  buf mini = {0}, pretty1 = {0}, pretty2 = {0};
  if (fj_minify(p, data, size, (fj_sink){append, &mini})) abort();
  size_t fast_n = 0;
  uint8_t *fast = malloc(size + 1);
  if (fj_minify_unvalidated_into(data, size, fast, &fast_n)) abort();
  if (fast_n != mini.len || memcmp(fast, mini.data, fast_n)) abort();
  free(fast);
  if (fj_pretty(p, data, size, NULL, (fj_sink){append, &pretty1})) abort();
  if (fj_pretty(p, mini.data, mini.len, NULL, (fj_sink){append, &pretty2})) abort();
  if (pretty1.len != pretty2.len || memcmp(pretty1.data, pretty2.data, pretty1.len)) abort();
  free(mini.data);
  free(pretty1.data);
  free(pretty2.data);
  return 0;
}
