/* jansson behind dom_peers.h. Documents are read with json_loadb() and the
 * flags JSON_DECODE_ANY (a scalar is a whole document, as in RFC 8259) and
 * JSON_ALLOW_NUL ("\u0000" in strings): without them jansson rejects valid
 * JSON. jansson checks UTF-8 and refuses integers outside long long. Trees
 * are written with json_dumpb(JSON_COMPACT | JSON_ENCODE_ANY) into a reused
 * buffer: doubles with 17 significant digits ("%.17g"). */
#include <jansson.h>
#include <stdlib.h>

#include "dom_build.h"
#include "dom_peers.h"

#define FJB_JANSSON_LOAD_FLAGS (JSON_DECODE_ANY | JSON_ALLOW_NUL)
#define FJB_JANSSON_DUMP_FLAGS (JSON_COMPACT | JSON_ENCODE_ANY)

struct fjb_dom {
  json_t *tree; /* built by build() */
  char *out;    /* dump()'s output */
  size_t out_cap;
  fjb_build_stack stack;
};

static fjb_dom *jansson_create(void) { return calloc(1, sizeof(fjb_dom)); }

static void jansson_destroy(fjb_dom *d) {
  if (!d) return;
  json_decref(d->tree);
  free(d->out);
  free(d->stack.frames);
  free(d);
}

static bool jansson_parse(fjb_dom *d, const char *buf, size_t len) {
  (void)d;
  json_error_t e;
  json_t *root = json_loadb(buf, len, FJB_JANSSON_LOAD_FLAGS, &e);
  if (!root) return false;
  json_decref(root);
  return true;
}

static void jansson_count_value(json_t *v, fjb_counts *c) {
  switch (json_typeof(v)) {
  case JSON_OBJECT:
    c->objects++;
    for (void *it = json_object_iter(v); it; it = json_object_iter_next(v, it)) {
      c->keys++;
      c->key_bytes += json_object_iter_key_len(it);
      jansson_count_value(json_object_iter_value(it), c);
    }
    break;
  case JSON_ARRAY:
    c->arrays++;
    for (size_t i = 0, n = json_array_size(v); i < n; i++)
      jansson_count_value(json_array_get(v, i), c);
    break;
  case JSON_STRING:
    c->strings++;
    c->string_bytes += json_string_length(v);
    break;
  case JSON_INTEGER:
    c->numbers++;
    c->number_sum += (double)json_integer_value(v);
    break;
  case JSON_REAL:
    c->numbers++;
    c->number_sum += json_real_value(v);
    break;
  case JSON_TRUE: c->trues++; break;
  case JSON_FALSE: c->falses++; break;
  case JSON_NULL: c->nulls++; break;
  }
}

static bool jansson_count(fjb_dom *d, const char *buf, size_t len, fjb_counts *out) {
  (void)d;
  json_error_t e;
  json_t *root = json_loadb(buf, len, FJB_JANSSON_LOAD_FLAGS, &e);
  if (!root) return false;
  *out = (fjb_counts){0};
  switch (json_typeof(root)) {
  case JSON_OBJECT: out->root = FJB_BEGIN_OBJECT; break;
  case JSON_ARRAY: out->root = FJB_BEGIN_ARRAY; break;
  case JSON_STRING: out->root = FJB_STRING; break;
  case JSON_INTEGER:
  case JSON_REAL: out->root = FJB_DOUBLE; break;
  case JSON_TRUE: out->root = FJB_TRUE; break;
  case JSON_FALSE: out->root = FJB_FALSE; break;
  case JSON_NULL: out->root = FJB_NULL; break;
  }
  jansson_count_value(root, out);
  json_decref(root);
  return true;
}

/* ---- building from events: jansson's constructors -------------------------------- */

static void *jansson_object(void) { return json_object(); }
static void *jansson_array(void) { return json_array(); }
static void *jansson_string(const char *s, size_t n) { return json_stringn(s, n); }
static void *jansson_int64(int64_t i) { return json_integer((json_int_t)i); }
static void *jansson_uint64(uint64_t u) {
  (void)u; /* above INT64_MAX: jansson's integers are long long */
  return NULL;
}
static void *jansson_real(double x) { return json_real(x); }
static void *jansson_boolean(bool b) { return json_boolean(b); }
static void *jansson_null(void) { return json_null(); }
static bool jansson_set(void *object, const char *key, size_t key_len, void *value) {
  return json_object_setn_new(object, key, key_len, value) == 0; /* takes value */
}
static bool jansson_append(void *array, void *value) {
  return json_array_append_new(array, value) == 0; /* takes value */
}
static void jansson_release(void *value) { json_decref(value); }

static const fjb_build_ops jansson_ops = {
    jansson_object,  jansson_array, jansson_string, jansson_int64,  jansson_uint64,  jansson_real,
    jansson_boolean, jansson_null,  jansson_set,    jansson_append, jansson_release,
};

static bool jansson_build(fjb_dom *d, const fjb_event *ev, size_t n, const char *arena) {
  json_decref(d->tree);
  d->tree = fjb_build(&jansson_ops, &d->stack, ev, n, arena);
  return d->tree != NULL;
}

static bool jansson_dump(fjb_dom *d, const char **out, size_t *len) {
  if (!d->tree) return false;
  size_t n = json_dumpb(d->tree, d->out, d->out_cap, FJB_JANSSON_DUMP_FLAGS);
  if (n == 0) return false;
  if (n > d->out_cap) { /* the first time: json_dumpb said how much it needs */
    char *b = realloc(d->out, n);
    if (!b) return false;
    d->out = b;
    d->out_cap = n;
    n = json_dumpb(d->tree, d->out, d->out_cap, FJB_JANSSON_DUMP_FLAGS);
    if (n == 0 || n > d->out_cap) return false;
  }
  *out = d->out;
  *len = n;
  return true;
}

const fjb_dom_lib fjb_jansson = {
    "jansson",     jansson_create, jansson_destroy, jansson_parse,
    jansson_count, jansson_build,  jansson_dump,
};
