/* json-c behind dom_peers.h. Documents are read by one reused tokener
 * (json_tokener_parse_ex) with a depth limit of 1024 (json-c's default, 32,
 * rejects deep documents) and the flags JSON_TOKENER_STRICT (no comments,
 * single quotes, trailing commas or trailing content; json-c still accepts
 * NaN and Infinity) and JSON_TOKENER_VALIDATE_UTF8: without them json-c
 * accepts much that is not JSON. Trees are written with
 * json_object_to_json_string_length(JSON_C_TO_STRING_PLAIN), json-c's
 * compact form, into the root's own reused buffer: '/' escaped as "\/"
 * (its default), doubles with 17 significant digits ("%.17g"). */
#include <json-c/json.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dom_build.h"
#include "dom_peers.h"

struct fjb_dom {
  json_tokener *tok;
  json_object *tree; /* built by build(); NULL is also JSON null */
  bool built;
  fjb_build_stack stack;
};

static fjb_dom *jsonc_create(void) {
  fjb_dom *d = calloc(1, sizeof *d);
  if (!d) return NULL;
  d->tok = json_tokener_new_ex(1024);
  if (!d->tok) {
    free(d);
    return NULL;
  }
  json_tokener_set_flags(d->tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
  return d;
}

static void jsonc_destroy(fjb_dom *d) {
  if (!d) return;
  json_object_put(d->tree);
  json_tokener_free(d->tok);
  free(d->stack.frames);
  free(d);
}

/* The tree of buf[0, len) in *root (NULL for the document `null`): false if
 * json-c rejects the document. The '\0' at buf[len] is passed too: it tells
 * json-c that the input ends there (a number at the end is complete). */
static bool jsonc_load(fjb_dom *d, const char *buf, size_t len, json_object **root) {
  if (len >= INT_MAX) return false; /* json-c takes an int length */
  json_tokener_reset(d->tok);
  *root = json_tokener_parse_ex(d->tok, buf, (int)len + 1);
  if (json_tokener_get_error(d->tok) != json_tokener_success ||
      json_tokener_get_parse_end(d->tok) < len) {
    json_object_put(*root);
    return false;
  }
  return true;
}

static bool jsonc_parse(fjb_dom *d, const char *buf, size_t len) {
  json_object *root;
  if (!jsonc_load(d, buf, len, &root)) return false;
  json_object_put(root);
  return true;
}

static void jsonc_count_value(json_object *v, fjb_counts *c) {
  switch (json_object_get_type(v)) {
  case json_type_object: {
    c->objects++;
    /* the fields in order, straight from the hash table: json-c's iterator
     * would call json_object_iter_next(), which jansson exports too */
    for (struct lh_entry *e = lh_table_head(json_object_get_object(v)); e; e = lh_entry_next(e)) {
      c->keys++;
      c->key_bytes += strlen(lh_entry_k(e));
      jsonc_count_value(lh_entry_v(e), c);
    }
    break;
  }
  case json_type_array:
    c->arrays++;
    for (size_t i = 0, n = json_object_array_length(v); i < n; i++)
      jsonc_count_value(json_object_array_get_idx(v, i), c);
    break;
  case json_type_string:
    c->strings++;
    c->string_bytes += (size_t)json_object_get_string_len(v);
    break;
  case json_type_int:
  case json_type_double:
    c->numbers++;
    c->number_sum += json_object_get_double(v);
    break;
  case json_type_boolean:
    if (json_object_get_boolean(v))
      c->trues++;
    else
      c->falses++;
    break;
  case json_type_null: c->nulls++; break;
  }
}

static bool jsonc_count(fjb_dom *d, const char *buf, size_t len, fjb_counts *out) {
  json_object *root;
  if (!jsonc_load(d, buf, len, &root)) return false;
  *out = (fjb_counts){0};
  switch (json_object_get_type(root)) {
  case json_type_object: out->root = FJB_BEGIN_OBJECT; break;
  case json_type_array: out->root = FJB_BEGIN_ARRAY; break;
  case json_type_string: out->root = FJB_STRING; break;
  case json_type_int:
  case json_type_double: out->root = FJB_DOUBLE; break;
  case json_type_boolean: out->root = json_object_get_boolean(root) ? FJB_TRUE : FJB_FALSE; break;
  case json_type_null: out->root = FJB_NULL; break;
  }
  jsonc_count_value(root, out);
  json_object_put(root);
  return true;
}

/* ---- building from events: json-c's constructors ---------------------------------- */

/* json-c's null is a NULL json_object; the builder takes NULL for failure,
 * so null travels as this marker until it is stored. */
static char jsonc_null_marker;

static json_object *jsonc_value(void *v) { return v == &jsonc_null_marker ? NULL : v; }

static void *jsonc_object(void) { return json_object_new_object(); }
static void *jsonc_array(void) { return json_object_new_array(); }
static void *jsonc_string(const char *s, size_t n) {
  return n < INT_MAX ? json_object_new_string_len(s, (int)n) : NULL;
}
static void *jsonc_int64(int64_t i) { return json_object_new_int64(i); }
static void *jsonc_uint64(uint64_t u) { return json_object_new_uint64(u); }
static void *jsonc_real(double x) { return json_object_new_double(x); }
static void *jsonc_boolean(bool b) { return json_object_new_boolean(b); }
static void *jsonc_null(void) { return &jsonc_null_marker; }
static void jsonc_release(void *value) { json_object_put(jsonc_value(value)); }
/* json-c's keys end at their '\0' (the events have one after each key) */
static bool jsonc_set(void *object, const char *key, size_t key_len, void *value) {
  (void)key_len;
  if (json_object_object_add(object, key, jsonc_value(value)) == 0) return true;
  jsonc_release(value);
  return false;
}
static bool jsonc_append(void *array, void *value) {
  if (json_object_array_add(array, jsonc_value(value)) == 0) return true;
  jsonc_release(value);
  return false;
}

static const fjb_build_ops jsonc_ops = {
    jsonc_object,  jsonc_array, jsonc_string, jsonc_int64,  jsonc_uint64,  jsonc_real,
    jsonc_boolean, jsonc_null,  jsonc_set,    jsonc_append, jsonc_release,
};

static bool jsonc_build(fjb_dom *d, const fjb_event *ev, size_t n, const char *arena) {
  json_object_put(d->tree);
  void *root = fjb_build(&jsonc_ops, &d->stack, ev, n, arena);
  d->tree = jsonc_value(root);
  d->built = root != NULL;
  return d->built;
}

static bool jsonc_dump(fjb_dom *d, const char **out, size_t *len) {
  if (!d->built) return false;
  *out = json_object_to_json_string_length(d->tree, JSON_C_TO_STRING_PLAIN, len);
  return *out != NULL;
}

const fjb_dom_lib fjb_jsonc = {
    "json-c", jsonc_create, jsonc_destroy, jsonc_parse, jsonc_count, jsonc_build, jsonc_dump,
};
