/* libfastjson — struct codecs: run-time support for generated readers and
 * writers (tools/fastjson_gen.c, `fastjson-gen`).
 *
 * A generated reader turns a JSON document into C structs; everything it
 * allocates (strings, arrays, maps, recursive children) comes from an arena
 * that the caller owns, so one fj_arena_free() releases a whole decoded value.
 *
 *   fj_arena arena;
 *   fj_arena_init(&arena, NULL);
 *   Document doc;
 *   fj_decode_error err;
 *   if (fj_read_Document(NULL, json, len, &arena, 0, &doc, &err) != FJ_OK)
 *     fprintf(stderr, "%s\n", err.message); // "/items/2/qty at byte 812: ..."
 *   ...
 *   fj_arena_free(&arena);
 *
 * Errors name where they happened: a JSON Pointer (RFC 6901) to the value
 * and the byte offset of the offending byte in the input. The path costs
 * nothing while decoding succeeds: it is built while an error unwinds, each
 * level prepending its own key or index.
 *
 * The fj_decode_* functions below are what generated code calls; they are
 * public so that generated files compile against the installed library, but
 * hand-written code rarely needs them.
 *
 * Thread-safety: an arena, a decoder and its error belong to one thread at a
 * time. */
#ifndef FASTJSON_CODEC_H
#define FASTJSON_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fastjson/error.h"
#include "fastjson/parser.h"
#include "fastjson/writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- arena ------------------------------------------------------------------ */

/** A region allocator: a chain of blocks, freed all at once. Zero-initialised
 *  memory is a valid empty arena with the C library's allocator. Fields are
 *  private. */
typedef struct fj_arena {
  struct fj_arena_block *head; /* newest block first */
  char *ptr, *end;             /* free space in the newest block */
  fj_allocator alloc;          /* copied; all-NULL means malloc/free */
  size_t next_size;            /* size of the next block, in bytes */
} fj_arena;

/** Prepares an empty arena. No memory is taken until the first allocation.
 *  @param allocator  hooks to take blocks from (copied; the functions must
 *                    stay valid until fj_arena_free()), or NULL for malloc. */
FJ_API void fj_arena_init(fj_arena *a, const fj_allocator *allocator);

/** `size` bytes aligned for any object type (alignof(max_align_t)), valid
 *  until fj_arena_free(). Blocks grow geometrically from 4 KiB; a large
 *  request gets a block of its own.
 *  @return the memory, or NULL when the allocator fails or size overflows. */
FJ_API void *fj_arena_alloc(fj_arena *a, size_t size);

/** Frees every block; the arena is then empty and reusable. NULL is ignored. */
FJ_API void fj_arena_free(fj_arena *a);

/** Ends the life of everything allocated so far (pointers into the arena
 *  become invalid) but keeps the largest block for the next allocations, so
 *  decoding one document after another in the same arena takes no memory
 *  from the allocator once it is warm. NULL is ignored. */
FJ_API void fj_arena_reset(fj_arena *a);

/** Bytes taken from the allocator by the arena's blocks (headers included). */
FJ_API size_t fj_arena_size(const fj_arena *a);

/* ---- decoded values ------------------------------------------------------- */

/** A decoded string: `len` bytes of UTF-8 at `data`, followed by a NUL that
 *  `len` does not count (a `\\u0000` escape can put NULs inside). `data` lives
 *  in the decode arena; {NULL, 0} marks an absent optional string. */
typedef struct fj_str {
  const char *data;
  size_t len;
} fj_str;

/* ---- decoding policies and errors ------------------------------------------ */

/** Decode flags (bit set). A schema can fix the first two policies for one
 *  type ("x-fastjson-unknown-fields", "x-fastjson-duplicates": README, "Using
 *  it in your build"); these are the defaults for the others. */
enum fj_decode_flags {
  /** A key the type does not declare is an error (default: skipped). */
  FJ_DECODE_UNKNOWN_FIELDS_ERROR = 1u << 0,
  /** A key seen twice in one object: the last value wins (default: error). */
  FJ_DECODE_DUPLICATES_LAST_WINS = 1u << 1,
  /** The whole document is validated (fj_parser_validate(), RFC 8259) before
   *  it is read, so that a malformed value in a field the type does not
   *  declare (a bad number, literal or `\\u` escape) is an error too. By
   *  default a value the reader does not keep is passed over as the cursor
   *  passes over values, only bracket-matched. Costs a second stage-1 pass
   *  and a validation pass, about what fj_parser_validate() alone costs. */
  FJ_DECODE_VALIDATE = 1u << 2
};

/** Deepest nesting the struct codecs read, in levels of arrays and objects
 *  (the root object is level 1): their readers recurse on the C stack, so a
 *  parser allowed deeper input (max_depth up to FJ_MAX_DEPTH) still gets
 *  FJ_ERR_DEPTH here rather than a stack overflow. The parser's own limit
 *  (1024 by default) applies first. Stack: measured with gcc 12 -O2 on
 *  x86-64, about 600 bytes a level for fj_desc_read() (generated readers
 *  less), so 1024 levels need about 640 KiB; unoptimised builds with
 *  sanitizers need several KiB a level (more than 8 MiB for 1024). On a
 *  thread with a smaller stack, give the parser a max_depth that fits. */
#define FJ_DECODE_MAX_DEPTH 1024u

/** Longest JSON Pointer kept in an error, in bytes with its NUL; a deeper
 *  path keeps its innermost part and starts with "/...". */
#define FJ_DECODE_PATH_MAX 256
/** Longest detail text kept in an error, in bytes with its NUL. */
#define FJ_DECODE_DETAIL_MAX 192

/** What went wrong in a decode, and where. */
typedef struct fj_decode_error {
  fj_error code;                     /**< FJ_OK when there was no error */
  size_t offset;                     /**< byte offset in the input */
  char path[FJ_DECODE_PATH_MAX];     /**< JSON Pointer to the value; "" = root */
  char detail[FJ_DECODE_DETAIL_MAX]; /**< e.g. "2147483648 is out of range for int32" */
  /** "<path> at byte <offset>: <detail>", the root's path shown as "(root)";
   *  "(document) at byte <offset>: <detail>" (path "") when the document did
   *  not parse (stage 1's errors, such as invalid UTF-8), before any value
   *  was read */
  char message[FJ_DECODE_PATH_MAX + FJ_DECODE_DETAIL_MAX + 32];
} fj_decode_error;

/** The state of one decode: the parser, the arena and the error being built.
 *  Generated readers set it up with fj_decoder_init(); fields are private. */
typedef struct fj_decoder {
  fj_parser *parser;
  fj_arena *arena;
  uint32_t flags;
  bool failed;         /* err->detail holds the innermost error */
  bool whole;          /* the error is the whole document's (it did not parse) */
  size_t path_at;      /* err->path is built backwards from here */
  bool path_truncated; /* outer segments were dropped */
  fj_decode_error *err;
} fj_decoder;

/** Starts a decode of the parser's current document into `arena`.
 *  @param err  receives the error; must outlive the decode. */
FJ_API void fj_decoder_init(fj_decoder *d, fj_parser *p, fj_arena *arena, uint32_t flags,
                            fj_decode_error *err);

/** Ends a decode that returned `e`: on an error, completes err->path and
 *  err->message (a cursor error nobody described gets the parser's location
 *  and fj_error_message()). @return `e`. */
FJ_API fj_error fj_decoder_finish(fj_decoder *d, fj_error e);

/** One document being decoded (fj_decode_begin() to fj_decode_end()): what
 *  a generated fj_read_<Type>() keeps on its stack. */
typedef struct fj_decode_doc {
  fj_decoder d;            /**< the decoder: pass &doc.d to the fj_read_<Type>_value() */
  fj_value root;           /**< the document's root value (zeroed when the parse failed) */
  fj_parser *own;          /* a temporary parser, freed by fj_decode_end() */
  fj_decode_error scratch; /* the error when the caller gave none */
} fj_decode_doc;

/** Starts decoding `len` bytes of JSON at `json`: sets up doc->d (into
 *  `arena`, with FJ_DECODE_* `flags`, describing errors in *err, or in
 *  doc-owned scratch when `err` is NULL) and parses the document, whose root
 *  is then doc->root. `parser` may be NULL (a temporary one is made with
 *  the arena's allocator). Always follow with fj_decode_end(doc, e), also
 *  when this fails. `doc` must stay in place until then.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (no arena, or `flags` has a bit that
 *          is no FJ_DECODE_* flag: nothing is parsed); FJ_ERR_NOMEM (no
 *          temporary parser); the parse errors of fj_parser_parse(). */
FJ_API fj_error fj_decode_begin(fj_decode_doc *doc, fj_parser *parser, const void *json, size_t len,
                                fj_arena *arena, uint32_t flags, fj_decode_error *err);

/** Ends a decode that fj_decode_begin() started and that returned `e`:
 *  describes an error (fj_decoder_finish()) and frees a temporary parser.
 *  @return `e` (FJ_END counts as FJ_OK). */
FJ_API fj_error fj_decode_end(fj_decode_doc *doc, fj_error e);

/** Parses `len` bytes and runs `read` on the root: fj_decode_begin(), `read`
 *  and fj_decode_end() in one call. `parser` may be NULL (a temporary
 *  one is made); `out` is passed to `read`.
 *  @return FJ_OK, fj_decode_begin()'s errors, or `read`'s error, described
 *          in *err. */
FJ_API fj_error fj_decode_document(fj_parser *parser, const void *json, size_t len, fj_arena *arena,
                                   uint32_t flags, fj_decode_error *err,
                                   fj_error (*read)(fj_decoder *, const fj_value *, void *),
                                   void *out);

/** Records the innermost error (the first call wins; later ones only return
 *  `code`): printf-style detail at byte `offset`. @return `code`. */
FJ_API fj_error fj_decode_fail(fj_decoder *d, fj_error code, size_t offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/** While an error `e` unwinds: prepends `/key` to the error's path, the
 *  `len` bytes at `key` escaped per RFC 6901 (`~` as `~0`, `/` as `~1`). An
 *  error nobody described yet is first described as fj_decode_cursor()
 *  does. A path longer than FJ_DECODE_PATH_MAX bytes keeps its innermost
 *  segments. @return `e`. */
FJ_API fj_error fj_decode_path_key(fj_decoder *d, const char *key, size_t len, fj_error e);

/** While an error `e` unwinds: prepends `/index` (the 0-based array index in
 *  decimal) to the error's path, as fj_decode_path_key() does for a key.
 *  @return `e`. */
FJ_API fj_error fj_decode_path_index(fj_decoder *d, size_t index, fj_error e);

/* ---- reading (cursor helpers with schema-level messages) -----------------
 *
 * The typed reads write *out only with FJ_OK. A value of another type that
 * is itself malformed (`nulll`, `tru`, `1.5.3` where a string is due) is
 * FJ_ERR_BAD_LITERAL or FJ_ERR_BAD_NUMBER, not FJ_ERR_WRONG_TYPE; one that
 * the end of the input cuts off (`{"a":tru`, `{"a":1.`) is
 * FJ_ERR_TRUNCATED. */

/** Whether the value is the literal `null` (its first byte is 'n'; a
 *  malformed literal is then reported by the read that follows). */
FJ_API bool fj_decode_is_null(const fj_value *v);

/** Checks that a value whose first byte is 'n' is the literal `null`.
 *  @return FJ_OK; FJ_ERR_BAD_LITERAL, or FJ_ERR_TRUNCATED when the input ends
 *          inside it, described. */
FJ_API fj_error fj_decode_null(fj_decoder *d, const fj_value *v);

/** Describes an error a cursor call returned (the parser's location and
 *  fj_error_message()) unless one is described already. @return `e`. */
FJ_API fj_error fj_decode_cursor(fj_decoder *d, fj_error e);

/** Enters the object `v` into *o (fj_value_get_object()). `what` names the
 *  expected type in messages, e.g. "object (Order)".
 *  @return FJ_OK; FJ_ERR_WRONG_TYPE for another type ("expected <what>, got
 *          string"; for `null`, "null is not allowed here: expected
 *          <what>"); the other errors of fj_value_get_object()
 *          (FJ_ERR_OUT_OF_ORDER, FJ_ERR_DEPTH, FJ_ERR_STALE_DOCUMENT),
 *          described. */
FJ_API fj_error fj_decode_object(fj_decoder *d, const fj_value *v, fj_object *o, const char *what);

/** Enters the array `v` into *a (fj_value_get_array()).
 *  @return FJ_OK; FJ_ERR_WRONG_TYPE for another type ("expected array, got
 *          object"; for `null`, "null is not allowed here: expected array");
 *          the other errors of fj_value_get_array() (FJ_ERR_OUT_OF_ORDER,
 *          FJ_ERR_DEPTH, FJ_ERR_STALE_DOCUMENT), described. */
FJ_API fj_error fj_decode_array(fj_decoder *d, const fj_value *v, fj_array *a);

/** The next field of `o`: *raw / *raw_len the key's bytes as written between
 *  the quotes (escapes not undone: compare them with a name that has no
 *  backslash, or call fj_decode_key() on a miss when the raw key contains a
 *  backslash), *key the key as a value, *value the field's value.
 *  @return FJ_OK; FJ_END; the errors of fj_object_next(), described. */
FJ_API fj_error fj_decode_next_field(fj_decoder *d, fj_object *o, fj_value *key, const char **raw,
                                     size_t *raw_len, fj_value *value);

/** The unescaped key (fj_value_get_string() of `key`): *s receives `*len`
 *  bytes of UTF-8, not NUL-terminated, in the input or in parser memory,
 *  valid until the parser parses another document or is freed.
 *  @return FJ_OK; the errors of fj_value_get_string() (FJ_ERR_BAD_ESCAPE,
 *          FJ_ERR_BAD_SURROGATE, FJ_ERR_NOMEM, FJ_ERR_STALE_DOCUMENT,
 *          FJ_ERR_OUT_OF_ORDER), described. */
FJ_API fj_error fj_decode_key(fj_decoder *d, const fj_value *key, const char **s, size_t *len);

/** Restarts the iteration of `o` at its first field (after a discriminator
 *  that was looked up ahead with fj_object_findn()); the cursor goes back to
 *  the object's first key, even from inside one of its fields' values.
 *  Only an iteration of the decoder's current document that has not
 *  returned FJ_END, and whose object the cursor has not left, can restart.
 *  @return FJ_OK; FJ_ERR_OUT_OF_ORDER ("cannot restart the object", at the
 *          object's `{`) for any other iteration. */
FJ_API fj_error fj_decode_object_restart(fj_decoder *d, fj_object *o);

/** Reads an integer in [-2^31, 2^31) into *out. Integers must be written as
 *  integers (no fraction, no exponent), as for fj_value_get_int64().
 *  @return FJ_OK; FJ_ERR_NUMBER_RANGE ("2147483648 is out of range for
 *          int32"); FJ_ERR_NOT_INTEGER (`1.5`, `1e2`: "1.5 is not an integer
 *          (int32)"); FJ_ERR_WRONG_TYPE for `null` ("null is not allowed
 *          here: expected int32") and other types ("expected int32, got
 *          string"); FJ_ERR_BAD_NUMBER, FJ_ERR_BAD_LITERAL,
 *          FJ_ERR_TRUNCATED, FJ_ERR_STALE_DOCUMENT, FJ_ERR_OUT_OF_ORDER;
 *          all described. FJ_ERR_INVALID_ARG when `v` is NULL or zeroed
 *          (described) or `out` is NULL (returned before anything is read,
 *          not described). */
FJ_API fj_error fj_decode_int32(fj_decoder *d, const fj_value *v, int32_t *out);

/** Reads an integer in [-2^63, 2^63) into *out (fj_value_get_int64()).
 *  @return as fj_decode_int32(), with "int64" in the messages. */
FJ_API fj_error fj_decode_int64(fj_decoder *d, const fj_value *v, int64_t *out);

/** Reads an integer in [0, 2^64) into *out (fj_value_get_uint64()); a
 *  negative integer is out of range ("-1 is out of range for uint64").
 *  @return as fj_decode_int32(), with "uint64" in the messages. */
FJ_API fj_error fj_decode_uint64(fj_decoder *d, const fj_value *v, uint64_t *out);

/** Reads any number as the nearest double into *out (fj_value_get_double():
 *  correctly rounded, round-half-to-even).
 *  @return FJ_OK; FJ_ERR_INVALID_ARG as fj_decode_int32(); FJ_ERR_NUMBER_RANGE when the magnitude
 * rounds above DBL_MAX ("1e400 is out of range for number"); FJ_ERR_WRONG_TYPE
 *          ("expected number, got string"; for `null`, "null is not allowed
 *          here: expected number"); FJ_ERR_BAD_NUMBER, FJ_ERR_BAD_LITERAL,
 *          FJ_ERR_TRUNCATED, FJ_ERR_STALE_DOCUMENT, FJ_ERR_OUT_OF_ORDER;
 *          all described. */
FJ_API fj_error fj_decode_double(fj_decoder *d, const fj_value *v, double *out);

/** Reads `true` or `false` into *out (fj_value_get_bool()).
 *  @return FJ_OK; FJ_ERR_WRONG_TYPE ("expected boolean, got number"; for
 *          `null`, "null is not allowed here: expected boolean");
 *          FJ_ERR_BAD_LITERAL, FJ_ERR_BAD_NUMBER, FJ_ERR_TRUNCATED,
 *          FJ_ERR_STALE_DOCUMENT, FJ_ERR_OUT_OF_ORDER; FJ_ERR_INVALID_ARG
 *          (`v` NULL or zeroed, or `out` NULL); all described. */
FJ_API fj_error fj_decode_bool(fj_decoder *d, const fj_value *v, bool *out);

/** A string copied into the arena, unescaped and NUL-terminated: out->len
 *  bytes of UTF-8 plus the '\0', owned by the arena (valid until
 *  fj_arena_free()).
 *  @return FJ_OK; FJ_ERR_NOMEM when the arena cannot allocate; the errors
 *          of fj_decode_string_view() (FJ_ERR_WRONG_TYPE for another type,
 *          ...); all described. */
FJ_API fj_error fj_decode_string(fj_decoder *d, const fj_value *v, fj_str *out);

/** A string's unescaped bytes without copying, for enums and
 *  discriminators: *s receives `*len` bytes of UTF-8, not NUL-terminated,
 *  in the input or in parser memory, valid until the parser parses another
 *  document or is freed.
 *  @return FJ_OK; FJ_ERR_WRONG_TYPE ("expected string, got number"; for
 *          `null`, "null is not allowed here: expected string"); the other
 *          errors of fj_value_get_string() (FJ_ERR_BAD_ESCAPE,
 *          FJ_ERR_BAD_SURROGATE, FJ_ERR_NOMEM, FJ_ERR_STALE_DOCUMENT,
 *          FJ_ERR_OUT_OF_ORDER), described. */
FJ_API fj_error fj_decode_string_view(fj_decoder *d, const fj_value *v, const char **s,
                                      size_t *len);

/** The same for the fields of the entered object `o` (string-keyed maps):
 *  counts them without moving the cursor, then *keys gets `*count` zeroed
 *  fj_str and *values `*count` zeroed values of `elem_size` bytes, both in
 *  the arena (both NULL when the object is empty).
 *  @return FJ_OK; FJ_ERR_NOMEM ("out of memory", or "array too large" when
 *          the size in bytes overflows size_t), described at the object's
 *          `{`; the errors of fj_object_count() (FJ_ERR_EXPECTED_COMMA,
 *          FJ_ERR_EXPECTED_KEY, FJ_ERR_EXPECTED_COLON, FJ_ERR_EXPECTED_VALUE,
 *          FJ_ERR_TRUNCATED, FJ_ERR_DEPTH, FJ_ERR_STALE_DOCUMENT), described. */
FJ_API fj_error fj_decode_map_alloc(fj_decoder *d, fj_object *o, size_t elem_size, fj_str **keys,
                                    void **values, size_t *count);

/** Zeroed arena memory of `size` bytes (aligned as fj_arena_alloc()) for one
 *  recursive child, into *out. `v` is the JSON value the child will be read
 *  from: it only gives the byte offset (fj_value_offset()) reported if the
 *  allocation fails; its JSON is not read or checked, and the cursor does
 *  not move.
 *  @return FJ_OK; FJ_ERR_NOMEM ("out of memory", at `v`), described. */
FJ_API fj_error fj_decode_alloc(fj_decoder *d, const fj_value *v, size_t size, void **out);

/** A string that must be one of an enum's `n` values (`values[i]`, of
 *  `lens[i]` bytes): *index receives its position.
 *  @return FJ_OK; FJ_ERR_WRONG_TYPE for another string ("\"x\" is not a
 *          value of <type_name>") or another type, described. */
FJ_API fj_error fj_decode_enum(fj_decoder *d, const fj_value *v, const char *const *values,
                               const uint32_t *lens, size_t n, const char *type_name,
                               size_t *index);

/** Policy error: the required field `field` (its JSON key, NUL-terminated)
 *  is missing from the object `o`. Describes it as "missing required field
 *  \"<field>\"" at the byte offset of the object's `{` (unless an error is
 *  described already: see fj_decode_fail()).
 *  @return FJ_ERR_NO_SUCH_FIELD, always. */
FJ_API fj_error fj_decode_missing(fj_decoder *d, const fj_object *o, const char *field);

/** Policy error: `key` (the key value of a field, as the iteration returned
 *  it) names the field `field` (its JSON key, NUL-terminated) a second time.
 *  Describes it as "duplicate key \"<field>\"" at the key's byte offset
 *  (unless an error is described already: see fj_decode_fail()) and
 *  prepends `/<field>` to the error's path.
 *  @return FJ_ERR_DUPLICATE_KEY, always. */
FJ_API fj_error fj_decode_duplicate(fj_decoder *d, const fj_value *key, const char *field);

/** The keys of a map being read, for fj_decode_map_key(): zero it before
 *  the map's first key. `n` is the number of distinct keys read so far. */
typedef struct fj_decode_keyset {
  uint32_t *slots; /* hash table of key index + 1, in the arena (maps of more than 16 keys) */
  size_t mask;
  size_t n;
} fj_decode_keyset;

/** Reads the key `key` of a map's next entry (string-keyed maps): keys has
 *  room for `total` keys (fj_decode_map_alloc()), of which set->n are read.
 *  A new key is unescaped into keys[set->n] (arena memory) and *index is
 *  set->n, which then grows. A key read before is a duplicate, an error
 *  unless FJ_DECODE_DUPLICATES_LAST_WINS is set, when *index is the earlier
 *  entry's (its value is read again over the old one). Expected time O(1)
 *  per key (a hash table from 17 keys on).
 *  @return FJ_OK; FJ_ERR_DUPLICATE_KEY, FJ_ERR_NOMEM, the errors of
 *          fj_decode_key(), described. */
FJ_API fj_error fj_decode_map_key(fj_decoder *d, const fj_value *key, fj_str *keys, size_t total,
                                  fj_decode_keyset *set, size_t *index);

/** Policy error: `key` (the key value of a field, as the iteration returned
 *  it) names no field of the type. Unescapes the key, describes it as
 *  "unknown field \"<key>\"" (at most 64 bytes of the key shown) at the
 *  key's byte offset (unless an error is described already: see
 *  fj_decode_fail()) and prepends the key to the error's path.
 *  @return FJ_ERR_NO_SUCH_FIELD; or, when the key cannot be unescaped, the
 *          error of fj_decode_key() (FJ_ERR_BAD_ESCAPE, FJ_ERR_BAD_SURROGATE,
 *          FJ_ERR_NOMEM, ...), described. */
FJ_API fj_error fj_decode_unknown(fj_decoder *d, const fj_value *key);

/** Policy error: the string `v` is not one of the values of the enum
 *  `type_name` (or not the const). Describes it as "\"<value>\" is not a
 *  value of <type_name>" (at most 64 bytes of the value shown) at `v`'s byte
 *  offset, unless an error is described already (see fj_decode_fail()).
 *  @return FJ_ERR_WRONG_TYPE; or, when `v` cannot be read as a string, the
 *          error of fj_decode_string_view() (FJ_ERR_WRONG_TYPE for another
 *          type, FJ_ERR_BAD_ESCAPE, ...), described. */
FJ_API fj_error fj_decode_bad_enum(fj_decoder *d, const fj_value *v, const char *type_name);

/* ---- records: table-driven key dispatch (what generated readers call) ------ */

/** The hash of a key's bytes that fj_decode_record.slots is built with (the
 *  generator computes the table with this same function). */
FJ__INLINE_CODE_BEGIN
static inline uint32_t fj_decode_key_hash(const char *k, size_t n) {
  uint32_t h = (uint32_t)n * 0x9E3779B1u;
  if (n)
    h ^= (uint32_t)(unsigned char)k[0] * 0x85EBCA6Bu ^
         (uint32_t)(unsigned char)k[n - 1] * 0xC2B2AE35u ^
         (uint32_t)(unsigned char)k[n / 2] * 0x27D4EB2Fu;
  return h ^ (h >> 15);
}
FJ__INLINE_CODE_END

/** What a record's member holds. The library reads (fj_decode_record_value()),
 *  and compares (fj_decode_record_equal()) every kind but FJ_MEMBER_CUSTOM
 *  itself; generated code handles the custom ones through the record's
 *  callbacks. */
typedef enum fj_member_kind {
  FJ_MEMBER_CUSTOM, /**< a union, map or nested array: the record's callbacks read and compare it */
  FJ_MEMBER_BOOL,   /**< bool */
  FJ_MEMBER_INT32,  /**< int32_t */
  FJ_MEMBER_INT64,  /**< int64_t */
  FJ_MEMBER_UINT64, /**< uint64_t */
  FJ_MEMBER_DOUBLE, /**< double */
  FJ_MEMBER_STRING, /**< fj_str, copied into the decoder's arena */
  FJ_MEMBER_ENUM,   /**< a C enum the size of an int, numbered from 0 as `strings` lists them */
  FJ_MEMBER_CONST,  /**< nothing stored: the value must be the string `strings` holds */
  FJ_MEMBER_RECORD, /**< a struct `record` describes (by value, or a pointer: FJ_MEMBER_POINTER) */
  /** `struct { T *items; size_t count; }` of `elem` elements (a scalar kind,
   *  FJ_MEMBER_ENUM with `strings` or FJ_MEMBER_RECORD with `record`), in
   *  the decoder's arena */
  FJ_MEMBER_ARRAY
} fj_member_kind;

/** Member flags (bit set). */
enum fj_member_flags {
  FJ_MEMBER_POINTER = 1u << 0, /**< the member is a pointer (NULL when absent or null) */
  FJ_MEMBER_NULLABLE = 1u << 1 /**< null is allowed: it clears the has-flag, stores nothing */
};

/** No has-flag (fj_decode_member.has). */
#define FJ_MEMBER_NO_HAS UINT32_MAX

/** The strings an FJ_MEMBER_ENUM or FJ_MEMBER_CONST member accepts. */
typedef struct fj_decode_strings {
  const char *const *values; /**< UTF-8, unescaped; the enum's C value is the index */
  const uint32_t *lens;      /**< their lengths in bytes */
  uint32_t count;            /**< how many (1 for a const) */
  /** for messages: the enum type's name ("is not a value of <name>"); NULL
   *  for a const ("is not the constant \"<value>\"") */
  const char *type_name;
} fj_decode_strings;

struct fj_decode_record;

/** Where and how one field of a generated struct is stored. */
typedef struct fj_decode_member {
  uint8_t kind;                          /**< fj_member_kind */
  uint8_t flags;                         /**< FJ_MEMBER_POINTER, FJ_MEMBER_NULLABLE */
  uint8_t elem;                          /**< FJ_MEMBER_ARRAY: the elements' fj_member_kind */
  uint32_t offset;                       /**< offsetof() the member (0 for a const) */
  uint32_t has;                          /**< offsetof() its `bool` has-flag, or FJ_MEMBER_NO_HAS */
  const fj_decode_strings *strings;      /**< enums and consts (or an array of enums) */
  const struct fj_decode_record *record; /**< FJ_MEMBER_RECORD, or an array of records */
  /** the default stored when the field is absent (a value of the member's
   *  scalar kind), with the has-flag set; NULL: none */
  const void *def;
} fj_decode_member;

/** A record type, as generated code describes it: its keys, members and
 *  the callbacks for the members the library does not handle. */
typedef struct fj_decode_record {
  const char *const *names; /**< the JSON keys (unescaped), in schema order */
  /** their lengths in bytes, with bit 31 set for a name holding a backslash
   *  (never compared with a raw key, only with an unescaped one) */
  const uint32_t *lens;
  /** open-addressing hash table of mask + 1 entries: field index + 1 at
   *  fj_decode_key_hash(name) & mask or the next free entry; 0 is empty */
  const uint16_t *slots;
  uint32_t nfields, mask;
  const uint64_t *required; /**< bit i of word i / 64: field i is required */
  /** Per-type policies: -1 follows the decode flags, 0 no, 1 yes. */
  int unknown_error, last_wins;
  /** nfields members, one per name */
  const fj_decode_member *members;
  const char *what; /**< the expected type in messages, e.g. "object (Point)" */
  size_t size;      /**< sizeof the struct */
  bool defaults;    /**< some member has a default (`def`) */
  /** Reads the value `v` of custom member `field` into struct `out`
   *  (has-flags and null are handled by the caller). NULL: no custom members. */
  fj_error (*read_custom)(fj_decoder *d, int field, const fj_value *v, void *out);
  /** Whether custom member `field` is equal in structs `a` and `b` (both
   *  present; pointers both non-NULL). */
  bool (*equal_custom)(int field, const void *a, const void *b);
} fj_decode_record;

/** Reads the object `v` into the struct `out` that record `r` describes
 *  (r->size bytes, zeroed first): every field as its member says, custom
 *  ones through r->read_custom; policies as the decode flags and the record
 *  say (unknown keys skipped or an error, duplicates an error or the last
 *  wins, missing required fields an error); defaults for
 *  absent fields. Strings, arrays and pointed-to records go to the
 *  decoder's arena. What a generated fj_read_<Type>_value() calls.
 *  @return FJ_OK; FJ_ERR_WRONG_TYPE (not an object, or a field of another
 *          type), FJ_ERR_NO_SUCH_FIELD, FJ_ERR_DUPLICATE_KEY,
 *          FJ_ERR_NUMBER_RANGE, FJ_ERR_NOMEM, cursor errors: described,
 *          with the path to the failing value. */
FJ_API fj_error fj_decode_record_value(fj_decoder *d, const fj_value *v, const fj_decode_record *r,
                                       void *out);

/** fj_decode_record_value() on an object already entered (`o`, from its
 *  first field or after fj_decode_object_restart()). */
FJ_API fj_error fj_decode_record_fields(fj_decoder *d, fj_object *o, const fj_decode_record *r,
                                        void *out);

/** Whether structs `a` and `b` of record `r` are equal, member by member:
 *  has-flags, scalars (strings by bytes, doubles with ==), records and
 *  arrays element by element, custom members through r->equal_custom.
 *  The comparison recurses once per level of nesting: values read by the
 *  library are at most FJ_DECODE_MAX_DEPTH deep, but a recursive struct
 *  built by hand (a linked list of a million nodes) can exhaust the C stack
 *  here, as any recursive comparison would. */
FJ_API bool fj_decode_record_equal(const fj_decode_record *r, const void *a, const void *b);

/** The next element of the entered array `a` (fj_array_next() with a
 *  described error). @return FJ_OK; FJ_END; cursor errors. */
FJ_API fj_error fj_decode_next(fj_decoder *d, fj_array *a, fj_value *elem);

/** Appends a zeroed element of `elem_size` bytes to an array being read,
 *  growing *items (arena memory; it may move, with the elements read so far)
 *  geometrically: *count elements of *cap. *elem receives the new one.
 *  @return FJ_OK; FJ_ERR_NOMEM, described at the array `a`. */
FJ_API fj_error fj_decode_push(fj_decoder *d, const fj_array *a, size_t elem_size, void **items,
                               size_t *count, size_t *cap, void **elem);

/* ---- writing (what generated writers call) --------------------------------- */

/** Checks, before a map is written, that its `n` keys (keys[i].len bytes at
 *  keys[i].data) are written as distinct keys: a generated writer calls it
 *  for every map, because its reader refuses a key written twice
 *  (FJ_ERR_DUPLICATE_KEY, unless FJ_DECODE_DUPLICATES_LAST_WINS), and
 *  output its reader refuses is not written. Keys are compared as bytes;
 *  with FJ_WRITE_REPLACE_INVALID_UTF8 a key that is not UTF-8 as it will be
 *  written, each invalid sequence as U+FFFD ("\xff" and "\xfe" are then
 *  the same key). Writes nothing. Expected time O(n): a scan up to 16 keys,
 *  a hash table of under 16 bytes per key above, and with replacement,
 *  once a key is not UTF-8, a copy of it and the keys after it (room for
 *  3 bytes per byte); allocated with the writer's allocator and freed
 *  before it returns.
 *  @return FJ_OK; FJ_ERR_DUPLICATE_KEY (a key appears twice);
 *          FJ_ERR_INVALID_ARG (`w` NULL, `keys` NULL with n > 0, or a key
 *          with NULL data and a length); FJ_ERR_NOMEM. */
FJ_API fj_error fj_encode_map_keys(fj_writer *w, const fj_str *keys, size_t n);

/* ---- descriptor tables: the same codecs without generation ---------------- */

/** What a described field holds. Arrays are laid out as generated ones:
 *  `struct { T *items; size_t count; }`; strings are fj_str; enums are
 *  stored as `int` (the size of a C enum on the supported compilers). */
typedef enum fj_field_type {
  FJ_FIELD_BOOL,       /**< bool */
  FJ_FIELD_INT32,      /**< int32_t */
  FJ_FIELD_INT64,      /**< int64_t */
  FJ_FIELD_UINT64,     /**< uint64_t */
  FJ_FIELD_DOUBLE,     /**< double */
  FJ_FIELD_STRING,     /**< fj_str, copied into the arena; written as its bytes ({NULL, 0}
                        is the empty string: absence is the has-flag's, not the pointer's) */
  FJ_FIELD_ENUM,       /**< int: index into enum_values */
  FJ_FIELD_RECORD,     /**< a struct described by `record`, held by value */
  FJ_FIELD_RECORD_PTR, /**< a pointer to one (recursive types); NULL when absent or null */
  FJ_FIELD_ARRAY       /**< {items, count} of `elem` (not FJ_FIELD_ARRAY) */
} fj_field_type;

/** Field flags (bit set). */
enum fj_field_flags {
  FJ_FIELD_REQUIRED = 1u << 0, /**< missing is an error */
  FJ_FIELD_NULLABLE = 1u << 1  /**< null is allowed: has-flag false / NULL */
};

struct fj_record_desc;

/** One field of a described struct. */
typedef struct fj_field_desc {
  const char *name;   /**< the JSON key (UTF-8, NUL-terminated) */
  size_t offset;      /**< offsetof() the member */
  fj_field_type type; /**< what the member holds */
  uint32_t flags;     /**< FJ_FIELD_* */
  /** offsetof() a `bool` set when the field was present and not null, or
   *  FJ_NO_HAS_FLAG. Unused for FJ_FIELD_RECORD_PTR (NULL says absent). */
  size_t has_offset;
  const struct fj_record_desc *record; /**< RECORD, RECORD_PTR, or an array of them */
  fj_field_type elem;                  /**< ARRAY: the element type */
  size_t elem_size;                    /**< ARRAY: sizeof an element */
  const char *const *enum_values;      /**< ENUM (or an array of them): the strings */
  size_t enum_count;
  const char *enum_name; /**< ENUM: the type's name in messages (NULL: the field's) */
  /** strlen(name) in bytes, or 0. With 0, fj_desc_write() measures the
   *  name of every field it writes (a table filled once, with
   *  `sizeof "key" - 1` or strlen() at start-up, saves that: flat records
   *  write about 15% faster). When not 0 it must equal strlen(name):
   *  fj_desc_check() checks it. */
  size_t name_len;
} fj_field_desc;

/** No has-flag member (fj_field_desc.has_offset). */
#define FJ_NO_HAS_FLAG SIZE_MAX

/** A described struct: at most 256 fields. */
typedef struct fj_record_desc {
  const char *name;            /**< for messages ("expected object (Name)") */
  size_t size;                 /**< sizeof the struct */
  const fj_field_desc *fields; /**< in the order they are written */
  size_t nfields;
  /** Per-type policies: -1 follows the decode flags, 0 no, 1 yes. */
  int unknown_error, last_wins;
} fj_record_desc;

/** Reads a described struct from `len` bytes of JSON, with the semantics of
 *  generated readers (policies, ranges, error messages with JSON Pointer and
 *  byte offset); allocations go to `arena`; `parser` may be NULL.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG for a table with more than 256 fields
 *          or a bit of `flags` that is no FJ_DECODE_* flag; the errors of
 *          generated readers, described in *err. */
FJ_API fj_error fj_desc_read(fj_parser *parser, const void *json, size_t len, fj_arena *arena,
                             uint32_t flags, const fj_record_desc *desc, void *out,
                             fj_decode_error *err);

/** Reads a described struct from the value `v` (an object) into `out`
 *  (desc->size bytes, zeroed once the object is entered) with the semantics
 *  of fj_desc_read(), inside a decode that `d` already runs: for a described
 *  struct nested in hand-written reading code. Allocations go to d's arena;
 *  errors are described in d's error (complete it with fj_decoder_finish()).
 *  @return FJ_OK; FJ_ERR_WRONG_TYPE ("expected object (<desc->name>), got
 *          array"); FJ_ERR_INVALID_ARG for a table with more than 256 fields
 *          or an array of arrays; the errors of generated readers
 *          (FJ_ERR_NO_SUCH_FIELD, FJ_ERR_DUPLICATE_KEY, FJ_ERR_NUMBER_RANGE,
 *          FJ_ERR_NOT_INTEGER, FJ_ERR_NOMEM, cursor errors), described. */
FJ_API fj_error fj_desc_read_value(fj_decoder *d, const fj_value *v, const fj_record_desc *desc,
                                   void *out);

/** Writes a described struct as generated writers do: fields in table
 *  order, absent optional ones omitted, absent required nullable ones null.
 *  Absent means a has-flag that is false, or a NULL FJ_FIELD_RECORD_PTR; a
 *  field without a has-flag is always present (a string {NULL, 0} is "").
 *  @return the writer's errors; FJ_ERR_INVALID_ARG for an enum value out of
 *          range, an absent required field that is not nullable or a NULL
 *          element in an array of FJ_FIELD_RECORD_PTR (the reader would
 *          refuse the output; nothing more is written), or a table
 *          fj_desc_check() refuses for a NULL name, nested table or enum
 *          strings; FJ_ERR_DEPTH for records nested more than
 *          FJ_DECODE_MAX_DEPTH deep (a recursive struct built by hand),
 *          whatever the writer's max_depth. */
FJ_API fj_error fj_desc_write(fj_writer *w, const fj_record_desc *desc, const void *in);

/** Checks a descriptor table and every table it reaches, once, before
 *  use: fj_desc_read() and fj_desc_write() trust a table's offsets, sizes
 *  and name_len (checking them on every call cost up to 40% of their
 *  time), and a wrong one is undefined behaviour, as a wrong size given to
 *  memcpy is; they do refuse NULL names, nested tables and enum strings
 *  (FJ_ERR_INVALID_ARG). A field is good when it has a name that no
 *  earlier field of its table has, a name_len of 0 or strlen(name), its
 *  member (and has-flag, if any) inside the struct's `size` bytes, the
 *  nested table its type needs, enum strings when it has an enum count,
 *  and, for arrays, an element type other than array whose elem_size is at
 *  least that type's size.
 *  @param bad  receives the first bad field, or NULL (may be NULL).
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (`desc` NULL, a table with more than
 *          256 fields or no field array, a bad field: *bad (the second
 *          of two fields with one name), or more than 256 distinct tables
 *          reached). */
FJ_API fj_error fj_desc_check(const fj_record_desc *desc, const fj_field_desc **bad);

#ifdef __cplusplus
}
#endif
#endif
