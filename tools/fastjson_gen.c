/* fastjson-gen: JSON Schema (a draft 2020-12 subset) in, C struct codecs out.
 *
 *   fastjson-gen SCHEMA.json OUT_BASE     writes OUT_BASE.h and OUT_BASE.c
 *
 * Supported keywords: type (one type, or [T, "null"] for nullable), properties,
 * required, items, enum (strings), const (a string), $ref ("#" or
 * "#/$defs/Name"), $defs (at the root), oneOf (tagged unions, see below),
 * additionalProperties (false: unknown fields are errors; true: skipped; a
 * schema with no properties: a string-keyed map), format (int32, int64,
 * uint64 on integers), default (scalars), and the annotations title,
 * description, $schema, $id, $comment, examples. Two extensions fix a policy
 * for one record type, in its own schema: "x-fastjson-unknown-fields": "skip"
 * | "error" and "x-fastjson-duplicates": "error" | "last-wins". Any other keyword is an
 * error naming it and its JSON Pointer in the schema: nothing is silently
 * ignored.
 *
 * oneOf is a tagged union in one of two wire shapes, recognised from the
 * variants: every variant an object with the same property holding a string
 * `const` (a discriminator field: {"type": "circle", ...}), or every variant
 * an object with exactly one property, required, and no others
 * ("additionalProperties": false): a nested discriminator, {"circle": {...}}.
 *
 * Records are read and compared by the library from tables the generator
 * lays out (fastjson/codec.h: fj_decode_record): key names, a hash table of
 * them, the required fields and a member table (kind, offset, has-flag,
 * enum strings, nested record, default). fj_decode_record_value() walks the
 * object's fields once: the next field in schema order is tried first (the
 * in-order fast path), else the hash table; raw key bytes are compared (no
 * unescaping) and only a key that holds a backslash is unescaped; each value
 * goes straight into its member, nested records and arrays of scalars or
 * records by recursion. Generated code is called back only for what a table
 * cannot say: unions, maps, arrays of arrays (<Type>_read_custom and
 * <Type>_equal_custom). fj_read_<Type>(), fj_read_<Type>_value() and
 * fj_equal_<Type>() of records are inline in the header.
 *
 * Compile cost: the compiler's time goes per function and per statement, so
 * the generated file keeps both few: tables cost it almost nothing. With
 * readers from tables, N = 100 of bench/codec_compile_cost.py compiles in
 * 2.6 s instead of 5.5 s at the same read speed (bench/bench_codec.cpp).
 * Writers stay straight-line code: each member is one writer call, its key
 * pre-quoted where it can be (one array of `"key":` texts the writer copies
 * unchecked: fj_writer_qmember_*, fj_writer_qkey); a table-driven writer
 * through the public writer calls measured 20-33% slower.
 *
 * The schema is read with libfastjson's own cursor into a small tree. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastjson/codec.h"
#include "fastjson/parser.h"
#include "fastjson.h" /* FASTJSON_VERSION_STRING */
#include "fastjson_gen_names.h"

/* ---- utilities ------------------------------------------------------------- */

/* Everything the generator allocates lives in one arena (the library's),
 * freed at exit: a one-shot tool has no use for finer ownership. Each block
 * records its size so that xrealloc() can copy it. */
static fj_arena g_mem;

static void *xmalloc(size_t n) {
  size_t *p = fj_arena_alloc(&g_mem, sizeof(max_align_t) + n);
  if (!p) {
    fprintf(stderr, "fastjson-gen: out of memory\n");
    exit(1);
  }
  p[0] = n;
  memset((char *)p + sizeof(max_align_t), 0, n);
  return (char *)p + sizeof(max_align_t);
}

static void *xrealloc(void *old, size_t n) {
  char *p = xmalloc(n);
  if (old) {
    size_t old_n = *(size_t *)((char *)old - sizeof(max_align_t));
    memcpy(p, old, old_n < n ? old_n : n);
  }
  return p;
}

static char *xstrndup(const char *s, size_t n) {
  char *d = xmalloc(n + 1);
  memcpy(d, s, n);
  return d;
}

static char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

static char *fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  int n = vsnprintf(NULL, 0, f, ap);
  va_end(ap);
  char *s = xmalloc((size_t)n + 1);
  va_start(ap, f);
  vsnprintf(s, (size_t)n + 1, f, ap);
  va_end(ap);
  return s;
}

/* Room for `n` + 1 elements of `size` bytes in *p, which has room for *cap:
 * doubled when full, so that n elements cost O(n) bytes in the arena,
 * which frees no block before exit (one more each time was quadratic). */
static void grow(void *p, size_t *cap, size_t n, size_t size) {
  if (n < *cap) return;
  *cap = *cap ? *cap * 2 : 8;
  *(void **)p = xrealloc(*(void **)p, *cap * size);
}

/* A set of byte strings with a number each (open addressing, at most half
 * full): what the generator looks up per property, key or constant, which
 * lists searched from the start made quadratic in the schema's size. */
typedef struct smap {
  const char **keys; /* NULL: empty slot */
  size_t *lens, *vals, cap, n;
} smap;

/* The 64-bit FNV-1a hash of n bytes. */
static uint64_t fnv1a(const char *s, size_t n) {
  uint64_t h = UINT64_C(14695981039346656037);
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * UINT64_C(1099511628211);
  return h;
}

static size_t smap_slot(const smap *m, const char *k, size_t n) {
  size_t i = (size_t)fnv1a(k, n) & (m->cap - 1);
  while (m->keys[i] && (m->lens[i] != n || memcmp(m->keys[i], k, n)))
    i = (i + 1) & (m->cap - 1);
  return i;
}

/* The number of key `k` (`n` bytes), or NULL if it is not in the set. */
static size_t *smap_get(const smap *m, const char *k, size_t n) {
  if (!m->cap) return NULL;
  size_t i = smap_slot(m, k, n);
  return m->keys[i] ? &m->vals[i] : NULL;
}

static void smap_put(smap *m, const char *k, size_t n, size_t v);

static void smap_rehash(smap *m) {
  smap old = *m;
  m->cap = old.cap ? old.cap * 2 : 16;
  m->n = 0;
  m->keys = xmalloc(m->cap * sizeof *m->keys);
  m->lens = xmalloc(m->cap * sizeof *m->lens);
  m->vals = xmalloc(m->cap * sizeof *m->vals);
  for (size_t i = 0; i < old.cap; i++)
    if (old.keys[i]) smap_put(m, old.keys[i], old.lens[i], old.vals[i]);
}

/* Adds key `k` (kept, not copied) with number `v`, or sets its number. */
static void smap_put(smap *m, const char *k, size_t n, size_t v) {
  if (2 * (m->n + 1) > m->cap) smap_rehash(m);
  size_t i = smap_slot(m, k, n);
  if (!m->keys[i]) m->n++;
  m->keys[i] = k;
  m->lens[i] = n;
  m->vals[i] = v;
}

static bool smap_has(const smap *m, const char *k) { return smap_get(m, k, strlen(k)) != NULL; }

static void smap_add(smap *m, const char *k) { smap_put(m, k, strlen(k), 0); }

/* A growable string: the generated files are built in memory, then written. */
typedef struct sbuf {
  char *s;
  size_t len, cap;
} sbuf;

static void out(sbuf *b, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  int n = vsnprintf(NULL, 0, f, ap);
  va_end(ap);
  if (b->len + (size_t)n + 1 > b->cap) {
    b->cap = (b->len + (size_t)n + 1) * 2;
    b->s = xrealloc(b->s, b->cap);
  }
  va_start(ap, f);
  vsnprintf(b->s + b->len, (size_t)n + 1, f, ap);
  va_end(ap);
  b->len += (size_t)n;
}

static const char *g_schema_path = "";

/* A schema error: the keyword's JSON Pointer in the schema, then exit 1. */
static void die(const char *ptr, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  fprintf(stderr, "%s: %s: ", g_schema_path, ptr[0] ? ptr : "(root)"); /* "/" is key "" */
  vfprintf(stderr, f, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

/* ---- the schema as a tree ----------------------------------------------------- */

typedef enum jkind { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jkind;

typedef struct jn {
  jkind kind;
  bool b;
  char *s; /* string (unescaped) or number (as written) */
  size_t slen;
  size_t n; /* elements or members */
  char **keys;
  size_t *key_lens;
  struct jn **kids;
} jn;

static fj_error load(const fj_value *v, jn **out);

static fj_error load_container(const fj_value *v, jn *node, bool object) {
  fj_object o;
  fj_array a;
  fj_error e = object ? fj_value_get_object(v, &o) : fj_value_get_array(v, &a);
  if (e) return e;
  size_t cap = 0, key_cap = 0, len_cap = 0;
  for (;;) {
    fj_value key, val;
    e = object ? fj_object_next(&o, &key, &val) : fj_array_next(&a, &val);
    if (e == FJ_END) return FJ_OK;
    if (e) return e;
    grow(&node->kids, &cap, node->n, sizeof *node->kids);
    if (object) {
      const char *k;
      size_t kn;
      if ((e = fj_value_get_string(&key, &k, &kn))) return e;
      grow(&node->keys, &key_cap, node->n, sizeof *node->keys);
      grow(&node->key_lens, &len_cap, node->n, sizeof *node->key_lens);
      node->keys[node->n] = xstrndup(k, kn);
      node->key_lens[node->n] = kn;
    }
    if ((e = load(&val, &node->kids[node->n]))) return e;
    node->n++;
  }
}

static fj_error load(const fj_value *v, jn **out) {
  jn *node = xmalloc(sizeof *node);
  *out = node;
  fj_type t;
  fj_error e = fj_value_get_type(v, &t);
  if (e) return e;
  const char *s;
  size_t n;
  switch (t) {
  case FJ_TYPE_NULL: node->kind = J_NULL; return FJ_OK;
  case FJ_TYPE_BOOL: node->kind = J_BOOL; return fj_value_get_bool(v, &node->b);
  case FJ_TYPE_NUMBER:
    node->kind = J_NUM;
    if ((e = fj_value_get_raw(v, &s, &n))) return e;
    node->s = xstrndup(s, n);
    node->slen = n;
    return FJ_OK;
  case FJ_TYPE_STRING:
    node->kind = J_STR;
    if ((e = fj_value_get_string(v, &s, &n))) return e;
    node->s = xstrndup(s, n);
    node->slen = n;
    return FJ_OK;
  case FJ_TYPE_ARRAY: node->kind = J_ARR; return load_container(v, node, false);
  case FJ_TYPE_OBJECT: node->kind = J_OBJ; return load_container(v, node, true);
  }
  return FJ_ERR_WRONG_TYPE;
}

static jn *member(const jn *o, const char *key) {
  for (size_t i = 0; o && o->kind == J_OBJ && i < o->n; i++)
    if (strlen(key) == o->key_lens[i] && !memcmp(o->keys[i], key, o->key_lens[i]))
      return o->kids[i];
  return NULL;
}

/* JSON Pointer of `key` under `ptr` (RFC 6901 escapes). */
static char *child_ptr(const char *ptr, const char *key) {
  sbuf b = {0};
  out(&b, "%s/", ptr);
  for (const char *k = key; *k; k++)
    out(&b, "%s", *k == '~' ? "~0" : *k == '/' ? "~1" : (char[]){*k, 0});
  return b.s;
}

/* ---- the type model ------------------------------------------------------------- */

typedef enum tkind {
  T_UNSET,
  T_BOOL,
  T_INT32,
  T_INT64,
  T_UINT64,
  T_DOUBLE,
  T_STRING,
  T_ENUM,
  T_CONST,
  T_ARRAY,
  T_MAP,
  T_RECORD,
  T_UNION
} tkind;

typedef struct type type;

typedef struct field {
  char *name; /* the JSON key, unescaped */
  size_t name_len;
  char *cname; /* the C member */
  char *flag;  /* its has_ flag's name, whether or not the member has one */
  type *t;
  bool required, nullable, pointer;
  jn *def; /* default value */
  char *ptr;
} field;

typedef struct variant {
  char *tag; /* discriminator value or the nested key */
  size_t tag_len;
  char *cname; /* the member of `as` */
  char *kind;  /* the enum constant that selects it */
  type *t;
  bool pointer;
} variant;

enum { POLICY_GLOBAL = -1, POLICY_NO = 0, POLICY_YES = 1 };
enum { SHAPE_FIELD, SHAPE_NESTED };

struct type {
  tkind kind;
  char *name; /* C name of records, unions, enums, arrays, maps */
  char *ptr;  /* where in the schema */
  jn *schema;
  /* records */
  field *fields;
  size_t nfields;
  smap member_names;            /* its fields' C names and has_ flags (member_name_taken()) */
  int unknown_error, last_wins; /* POLICY_* */
  /* enums and consts */
  char **values;
  size_t *value_lens;
  char **cvalues;
  size_t nvalues;
  /* arrays and maps */
  type *elem;
  /* unions */
  int shape;
  char *tag;
  size_t tag_len;
  variant *variants;
  size_t nvariants;
  char **variant_ptrs;
  bool wrapper; /* the object around a nested-discriminator variant: wire shape only */
  /* emission */
  int visit;         /* 0 new, 1 on the DFS stack, 2 done */
  bool own_fns;      /* read and compared by functions of its own (custom members reach it) */
  bool write_fn;     /* an enum written by a function of its own (an element, a variant) */
  bool used;         /* an enum some member, element or variant is of: its tables are emitted */
  unsigned searched; /* the last reaches() search that went through it */
  int recursive;     /* is_recursive(): 0 not known yet, 1 no, 2 yes */
};

static type **g_types; /* every named type, in creation order */
static size_t g_ntypes, g_types_cap;
static jn *g_root;
static type *g_root_type;
static const char *g_root_ref; /* where "$ref": "#" first appears, if it does */
static char **g_def_names;
static size_t *g_def_name_lens;
static type **g_def_types;
static size_t g_ndefs;

/* A schema object with a key twice is ambiguous (JSON leaves the meaning
 * open; a "properties" with "a" twice gave two members, whose output
 * the generated reader then refused as a duplicate key): an error, at the
 * second. */
static void check_duplicates(const jn *n, const char *ptr) {
  smap seen = {0};
  for (size_t i = 0; n->kind == J_OBJ && i < n->n; i++) {
    if (smap_get(&seen, n->keys[i], n->key_lens[i]))
      die(child_ptr(ptr, n->keys[i]), "the key \"%s\" appears twice in this object", n->keys[i]);
    smap_put(&seen, n->keys[i], n->key_lens[i], i);
  }
  for (size_t i = 0; (n->kind == J_OBJ || n->kind == J_ARR) && i < n->n; i++)
    check_duplicates(n->kids[i],
                     n->kind == J_OBJ ? child_ptr(ptr, n->keys[i]) : fmt("%s/%zu", ptr, i));
}

/* Two name parts joined by one '_'. C++ reserves every name that contains
 * "__", so the parts' own underscores at the seam merge into the one. */
static char *join(const char *a, const char *b) {
  size_t n = strlen(a);
  while (n && a[n - 1] == '_')
    n--;
  while (*b == '_')
    b++;
  return fmt("%.*s_%s", (int)n, a, b);
}

static bool in_list(const char *d, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(d, list[i])) return true;
  return false;
}

/* Whether `d` is a keyword or a macro (fastjson_gen_names.h): no name may be it. */
static bool is_keyword(const char *d) {
  return in_list(d, c_keywords, sizeof c_keywords / sizeof *c_keywords) ||
         in_list(d, std_macros, sizeof std_macros / sizeof *std_macros);
}

/* Whether `d` starts as the library's macros do (FJ_MAX_DEPTH,
 * FASTJSON_H): the library keeps these prefixes for itself. */
static bool library_macro(const char *d) {
  return !strncmp(d, "FJ_", 3) || !strncmp(d, "FASTJSON_", 9);
}

/* Whether a standard header declares `d` at file scope: no type or
 * constant may be it. */
static bool is_std_declared(const char *d) {
  return in_list(d, std_declared, sizeof std_declared / sizeof *std_declared);
}

/* A C identifier from text with an ASCII letter or digit: a run of other
 * bytes becomes one '_' (never "__", which C++ reserves anywhere in a
 * name). */
static char *ident_of_words(const char *s, size_t n) {
  char *d = xmalloc(n + 3);
  size_t k = 0;
  if (!n || isdigit((unsigned char)s[0])) d[k++] = '_';
  for (size_t i = 0; i < n; i++) {
    char c = isalnum((unsigned char)s[i]) ? s[i] : '_';
    if (c != '_' || !k || d[k - 1] != '_') d[k++] = c;
  }
  d[k] = '\0';
  if (is_keyword(d) || library_macro(d)) d[k++] = '_';
  d[k] = '\0';
  /* C reserves _X...: _Bool is a keyword, others may be macros */
  if (d[0] == '_' && isupper((unsigned char)d[1])) return fmt("x%s", d);
  return d;
}

/* A C identifier from arbitrary text (a property, enum value, title or
 * tag): ident_of_words(), or for text that is only punctuation or
 * non-ASCII ("+", "<=", "é") the characters' names joined by '_', "sym"
 * for a character without one (one a code point: UTF-8's continuation
 * bytes add nothing). */
static char *ident(const char *s, size_t n) {
  static const char *const names[][2] = {
      {"+", "plus"}, {"-", "minus"}, {"*", "star"},  {"/", "slash"}, {"%", "percent"},
      {"<", "lt"},   {">", "gt"},    {"=", "eq"},    {"!", "not"},   {"&", "and"},
      {"|", "or"},   {"^", "xor"},   {"~", "tilde"}, {".", "dot"},   {"?", "question"}};
  bool alnum = false;
  for (size_t i = 0; i < n; i++)
    alnum |= isalnum((unsigned char)s[i]) || s[i] == '_';
  if (alnum || !n) return ident_of_words(s, n);
  sbuf b = {0};
  for (size_t i = 0; i < n; i++) {
    if (((unsigned char)s[i] & 0xC0) == 0x80) continue;
    const char *w = "sym";
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
      if (s[i] == names[k][0][0]) w = names[k][1];
    out(&b, "%s%s", b.s ? "_" : "", w);
  }
  return b.s ? b.s : ident_of_words(s, n);
}

/* Names the generated code declares or calls that a type could shadow:
 * parameters and locals, its static helpers, and what it calls from
 * <string.h>. */
static const char *const generated_names[] = {
    "main",      "in",         "out",    "to",     "doc",    "key",    "val",
    "it",        "parser",     "json",   "len",    "arena",  "flags",  "err",
    "str_equal", "read_const", "memcmp", "memchr", "memcpy", "memset", "strlen",
    "strcmp",    "items",      "cap",    "elem",   "values", "total",  "ks"};

/* Whether `name` starts as no type name or constant may: the library's
 * prefixes (fj_, FJ_, FASTJSON_), the generated file's static functions (read_T, write_T_rest,
 * equal_T, for any type T), and '_', which C reserves at file scope and C++
 * (before a capital) everywhere. */
static bool reserved_prefix(const char *name) {
  static const char *const prefixes[] = {"fj_", "write_", "read_", "equal_"};
  for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
    if (!strncmp(name, prefixes[i], strlen(prefixes[i]))) return true;
  return name[0] == '_' || library_macro(name);
}

/* Whether b is a with `suffix` after it. */
static bool with_suffix(const char *a, const char *b, const char *suffix) {
  size_t n = strlen(a);
  return !strncmp(a, b, n) && !strcmp(b + n, suffix);
}

/* Whether b is a with one or more "_array" and "_map" after it: the name of
 * a container of a's type (T_array, T_map_array). */
static bool with_container_suffixes(const char *a, const char *b) {
  size_t n = strlen(a);
  if (strncmp(a, b, n) || !b[n]) return false;
  for (const char *r = b + n; *r;) {
    if (!strncmp(r, "_array", 6))
      r += 6;
    else if (!strncmp(r, "_map", 4))
      r += 4;
    else
      return false;
  }
  return true;
}

/* Whether b is the name of one of the generated file's tables of a type
 * named a (T_slots, E_values, ...). */
static bool names_a_table(const char *a, const char *b) {
  static const char *const suffixes[] = {"_names",  "_lens",         "_members",     "_required",
                                         "_slots",  "_equal_custom", "_read_custom", "_variant",
                                         "_values", "_value_lens"};
  for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++)
    if (with_suffix(a, b, suffixes[i])) return true;
  return false;
}

/* Whether type names a and b would make one generated name: equal, or one
 * is the other with "_value" after it (fj_read_T_value reads a T from a
 * cursor, fj_read_U reads a U = T_value from bytes), "_kind" (a union T's
 * enum T_kind), the suffix of one of the generated file's tables (T_slots,
 * E_values, ...), or container suffixes (T's arrays and maps are T_array,
 * T_map, T_array_array, ...). */
static bool names_meet(const char *a, const char *b) {
  static const char *const suffixes[] = {"_value", "_kind"};
  if (!strcmp(a, b)) return true;
  for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++)
    if (with_suffix(a, b, suffixes[i]) || with_suffix(b, a, suffixes[i])) return true;
  return with_container_suffixes(a, b) || with_container_suffixes(b, a) || names_a_table(a, b) ||
         names_a_table(b, a);
}

/* Whether `name` is the library's or a standard header's, or one the
 * generated code declares (reserved_prefix(), generated_names,
 * a standard header's declarations), or one letter (e, v, w are locals). */
static bool reserved_name(const char *name) {
  if (reserved_prefix(name) || !name[1]) return true;
  for (size_t i = 0; i < sizeof generated_names / sizeof *generated_names; i++)
    if (!strcmp(name, generated_names[i])) return true;
  return is_std_declared(name);
}

/* Whether a type may not take `name`: another type has it, or a name it
 * would meet (names_meet(); the root's included, named before the types it
 * holds), or it is the library's (the fj_ and FJ_ prefixes) or a standard
 * header's. */
static bool name_taken(const char *name) {
  if (reserved_name(name)) return true;
  if (g_root_type && g_root_type->name && names_meet(g_root_type->name, name)) return true;
  for (size_t i = 0; i < g_ntypes; i++)
    if (g_types[i]->name && names_meet(g_types[i]->name, name)) return true;
  for (size_t i = 0; i < g_ndefs; i++) /* definitions keep their names */
    if (g_def_types[i] && g_def_types[i]->name && names_meet(g_def_types[i]->name, name))
      return true;
  return false;
}

/* A type name no other type has. Type names are the stems of the generated
 * functions and constants (fj_read_T, T_kind, T_array), so they neither
 * begin nor end with '_' nor hold "__"; a name that still is a keyword or
 * starts with a digit or a reserved prefix gets "T_" before it. */
static char *unique_type_name(const char *text) {
  char *base = xmalloc(strlen(text) + 1);
  size_t k = 0;
  for (const char *c = text; *c; c++)
    if (*c != '_' || (k && base[k - 1] != '_')) base[k++] = *c;
  while (k && base[k - 1] == '_')
    k--;
  base[k] = '\0';
  if (!k) base = xstrdup("T");
  if (reserved_prefix(base) || is_keyword(base) || is_std_declared(base) ||
      isdigit((unsigned char)base[0]))
    base = fmt("T_%s", base); /* no suffix would free it */
  /* a number after "fj", "read", ... would make a reserved prefix (fj_2,
   * read_2): taken forever, the search below never ended */
  if (name_taken(base) && reserved_prefix(join(base, "2"))) base = fmt("T_%s", base);
  char *name = xstrdup(base);
  for (int i = 2; name_taken(name); i++)
    name = fmt("%s_%d", base, i);
  return name;
}

static type *new_type(tkind kind, const char *ptr) {
  type *t = xmalloc(sizeof *t);
  t->kind = kind;
  t->ptr = xstrdup(ptr);
  t->unknown_error = t->last_wins = POLICY_GLOBAL;
  return t;
}

static void register_type(type *t) {
  /* here, not after parsing: each new type's name is checked against all
   * the others (name_taken()), quadratic past any bound */
  if (g_ntypes == 1024) die(t->ptr, "more than 1024 types");
  grow(&g_types, &g_types_cap, g_ntypes, sizeof *g_types);
  g_types[g_ntypes++] = t;
}

/* Records and unions that get a struct and functions. */
static bool emitted(const type *t) {
  return (t->kind == T_RECORD && !t->wrapper) || t->kind == T_UNION;
}

static bool is_scalar(const type *t) { return t->kind >= T_BOOL && t->kind <= T_ENUM; }
static bool has_rest(const type *t);

/* Whether an array or map type's name is the same in every generated
 * header (fj_double_array, fj_string_map_array): its elements are
 * primitives, or containers of them. Its struct is then guarded, so that
 * two generated headers can be included together. */
static bool shared_container(const type *t) {
  /* down the elements; a container that holds itself (an array of arrays
   * to any depth) has no primitive at the bottom */
  for (size_t steps = 0; steps <= g_ntypes && (t->kind == T_ARRAY || t->kind == T_MAP); steps++) {
    t = t->elem;
    if (is_scalar(t)) return t->kind != T_ENUM;
  }
  return false;
}

/* The part of a container's name that names its element. */
static const char *elem_base(const type *t) {
  switch (t->kind) {
  case T_BOOL: return "fj_bool";
  case T_INT32: return "fj_int32";
  case T_INT64: return "fj_int64";
  case T_UINT64: return "fj_uint64";
  case T_DOUBLE: return "fj_double";
  case T_STRING: return "fj_string";
  default: return t->name;
  }
}

/* The one array (or map) type of `elem`, made on first use. */
static type *container_of(type *elem, tkind kind, const char *ptr) {
  /* a constant is a property of a record, with no C type of its own */
  if (elem->kind == T_CONST)
    die(child_ptr(ptr, kind == T_ARRAY ? "items" : "additionalProperties"),
        "\"const\" is supported on properties only, not as array items or map values "
        "(a one-value \"enum\" is)");
  char *name = fmt("%s_%s", elem_base(elem), kind == T_ARRAY ? "array" : "map");
  for (size_t i = 0; i < g_ntypes; i++)
    if (g_types[i]->kind == kind && !strcmp(g_types[i]->name, name)) return g_types[i];
  type *t = new_type(kind, ptr);
  t->elem = elem;
  t->name = name;
  register_type(t);
  return t;
}

/* ---- reading the schema ---------------------------------------------------------- */

static type *parse_schema(jn *s, const char *ptr, const char *name_hint, bool *nullable);

static const char *const allowed_keywords[] = {"type",
                                               "properties",
                                               "required",
                                               "items",
                                               "enum",
                                               "const",
                                               "$ref",
                                               "$defs",
                                               "oneOf",
                                               "additionalProperties",
                                               "format",
                                               "default",
                                               "title",
                                               "description",
                                               "$schema",
                                               "$id",
                                               "$comment",
                                               "examples",
                                               "x-fastjson-unknown-fields",
                                               "x-fastjson-duplicates"};

static void check_keywords(const jn *s, const char *ptr, bool root) {
  if (s->kind != J_OBJ) die(ptr, "a schema must be an object (boolean schemas are not supported)");
  for (size_t i = 0; i < s->n; i++) {
    bool ok = false;
    for (size_t k = 0; k < sizeof allowed_keywords / sizeof *allowed_keywords; k++)
      ok |=
          strlen(allowed_keywords[k]) == s->key_lens[i] && !strcmp(allowed_keywords[k], s->keys[i]);
    if (!ok) die(child_ptr(ptr, s->keys[i]), "unsupported keyword \"%s\"", s->keys[i]);
    if (!root && !strcmp(s->keys[i], "$defs"))
      die(child_ptr(ptr, "$defs"), "$defs is supported at the root of the schema only");
  }
}

/* The `type` keyword: the one type name, and whether "null" was listed too. */
static const char *type_keyword(const jn *s, const char *ptr, bool *nullable) {
  jn *t = member(s, "type");
  *nullable = false;
  if (!t) return NULL;
  char *tp = child_ptr(ptr, "type");
  if (t->kind == J_STR) return t->s;
  if (t->kind != J_ARR) die(tp, "\"type\" must be a string or an array");
  const char *one = NULL;
  for (size_t i = 0; i < t->n; i++) {
    if (t->kids[i]->kind != J_STR) die(tp, "\"type\" lists type names (strings)");
    if (!strcmp(t->kids[i]->s, "null")) {
      *nullable = true;
    } else if (one) {
      die(tp, "a union of types other than [T, \"null\"] is not supported");
    } else {
      one = t->kids[i]->s;
    }
  }
  return one ? one : "null";
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* The JSON Pointer that the fragment of "$ref" `r` (after its '#') is, its
 * percent escapes decoded (RFC 6901 section 6: "#/$defs/a%25b" names
 * "a%b"); its length in *len. A '%' without two hex digits is an error
 * at `ptr`. */
static char *fragment_pointer(const jn *r, const char *ptr, size_t *len) {
  char *p = xmalloc(r->slen), *o = p;
  for (size_t i = 1; i < r->slen; i++) {
    if (r->s[i] != '%') {
      *o++ = r->s[i];
      continue;
    }
    int hi = i + 2 < r->slen ? hex_digit(r->s[i + 1]) : -1;
    int lo = hi < 0 ? -1 : hex_digit(r->s[i + 2]);
    if (lo < 0)
      die(ptr, "$ref \"%s\": '%%' is not followed by two hex digits (a '%%' in a name is %%25)",
          r->s);
    *o++ = (char)(hi << 4 | lo);
    i += 2;
  }
  *len = (size_t)(o - p);
  return p;
}

/* The reference token of `n` bytes at s unescaped in place (RFC 6901
 * section 4: "~1" is '/', "~0" is '~', in one pass so that "~01" is "~1");
 * its new length. Any other '~' is an error at `ptr`. */
static size_t unescape_token(const jn *r, const char *ptr, char *s, size_t n) {
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '~') {
      if (i + 1 == n || (s[i + 1] != '0' && s[i + 1] != '1'))
        die(ptr,
            "$ref \"%s\": '~' is not followed by 0 or 1 (in a JSON Pointer, \"~0\" is "
            "'~' and \"~1\" is '/')",
            r->s);
      s[o++] = s[++i] == '0' ? '~' : '/';
    } else {
      s[o++] = s[i];
    }
  }
  return o;
}

/* The name of the definition that "$ref" `r` points at ("#/$defs/NAME",
 * as a URI fragment and a JSON Pointer), its length in *len; NULL when `r`
 * is no such reference (not a string, "#", another pointer), which
 * resolve_ref() refuses. A pointer below a definition ("#/$defs/a/b" is
 * member "b" of definition "a", not definition "a/b") and bad escapes are
 * errors at `ptr`. */
static char *def_name(const jn *r, const char *ptr, size_t *len) {
  if (r->kind != J_STR || r->slen == 0 || r->s[0] != '#') return NULL;
  size_t n;
  char *p = fragment_pointer(r, ptr, &n);
  if (n == 0 || p[0] != '/') return NULL;
  /* the first token: "$defs" as written or escaped */
  char *second = memchr(p + 1, '/', n - 1);
  if (!second) return NULL;
  size_t first_len = unescape_token(r, ptr, p + 1, (size_t)(second - p - 1));
  if (first_len != 5 || memcmp(p + 1, "$defs", 5)) return NULL;
  char *name = second + 1;
  size_t name_len = n - (size_t)(name - p);
  if (memchr(name, '/', name_len))
    die(ptr,
        "$ref \"%s\": a pointer into a definition is not supported (only "
        "\"#/$defs/Name\"; a '/' in Name is written ~1)",
        r->s);
  *len = unescape_token(r, ptr, name, name_len);
  return name;
}

/* The index of the definition of `n` bytes at `name`, or g_ndefs. */
static size_t def_index(const char *name, size_t n) {
  for (size_t i = 0; i < g_ndefs; i++)
    if (g_def_name_lens[i] == n && !memcmp(g_def_names[i], name, n)) return i;
  return g_ndefs;
}

static type *resolve_ref(const jn *r, const char *ptr) {
  if (r->kind != J_STR) die(ptr, "\"$ref\" must be a string");
  if (!strcmp(r->s, "#")) {
    if (!g_root_type) die(ptr, "\"$ref\": \"#\" but the root schema is not a type");
    if (!g_root_ref) g_root_ref = ptr;
    return g_root_type;
  }
  size_t n;
  const char *name = def_name(r, ptr, &n);
  if (!name) die(ptr, "unsupported $ref \"%s\" (only \"#\" and \"#/$defs/Name\")", r->s);
  size_t i = def_index(name, n);
  if (i == g_ndefs) die(ptr, "$ref \"%s\": no such definition", r->s);
  return g_def_types[i];
}

static void parse_policies(type *t, const jn *s, const char *ptr) {
  jn *u = member(s, "x-fastjson-unknown-fields"), *d = member(s, "x-fastjson-duplicates");
  if (u) {
    if (u->kind != J_STR || (strcmp(u->s, "skip") && strcmp(u->s, "error")))
      die(child_ptr(ptr, "x-fastjson-unknown-fields"), "must be \"skip\" or \"error\"");
    t->unknown_error = !strcmp(u->s, "error") ? POLICY_YES : POLICY_NO;
  }
  if (d) {
    if (d->kind != J_STR || (strcmp(d->s, "error") && strcmp(d->s, "last-wins")))
      die(child_ptr(ptr, "x-fastjson-duplicates"), "must be \"error\" or \"last-wins\"");
    t->last_wins = !strcmp(d->s, "last-wins") ? POLICY_YES : POLICY_NO;
  }
}

/* Whether a member (or its has_ flag) named `cname` would meet a member or
 * flag of `t` already named. */
static bool member_name_taken(const type *t, const char *cname) {
  char *flag = join("has", cname);
  /* a member named as a type the struct may use would change that name's
   * meaning in the struct, which C++ refuses */
  return in_list(cname, member_type_names, sizeof member_type_names / sizeof *member_type_names) ||
         smap_has(&t->member_names, cname) || smap_has(&t->member_names, flag);
}

static void check_default(const field *f) {
  const jn *d = f->def;
  char *dp = child_ptr(f->ptr, "default");
  if (!is_scalar(f->t)) die(dp, "\"default\" is supported on scalar fields only");
  switch (f->t->kind) {
  case T_BOOL:
    if (d->kind != J_BOOL) die(dp, "default must be a boolean");
    break;
  case T_DOUBLE:
    if (d->kind != J_NUM) die(dp, "default must be a number");
    if (!isfinite(strtod(d->s, NULL))) die(dp, "default out of range for a double");
    break;
  case T_STRING:
    if (d->kind != J_STR) die(dp, "default must be a string");
    break;
  case T_ENUM: {
    bool found = false;
    for (size_t i = 0; d->kind == J_STR && i < f->t->nvalues; i++)
      found |= f->t->value_lens[i] == d->slen && !memcmp(f->t->values[i], d->s, d->slen);
    if (!found) die(dp, "default is not one of the enum's values");
    break;
  }
  default: { /* integers: must be an integer in range */
    if (d->kind != J_NUM || strpbrk(d->s, ".eE")) die(dp, "default must be an integer");
    errno = 0;
    if (f->t->kind == T_UINT64) {
      if (d->s[0] == '-' || (strtoull(d->s, NULL, 10), errno)) die(dp, "default out of range");
    } else {
      long long x = strtoll(d->s, NULL, 10);
      if (errno || (f->t->kind == T_INT32 && (x < INT32_MIN || x > INT32_MAX)))
        die(dp, "default out of range");
    }
  }
  }
}

static void parse_record(type *t, jn *s, const char *ptr) {
  jn *props = member(s, "properties"), *req = member(s, "required");
  jn *addl = member(s, "additionalProperties");
  char *pp = child_ptr(ptr, "properties");
  if (props && props->kind != J_OBJ) die(pp, "\"properties\" must be an object");
  if (addl && addl->kind == J_BOOL)
    t->unknown_error = addl->b ? POLICY_NO : POLICY_YES;
  else if (addl)
    die(child_ptr(ptr, "additionalProperties"),
        "a schema for additional properties is supported without \"properties\" only "
        "(a string-keyed map)");
  parse_policies(t, s, ptr);
  if (addl && addl->kind == J_BOOL && member(s, "x-fastjson-unknown-fields") &&
      (t->unknown_error == POLICY_YES) != !addl->b)
    die(child_ptr(ptr, "x-fastjson-unknown-fields"), "contradicts \"additionalProperties\": %s",
        addl->b ? "true" : "false");
  t->kind = T_RECORD;
  size_t n = props ? props->n : 0;
  /* the library's tables index fields with 16 bits (fj_decode_record) */
  if (n > 65534) die(t->ptr, "more than 65534 properties");
  t->fields = xmalloc(n * sizeof *t->fields);
  for (size_t i = 0; i < n; i++) {
    field *f = &t->fields[t->nfields];
    f->name = props->keys[i];
    f->name_len = props->key_lens[i];
    f->ptr = child_ptr(pp, f->name);
    char *base = ident(f->name, f->name_len);
    f->cname = base;
    for (int k = 2; member_name_taken(t, f->cname); k++)
      f->cname = join(base, fmt("%d", k));
    f->flag = join("has", f->cname);
    smap_add(&t->member_names, f->cname);
    smap_add(&t->member_names, f->flag);
    f->t = parse_schema(props->kids[i], f->ptr, fmt("%s_%s", t->name, base), &f->nullable);
    /* a const has no member, so none to say the value was null: read,
     * null would be written back as the constant */
    if (f->t->kind == T_CONST && f->nullable)
      die(child_ptr(f->ptr, "const"), "a nullable const is not supported (a const property has "
                                      "no member to hold null)");
    f->def = member(props->kids[i], "default");
    /* null, the default of every nullable field already: no default */
    if (f->def && f->def->kind == J_NULL && f->nullable) f->def = NULL;
    t->nfields++;
  }
  if (req) {
    char *rp = child_ptr(ptr, "required");
    if (req->kind != J_ARR) die(rp, "\"required\" must be an array of property names");
    for (size_t i = 0; i < req->n; i++) {
      jn *r = req->kids[i];
      bool found = false;
      for (size_t k = 0; r->kind == J_STR && k < t->nfields; k++)
        if (t->fields[k].name_len == r->slen && !memcmp(t->fields[k].name, r->s, r->slen)) {
          /* draft 2020-12 section 6.5.3: the names are unique */
          if (t->fields[k].required) die(fmt("%s/%zu", rp, i), "\"%s\" is listed twice", r->s);
          found = t->fields[k].required = true;
        }
      if (!found) die(fmt("%s/%zu", rp, i), "required property is not in \"properties\"");
    }
  }
  for (size_t i = 0; i < t->nfields; i++) {
    const field *f = &t->fields[i];
    /* a default fills in an absent field: a required one is never absent
     * from a document that reads (nothing is silently ignored) */
    if (f->def && f->required)
      die(child_ptr(f->ptr, "default"), "a required property never takes its default");
    if (f->def) check_default(f);
  }
}

static void parse_enum(type *t, const jn *e, const char *ptr, bool is_const) {
  t->kind = is_const ? T_CONST : T_ENUM;
  size_t n = is_const ? 1 : e->n;
  if (!is_const && (e->kind != J_ARR || !n)) die(ptr, "\"enum\" must be a non-empty array");
  t->values = xmalloc(n * sizeof *t->values);
  t->value_lens = xmalloc(n * sizeof *t->value_lens);
  t->cvalues = xmalloc(n * sizeof *t->cvalues);
  smap seen = {0};
  for (size_t i = 0; i < n; i++) {
    const jn *v = is_const ? e : e->kids[i];
    if (v->kind != J_STR) die(ptr, "only string enum values and consts are supported");
    if (smap_get(&seen, v->s, v->slen)) die(ptr, "enum value \"%s\" is listed twice", v->s);
    smap_put(&seen, v->s, v->slen, i);
    t->values[i] = v->s;
    t->value_lens[i] = v->slen;
    /* made unique later, with the other constants (unique_constants()) */
    t->cvalues[i] = join(t->name ? t->name : "c", ident(v->s, v->slen));
  }
  t->nvalues = n;
}

static void parse_union(type *t, jn *s, const char *ptr) {
  jn *alts = member(s, "oneOf");
  char *op = child_ptr(ptr, "oneOf");
  if (alts->kind != J_ARR || !alts->n) die(op, "\"oneOf\" must be a non-empty array");
  t->kind = T_UNION;
  t->nvariants = alts->n;
  t->variants = xmalloc(alts->n * sizeof *t->variants);
  t->variant_ptrs = xmalloc(alts->n * sizeof *t->variant_ptrs);
  for (size_t i = 0; i < alts->n; i++) {
    bool nullable;
    char *vp = fmt("%s/%zu", op, i);
    t->variant_ptrs[i] = vp;
    t->variants[i].t = parse_schema(alts->kids[i], vp, fmt("%s_%zu", t->name, i), &nullable);
    if (nullable) die(vp, "a nullable variant is not supported");
  }
}

static type *parse_kind(type *t, jn *s, const char *ptr, const char *name_hint, bool *nullable,
                        bool root);

/* Dies at the first of `kws` (NULL-terminated) in schema `s`: keywords that
 * say nothing about a value of `what` (properties on a string, required on
 * a map), which would otherwise be ignored. */
static void not_for(const jn *s, const char *ptr, const char *what, const char *const *kws) {
  for (; *kws; kws++)
    if (member(s, *kws)) die(child_ptr(ptr, *kws), "\"%s\" does not apply to %s", *kws, what);
}

/* The keywords that only a record, an array or a map reads. */
static const char *const shape_keywords[] = {"properties", "required", "items",
                                             "additionalProperties", NULL};

/* The schema at ptr, for type t (NULL: a new one). The two policy
 * extensions say how a record's reader treats its keys: anywhere else (a
 * map, whose duplicates follow the decode flags, a $ref, any other type)
 * they would do nothing, so they are refused there. */
static type *parse_into(type *t, jn *s, const char *ptr, const char *name_hint, bool *nullable,
                        bool root) {
  type *r = parse_kind(t, s, ptr, name_hint, nullable, root);
  const char *policy = member(s, "x-fastjson-unknown-fields") ? "x-fastjson-unknown-fields"
                       : member(s, "x-fastjson-duplicates")   ? "x-fastjson-duplicates"
                                                              : NULL;
  if (policy && (r->kind != T_RECORD || member(s, "$ref")))
    die(child_ptr(ptr, policy),
        "is supported on a record's own schema only (an object with \"properties\"; a map's "
        "duplicate keys follow the decode flags)");
  return r;
}

/* `type` (and friends) of one schema object: the C type it becomes. Named
 * types (records, unions, enums) take `name_hint` unless they have a title. */
static type *parse_kind(type *t, jn *s, const char *ptr, const char *name_hint, bool *nullable,
                        bool root) {
  check_keywords(s, ptr, root);
  const char *tn = type_keyword(s, ptr, nullable);
  jn *ref = member(s, "$ref"), *en = member(s, "enum"), *cn = member(s, "const");
  jn *fmt_kw = member(s, "format"), *title = member(s, "title");
  if (ref) {
    if (member(s, "properties") || member(s, "items") || en || cn || member(s, "oneOf") || fmt_kw ||
        member(s, "additionalProperties") || (member(s, "type") && !*nullable))
      die(ptr, "$ref next to other type keywords is not supported (only \"type\": [T, \"null\"])");
    return resolve_ref(ref, child_ptr(ptr, "$ref"));
  }
  if (!t) t = new_type(T_UNSET, ptr);
  t->schema = s;
  if (!t->name)
    t->name =
        unique_type_name(title && title->kind == J_STR ? ident(title->s, title->slen) : name_hint);
  if (fmt_kw && (!tn || strcmp(tn, "integer")))
    die(child_ptr(ptr, "format"), "\"format\" is supported on integers only");
  if (member(s, "oneOf")) {
    if (tn && strcmp(tn, "object")) die(ptr, "oneOf variants must be objects");
    static const char *const union_no[] = {
        "properties", "required", "items", "additionalProperties", "enum", "const", NULL};
    not_for(s, ptr, "a oneOf (its variants say what its value holds)", union_no);
    parse_union(t, s, ptr);
  } else if (en || cn) {
    if (tn && strcmp(tn, "string")) die(ptr, "only string enums and consts are supported");
    not_for(s, ptr, en ? "an enum" : "a const", shape_keywords);
    parse_enum(t, en ? en : cn, child_ptr(ptr, en ? "enum" : "const"), !en);
  } else if (!tn) {
    if (member(s, "properties") || member(s, "additionalProperties"))
      tn = "object";
    else
      die(ptr, "the schema has no \"type\" (an untyped value is not supported)");
  }
  if (t->kind == T_UNSET && (!strcmp(tn, "boolean") || !strcmp(tn, "number") ||
                             !strcmp(tn, "string") || !strcmp(tn, "integer")))
    not_for(s, ptr, fmt("a value of type \"%s\"", tn), shape_keywords);
  if (t->kind == T_UNSET) {
    if (!strcmp(tn, "boolean")) {
      t->kind = T_BOOL;
    } else if (!strcmp(tn, "number")) {
      t->kind = T_DOUBLE;
    } else if (!strcmp(tn, "string")) {
      t->kind = T_STRING;
    } else if (!strcmp(tn, "integer")) {
      t->kind = T_INT64;
      if (fmt_kw) {
        if (fmt_kw->kind != J_STR) die(child_ptr(ptr, "format"), "must be a string");
        if (!strcmp(fmt_kw->s, "int32"))
          t->kind = T_INT32;
        else if (!strcmp(fmt_kw->s, "uint64"))
          t->kind = T_UINT64;
        else if (strcmp(fmt_kw->s, "int64"))
          die(child_ptr(ptr, "format"), "unsupported format \"%s\"", fmt_kw->s);
      }
    } else if (!strcmp(tn, "array")) {
      jn *items = member(s, "items");
      if (!items) die(ptr, "an array needs \"items\"");
      static const char *const array_no[] = {"properties", "required", "additionalProperties",
                                             NULL};
      not_for(s, ptr, "an array", array_no);
      bool en2;
      char *ip = child_ptr(ptr, "items");
      type *e = parse_schema(items, ip, fmt("%s_item", t->name), &en2);
      if (en2) die(ip, "nullable array items are not supported");
      return container_of(e, T_ARRAY, ptr);
    } else if (!strcmp(tn, "object")) {
      jn *addl = member(s, "additionalProperties");
      static const char *const object_no[] = {"items", NULL};
      not_for(s, ptr, "an object", object_no);
      if (addl && addl->kind == J_OBJ && !member(s, "properties")) {
        static const char *const map_no[] = {"required", NULL};
        not_for(s, ptr, "a map (an object of additionalProperties alone)", map_no);
        bool en2;
        char *ap = child_ptr(ptr, "additionalProperties");
        type *e = parse_schema(addl, ap, fmt("%s_value", t->name), &en2);
        if (en2) die(ap, "nullable map values are not supported");
        return container_of(e, T_MAP, ptr);
      }
      parse_record(t, s, ptr);
    } else {
      die(child_ptr(ptr, "type"), "unsupported type \"%s\"", tn);
    }
  }
  if (t->kind == T_RECORD || t->kind == T_UNION || t->kind == T_ENUM) register_type(t);
  return t;
}

static type *parse_schema(jn *s, const char *ptr, const char *name_hint, bool *nullable) {
  return parse_into(NULL, s, ptr, name_hint, nullable, false);
}

/* A oneOf variant in the discriminator-field shape: the string const of
 * property `tag`, or NULL. */
static const type *variant_tag_const(const type *v, const char *tag, size_t tag_len) {
  if (v->kind != T_RECORD) return NULL;
  for (size_t i = 0; i < v->nfields; i++) /* by length: a key may hold \u0000 */
    if (v->fields[i].name_len == tag_len && !memcmp(v->fields[i].name, tag, tag_len) &&
        v->fields[i].t->kind == T_CONST)
      return v->fields[i].t;
  return NULL;
}

/* Whether definition i is parsed (2), being parsed (1) or not yet (0). */
static unsigned char *g_def_state;

/* Parses definition i into its placeholder. A definition that is only a
 * $ref to another (an alias of a primitive, array or map) takes a copy of
 * that one, which is parsed first (it may come later in $defs): copied
 * unparsed, it named a type that was never defined. A chain of such
 * aliases that comes back to itself is an error. */
static void parse_def(jn *defs, size_t i) {
  type *t = g_def_types[i];
  if (g_def_state[i] == 2) return;
  if (g_def_state[i] == 1)
    die(t->ptr, "a cycle of definitions that are only a $ref to each other (no type to define)");
  g_def_state[i] = 1;
  jn *ref = defs->kids[i]->kind == J_OBJ ? member(defs->kids[i], "$ref") : NULL;
  size_t n;
  const char *name = ref ? def_name(ref, child_ptr(t->ptr, "$ref"), &n) : NULL;
  const size_t target = name ? def_index(name, n) : g_ndefs;
  if (target < g_ndefs) parse_def(defs, target);
  bool nullable;
  type *r = parse_into(t, defs->kids[i], t->ptr, t->name, &nullable, false);
  if (r != t) { /* a primitive, array or map: the definition is an alias */
    if (r->kind == T_RECORD || r->kind == T_UNION || r->kind == T_ENUM)
      die(t->ptr, "a definition that is only a $ref to another is not supported");
    *t = *r;
  }
  if (nullable) die(t->ptr, "a nullable definition is not supported (make the property nullable)");
  g_def_state[i] = 2;
}

/* Whether a variant of union `u` has the member name `cname`. */
static bool variant_name_taken(const type *u, const char *cname) {
  for (size_t i = 0; i < u->nvariants; i++)
    if (u->variants[i].cname && !strcmp(u->variants[i].cname, cname)) return true;
  return false;
}

/* Recognises the wire shape of each union once every type is parsed (its
 * variants may be definitions parsed later). */
static void resolve_union(type *u) {
  const type *v0 = u->variants[0].t;
  for (size_t f = 0; v0->kind == T_RECORD && f < v0->nfields && !u->tag; f++) {
    const field *tf = &v0->fields[f];
    bool all = true;
    for (size_t i = 0; i < u->nvariants; i++)
      all &= variant_tag_const(u->variants[i].t, tf->name, tf->name_len) != NULL;
    if (all) u->tag = tf->name, u->tag_len = tf->name_len;
  }
  if (u->tag) {
    u->shape = SHAPE_FIELD;
    for (size_t i = 0; i < u->nvariants; i++) {
      const type *c = variant_tag_const(u->variants[i].t, u->tag, u->tag_len);
      u->variants[i].tag = c->values[0];
      u->variants[i].tag_len = c->value_lens[0];
    }
  } else {
    u->shape = SHAPE_NESTED;
    for (size_t i = 0; i < u->nvariants; i++) {
      type *v = u->variants[i].t;
      /* without additionalProperties false, {"circle": 1, "x": 2} would be a
       * valid record of this variant, which the single-key form refuses */
      if (v->kind != T_RECORD || v->nfields != 1 || !v->fields[0].required ||
          v->fields[0].nullable || v->unknown_error != POLICY_YES)
        die(u->variant_ptrs[i],
            "cannot tell the union's wire shape: every variant needs the same property with a "
            "string \"const\", or exactly one property, required and not nullable, with "
            "\"additionalProperties\": false (without it, a record of the variant may have "
            "other keys, and is no single-key object)");
      v->wrapper = true;
      u->variants[i].tag = v->fields[0].name;
      u->variants[i].tag_len = v->fields[0].name_len;
      u->variants[i].t = v->fields[0].t; /* the wrapper object is the wire shape only */
    }
  }
  for (size_t i = 0; i < u->nvariants; i++) {
    for (size_t k = 0; k < i; k++)
      if (u->variants[k].tag_len == u->variants[i].tag_len &&
          !memcmp(u->variants[k].tag, u->variants[i].tag, u->variants[i].tag_len))
        die(u->variant_ptrs[i], "two variants have the tag \"%s\"", u->variants[i].tag);
    /* tags that differ only in punctuation ("p-q", "p_q") would make one
     * member name: later ones get a number, as record members do */
    char *base = ident(u->variants[i].tag, u->variants[i].tag_len), *cname = base;
    for (int k = 2; variant_name_taken(u, cname); k++)
      cname = join(base, fmt("%d", k));
    u->variants[i].cname = cname;
    u->variants[i].kind = join(u->name, cname);
  }
}

/* The header's type names, and its unions' T_kind enums (unique_constants()). */
static smap g_type_names, g_kind_names;

/* Whether `name` is one of the .c file's tables of a type (names_a_table()). */
static bool names_a_types_table(const char *name) {
  for (size_t i = 0; i < g_ntypes; i++) /* at most 1024 types (register_type()) */
    if (g_types[i]->name && names_a_table(g_types[i]->name, name)) return true;
  return false;
}

/* Whether `name` is a keyword or standard macro, reserved (reserved_name()),
 * one of the header's type names (a union's T_kind too) or the .c file's
 * tables (names_a_table()), or a constant in `seen`. */
static bool constant_taken(const char *name, const smap *seen) {
  return is_keyword(name) || reserved_name(name) || smap_has(&g_type_names, name) ||
         smap_has(&g_kind_names, name) || smap_has(seen, name) || names_a_types_table(name);
}

/* A constant no type and no earlier constant has: `c`, or c_2, c_3, ... */
static char *unique_constant(char *c, const smap *seen) {
  if (reserved_prefix(c)) c = join("E", c); /* no suffix would free fj_x, read_x */
  char *name = c;
  for (int k = 2; constant_taken(name, seen); k++)
    name = join(c, fmt("%d", k));
  return name;
}

/* Enum constants and union kinds share the header's one scope with each
 * other and with the type names: stems join with '_' (type "a_b" and value
 * "c", type "a" and value "b_c", union "u" with tag "p" and a type named
 * "u_p"), so any of them can meet. Renames the later of two in the order
 * the header declares them. */
static void unique_constants(void) {
  smap seen = {0};
  for (size_t i = 0; i < g_ntypes; i++) {
    if (g_types[i]->name) smap_add(&g_type_names, g_types[i]->name);
    if (g_types[i]->kind == T_UNION) smap_add(&g_kind_names, join(g_types[i]->name, "kind"));
  }
  for (size_t i = 0; i < g_ntypes; i++) {
    type *t = g_types[i];
    for (size_t k = 0; t->kind == T_ENUM && k < t->nvalues; k++) {
      t->cvalues[k] = unique_constant(t->cvalues[k], &seen);
      smap_add(&seen, t->cvalues[k]);
    }
    for (size_t k = 0; t->kind == T_UNION && k < t->nvariants; k++) {
      t->variants[k].kind = unique_constant(t->variants[k].kind, &seen);
      smap_add(&seen, t->variants[k].kind);
    }
  }
}

/* ---- layout: which references must be pointers ----------------------------------- */

/* Depth-first over by-value containment; a reference back to a type on the
 * stack closes a cycle and becomes a pointer. */
static void layout(type *t) {
  if (t->kind != T_RECORD && t->kind != T_UNION) return;
  if (t->visit) return;
  t->visit = 1;
  if (t->kind == T_RECORD) {
    for (size_t i = 0; i < t->nfields; i++) {
      type *c = t->fields[i].t;
      if ((c->kind == T_RECORD || c->kind == T_UNION) && c->visit == 1)
        t->fields[i].pointer = true;
      else
        layout(c);
    }
  } else {
    for (size_t i = 0; i < t->nvariants; i++) {
      type *c = t->variants[i].t;
      if ((c->kind == T_RECORD || c->kind == T_UNION) && c->visit == 1)
        t->variants[i].pointer = true;
      else
        layout(c);
    }
  }
  t->visit = 2;
  /* arrays and maps hold pointers: their element types are laid out on their own */
}

/* ---- emitting C -------------------------------------------------------------------- */

/* A C string literal for `n` bytes (octal escapes are never longer than 3 digits,
 * so a following digit cannot join them). */
static char *c_string(const char *s, size_t n) {
  sbuf b = {0};
  out(&b, "\"");
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\')
      out(&b, "\\%c", c);
    else if (c < 0x20 || c >= 0x7f || c == '?')
      out(&b, "\\%03o", c);
    else
      out(&b, "%c", c);
  }
  out(&b, "\"");
  return b.s;
}

/* Text for inside a C comment: "*\/" and "/\*" where the text has the
 * two characters that would end the comment or (-Wcomment) open another. */
static char *comment_safe(const char *s) {
  sbuf b = {0};
  out(&b, "%s", "");
  for (; *s; s++)
    out(&b, (s[0] == '*' && s[1] == '/') || (s[0] == '/' && s[1] == '*') ? "%c\\" : "%c", *s);
  return b.s;
}

/* A schema's string as a C string literal, for a comment. */
static char *comment_string(const char *s, size_t n) { return comment_safe(c_string(s, n)); }

/* The schema's path for the files' first comment: as written, or as a C
 * string when it holds a backslash or newline (a backslash before a
 * newline joins lines before comments end, so "*\\" + newline + "/"
 * would end it). */
static char *schema_path_comment(void) {
  return strpbrk(g_schema_path, "\\\n") ? comment_string(g_schema_path, strlen(g_schema_path))
                                        : comment_safe(g_schema_path);
}

static const char *c_type(const type *t) {
  switch (t->kind) {
  case T_BOOL: return "bool";
  case T_INT32: return "int32_t";
  case T_INT64: return "int64_t";
  case T_UINT64: return "uint64_t";
  case T_DOUBLE: return "double";
  case T_STRING: return "fj_str";
  default: return t->name;
  }
}

/* Whether a field has a has_<name> flag: absent optional or null values.
 * Pointers use NULL instead; consts have no member at all. */
static bool has_flag(const field *f) {
  return (!f->required || f->nullable) && !f->pointer && f->t->kind != T_CONST;
}

/* The type of a member of record or union `r`: with its tag ("struct T",
 * "enum T") when a member of r has T's name, which in C++ would change the
 * name's meaning inside r (C keeps members and types apart). */
static char *member_type(const type *r, const type *t) {
  const char *tag = t->kind == T_ENUM ? "enum " : "struct ";
  bool tagged = t->kind == T_ENUM || t->kind == T_RECORD || t->kind == T_UNION ||
                t->kind == T_ARRAY || t->kind == T_MAP;
  bool taken = r->kind == T_UNION ? variant_name_taken(r, t->name) : member_name_taken(r, t->name);
  if (tagged && taken) return fmt("%s%s", tag, t->name);
  return xstrdup(c_type(t));
}

static void emit_struct(sbuf *h, type *t) {
  if (t->visit == 3) return;
  t->visit = 3;
  /* the types it holds by value come first */
  if (t->kind == T_RECORD) {
    for (size_t i = 0; i < t->nfields; i++)
      if (!t->fields[i].pointer &&
          (t->fields[i].t->kind == T_RECORD || t->fields[i].t->kind == T_UNION))
        emit_struct(h, t->fields[i].t);
    out(h, "struct %s {\n", t->name);
    size_t members = 0;
    for (size_t i = 0; i < t->nfields; i++) {
      const field *f = &t->fields[i];
      if (f->t->kind == T_CONST) {
        out(h, "  /* %s is always %s */\n", comment_string(f->name, f->name_len),
            comment_string(f->t->values[0], f->t->value_lens[0]));
        continue;
      }
      out(h, "  %s %s%s;\n", member_type(t, f->t), f->pointer ? "*" : "", f->cname);
      members++;
      if (has_flag(f))
        out(h, "  bool %s; /* %s */\n", f->flag,
            f->nullable && f->required ? "false: null"
            : f->nullable              ? "false: absent or null"
                                       : "false: absent");
    }
    if (!members) out(h, "  char unused_; /* C needs a member */\n");
    out(h, "};\n\n");
  } else {
    for (size_t i = 0; i < t->nvariants; i++)
      if (!t->variants[i].pointer &&
          (t->variants[i].t->kind == T_RECORD || t->variants[i].t->kind == T_UNION))
        emit_struct(h, t->variants[i].t);
    out(h, "struct %s {\n  %s_kind kind;\n  union {\n", t->name, t->name);
    for (size_t i = 0; i < t->nvariants; i++)
      out(h, "    %s %s%s;\n", member_type(t, t->variants[i].t), t->variants[i].pointer ? "*" : "",
          t->variants[i].cname);
    out(h, "  } as;\n};\n\n");
  }
}

/* Whether `a` is the type `t` names (functions go by name: a $ref may hold a copy). */
static bool same_type(const type *a, const type *t) {
  return a && a->kind == t->kind && a->name && !strcmp(a->name, t->name);
}

/* Whether a type nested in `from` (through fields, variants, elements) is
 * `target`. A search marks the types it has been through with its own
 * g_search number. */
static unsigned g_search;

static bool reaches(type *from, const type *target) {
  if (!from || from->searched == g_search) return false;
  from->searched = g_search;
  for (size_t k = 0; from->kind == T_RECORD && k < from->nfields; k++)
    if (same_type(from->fields[k].t, target) || reaches(from->fields[k].t, target)) return true;
  for (size_t k = 0; from->kind == T_UNION && k < from->nvariants; k++)
    if (same_type(from->variants[k].t, target) || reaches(from->variants[k].t, target)) return true;
  return (from->kind == T_ARRAY || from->kind == T_MAP) &&
         (same_type(from->elem, target) || reaches(from->elem, target));
}

/* Whether a value of t can hold another t (its writers recurse). */
static bool is_recursive(const type *t) {
  if (!t->recursive) {
    g_search++;
    ((type *)t)->recursive = reaches((type *)t, t) ? 2 : 1;
  }
  return t->recursive == 2;
}

/* A recursive record's, union's or array's rest function takes the
 * writer's depth as `d`: its caller knows it (a caller of the same cycle passes its
 * own d, plus one for the bracket it opened), where asking the writer would
 * be a call per level (8% of write_struct expr_nested). A map's writer asks. */
static bool takes_depth(const type *t) { return t->kind != T_MAP && is_recursive(t); }

/* The parameter list's tail of t's rest function. */
static const char *depth_param(const type *t) { return takes_depth(t) ? ", uint32_t d" : ""; }

/* Whether the function being emitted has `d` (its own depth). */
static bool g_have_depth;

/* The depth argument of a call to t's rest function, the caller having
 * opened a bracket for it (`nested`) or not (a union's variant record
 * shares the union's object). */
static const char *depth_arg(const type *t, bool nested) {
  if (!takes_depth(t)) return "";
  if (!g_have_depth) return ", fj_writer_depth(w)";
  return nested ? ", d + 1" : ", d";
}

/* The header between its include guard's lines. */
static void emit_declarations(sbuf *h) {
  out(h, "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n#include "
         "<string.h>\n\n#include <fastjson/codec.h>\n\n#ifdef __cplusplus\nextern \"C\" "
         "{\n#endif\n\n");
  for (size_t i = 0; i < g_ntypes; i++) { /* enums first: everything else may hold them */
    type *t = g_types[i];
    if (t->kind == T_ENUM) {
      out(h, "typedef enum %s {\n", t->name);
      for (size_t k = 0; k < t->nvalues; k++)
        out(h, "  %s, /* %s */\n", t->cvalues[k], comment_string(t->values[k], t->value_lens[k]));
      out(h, "} %s;\n\n", t->name);
    } else if (t->kind == T_UNION) {
      out(h, "typedef enum %s_kind {\n", t->name);
      for (size_t k = 0; k < t->nvariants; k++)
        out(h, "  %s, /* %s */\n", t->variants[k].kind,
            comment_string(t->variants[k].tag, t->variants[k].tag_len));
      out(h, "} %s_kind;\n\n", t->name);
    }
  }
  /* C11 allows a typedef to be repeated, so shared container names can be declared here too */
  for (size_t i = 0; i < g_ntypes; i++)
    if (emitted(g_types[i]) || g_types[i]->kind == T_ARRAY || g_types[i]->kind == T_MAP)
      out(h, "typedef struct %s %s;\n", g_types[i]->name, g_types[i]->name);
  out(h, "\n");
  /* arrays and maps hold pointers, so declared names suffice; ones of
   * primitives are shared with other generated headers through a guard */
  for (size_t i = 0; i < g_ntypes; i++) {
    type *t = g_types[i];
    if (t->kind != T_ARRAY && t->kind != T_MAP) continue;
    bool shared = shared_container(t);
    if (shared) out(h, "#ifndef FJ_GEN_%s\n#define FJ_GEN_%s\n", t->name, t->name);
    if (t->kind == T_ARRAY)
      out(h, "struct %s {\n  %s *items;\n  size_t count;\n};\n", t->name, c_type(t->elem));
    else
      out(h, "struct %s {\n  fj_str *keys;\n  %s *values;\n  size_t count;\n};\n", t->name,
          c_type(t->elem));
    out(h, shared ? "#endif\n\n" : "\n");
  }
  for (size_t i = 0; i < g_ntypes; i++)
    if (emitted(g_types[i])) emit_struct(h, g_types[i]);
  for (size_t i = 0; i < g_ntypes; i++) {
    type *t = g_types[i];
    if (!emitted(t)) continue;
    const char *T = t->name;
    if (t->kind == T_RECORD)
      out(h,
          "/** The tables the library reads, compares (and writes) values of type %s with. */\n"
          "extern const fj_decode_record fj__%s_record;\n"
          "/** Reads one %s from the cursor's current value `v` (see fastjson/codec.h). */\n"
          "static inline fj_error fj_read_%s_value(fj_decoder *d, const fj_value *v, %s *out) {\n"
          "  return fj_decode_record_value(d, v, &fj__%s_record, out);\n}\n",
          T, T, T, T, T, T);
    else
      out(h,
          "/** Reads one %s from the cursor's current value `v` (see fastjson/codec.h). */\n"
          "fj_error fj_read_%s_value(fj_decoder *d, const fj_value *v, %s *out);\n",
          T, T, T);
    /* the document readers and the object writers are inline: each would
     * otherwise be a function the compiler of the generated file handles
     * for every type, used or not */
    out(h,
        "/** Reads one %s from `len` bytes of JSON. Strings, arrays and children are allocated\n"
        " *  in `arena` (free them all with fj_arena_free()); `parser` may be NULL (a temporary\n"
        " *  one is made). `flags` are FJ_DECODE_* bits. On an error *err (may be NULL) says\n"
        " *  where, and *out holds what was read before it (zeroed when the document did not\n"
        " *  parse). */\n"
        "static inline fj_error fj_read_%s(fj_parser *parser, const void *json, size_t len,\n"
        "                                  fj_arena *arena, uint32_t flags, %s *out,\n"
        "                                  fj_decode_error *err) {\n"
        "  fj_decode_doc doc;\n"
        "  fj_error e = fj_decode_begin(&doc, parser, json, len, arena, flags, err);\n"
        "  if (e && out) memset(out, 0, sizeof *out);\n"
        "  return fj_decode_end(&doc, e ? e : fj_read_%s_value(&doc.d, &doc.root, out));\n}\n",
        T, T, T, T);
    if (has_rest(t) && takes_depth(t))
      out(h,
          "/** What fj_write_%s() writes after the '{': the members and the '}'; `d` is\n"
          " *  fj_writer_depth() after the '{' (FJ_ERR_DEPTH past FJ_DECODE_MAX_DEPTH). */\n"
          "fj_error fj__write_%s_rest(fj_writer *w, const %s *in, uint32_t d);\n",
          T, T, T);
    else if (has_rest(t))
      out(h,
          "/** What fj_write_%s() writes after the '{': the members and the '}'. */\n"
          "fj_error fj__write_%s_rest(fj_writer *w, const %s *in);\n",
          T, T, T);
    out(h, "/** Writes `in` as one JSON value (the writer's errors). */\n");
    if (t->kind == T_RECORD || t->shape == SHAPE_NESTED)
      out(h,
          "static inline fj_error fj_write_%s(fj_writer *w, const %s *in) {\n"
          "  fj_error e = in ? fj_writer_begin_object(w) : FJ_ERR_INVALID_ARG;\n"
          "  return e ? e : fj__write_%s_rest(w, in%s);\n}\n",
          T, T, T, has_rest(t) && takes_depth(t) ? ", fj_writer_depth(w)" : "");
    else
      out(h, "fj_error fj_write_%s(fj_writer *w, const %s *in);\n", T, T);
    out(h, "/** Whether two decoded values are equal (field by field, strings by bytes).\n"
           " *  Recurses as deep as the values nest (see fj_decode_record_equal()). */\n");
    if (t->kind == T_RECORD)
      out(h,
          "static inline bool fj_equal_%s(const %s *a, const %s *b) {\n"
          "  return fj_decode_record_equal(&fj__%s_record, a, b);\n}\n\n",
          T, T, T, T);
    else
      out(h, "bool fj_equal_%s(const %s *a, const %s *b);\n\n", T, T, T);
  }
  out(h, "#ifdef __cplusplus\n}\n#endif\n");
}

/* The include guard of header `header_name` whose declarations are `body`:
 * the file name and a 64-bit FNV-1a hash of the declarations. The file name
 * alone made g1/codec.h and g2/codec.h skip each other; with the hash, two
 * headers share a guard only when they declare the same things (and then
 * the second must be skipped: C11 refuses a struct defined twice). */
static char *header_guard(const char *header_name, const sbuf *body) {
  const uint64_t hash = fnv1a(body->s, body->len);
  char *guard = join(join("FJ_GEN", ident(header_name, strlen(header_name) - 2)),
                     fmt("%016" PRIX64 "_H", hash));
  for (char *g = guard; *g; g++)
    *g = (char)toupper((unsigned char)*g);
  return guard;
}

static void emit_header(sbuf *h, const char *header_name) {
  sbuf body = {0};
  emit_declarations(&body);
  const char *guard = header_guard(header_name, &body);
  out(h, "/* Generated by fastjson-gen from %s. Do not edit. */\n", schema_path_comment());
  out(h, "#ifndef %s\n#define %s\n\n%s#endif\n", guard, guard, body.s);
}

/* ---- key dispatch ---------------------------------------------------------------- */

typedef struct keycase {
  const char *s;
  size_t n;
  const char *action;
  bool raw_unsafe; /* holds a backslash: compare only unescaped text */
} keycase;

static void indent(sbuf *b, int n) { out(b, "%*s", n, ""); }

static void emit_compare(sbuf *b, int ind, const keycase *k) {
  indent(b, ind);
  if (k->raw_unsafe)
    out(b, "if (!raw && ");
  else
    out(b, "if (");
  if (k->n)
    out(b, "memcmp(k, %s, %zu) == 0) %s\n", c_string(k->s, k->n), k->n, k->action);
  else
    out(b, "1) %s\n", k->action);
}

/* switch on the length, then on the byte where the keys of that length
 * differ most, then memcmp with constants. */
static void emit_dispatch(sbuf *b, const keycase *ks, size_t nk, int ind) {
  size_t maxlen = 0;
  for (size_t i = 0; i < nk; i++)
    if (ks[i].n > maxlen) maxlen = ks[i].n;
  indent(b, ind);
  out(b, "switch (n) {\n");
  for (size_t len = 0; len <= maxlen; len++) {
    size_t group[256], ng = 0;
    for (size_t i = 0; i < nk && ng < 256; i++)
      if (ks[i].n == len) group[ng++] = i;
    if (!ng) continue;
    indent(b, ind);
    out(b, "case %zu:\n", len);
    if (ng == 1 || len == 0) {
      for (size_t g = 0; g < ng; g++)
        emit_compare(b, ind + 2, &ks[group[g]]);
    } else {
      size_t best = 0, best_distinct = 0;
      for (size_t pos = 0; pos < len; pos++) {
        bool seen[256] = {false};
        size_t distinct = 0;
        for (size_t g = 0; g < ng; g++) {
          unsigned char c = (unsigned char)ks[group[g]].s[pos];
          if (!seen[c]) distinct++;
          seen[c] = true;
        }
        if (distinct > best_distinct) best = pos, best_distinct = distinct;
      }
      indent(b, ind + 2);
      out(b, "switch ((unsigned char)k[%zu]) {\n", best);
      bool done[256] = {false};
      for (size_t g = 0; g < ng; g++) {
        unsigned char c = (unsigned char)ks[group[g]].s[best];
        if (done[c]) continue;
        done[c] = true;
        indent(b, ind + 2);
        if (isalnum(c) || (ispunct(c) && c != '\'' && c != '\\'))
          out(b, "case '%c':\n", c);
        else
          out(b, "case %u:\n", c);
        for (size_t h = g; h < ng; h++)
          if ((unsigned char)ks[group[h]].s[best] == c) emit_compare(b, ind + 4, &ks[group[h]]);
        indent(b, ind + 4);
        out(b, "break;\n");
      }
      indent(b, ind + 2);
      out(b, "}\n");
    }
    indent(b, ind + 2);
    out(b, "break;\n");
  }
  indent(b, ind);
  out(b, "}\n");
}

/* ---- readers ---------------------------------------------------------------------- */

static bool g_need_const, g_need_str_equal; /* helpers emitted only when used */

/* The statement that reads value `val` (an fj_value expression) into lvalue
 * `dst`, leaving the result in `e`. */
static char *read_call(const type *t, const char *val, const char *dst, bool pointer) {
  switch (t->kind) {
  case T_BOOL: return fmt("e = fj_decode_bool(d, %s, &%s);", val, dst);
  case T_INT32: return fmt("e = fj_decode_int32(d, %s, &%s);", val, dst);
  case T_INT64: return fmt("e = fj_decode_int64(d, %s, &%s);", val, dst);
  case T_UINT64: return fmt("e = fj_decode_uint64(d, %s, &%s);", val, dst);
  case T_DOUBLE: return fmt("e = fj_decode_double(d, %s, &%s);", val, dst);
  case T_STRING: return fmt("e = fj_decode_string(d, %s, &%s);", val, dst);
  case T_CONST:
    g_need_const = true;
    return fmt("e = read_const(d, %s, %s, %zu);", val, c_string(t->values[0], t->value_lens[0]),
               t->value_lens[0]);
  case T_ENUM:
  case T_ARRAY:
  case T_MAP: return fmt("e = read_%s(d, %s, &%s);", t->name, val, dst);
  default:
    if (pointer) return fmt("e = read_%s_ptr(d, %s, &%s);", t->name, val, dst);
    return fmt("e = fj_read_%s_value(d, %s, &%s);", t->name, val, dst);
  }
}

/* An enum's values as tables (names, lengths): its reader looks a string up
 * in them at run time (fj_decode_enum), its writer indexes them. */
static void emit_enum_tables(sbuf *c, const type *t) {
  out(c, "static const char *const %s_values[%zu] = {", t->name, t->nvalues);
  for (size_t i = 0; i < t->nvalues; i++)
    out(c, "%s%s", i ? ", " : "", c_string(t->values[i], t->value_lens[i]));
  out(c, "};\nstatic const uint32_t %s_value_lens[%zu] = {", t->name, t->nvalues);
  for (size_t i = 0; i < t->nvalues; i++)
    out(c, "%s%zu", i ? ", " : "", t->value_lens[i]);
  out(c, "};\n\n");
}

static void emit_enum_reader(sbuf *c, const type *t) {
  if (!t->used) return;
  emit_enum_tables(c, t);
  if (!t->own_fns) return; /* a record's member: the library reads it */
  out(c, "static fj_error read_%s(fj_decoder *d, const fj_value *v, %s *out) {\n", t->name,
      t->name);
  out(c,
      "  size_t i;\n  fj_error e = fj_decode_enum(d, v, %s_values, %s_value_lens, %zu, %s, &i);\n",
      t->name, t->name, t->nvalues, c_string(t->name, strlen(t->name)));
  out(c, "  if (!e) *out = (%s)i;\n  return e;\n}\n\n", t->name);
}

static void emit_container_reader(sbuf *c, const type *t) {
  const char *et = c_type(t->elem);
  out(c, "static fj_error read_%s(fj_decoder *d, const fj_value *v, %s *out) {\n", t->name,
      t->name);
  if (t->kind == T_ARRAY) {
    /* elements are appended to a growing block: no counting pass over the array */
    out(c, "  fj_array a;\n  void *items = NULL, *p;\n  size_t cap = 0;\n  fj_value elem;\n");
    out(c, "  fj_error e = fj_decode_array(d, v, &a);\n  if (e) return e;\n");
    out(c, "  out->items = NULL;\n  out->count = 0;\n");
    out(c, "  while ((e = fj_decode_next(d, &a, &elem)) == FJ_OK) {\n");
    out(c,
        "    if ((e = fj_decode_push(d, &a, sizeof(%s), &items, &out->count, &cap, &p))) "
        "return e;\n",
        et);
    out(c, "    out->items = items;\n");
    out(c, "    %s\n", read_call(t->elem, "&elem", fmt("*(%s *)p", et), false));
    out(c, "    if (e) return fj_decode_path_index(d, out->count - 1, e);\n  }\n");
    out(c, "  return e == FJ_END ? FJ_OK : e;\n}\n\n");
  } else {
    out(c, "  fj_object o;\n  void *values;\n  fj_value key, val;\n  size_t total;\n");
    out(c, "  fj_decode_keyset ks = {NULL, 0, 0};\n");
    out(c, "  fj_error e = fj_decode_object(d, v, &o, \"object\");\n  if (e) return e;\n");
    out(c,
        "  if ((e = fj_decode_map_alloc(d, &o, sizeof(%s), &out->keys, &values, &out->count)))\n"
        "    return e;\n",
        et);
    /* duplicate keys follow the decode flags: an error, or the last wins */
    out(c, "  out->values = values;\n  total = out->count;\n");
    out(c, "  while ((e = fj_object_next(&o, &key, &val)) == FJ_OK) {\n    size_t i;\n");
    out(c, "    if ((e = fj_decode_map_key(d, &key, out->keys, total, &ks, &i))) return e;\n");
    out(c, "    %s\n", read_call(t->elem, "&val", "out->values[i]", false));
    out(c,
        "    if (e) return fj_decode_path_key(d, out->keys[i].data, out->keys[i].len, e);\n  }\n");
    out(c, "  out->count = ks.n;\n");
    out(c, "  return e == FJ_END ? FJ_OK : fj_decode_cursor(d, e);\n}\n\n");
  }
}

/* A double constant C reads as the double the JSON text `s` is (strtod()
 * rounds correctly, as the library does): the text as written may be an
 * integer too large for C (1e30 written out) or underflow (1e-400). */
static char *double_literal(const char *s) {
  char *t = fmt("%.17g", strtod(s, NULL));
  return strpbrk(t, ".e") ? t : fmt("%s.0", t);
}

/* A default as a C expression of the field's type. */
static char *default_expr(const field *f) {
  const jn *d = f->def;
  switch (f->t->kind) {
  case T_BOOL: return xstrdup(d->b ? "true" : "false");
  case T_DOUBLE: return double_literal(d->s);
  case T_INT32: return fmt("%s", d->s);
  case T_INT64: /* -2^63 has no literal: its magnitude is no int64_t */
    if (!strcmp(d->s, "-9223372036854775808")) return xstrdup("INT64_MIN");
    return d->s[0] == '-' ? fmt("-INT64_C(%s)", d->s + 1) : fmt("INT64_C(%s)", d->s);
  case T_UINT64: return fmt("UINT64_C(%s)", d->s);
  case T_STRING: return fmt("(fj_str){%s, %zu}", c_string(d->s, d->slen), d->slen);
  case T_ENUM:
    for (size_t i = 0; i < f->t->nvalues; i++)
      if (f->t->value_lens[i] == d->slen && !memcmp(f->t->values[i], d->s, d->slen))
        return xstrdup(f->t->cvalues[i]);
    return xstrdup("0");
  default: return xstrdup("0");
  }
}

/* The library's name for a field kind it compares itself (fj_member_kind),
 * or NULL for one the generated code compares. */
static const char *member_kind(const type *t) {
  switch (t->kind) {
  case T_BOOL: return "FJ_MEMBER_BOOL";
  case T_INT32: return "FJ_MEMBER_INT32";
  case T_INT64: return "FJ_MEMBER_INT64";
  case T_UINT64: return "FJ_MEMBER_UINT64";
  case T_DOUBLE: return "FJ_MEMBER_DOUBLE";
  case T_STRING: return "FJ_MEMBER_STRING";
  case T_ENUM: return "FJ_MEMBER_ENUM";
  case T_CONST: return "FJ_MEMBER_CONST";
  case T_RECORD: return t->wrapper ? NULL : "FJ_MEMBER_RECORD";
  case T_ARRAY: /* of scalars, enums or records: elements the library reads */
    return is_scalar(t->elem) || (t->elem->kind == T_RECORD && !t->elem->wrapper)
               ? "FJ_MEMBER_ARRAY"
               : NULL;
  default: return NULL;
  }
}

/* The strings an enum or const member accepts (fj_decode_strings), as a
 * constant expression: compound literals outside a function are static. */
static char *default_ref(const field *f);

static char *member_strings(const type *t) {
  if (t->kind == T_ARRAY) t = t->elem;
  if (t->kind == T_ENUM)
    return fmt("&(const fj_decode_strings){%s_values, %s_value_lens, %zu, %s}", t->name, t->name,
               t->nvalues, c_string(t->name, strlen(t->name)));
  if (t->kind == T_CONST)
    return fmt("&(const fj_decode_strings){(const char *const[]){%s}, (const uint32_t[]){%zu}, 1, "
               "NULL}",
               c_string(t->values[0], t->value_lens[0]), t->value_lens[0]);
  return xstrdup("NULL");
}

/* The record's member table (fastjson/codec.h: fj_decode_member): where each
 * field is stored and how, so that the library reads and compares all but
 * the custom ones. */
static void emit_members(sbuf *c, const type *t) {
  const char *T = t->name;
  out(c, "static const fj_decode_member %s_members[%zu] = {\n", T, t->nfields ? t->nfields : 1);
  for (size_t i = 0; i < t->nfields; i++) {
    const field *f = &t->fields[i];
    const type *ft = f->t;
    const char *kind = member_kind(ft);
    const type *rec = ft->kind == T_ARRAY ? ft->elem : ft;
    char *flags = fmt("%s%s0", f->pointer ? "FJ_MEMBER_POINTER | " : "",
                      f->nullable ? "FJ_MEMBER_NULLABLE | " : "");
    out(c, "    {%s, %s, %s, %s, %s, %s, %s, %s},\n", kind ? kind : "FJ_MEMBER_CUSTOM", flags,
        kind && ft->kind == T_ARRAY ? member_kind(ft->elem) : "0",
        ft->kind == T_CONST ? "0" : fmt("offsetof(%s, %s)", T, f->cname),
        has_flag(f) ? fmt("offsetof(%s, %s)", T, f->flag) : "FJ_MEMBER_NO_HAS", member_strings(ft),
        kind && rec->kind == T_RECORD ? fmt("&fj__%s_record", rec->name) : "NULL",
        !f->required && f->def ? default_ref(f) : "NULL");
  }
  out(c, "%s};\n", t->nfields ? "" : "    {0, 0, 0, 0, 0, NULL, NULL, NULL}\n");
}

/* A default as a pointer to a constant of the member's C type. */
static char *default_ref(const field *f) {
  const jn *d = f->def;
  if (f->t->kind == T_STRING)
    return fmt("&(const fj_str){%s, %zu}", c_string(d->s, d->slen), d->slen);
  return fmt("&(const %s){%s}", f->t->kind == T_ENUM ? "int" : c_type(f->t), default_expr(f));
}

static void emit_custom_members(sbuf *c, const type *t);
static char *eq_expr(const type *t, const char *a, const char *b, bool pointer);

/* A record's tables (fastjson/codec.h: fj_decode_record): the library reads
 * and compares the record from them. */
static void emit_record_reader(sbuf *c, const type *t) {
  size_t nf = t->nfields, words = nf ? (nf + 63) / 64 : 1, cells = nf ? nf : 1;
  const char *T = t->name;
  /* the key table (fastjson/codec.h: fj_decode_record): names, lengths, a
   * hash table of field indexes, the required fields */
  size_t size = 1;
  while (size < 2 * nf)
    size *= 2;
  uint16_t *slots = xmalloc(size * sizeof *slots);
  for (size_t i = 0; i < nf; i++) {
    size_t h = fj_decode_key_hash(t->fields[i].name, t->fields[i].name_len) & (size - 1);
    while (slots[h])
      h = (h + 1) & (size - 1);
    slots[h] = (uint16_t)(i + 1);
  }
  out(c, "static const char *const %s_names[%zu] = {", T, cells);
  for (size_t i = 0; i < nf; i++)
    out(c, "%s%s", i ? ", " : "", c_string(t->fields[i].name, t->fields[i].name_len));
  out(c, "%s};\n", nf ? "" : "NULL");
  out(c, "static const uint32_t %s_lens[%zu] = {", T, cells);
  for (size_t i = 0; i < nf; i++)
    out(c, "%s%s%zu", i ? ", " : "",
        memchr(t->fields[i].name, '\\', t->fields[i].name_len) ? "0x80000000u | " : "",
        t->fields[i].name_len);
  out(c, "%s};\n", nf ? "" : "0");
  out(c, "static const uint16_t %s_slots[%zu] = {", T, size);
  for (size_t i = 0; i < size; i++)
    out(c, "%s%u", i ? ", " : "", (unsigned)slots[i]);
  out(c, "};\n");
  out(c, "static const uint64_t %s_required[%zu] = {", T, words);
  for (size_t w = 0; w < words; w++) {
    uint64_t mask = 0;
    for (size_t i = w * 64; i < nf && i < w * 64 + 64; i++)
      if (t->fields[i].required) mask |= UINT64_C(1) << (i % 64);
    out(c, "%sUINT64_C(0x%llx)", w ? ", " : "", (unsigned long long)mask);
  }
  out(c, "};\n");
  emit_members(c, t);
  size_t ncustom = 0;
  bool defaults = false;
  for (size_t i = 0; i < nf; i++) {
    ncustom += !member_kind(t->fields[i].t);
    defaults |= !t->fields[i].required && t->fields[i].def;
  }
  if (ncustom) emit_custom_members(c, t);
  out(c, "const fj_decode_record fj__%s_record = {\n", T);
  out(c, "    %s_names, %s_lens, %s_slots, %zu, %zu, %s_required, %d, %d, %s_members,\n", T, T, T,
      nf, size - 1, T, t->unknown_error, t->last_wins, T);
  out(c, "    \"object (%s)\", sizeof(%s), %s, %s, %s};\n\n", T, T, defaults ? "true" : "false",
      ncustom ? fmt("%s_read_custom", T) : "NULL", ncustom ? fmt("%s_equal_custom", T) : "NULL");
}

/* The record's custom members (unions, maps, arrays of arrays), which the
 * library reads and compares through these two callbacks. */
static void emit_custom_members(sbuf *c, const type *t) {
  const char *T = t->name;
  out(c, "static fj_error %s_read_custom(fj_decoder *d, int f, const fj_value *val, void *to) {\n",
      T);
  out(c, "  %s *out = to;\n  fj_error e = FJ_ERR_INVALID_ARG;\n  switch (f) {\n", T);
  for (size_t i = 0; i < t->nfields; i++) {
    const field *f = &t->fields[i];
    if (member_kind(f->t)) continue;
    out(c, "  case %zu:\n    %s\n    break;\n", i,
        read_call(f->t, "val", fmt("out->%s", f->cname), f->pointer));
  }
  out(c, "  }\n  return e;\n}\n\n");
  out(c, "static bool %s_equal_custom(int f, const void *x, const void *y) {\n", T);
  out(c, "  const %s *a = x, *b = y;\n  switch (f) {\n", T);
  for (size_t i = 0; i < t->nfields; i++) {
    const field *f = &t->fields[i];
    if (member_kind(f->t)) continue;
    char *x = fmt("a->%s", f->cname), *y = fmt("b->%s", f->cname);
    /* pointers reach here non-NULL */
    out(c, "  case %zu:\n    return %s;\n", i,
        f->pointer ? fmt("fj_equal_%s(%s, %s)", f->t->name, x, y) : eq_expr(f->t, x, y, false));
  }
  out(c, "  }\n  return false;\n}\n\n");
}

static void emit_union_reader(sbuf *c, const type *t) {
  const char *T = t->name;
  keycase *ks = xmalloc(t->nvariants * sizeof *ks);
  for (size_t i = 0; i < t->nvariants; i++)
    ks[i] = (keycase){t->variants[i].tag, t->variants[i].tag_len, fmt("return %zu;", i), false};
  out(c, "static int %s_variant(const char *k, size_t n) {\n", T);
  emit_dispatch(c, ks, t->nvariants, 2);
  out(c, "  return -1;\n}\n\n");

  out(c, "fj_error fj_read_%s_value(fj_decoder *d, const fj_value *v, %s *out) {\n", T, T);
  out(c, "  fj_object o;\n  fj_value key, val;\n  const char *k;\n  size_t n;\n  int f;\n");
  out(c, "  fj_error e;\n");
  out(c,
      "  if (!out) return fj_decode_fail(d, FJ_ERR_INVALID_ARG, 0, \"no struct to read into\");\n");
  out(c, "  e = fj_decode_object(d, v, &o, \"object (%s)\");\n  if (e) return e;\n", T);
  char *tag = c_string(t->tag ? t->tag : "", t->tag ? t->tag_len : 0);
  if (t->shape == SHAPE_FIELD) {
    /* the discriminator may be anywhere: find it, then read the variant from the start */
    out(c, "  (void)key;\n");
    out(c, "  e = fj_object_findn(&o, %s, %zu, &val);\n", tag, t->tag_len);
    out(c, "  if (e == FJ_ERR_NO_SUCH_FIELD) return fj_decode_missing(d, &o, %s);\n", tag);
    out(c, "  if (e) return fj_decode_cursor(d, e);\n");
    out(c, "  if ((e = fj_decode_string_view(d, &val, &k, &n)))\n");
    out(c, "    return fj_decode_path_key(d, %s, %zu, e);\n", tag, t->tag_len);
    out(c, "  f = %s_variant(k, n);\n", T);
    out(c, "  if (f < 0) return fj_decode_path_key(d, %s, %zu, fj_decode_bad_enum(d, &val, %s));\n",
        tag, t->tag_len, c_string(T, strlen(T)));
    out(c, "  if ((e = fj_decode_object_restart(d, &o))) return e;\n");
    out(c, "  switch (f) {\n");
    for (size_t i = 0; i < t->nvariants; i++) {
      const variant *vr = &t->variants[i];
      out(c, "  case %zu:\n    out->kind = %s;\n", i, vr->kind);
      if (vr->pointer) {
        out(c,
            "    if ((e = fj_decode_alloc(d, v, sizeof *out->as.%s, (void **)&out->as.%s))) return "
            "e;\n",
            vr->cname, vr->cname);
        out(c, "    return fj_decode_record_fields(d, &o, &fj__%s_record, out->as.%s);\n",
            vr->t->name, vr->cname);
      } else {
        out(c, "    return fj_decode_record_fields(d, &o, &fj__%s_record, &out->as.%s);\n",
            vr->t->name, vr->cname);
      }
    }
    out(c, "  }\n  return FJ_OK;\n}\n\n");
  } else {
    out(c, "  e = fj_decode_next_field(d, &o, &key, &k, &n, &val);\n");
    out(c,
        "  if (e == FJ_END)\n    return fj_decode_fail(d, FJ_ERR_NO_SUCH_FIELD, "
        "fj_value_offset(v),\n"
        "                          \"expected one key naming the variant of %s\");\n",
        T);
    out(c, "  if (e) return e;\n");
    out(c, "  f = %s_variant(k, n);\n", T);
    out(c, "  if (f < 0 && memchr(k, '\\\\', n)) {\n");
    out(c, "    if ((e = fj_decode_key(d, &key, &k, &n))) return e;\n");
    out(c, "    f = %s_variant(k, n);\n  }\n", T);
    out(c, "  if (f < 0) return fj_decode_unknown(d, &key);\n");
    out(c, "  switch (f) {\n");
    for (size_t i = 0; i < t->nvariants; i++) {
      const variant *vr = &t->variants[i];
      out(c, "  case %zu:\n    out->kind = %s;\n", i, vr->kind);
      out(c, "    %s\n", read_call(vr->t, "&val", fmt("out->as.%s", vr->cname), vr->pointer));
      out(c, "    if (e) return fj_decode_path_key(d, %s, %zu, e);\n",
          c_string(vr->tag, vr->tag_len), vr->tag_len);
      out(c, "    break;\n");
    }
    out(c, "  }\n");
    out(c, "  e = fj_decode_next_field(d, &o, &key, &k, &n, &val);\n");
    out(c,
        "  if (e == FJ_OK)\n    return fj_decode_fail(d, FJ_ERR_TRAILING_CONTENT, "
        "fj_value_offset(&key),\n"
        "                          \"one key only in %s (its variant's name)\");\n",
        T);
    out(c, "  return e == FJ_END ? FJ_OK : e;\n}\n\n");
  }
}

/* ---- writers ---------------------------------------------------------------------- */

/* The writers' keys, pre-quoted (fj_writer_qkey): each once, one after
 * another in one array (fj_qkeys) with FJ_QKEY_SPAN's 32 spare bytes after
 * the last, so every key's 32-byte block is readable and keys share cache
 * lines. */
static sbuf g_qkeys;        /* the array's lines */
static size_t g_qkeys_len;  /* its bytes so far */
static char **g_qkey_names; /* the keys so far, quoted, and their offsets */
static size_t *g_qkey_offsets, g_nqkeys, g_qkeys_cap, g_qkey_offsets_cap;
static smap g_qkey_index; /* a quoted key's index in g_qkey_names */

/* `"name":` can be written unchecked under every writer option: printable
 * ASCII but for '"', '\\' and '/', and at most 32 bytes with the quotes
 * and the colon (the writer's inline limit). */
static bool qkey_ok(const char *name, size_t n) {
  if (n + 3 > 32) return false;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)name[i];
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '/') return false;
  }
  return true;
}

/* "fj_qkeys + OFFSET, LEN" for a key that qkey_ok() accepts. */
static char *qkey_ref(const char *name, size_t n) {
  char *q = fmt("\"%.*s\":", (int)n, name);
  size_t qlen = n + 3, *found = smap_get(&g_qkey_index, q, qlen), i = found ? *found : g_nqkeys;
  if (i == g_nqkeys) {
    grow(&g_qkey_names, &g_qkeys_cap, g_nqkeys, sizeof *g_qkey_names);
    grow(&g_qkey_offsets, &g_qkey_offsets_cap, g_nqkeys, sizeof *g_qkey_offsets);
    smap_put(&g_qkey_index, q, qlen, i);
    g_qkey_names[i] = q;
    g_qkey_offsets[i] = g_qkeys_len;
    g_nqkeys++;
    out(&g_qkeys, "\n    %s /* %zu */", c_string(q, qlen), g_qkeys_len);
    g_qkeys_len += qlen;
  }
  return fmt("fj_qkeys + %zu, %zu", g_qkey_offsets[i], qlen);
}

static char *write_call(const type *t, const char *src, bool pointer) {
  switch (t->kind) {
  case T_BOOL: return fmt("fj_writer_bool(w, %s)", src);
  case T_INT32:
  case T_INT64: return fmt("fj_writer_int64(w, %s)", src);
  case T_UINT64: return fmt("fj_writer_uint64(w, %s)", src);
  case T_DOUBLE: return fmt("fj_writer_double(w, %s)", src);
  case T_STRING: return fmt("fj_writer_stringn(w, %s.data, %s.len)", src, src);
  case T_CONST:
    return fmt("fj_writer_stringn(w, %s, %zu)", c_string(t->values[0], t->value_lens[0]),
               t->value_lens[0]);
  case T_ARRAY: /* every writer that writes an array has an `e` */
    return fmt("((e = fj_writer_begin_array(w)) ? e : write_%s_rest(w, %s%s))", t->name, src,
               depth_arg(t, true));
  case T_ENUM:
  case T_MAP: return fmt("write_%s(w, %s)", t->name, src);
  default: return fmt("fj_write_%s(w, %s%s)", t->name, pointer ? "" : "&", src);
  }
}

/* A recursive type's writer recurses once per level of a value, and a
 * struct built by hand can nest deeper than the C stack allows (or than
 * any reader would accept): the writer stops it as the readers stop
 * input, past FJ_DECODE_MAX_DEPTH, whatever the writer's max_depth. */
static void emit_depth_check(sbuf *c, const type *t) {
  if (takes_depth(t))
    out(c, "  if (d > FJ_DECODE_MAX_DEPTH) return FJ_ERR_DEPTH;\n");
  else if (is_recursive(t))
    out(c, "  if (fj_writer_depth(w) > FJ_DECODE_MAX_DEPTH) return FJ_ERR_DEPTH;\n");
  g_have_depth = takes_depth(t);
}

static void emit_helper_writers(sbuf *c, const type *t) {
  if (t->kind == T_ENUM && t->write_fn) {
    out(c, "static fj_error write_%s(fj_writer *w, %s v) {\n", t->name, t->name);
    out(c, "  if ((unsigned)v >= %zuu) return FJ_ERR_INVALID_ARG; /* not a value of the enum */\n",
        t->nvalues);
    out(c, "  return fj_writer_stringn(w, %s_values[v], %s_value_lens[v]);\n}\n\n", t->name,
        t->name);
  } else if (t->kind == T_ARRAY) {
    out(c, "static fj_error write_%s_rest(fj_writer *w, %s v%s) {\n", t->name, t->name,
        depth_param(t));
    out(c, "  fj_error e = FJ_OK;\n");
    emit_depth_check(c, t);
    out(c, "  if (v.count && !v.items) return FJ_ERR_INVALID_ARG;\n");
    out(c, "  for (size_t i = 0; !e && i < v.count; i++)\n    e = %s;\n",
        write_call(t->elem, "v.items[i]", false));
    out(c, "  return e ? e : fj_writer_end_array(w);\n}\n\n");
  } else if (t->kind == T_MAP) {
    out(c, "static fj_error write_%s(fj_writer *w, %s v) {\n", t->name, t->name);
    out(c, "  fj_error e;\n");
    emit_depth_check(c, t);
    out(c, "  if (v.count && (!v.keys || !v.values)) return FJ_ERR_INVALID_ARG;\n");
    out(c, "  /* a key twice: output the reader would refuse */\n");
    out(c, "  if ((e = fj_encode_map_keys(w, v.keys, v.count))) return e;\n");
    out(c, "  e = fj_writer_begin_object(w);\n");
    out(c, "  for (size_t i = 0; !e && i < v.count; i++) {\n");
    out(c, "    e = fj_writer_keyn(w, v.keys[i].data, v.keys[i].len);\n");
    out(c, "    if (!e) e = %s;\n  }\n", write_call(t->elem, "v.values[i]", false));
    out(c, "  return e ? e : fj_writer_end_object(w);\n}\n\n");
  }
}

/* Whether a type's writer has a write_<T>_rest(): everything after the
 * opening bracket, for a value written right after a pre-quoted key whose
 * call writes the bracket too (fj_writer_qkey_begin_object/array). Unions
 * with the tag inside need every variant to be a record. */
static bool has_rest(const type *t) {
  if (t->kind == T_ARRAY || (t->kind == T_RECORD && !t->wrapper)) return true;
  if (t->kind != T_UNION) return false;
  for (size_t i = 0; t->shape == SHAPE_FIELD && i < t->nvariants; i++)
    if (t->variants[i].t->kind != T_RECORD || t->variants[i].t->wrapper) return false;
  return true;
}

/* The function that writes what follows the opening bracket of a T: an
 * array's is static, a record's or union's is extern (fj__write_<T>_rest),
 * for the fj_write_<T>() the header defines inline. */
static char *rest_name(const type *t) {
  return fmt(t->kind == T_ARRAY ? "write_%s_rest" : "fj__write_%s_rest", t->name);
}

/* "(e = fj_writer_qkey_begin_X(w, KEY)) || (e = <rest>(w, SRC))". */
static char *qkey_rest_call(const type *t, const char *keyarg, const char *src, bool pointer) {
  return fmt("(e = fj_writer_qkey_begin_%s(w, %s)) || (e = %s(w, %s%s%s))",
             t->kind == T_ARRAY ? "array" : "object", keyarg, rest_name(t),
             t->kind == T_ARRAY || pointer ? "" : "&", src, depth_arg(t, true));
}

/* A scalar field's key and value as one writer call (fj_writer_member_* for
 * `m` "member" and `k` "qkey" "key"; fj_writer_qmember_* for "qmember" and
 * "qkey"), or NULL for a field written as a key, then its value. */
static char *member_write_call(const field *f, const char *m, const char *k, const char *key,
                               const char *src) {
  switch (f->t->kind) {
  case T_BOOL: return fmt("fj_writer_%s_bool(w, %s, %s)", m, key, src);
  case T_INT32:
  case T_INT64: return fmt("fj_writer_%s_int64(w, %s, %s)", m, key, src);
  case T_UINT64: return fmt("fj_writer_%s_uint64(w, %s, %s)", m, key, src);
  case T_DOUBLE: return fmt("fj_writer_%s_double(w, %s, %s)", m, key, src);
  case T_STRING: return fmt("fj_writer_%s_stringn(w, %s, %s.data, %s.len)", m, key, src, src);
  case T_CONST:
    return fmt("fj_writer_%s_stringn(w, %s, %s, %zu)", m, key,
               c_string(f->t->values[0], f->t->value_lens[0]), f->t->value_lens[0]);
  case T_ENUM: /* a value outside the enum: the key, then a refusal */
    return fmt("(unsigned)%s < %zuu ? fj_writer_%s_stringn(w, %s, %s_values[%s], "
               "%s_value_lens[%s]) : (e = fj_writer_%s(w, %s)) ? e : FJ_ERR_INVALID_ARG",
               src, f->t->nvalues, m, key, f->t->name, src, f->t->name, src, k, key);
  default: return NULL;
  }
}

/* How many places in the generated C call t's rest function: fields,
 * variants, and elements of arrays and maps. */
static size_t rest_callers(const type *t) {
  size_t n = 0;
  for (size_t i = 0; i < g_ntypes; i++) {
    const type *u = g_types[i];
    for (size_t k = 0; u->kind == T_RECORD && k < u->nfields; k++)
      n += same_type(u->fields[k].t, t);
    for (size_t k = 0; u->kind == T_UNION && k < u->nvariants; k++)
      n += same_type(u->variants[k].t, t);
    n += (u->kind == T_ARRAY || u->kind == T_MAP) && same_type(u->elem, t);
  }
  return n;
}

/* A rest function called from more than one place is not inlined: GCC
 * would split it and inline its head into every caller (ipa-split), which
 * took a sixth of the compile time of a 100-type schema for no measured
 * gain. One called from one place stays inlinable: write_struct document
 * is 3% faster with its items and meta inlined. */
static const char *rest_attr(const type *t) {
  return rest_callers(t) > 1 ? "FJ_GEN_NOINLINE " : "";
}

static void emit_record_writer(sbuf *c, const type *t) {
  out(c, "%sfj_error %s(fj_writer *w, const %s *in%s) {\n", rest_attr(t), rest_name(t), t->name,
      depth_param(t));
  if (t->nfields) out(c, "  fj_error e;\n");
  emit_depth_check(c, t);
  /* a record of no fields, or of constants only, does not read `in` (and
   * must build warning-free) */
  bool reads_in = false;
  for (size_t i = 0; i < t->nfields; i++)
    reads_in |= t->fields[i].t->kind != T_CONST;
  if (!reads_in) out(c, "  (void)in;\n");
  for (size_t i = 0; i < t->nfields; i++) {
    const field *f = &t->fields[i];
    char *src = fmt("in->%s", f->cname);
    /* the key pre-quoted when it can be, else as the name */
    bool q = qkey_ok(f->name, f->name_len);
    const char *m = q ? "qmember" : "member", *k = q ? "qkey" : "keyn";
    char *keyarg = q ? qkey_ref(f->name, f->name_len)
                     : fmt("%s, %zu", c_string(f->name, f->name_len), f->name_len);
    char *key = fmt("(e = fj_writer_%s(w, %s))", k, keyarg);
    char *val = fmt("(e = %s)", write_call(f->t, src, f->pointer));
    const char *present = has_flag(f) ? fmt("in->%s", f->flag) : f->pointer ? src : NULL;
    char *member = member_write_call(f, m, k, keyarg, src);
    if (!member && q && has_rest(f->t)) { /* the key and the bracket in one call */
      char *kv = qkey_rest_call(f->t, keyarg, src, f->pointer);
      if (!present)
        out(c, "  if (%s) return e;\n", kv);
      else if (!f->required)
        out(c, "  if (%s && (%s)) return e;\n", present, kv);
      else
        out(c, "  if (%s ? %s : (e = fj_writer_qmember_null(w, %s))) return e;\n", present, kv,
            keyarg);
      continue;
    }
    if (member && !present) {
      out(c, "  if ((e = %s)) return e;\n", member);
    } else if (member && !f->required) {
      out(c, "  if (%s && (e = %s)) return e;\n", present, member);
    } else if (!present) {
      out(c, "  if (%s || %s) return e;\n", key, val);
    } else if (f->required && member) { /* required and nullable: absent is written as null */
      out(c, "  if ((e = %s ? %s : fj_writer_%s_null(w, %s))) return e;\n", present, member, m,
          keyarg);
    } else if (f->required) {
      out(c, "  if (%s) return e;\n", key);
      out(c, "  if (%s ? %s : (e = fj_writer_null(w))) return e;\n", present, val);
    } else {
      out(c, "  if (%s && (%s || %s)) return e;\n", present, key, val);
    }
  }
  out(c, "  return fj_writer_end_object(w);\n}\n\n");
}

/* A nested-tag union is an object of one member (the tag, the variant);
 * a union with the tag inside is its variant's record. write_<U>_rest()
 * returns FJ_ERR_INVALID_ARG for a kind that is no variant after its
 * caller wrote the bracket (fj_write_<U>() checks the kind first). */
static void emit_union_writer(sbuf *c, const type *t) {
  bool nested = t->shape == SHAPE_NESTED;
  g_have_depth = false;
  if (!nested) { /* a nested one's is inline in the header */
    out(c, "fj_error fj_write_%s(fj_writer *w, const %s *in) {\n", t->name, t->name);
    out(c, "  if (!in) return FJ_ERR_INVALID_ARG;\n  switch (in->kind) {\n");
    for (size_t i = 0; i < t->nvariants; i++) {
      const variant *vr = &t->variants[i];
      out(c, "  case %s: return %s;\n", vr->kind,
          write_call(vr->t, fmt("in->as.%s", vr->cname), vr->pointer));
    }
    out(c, "  default: return FJ_ERR_INVALID_ARG; /* not a variant */\n  }\n}\n\n");
  }
  if (!has_rest(t)) return;
  out(c, "%sfj_error %s(fj_writer *w, const %s *in%s) {\n", rest_attr(t), rest_name(t), t->name,
      depth_param(t));
  out(c, "  fj_error e = FJ_OK;\n");
  emit_depth_check(c, t);
  out(c, "  switch (in->kind) {\n");
  for (size_t i = 0; i < t->nvariants; i++) {
    const variant *vr = &t->variants[i];
    out(c, "  case %s:\n", vr->kind);
    char *src = fmt("in->as.%s", vr->cname);
    if (!nested)
      out(c, "    e = %s(w, %s%s%s);\n", rest_name(vr->t), vr->pointer ? "" : "&", src,
          depth_arg(vr->t, false));
    else if (qkey_ok(vr->tag, vr->tag_len) && !vr->pointer &&
             member_write_call(&(field){.t = vr->t}, "qmember", "qkey", "", src))
      out(c, "    e = %s;\n",
          member_write_call(&(field){.t = vr->t}, "qmember", "qkey", qkey_ref(vr->tag, vr->tag_len),
                            src));
    else if (qkey_ok(vr->tag, vr->tag_len) && has_rest(vr->t))
      out(c, "    (void)(%s);\n",
          qkey_rest_call(vr->t, qkey_ref(vr->tag, vr->tag_len), src, vr->pointer));
    else if (qkey_ok(vr->tag, vr->tag_len))
      out(c, "    if (!(e = fj_writer_qkey(w, %s))) e = %s;\n", qkey_ref(vr->tag, vr->tag_len),
          write_call(vr->t, src, vr->pointer));
    else
      out(c, "    if (!(e = fj_writer_keyn(w, %s, %zu))) e = %s;\n", c_string(vr->tag, vr->tag_len),
          vr->tag_len, write_call(vr->t, src, vr->pointer));
    out(c, "    break;\n");
  }
  out(c, "  default: return FJ_ERR_INVALID_ARG; /* not a variant */\n  }\n");
  out(c, "  return e%s;\n}\n\n", nested ? " ? e : fj_writer_end_object(w)" : "");
}

/* ---- equality --------------------------------------------------------------------- */

static char *eq_expr(const type *t, const char *a, const char *b, bool pointer) {
  switch (t->kind) {
  case T_CONST: return xstrdup("true");
  case T_STRING: g_need_str_equal = true; return fmt("str_equal(%s, %s)", a, b);
  case T_ARRAY:
  case T_MAP: return fmt("equal_%s(&%s, &%s)", t->name, a, b);
  case T_RECORD:
  case T_UNION:
    if (pointer)
      return fmt("(%s == %s || (%s && %s && fj_equal_%s(%s, %s)))", a, b, a, b, t->name, a, b);
    return fmt("fj_equal_%s(&%s, &%s)", t->name, a, b);
  default: return fmt("%s == %s", a, b);
  }
}

static void emit_container_equal(sbuf *c, const type *t) {
  out(c, "static bool equal_%s(const %s *a, const %s *b) {\n", t->name, t->name, t->name);
  out(c, "  if (a->count != b->count) return false;\n");
  if (t->kind == T_MAP)
    out(c, "  if (a->count && (!a->keys || !b->keys || !a->values || !b->values))\n"
           "    return a->keys == b->keys && a->values == b->values;\n");
  else
    out(c, "  if (a->count && (!a->items || !b->items)) return a->items == b->items;\n");
  out(c, "  for (size_t i = 0; i < a->count; i++) {\n");
  if (t->kind == T_MAP) g_need_str_equal = true;
  if (t->kind == T_MAP) out(c, "    if (!str_equal(a->keys[i], b->keys[i])) return false;\n");
  out(c, "    if (!(%s)) return false;\n  }\n  return true;\n}\n\n",
      eq_expr(t->elem, t->kind == T_MAP ? "a->values[i]" : "a->items[i]",
              t->kind == T_MAP ? "b->values[i]" : "b->items[i]", false));
}

static void emit_equal(sbuf *c, const type *t) {
  if (t->kind == T_RECORD) return; /* the library's, from the record's tables (header) */
  out(c, "FJ_GEN_NOINLINE bool fj_equal_%s(const %s *a, const %s *b) {\n", t->name, t->name,
      t->name);
  out(c, "  if (a == b) return true;\n  if (!a || !b || a->kind != b->kind) return false;\n");
  out(c, "  switch (a->kind) {\n");
  for (size_t i = 0; i < t->nvariants; i++) {
    const variant *v = &t->variants[i];
    out(c, "  case %s: return %s;\n", v->kind,
        eq_expr(v->t, fmt("a->as.%s", v->cname), fmt("b->as.%s", v->cname), v->pointer));
  }
  out(c, "  }\n  return false;\n}\n\n");
}

/* ---- the C file ------------------------------------------------------------------- */

/* Marks a type reached from generated code (a custom member, a variant, an
 * element of one): it gets its own read and compare functions. */
static void mark_own(type *t) {
  if (t->own_fns || (t->kind != T_ENUM && t->kind != T_ARRAY && t->kind != T_MAP)) return;
  t->own_fns = true;
  for (size_t i = 0; i < g_ntypes; i++) /* a $ref may hold a copy: functions go by name */
    if (g_types[i]->kind == t->kind && !strcmp(g_types[i]->name, t->name))
      g_types[i]->own_fns = true;
  if (t->kind != T_ENUM) mark_own(t->elem);
}

/* The enums named like `e` are some value's type (by name, as mark_own()):
 * their tables are emitted. Unreferenced ones get none, as nothing would
 * use them (-Wunused-const-variable in the user's build). */
static void mark_enum_used(const type *e) {
  if (e->kind != T_ENUM || e->used) return; /* marked: all of its name were, at once */
  for (size_t j = 0; j < g_ntypes; j++)
    if (g_types[j]->kind == T_ENUM && !strcmp(g_types[j]->name, e->name)) g_types[j]->used = true;
}

/* An enum named like `e` is written by write_<Enum>() (by name, as mark_own()). */
static void mark_enum_writer(const type *e) {
  for (size_t j = 0; e->kind == T_ENUM && j < g_ntypes; j++)
    if (g_types[j]->kind == T_ENUM && !strcmp(g_types[j]->name, e->name))
      g_types[j]->write_fn = true;
}

/* Marks the enums, arrays and maps the library does not read itself, and
 * the enums that need a writer function (a record's enum member is
 * written in line). */
static void mark_own_fns(void) {
  for (size_t i = 0; i < g_ntypes; i++) {
    type *t = g_types[i];
    if (t->kind == T_ARRAY || t->kind == T_MAP) mark_enum_used(t->elem);
    for (size_t k = 0; t->kind == T_RECORD && k < t->nfields; k++)
      mark_enum_used(t->fields[k].t);
    for (size_t k = 0; t->kind == T_UNION && k < t->nvariants; k++)
      mark_enum_used(t->variants[k].t);
  }
  for (size_t i = 0; i < g_ntypes; i++) {
    type *t = g_types[i];
    if (t->kind == T_ARRAY || t->kind == T_MAP) mark_enum_writer(t->elem);
    for (size_t k = 0; t->kind == T_UNION && k < t->nvariants; k++)
      mark_enum_writer(t->variants[k].t);
    for (size_t k = 0; t->kind == T_RECORD && !t->wrapper && k < t->nfields; k++)
      if (!member_kind(t->fields[k].t)) mark_own(t->fields[k].t);
    for (size_t k = 0; t->kind == T_UNION && k < t->nvariants; k++)
      mark_own(t->variants[k].t);
  }
}

static void emit_source(sbuf *c, const char *header_name) {
  sbuf body = {0};
  mark_own_fns();
  /* pointer readers for recursive references */
  bool need_ptr[1024] = {false};
  for (size_t i = 0; i < g_ntypes; i++) {
    type *t = g_types[i];
    for (size_t k = 0; t->kind == T_RECORD && k < t->nfields; k++)
      if (t->fields[k].pointer && !member_kind(t->fields[k].t)) {
        for (size_t j = 0; j < g_ntypes && j < 1024; j++)
          if (g_types[j] == t->fields[k].t) need_ptr[j] = true;
      }
    for (size_t k = 0; t->kind == T_UNION && t->shape == SHAPE_NESTED && k < t->nvariants; k++)
      if (t->variants[k].pointer) {
        for (size_t j = 0; j < g_ntypes && j < 1024; j++)
          if (g_types[j] == t->variants[k].t) need_ptr[j] = true;
      }
  }
  for (size_t i = 0; i < g_ntypes && i < 1024; i++)
    if (need_ptr[i]) {
      const char *T = g_types[i]->name;
      out(&body, "static fj_error read_%s_ptr(fj_decoder *d, const fj_value *v, %s **out) {\n", T,
          T);
      out(&body, "  void *p;\n  fj_error e = fj_decode_alloc(d, v, sizeof(%s), &p);\n", T);
      out(&body, "  if (e) return e;\n  *out = p;\n  return fj_read_%s_value(d, v, p);\n}\n\n", T);
    }
  for (size_t i = 0; i < g_ntypes; i++) {
    type *t = g_types[i];
    if (t->kind == T_ENUM) emit_enum_reader(&body, t);
    if ((t->kind == T_ARRAY || t->kind == T_MAP) && t->own_fns) emit_container_reader(&body, t);
    if (t->kind == T_ENUM || t->kind == T_ARRAY || t->kind == T_MAP) emit_helper_writers(&body, t);
    if ((t->kind == T_ARRAY || t->kind == T_MAP) && t->own_fns) emit_container_equal(&body, t);
  }
  for (size_t i = 0; i < g_ntypes; i++) {
    type *t = g_types[i];
    if (t->kind == T_RECORD && !t->wrapper) emit_record_reader(&body, t);
  }
  for (size_t i = 0; i < g_ntypes; i++) {
    type *t = g_types[i];
    if (!emitted(t)) continue;
    if (t->kind == T_UNION) emit_union_reader(&body, t);
    if (t->kind == T_RECORD) emit_record_writer(&body, t);
    if (t->kind == T_UNION) emit_union_writer(&body, t);
    emit_equal(&body, t);
  }
  out(c, "/* Generated by fastjson-gen from %s. Do not edit. */\n", schema_path_comment());
  out(c, "#include \"%s\"\n\n#include <string.h>\n\n", header_name);
  /* fj_equal_<Type>() are not inlined into each other: inlined they were
   * compiled again in every caller (unions inline all their cases), for no
   * use; readers and writers are left to the compiler, which inlining makes
   * up to 5% faster (read_struct/write_struct flat, document, company). */
  out(c, "#if defined(__GNUC__) || defined(__clang__)\n#define FJ_GEN_NOINLINE "
         "__attribute__((noinline))\n#else\n#define FJ_GEN_NOINLINE\n#endif\n\n");
  /* every reader may call every other (recursion): declare them first */
  for (size_t i = 0; i < g_ntypes; i++) {
    type *t = g_types[i];
    if (t->kind == T_ENUM || t->kind == T_ARRAY || t->kind == T_MAP) {
      if (t->own_fns)
        out(c, "static fj_error read_%s(fj_decoder *d, const fj_value *v, %s *out);\n", t->name,
            t->name);
      if (t->kind == T_MAP || (t->kind == T_ENUM && t->write_fn))
        out(c, "static fj_error write_%s(fj_writer *w, %s v);\n", t->name, t->name);
    }
    if (t->kind == T_ARRAY)
      out(c, "static fj_error write_%s_rest(fj_writer *w, %s v%s);\n", t->name, t->name,
          depth_param(t));
    if ((t->kind == T_ARRAY || t->kind == T_MAP) && t->own_fns)
      out(c, "static bool equal_%s(const %s *a, const %s *b);\n", t->name, t->name, t->name);
    if (i < 1024 && need_ptr[i])
      out(c, "static fj_error read_%s_ptr(fj_decoder *d, const fj_value *v, %s **out);\n", t->name,
          t->name);
  }
  out(c, "\n");
  if (g_nqkeys) {
    out(c, "/* The writers' keys as written, quoted and with the colon, one after another\n"
           " * and then FJ_QKEY_SPAN's 32 spare bytes (fj_writer_qkey()). */\n");
    if (g_qkeys_len <= 4095) {
      out(c, "static const char fj_qkeys[%zu] =%s;\n\n", g_qkeys_len + 32, g_qkeys.s);
    } else { /* C (-Wpedantic) limits a string literal to 4095 bytes: bytes */
      out(c, "static const char fj_qkeys[%zu] = {", g_qkeys_len + 32);
      for (size_t i = 0; i < g_nqkeys; i++) {
        out(c, "\n    /* %zu */", g_qkey_offsets[i]);
        for (const char *q = g_qkey_names[i]; *q; q++)
          out(c, " %d,", (unsigned char)*q);
      }
      out(c, "\n};\n\n");
    }
  }
  if (g_need_str_equal) {
    out(c, "static bool str_equal(fj_str a, fj_str b) {\n");
    out(c, "  return a.len == b.len && (!a.len || memcmp(a.data, b.data, a.len) == 0);\n}\n\n");
  }
  if (g_need_const) {
    out(c, "/* A string that must equal a const of the schema. */\n");
    out(c, "static fj_error read_const(fj_decoder *d, const fj_value *v, const char *want, size_t "
           "wn) {\n");
    out(c, "  const char *s;\n  size_t n;\n  fj_error e = fj_decode_string_view(d, v, &s, &n);\n");
    out(c, "  if (e) return e;\n  if (n == wn && memcmp(s, want, n) == 0) return FJ_OK;\n");
    out(c, "  return fj_decode_fail(d, FJ_ERR_WRONG_TYPE, fj_value_offset(v),\n");
    out(c, "                        \"\\\"%%.*s\\\" is not the constant \\\"%%s\\\"\", (int)(n > "
           "64 ? 64 : n), s, want);\n}\n\n");
  }
  out(c, "%s", body.s ? body.s : "");
}

/* ---- main ------------------------------------------------------------------------- */

static void usage(FILE *to, int status) {
  fprintf(to, "usage: fastjson-gen SCHEMA.json OUT_BASE   (writes OUT_BASE.h and OUT_BASE.c)\n"
              "       fastjson-gen --version\n"
              "A JSON Schema (draft 2020-12 subset) to C structs with readers and writers.\n"
              "Keywords: type, properties, required, items, enum, const, $ref, $defs, oneOf,\n"
              "additionalProperties, format (int32, int64, uint64), default, title, description,\n"
              "$comment, $schema, $id, examples, and on records x-fastjson-unknown-fields\n"
              "(skip, error), x-fastjson-duplicates (error, last-wins); any other keyword is\n"
              "an error.\n"
              "Exit status: 0 written, 1 schema error, 2 usage, 3 I/O.\n");
  exit(status);
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "fastjson-gen: cannot open %s: %s\n", path, strerror(errno));
    exit(3);
  }
  sbuf b = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (b.len + n > b.cap) {
      b.cap = (b.len + n) * 2;
      b.s = xrealloc(b.s, b.cap);
    }
    memcpy(b.s + b.len, chunk, n);
    b.len += n;
  }
  /* a folder opens, then fails to read (EISDIR): not an empty schema */
  if (ferror(f)) {
    fprintf(stderr, "fastjson-gen: cannot read %s: %s\n", path, strerror(errno));
    exit(3);
  }
  fclose(f);
  *len = b.len;
  return b.s ? b.s : xstrdup("");
}

static void write_file(const char *path, const sbuf *b) {
  /* always written: the build tool compares the output's time with the schema's */
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(b->s, 1, b->len, f) != b->len || fclose(f)) {
    fprintf(stderr, "fastjson-gen: cannot write %s: %s%s\n", path, strerror(errno),
            errno == ENOENT ? " (its folder must exist)" : "");
    exit(3);
  }
}

static char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  s = s ? s + 1 : path;
  const char *dot = strchr(s, '.');
  return xstrndup(s, dot ? (size_t)(dot - s) : strlen(s));
}

static void parse_document(const char *schema_path) {
  size_t len;
  char *json = read_file(schema_path, &len);
  fj_parser *p;
  fj_value root;
  fj_error e = fj_parser_new(&p, NULL);
  if (!e) e = fj_parser_parse(p, json, len, &root);
  if (!e) e = load(&root, &g_root);
  if (e) {
    fj_location loc;
    fj_parser_last_error(p, &loc);
    fprintf(stderr, "%s:%zu:%zu: %s (%s, byte %zu)\n", schema_path, loc.line, loc.column,
            fj_error_message(e), fj_error_name(e), loc.offset);
    exit(1);
  }
  fj_parser_free(p);
  if (g_root->kind != J_OBJ) die("", "the schema must be an object");
  check_duplicates(g_root, "");
  jn *defs = member(g_root, "$defs");
  if (defs) { /* placeholders first, so that definitions can refer to each other */
    if (defs->kind != J_OBJ) die("/$defs", "\"$defs\" must be an object");
    g_ndefs = defs->n;
    g_def_names = defs->keys;
    g_def_name_lens = defs->key_lens;
    g_def_types = xmalloc(defs->n * sizeof *g_def_types);
    for (size_t i = 0; i < defs->n; i++) {
      g_def_types[i] = new_type(T_UNSET, child_ptr("/$defs", defs->keys[i]));
      g_def_types[i]->name = unique_type_name(ident(defs->keys[i], defs->key_lens[i]));
    }
  }
  /* a root with a keyword of a value's schema is a type (`{"enum": [..]}`
   * was taken for a holder of $defs, and gave empty files) */
  bool root_is_type = member(g_root, "type") || member(g_root, "properties") ||
                      member(g_root, "oneOf") || member(g_root, "$ref") || member(g_root, "enum") ||
                      member(g_root, "const") || member(g_root, "items") ||
                      member(g_root, "additionalProperties");
  if (!root_is_type && !g_ndefs)
    die("", "nothing to generate: the root is no type (an object or a oneOf) and there are no "
            "$defs");
  if (root_is_type) {
    jn *title = member(g_root, "title");
    g_root_type = new_type(T_UNSET, "");
    g_root_type->name =
        unique_type_name(title && title->kind == J_STR
                             ? ident(title->s, title->slen)
                             : ident(base_name(schema_path), strlen(base_name(schema_path))));
  }
  g_def_state = xmalloc(g_ndefs ? g_ndefs : 1);
  memset(g_def_state, 0, g_ndefs);
  for (size_t i = 0; i < g_ndefs; i++)
    parse_def(defs, i);
  bool nullable;
  if (root_is_type) {
    type *r = parse_into(g_root_type, g_root, "", g_root_type->name, &nullable, true);
    /* "#" names the root's own struct: an array, map, scalar or alias root has
     * none, and the reference would be to a type that is never defined */
    if (g_root_ref && (r != g_root_type || (r->kind != T_RECORD && r->kind != T_UNION)))
      die(g_root_ref, "\"$ref\": \"#\" needs a root that is an object or a oneOf "
                      "(make the recursive type a $defs entry)");
    /* readers are made for objects and unions: anything else would give
     * no function for the root, silently */
    if (r->kind != T_RECORD && r->kind != T_UNION)
      die("", r->kind == T_MAP ? "the root must be an object with properties or a oneOf: an "
                                 "object of additionalProperties alone is a map (put it in a "
                                 "property, or leave the root to $defs)"
                               : "the root must be an object or a oneOf (put an array or a "
                                 "scalar in a property, or leave the root to $defs)");
  } else {
    check_keywords(g_root, "", true);
  }
  for (size_t i = 0; i < g_ntypes; i++)
    if (g_types[i]->kind == T_UNION) resolve_union(g_types[i]);
  unique_constants();
  if (g_root_type) layout(g_root_type); /* recursion then breaks at the references back to it */
  for (size_t i = 0; i < g_ntypes; i++)
    layout(g_types[i]);
}

int main(int argc, char **argv) {
  if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) usage(stdout, 0);
  if (argc == 2 && !strcmp(argv[1], "--version")) {
    printf("fastjson-gen %s\n", FASTJSON_VERSION_STRING);
    return 0;
  }
  if (argc != 3 || argv[1][0] == '-') usage(stderr, 2);
  g_schema_path = argv[1];
  const char *base = argv[2];
  const char *slash = strrchr(base, '/');
  const char *file = slash ? slash + 1 : base;
  /* "out/" or "" would write the hidden files .h and .c */
  if (!*file) {
    fprintf(stderr, "fastjson-gen: OUT_BASE has no file name (it ends in '/' or is empty)\n");
    return 2;
  }
  /* the .c file names its header in #include "...", which has no escapes */
  if (strpbrk(file, "\"\\\n")) {
    fprintf(stderr, "fastjson-gen: OUT_BASE's file name holds a '\"', '\\' or newline, which "
                    "#include \"...\" cannot name\n");
    return 2;
  }
  parse_document(argv[1]);
  char *header_name = fmt("%s.h", file);
  sbuf h = {0}, c = {0};
  emit_header(&h, header_name);
  emit_source(&c, header_name);
  write_file(fmt("%s.h", base), &h);
  write_file(fmt("%s.c", base), &c);
  fj_arena_free(&g_mem);
  return 0;
}
