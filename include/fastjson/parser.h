/* libfastjson — the parser and its on-demand cursor.
 *
 * A document is parsed in two stages. Stage 1 scans the caller's bytes once
 * (SIMD where the CPU has it), checks UTF-8 and the structure of strings, and
 * writes the structural index: the byte offsets of every `{ } [ ] : ,`, every
 * opening quote and the first byte of every number and literal. Stage 2 is a
 * lazy cursor over that index: nothing is converted until the caller asks for
 * it, and values that the caller skips are only bracket-matched (a skipped
 * array or object must close with its own kind of bracket).
 *
 * Lifetimes: the parser never copies or modifies the input; the input must
 * stay alive and unchanged while values of the document are used. Values,
 * arrays and objects are small handles that live on the caller's stack; they
 * become stale (FJ_ERR_STALE_DOCUMENT) when the parser parses another
 * document (fj_parser_parse(), fj_parser_validate(), fj_minify(),
 * fj_pretty()). A handle no call filled in (zero-initialised: its parser is
 * NULL) and a NULL handle pointer are refused with FJ_ERR_INVALID_ARG.
 *
 * Cursor rules (like simdjson On-Demand, but checked): the cursor moves
 * forward only. A container (array or object) can be entered once, when it
 * is the cursor's current value; reading an element or field passes over the
 * previous one. A field looked up out of order is still found: the lookup
 * wraps around to the start of its object once. Breaking a rule returns
 * FJ_ERR_OUT_OF_ORDER; it never returns a wrong value. Scalars (strings,
 * numbers, literals) can be read any number of times while their parent
 * container is still open.
 *
 * Validation: the cursor checks what it reads. A value that is skipped is
 * only bracket-matched, so errors inside it (a malformed number, a bad \u
 * escape, a nested [1} whose counts balance) are not seen; its own
 * brackets must be a pair ([1,2} is an error wherever it is passed over:
 * skipped, counted or taken raw). Counting a container also checks its own
 * commas and colons and each child's first byte ([1 2] and [x] are not one
 * element). fj_parser_validate() checks the whole document against
 * RFC 8259.
 *
 * Thread-safety: a parser and its values belong to one thread at a time;
 * distinct parsers can be used on distinct threads.
 */
#ifndef FASTJSON_PARSER_H
#define FASTJSON_PARSER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h> /* memcpy, memcmp: the inline fast paths below */

#include "fastjson/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest document one parse accepts, in bytes: structural offsets are 32-bit. */
#define FJ_MAX_DOCUMENT_SIZE ((size_t)0xFFFFFFFEu)

/** Default maximum nesting depth of arrays and objects. */
#define FJ_DEFAULT_MAX_DEPTH 1024u

/** The largest maximum depth a parser accepts (2^20, as the writer's). */
#define FJ_MAX_DEPTH (1u << 20)

/** Parser flags (bit set, fj_parser_options.flags). */
enum {
  /** Replace a lone UTF-16 surrogate escape (`"\\ud800"`) by U+FFFD when a
   *  string is unescaped, instead of failing with FJ_ERR_BAD_SURROGATE. */
  FJ_PARSE_REPLACE_LONE_SURROGATES = 1u << 0
};

/** Allocation hooks. Each function receives `ctx`. `realloc` gets the old
 *  size in bytes, `free` the size that was allocated. Any of them may be used
 *  from the thread that owns the parser only. Returning NULL from `malloc` or
 *  `realloc` makes the calling function fail with FJ_ERR_NOMEM. */
typedef struct fj_allocator {
  void *(*malloc)(void *ctx, size_t size);
  void *(*realloc)(void *ctx, void *ptr, size_t old_size, size_t new_size);
  void (*free)(void *ctx, void *ptr, size_t size);
  void *ctx;
} fj_allocator;

/** Options for fj_parser_new(). Zero-initialise (`= {0}` in C, `{}` in C++,
 *  where `{0}` draws -Wmissing-field-initializers), then set what you need:
 *  a zero field means its default. */
typedef struct fj_parser_options {
  /** Maximum nesting depth of arrays and objects (0: FJ_DEFAULT_MAX_DEPTH;
   *  at most FJ_MAX_DEPTH). The parser itself needs no C stack per level;
   *  a caller that walks values recursively does (a frame per level), so
   *  raising the limit can move a stack overflow into the caller's code. */
  uint32_t max_depth;
  /** FJ_PARSE_* bits. */
  uint32_t flags;
  /** Allocation hooks; NULL means the C library's malloc/realloc/free. The
   *  structure is copied. */
  const fj_allocator *allocator;
} fj_parser_options;

/** A parser: owns the structural index and string scratch memory and reuses
 *  them from one document to the next. Opaque. */
typedef struct fj_parser fj_parser;

/** JSON value types. Numbers are one type; fj_value_get_int64() and friends
 *  tell integers from others. */
typedef enum fj_type {
  FJ_TYPE_NULL,
  FJ_TYPE_BOOL,
  FJ_TYPE_NUMBER,
  FJ_TYPE_STRING,
  FJ_TYPE_ARRAY,
  FJ_TYPE_OBJECT
} fj_type;

/* Not API: the first member of struct fj_parser, the cursor's hot state,
 * which the inline fast paths at the end of this header read and write.
 * Its layout may change in any release. */
typedef struct fj__cursor {
  const uint8_t *buf; /* the current document */
  uint32_t *idx;      /* structural index: byte offsets, n entries */
  size_t len;         /* the document's length in bytes */
  uint64_t cur;       /* serial of the innermost open entry (open[depth]) */
  uint64_t *open;     /* serials of the open entries by depth */
  uint32_t *open_at;  /* the first structural (bracket) of each open entry, by depth */
  uint64_t serial;    /* the last serial handed out */
  uint32_t n;         /* entries in idx */
  uint32_t pos;       /* next structural to read */
  uint32_t depth;     /* containers the cursor is inside */
  uint32_t max_depth; /* the parser's nesting limit */
  /* The last value handed out with the cursor left on it (a container,
   * or an element the exported functions' general step handed out): its
   * structural (0: none; the root's is never asked about). A fresh copy of
   * an array iteration finds the cursor on its first element both before
   * and after another copy handed that element out; this tells which. */
  uint32_t handed;
  /* byte k 0: the 64 bytes from bs_base + 64 * k hold no backslash and do
   * not begin with an escaped byte (or NULL: not known). bs_base is buf,
   * or for a stream's document the first byte of the batch stage 1 ran
   * over, which the document lies in (documents do not start on a block). */
  const uint8_t *bs_blocks, *bs_base;
  bool backslashes; /* whether the document holds a backslash at all */
  /* a run of 64-byte blocks without a backslash that a string was found
   * in (fj__clean_window), from clean_lo up to before clean_hi; both NULL
   * for none. Strings are mostly read in document order, so the next
   * string is usually in it too, and one compare each way replaces finding
   * its blocks' bits. */
  const uint8_t *clean_lo, *clean_hi;
  /* The container the cursor last left or skipped whole: its first
   * structural << 32 | where the cursor then stood (UINT64_MAX: none). An
   * iteration whose previous element that was may step on from there; one
   * whose previous element is anything else may not (another copy of the
   * iteration stepped on: its steps are misuse, not reads). One word: one
   * store on leaving, one load on stepping. */
  uint64_t left;
  /* The highest address at which a number's digits may start for the
   * inline paths, which read 20 bytes from there: buf + len - 20 as an
   * integer, 0 for a shorter document (fj__cursor_set_document). One
   * compare per number instead of the arithmetic on buf and len. */
  uintptr_t digits_limit;
  /* n - 4 (0 for fewer entries): the inline steps read up to 4 structurals
   * from the cursor (an object's key, ':' and value after the ','), and
   * take the common case only below this (fj__cursor_set_count). */
  uint32_t step_limit;
} fj__cursor;

/** A handle to one value of the current document: a position in the
 *  structural index. Copy it freely; its fields are private (read the type
 *  with fj_value_type()). A call that fails leaves each handle, array or
 *  object it would have written zeroed, and every call refuses a zeroed one
 *  with FJ_ERR_INVALID_ARG: ignoring an error never reads garbage.
 *  In hot code pass handles by pointer (`const fj_value *`), as the API
 *  does: a copy of a handle the cursor has just written (passing it by value
 *  to a recursive visitor) is read with a 16-byte load that the CPU cannot
 *  forward from the cursor's 8-byte stores, and waits for them to reach the
 *  cache (a by-value visitor walked mesh.json 2.4 times slower on Zen 5). */
typedef struct fj_value {
  fj_parser *parser;
  uint64_t parent; /* serial of the open parent container */
  uint32_t pos;    /* index of the value's first structural */
  uint32_t meta;   /* depth (0 for the root) | fj_type of the first byte << 24 */
} fj_value;

/** An iteration over the elements of an array. Fields are private. It is a
 *  view of the parser's one cursor: a copy may be made and used, but once
 *  one copy steps (next, at, find), the others are out of date and every
 *  step on them fails with FJ_ERR_OUT_OF_ORDER rather than read on past
 *  what the copy read. */
typedef struct fj_array {
  fj_parser *parser;
  uint64_t serial; /* this entry's serial, unique in the parser's lifetime */
  uint32_t start;  /* index of '[' */
  uint32_t depth;  /* depth of the elements */
  uint32_t last;   /* index of the last element returned ('[' before the first) */
  uint32_t state;
} fj_array;

/** An iteration over the fields of an object. Fields are private. Copies
 *  share the cursor as fj_array's do: only the copy that stepped last may
 *  step on. A copy is known to be out of date by where the cursor stands,
 *  so one exception: when a lookup on another copy wraps around and leaves
 *  the cursor exactly where this copy left it, this copy steps on from
 *  there (reading what it would have read, never a wrong value). */
typedef struct fj_object {
  fj_parser *parser;
  uint64_t serial;
  uint32_t start; /* index of '{' */
  uint32_t depth; /* depth of the field values */
  uint32_t last;  /* index of the last field value returned ('{' before the first) */
  uint32_t state;
} fj_object;

/** Where the last error happened: byte offset from the start of the input
 *  (0-based), line (1-based, lines end at LF, 0x0A) and column (1-based, counted
 *  in code points; each byte of invalid UTF-8 counts as one). */
typedef struct fj_location {
  size_t offset;
  size_t line;
  size_t column;
} fj_location;

/** Creates a parser.
 *  @param out   receives the parser; the caller frees it with fj_parser_free().
 *  @param opts  options, or NULL for all defaults; copied.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG if `out` is NULL or the allocator lacks
 *          a function, max_depth exceeds FJ_MAX_DEPTH, or `flags` has a bit
 *          that is no FJ_PARSE_* flag; FJ_ERR_NOMEM. */
FJ_API fj_error fj_parser_new(fj_parser **out, const fj_parser_options *opts);

/** Frees a parser and all memory it owns. Every string pointer it returned
 *  becomes invalid, and so does every handle and iteration of its
 *  documents: they point at the parser, so no call may be made with them
 *  afterwards (unlike a handle of an earlier document, which the parser
 *  refuses with FJ_ERR_STALE_DOCUMENT, this cannot be detected). NULL is
 *  ignored. */
FJ_API void fj_parser_free(fj_parser *parser);

/** Parses a document lazily: runs stage 1 over `len` bytes at `json` and
 *  returns the root value. The input needs no padding or terminating NUL and
 *  is never written to; it must outlive every use of the document.
 *  Parsing a new document makes all handles of the previous one stale.
 *  Memory: the parser's structural index grows to about 4.5 bytes per byte
 *  of the largest document parsed so far (address space: stage 1 writes 4
 *  bytes per structural character) and is kept for the next document until
 *  fj_parser_free().
 *  @param root  receives the root value.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG; FJ_ERR_CAPACITY (len >
 *          FJ_MAX_DOCUMENT_SIZE); FJ_ERR_NOMEM; FJ_ERR_EMPTY; FJ_ERR_BOM (a
 *          UTF-8 byte order mark, which RFC 8259 section 8.1 forbids, is
 *          refused, not skipped); FJ_ERR_UTF8; FJ_ERR_UNCLOSED_STRING;
 *          FJ_ERR_CONTROL_CHAR; FJ_ERR_BAD_ESCAPE (a backslash not followed
 *          by one of `"\/bfnrtu`); FJ_ERR_EXPECTED_VALUE (the first byte
 *          starts no value); FJ_ERR_TRAILING_CONTENT (a scalar root followed
 *          by more), unless that scalar is itself malformed, which is
 *          reported first: FJ_ERR_BAD_LITERAL (`tru 1`), FJ_ERR_BAD_NUMBER
 *          (`- 1`, `1.e 2`), FJ_ERR_BAD_ESCAPE or FJ_ERR_BAD_SURROGATE
 *          (`"\ud800" 1`). A lone scalar root is not checked here (its
 *          getter checks it). The error location is kept
 *          (fj_parser_last_error()).
 *          Source: RFC 8259; UTF-8 per RFC 3629 section 4 (no overlongs, no
 *          surrogates, nothing above U+10FFFF). */
FJ_API fj_error fj_parser_parse(fj_parser *parser, const void *json, size_t len, fj_value *root);

/** Parses and fully validates a document against RFC 8259: every number,
 *  string escape and literal is checked, brackets must match, and nothing
 *  may follow the root value. Leaves the parser ready for a new parse.
 *  The document is parsed into `parser` as by fj_parser_parse(), so handles
 *  of its previous document become stale (FJ_ERR_STALE_DOCUMENT afterwards)
 *  whatever the result, except FJ_ERR_INVALID_ARG.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (`parser` NULL, or `json` NULL with
 *          `len` > 0; nothing is parsed then); or any parse error of
 *          fj_parser_parse() and of the cursor
 *          (FJ_ERR_EXPECTED_*, FJ_ERR_BAD_NUMBER, FJ_ERR_BAD_LITERAL,
 *          FJ_ERR_BAD_SURROGATE, FJ_ERR_TRUNCATED, FJ_ERR_DEPTH, ...), with
 *          its location kept: the first error in the document, whichever
 *          stage finds it (`{"a":1}}` followed by invalid UTF-8 is
 *          FJ_ERR_TRAILING_CONTENT). A string that starts where none may
 *          (`[1"`, `{"a""b`) is the error at its quote, named by what was
 *          due there (FJ_ERR_BAD_NUMBER, FJ_ERR_EXPECTED_COLON, ...),
 *          whether or not the string closes. One exception: a fault inside a
 *          string that also holds a byte stage 1 refuses (a `\u` escape
 *          with too few hex digits, then a raw newline) gives the stage-1
 *          error. Numbers too large for a double are valid JSON
 *          and are accepted here. Lone surrogate escapes are rejected unless
 *          FJ_PARSE_REPLACE_LONE_SURROGATES is set. */
FJ_API fj_error fj_parser_validate(fj_parser *parser, const void *json, size_t len);

/** Moves the cursor back to the root of the current document. Handles
 *  below the root (and iterations) are then out of date: using one returns
 *  FJ_ERR_OUT_OF_ORDER (not FJ_ERR_STALE_DOCUMENT: the document is the
 *  same); the root value stays valid.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG if `parser` is NULL or holds no
 *          document (none was parsed, or the last fj_parser_parse() or
 *          fj_parser_validate() failed). */
FJ_API fj_error fj_parser_rewind(fj_parser *parser);

/** The code of the last error a call on this parser or its values returned
 *  (FJ_OK if none since the last successful parse), and where it happened.
 *  FJ_ERR_STALE_DOCUMENT has no place in the current document: its
 *  location is offset 0 (line 1, column 1), which says nothing.
 *  FJ_ERR_INVALID_ARG returns for bad arguments are not recorded: a NULL
 *  result pointer is refused before the handle is checked, so it never
 *  replaces the error kept here.
 *  @param loc  receives the location, or NULL. Line and column are computed
 *              on demand by scanning the input up to the offset (O(offset)),
 *              so the input must still be alive when this is called.
 *  @return that code; FJ_ERR_INVALID_ARG if `parser` is NULL (*loc is then
 *          not written). */
FJ_API fj_error fj_parser_last_error(const fj_parser *parser, fj_location *loc);

/* ---- values ---------------------------------------------------------------- */

/** The type of a value, from its first byte; does not move the cursor.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (`v` or `out` NULL, or a zeroed `*v`);
 *          FJ_ERR_EXPECTED_VALUE if the bytes there start no JSON value;
 *          FJ_ERR_STALE_DOCUMENT; FJ_ERR_OUT_OF_ORDER (parent closed). */
FJ_API fj_error fj_value_get_type(const fj_value *v, fj_type *out);

/** The type of a value, from its first byte, as recorded in the handle when
 *  the library made it (every handle it makes starts a value): no call, no
 *  check, no error. It touches no document memory, so it is defined even for
 *  a stale handle; reading the value is what reports misuse. A zeroed handle
 *  and NULL give FJ_TYPE_NULL (fj_value_get_type() refuses both with
 *  FJ_ERR_INVALID_ARG, telling them from a JSON null). */
FJ__INLINE_CODE_BEGIN
static inline fj_type fj_value_type(const fj_value *v) {
  return v ? (fj_type)(v->meta >> 24) : FJ_TYPE_NULL;
}
FJ__INLINE_CODE_END

/** Reads an integer in [-2^63, 2^63). `1.0` and `1e2` are not integers here
 *  (FJ_ERR_NOT_INTEGER): the JSON text must be an integer.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (`v` or `out` NULL, or a zeroed `*v`);
 *          FJ_ERR_WRONG_TYPE (not a number); FJ_ERR_BAD_NUMBER;
 *          FJ_ERR_TRUNCATED (the input ends inside the number, `[1.`, `-`, or
 *          right after it when it is not the root, `{"a":12`: digits may be
 *          missing); FJ_ERR_NOT_INTEGER; FJ_ERR_NUMBER_RANGE (a valid integer outside the
 *          range; its text stays available through fj_value_get_raw());
 *          FJ_ERR_STALE_DOCUMENT; FJ_ERR_OUT_OF_ORDER. *out is written only
 *          with FJ_OK. */
FJ_API fj_error fj_value_get_int64(const fj_value *v, int64_t *out);

/** Reads an integer in [0, 2^64). Errors as fj_value_get_int64()
 *  (FJ_ERR_INVALID_ARG included; *out written only with FJ_OK); a negative
 *  integer is FJ_ERR_NUMBER_RANGE. */
FJ_API fj_error fj_value_get_uint64(const fj_value *v, uint64_t *out);

/** Reads a number as the nearest double (round-half-to-even), correctly
 *  rounded for every input (Clinger's fast path, then Eisel-Lemire as in
 *  Lemire, "Number Parsing at a Gigabyte per Second", 2021, with an exact
 *  fallback). `-0` gives -0.0; underflow gives a subnormal or zero.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (`v` or `out` NULL, or a zeroed `*v`);
 *          FJ_ERR_WRONG_TYPE; FJ_ERR_BAD_NUMBER; FJ_ERR_TRUNCATED (as
 *          fj_value_get_int64()); FJ_ERR_NUMBER_RANGE (the magnitude rounds
 *          above DBL_MAX, e.g. `1e400`; *out is then ±inf, the value in the
 *          direction it overflowed); FJ_ERR_STALE_DOCUMENT;
 *          FJ_ERR_OUT_OF_ORDER. Other errors leave *out unchanged. */
FJ_API fj_error fj_value_get_double(const fj_value *v, double *out);

/** What fj_value_get_number() found (fj_number.kind). */
typedef enum fj_number_kind {
  /** An integer (no fraction, no exponent) in [-2^63, 2^63): field `i`. */
  FJ_NUMBER_INT64,
  /** An integer in [2^63, 2^64): field `u`. */
  FJ_NUMBER_UINT64,
  /** A number with a fraction or an exponent (`1.0`, `1e2`): field `d`,
   *  the nearest double as fj_value_get_double() gives it. */
  FJ_NUMBER_DOUBLE,
  /** An integer outside [-2^63, 2^64): field `d`, the nearest double (so
   *  usually inexact; the exact text is available through fj_value_get_raw()). */
  FJ_NUMBER_BIG_INTEGER
} fj_number_kind;

/** A number read by fj_value_get_number(): its kind and its value. */
typedef struct fj_number {
  fj_number_kind kind;
  union {
    int64_t i;  /* FJ_NUMBER_INT64 */
    uint64_t u; /* FJ_NUMBER_UINT64 */
    double d;   /* FJ_NUMBER_DOUBLE, FJ_NUMBER_BIG_INTEGER */
  };
} fj_number;

/** Reads a number in one call and one pass over its text, choosing the C
 *  type from the text (as the fj_number_kind values say): integers exactly
 *  as int64 or uint64, everything else as the nearest double, rounded like
 *  fj_value_get_double(). For a walk over unknown documents this is cheaper
 *  than trying fj_value_get_int64() and then fj_value_get_double(). `-0`
 *  gives FJ_NUMBER_INT64 0; `-0.0` gives FJ_NUMBER_DOUBLE -0.0.
 *  @param out  receives the kind and the value.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (`v` or `out` NULL, or a zeroed `*v`);
 *          FJ_ERR_WRONG_TYPE (not a number); FJ_ERR_BAD_NUMBER (malformed
 *          text, at the offending byte); FJ_ERR_TRUNCATED (the input ends
 *          inside the number, at the end); FJ_ERR_NUMBER_RANGE (a fraction,
 *          exponent or integer whose magnitude rounds above DBL_MAX, e.g.
 *          `1e400`; *out is then ±inf as FJ_NUMBER_DOUBLE or
 *          FJ_NUMBER_BIG_INTEGER);
 *          FJ_ERR_STALE_DOCUMENT; FJ_ERR_OUT_OF_ORDER. Other errors leave
 *          *out unchanged. */
FJ_API fj_error fj_value_get_number(const fj_value *v, fj_number *out);

/** Reads `true` or `false`.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (`v` or `out` NULL, or a zeroed `*v`);
 *          FJ_ERR_WRONG_TYPE; FJ_ERR_BAD_LITERAL (`tru,`, `truex`); FJ_ERR_TRUNCATED
 *          (the input ends inside the literal: `tru`); FJ_ERR_STALE_DOCUMENT;
 *          FJ_ERR_OUT_OF_ORDER. */
FJ_API fj_error fj_value_get_bool(const fj_value *v, bool *out);

/** Tells whether the value is `null` (*out true) or any other value (false).
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (`v` or `out` NULL, or a zeroed `*v`);
 *          FJ_ERR_BAD_LITERAL (`nul,`, `nullx`); FJ_ERR_TRUNCATED (the input ends
 *          inside the literal: `nul`); FJ_ERR_STALE_DOCUMENT;
 *          FJ_ERR_OUT_OF_ORDER. */
FJ_API fj_error fj_value_is_null(const fj_value *v, bool *out);

/** Reads a string, unescaped (RFC 8259 section 7: `\\uXXXX`, surrogate pairs
 *  joined into one code point, encoded as UTF-8).
 *  @param s    receives a pointer to `*len` bytes of UTF-8, not NUL-terminated.
 *              It points into the input when the string has no escapes,
 *              otherwise into parser-owned scratch memory; either way it stays
 *              valid until the parser parses another document or is freed.
 *  @param len  receives the length in bytes. A `\\u0000` escape yields a NUL
 *              byte inside the string. On failure *s is NULL and *len 0.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (`v`, `s` or `len` NULL, or a zeroed
 *          `*v`); FJ_ERR_WRONG_TYPE; FJ_ERR_BAD_ESCAPE (bad `\\u` hex digits);
 *          FJ_ERR_BAD_SURROGATE; FJ_ERR_NOMEM; FJ_ERR_STALE_DOCUMENT;
 *          FJ_ERR_OUT_OF_ORDER. */
FJ_API fj_error fj_value_get_string(const fj_value *v, const char **s, size_t *len);

/** Unescapes a string into caller memory and NUL-terminates it. Uses no
 *  parser memory: an escaped string is read twice, once to check and
 *  measure it (all a sizing call does), once to copy it into `dst`.
 *  @param dst  `cap` bytes of caller memory; written only on FJ_OK (left
 *              untouched on FJ_ERR_BUFFER_TOO_SMALL and every other error).
 *              On FJ_OK the bytes after the NUL, up to `cap`, may have been
 *              overwritten too (the vector copy stores whole blocks).
 *              (NULL, 0) is a sizing call: it returns FJ_ERR_BUFFER_TOO_SMALL
 *              with the capacity needed in *len.
 *  @param len  receives the string's length in bytes without the NUL; on
 *              FJ_ERR_BUFFER_TOO_SMALL, the capacity needed including the NUL.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (`v` or `len` NULL, a zeroed `*v`, or
 *          `dst` NULL with `cap` > 0); FJ_ERR_BUFFER_TOO_SMALL (cap < length
 *          + 1); the other errors of fj_value_get_string(). */
FJ_API fj_error fj_value_copy_string(const fj_value *v, char *dst, size_t cap, size_t *len);

/** The value's JSON text as written in the input, from its first byte to its
 *  last (a string includes its quotes; a container its brackets; no trailing
 *  whitespace). Works for numbers too big for any C type; a number's or a
 *  literal's text is returned as it stands, unchecked (`01` and `12x` come
 *  back as they are: the getters check it). A container's end
 *  is found by bracket matching from the value's own position (its brackets
 *  must be a pair; what is inside is not validated); the cursor does not
 *  move, so this works for any valid handle.
 *  @param s    receives a pointer into the input (valid as long as the
 *              input); NULL on failure.
 *  @param len  receives the length in bytes; 0 on failure.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (`v`, `s` or `len` NULL, or a zeroed
 *          `*v`); FJ_ERR_TRUNCATED; FJ_ERR_DEPTH; FJ_ERR_BAD_ESCAPE (string);
 *          FJ_ERR_EXPECTED_COMMA, FJ_ERR_EXPECTED_VALUE or FJ_ERR_EXPECTED_KEY
 *          at a closing bracket of the other kind ([1,2}, as validation);
 *          FJ_ERR_STALE_DOCUMENT; FJ_ERR_OUT_OF_ORDER (parent closed). */
FJ_API fj_error fj_value_get_raw(const fj_value *v, const char **s, size_t *len);

/** Byte offset of the value's first byte in the input. Never fails for a
 *  handle the library filled in; 0 for NULL or a zeroed handle (what a
 *  failed call leaves). */
FJ_API size_t fj_value_offset(const fj_value *v);

/** Skips the value if it is the cursor's current one (a container is
 *  bracket-matched, not validated). Skipping a scalar or an already-passed
 *  value does nothing.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (`v` NULL or a zeroed `*v`);
 *          FJ_ERR_TRUNCATED; FJ_ERR_DEPTH; the bracket errors of
 *          fj_value_get_raw(); FJ_ERR_STALE_DOCUMENT;
 *          FJ_ERR_OUT_OF_ORDER (the value's parent was left). */
FJ_API fj_error fj_value_skip(const fj_value *v);

/* ---- arrays ---------------------------------------------------------------- */

/** Enters an array: the value must be the cursor's current value.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (`v` or `out` NULL, or a zeroed `*v`;
 *          the cursor does not move);
 *          FJ_ERR_WRONG_TYPE; FJ_ERR_DEPTH; FJ_ERR_OUT_OF_ORDER (the
 *          array was already entered or passed over); FJ_ERR_STALE_DOCUMENT. */
FJ_API fj_error fj_value_get_array(const fj_value *v, fj_array *out);

/** The next element. Passes over whatever of the previous element was not
 *  read. Returns FJ_END after the last element (and on every later call;
 *  for the root array, until the cursor is rewound, see below).
 *  `elem` may be NULL: the element is then stepped over unread.
 *  @return FJ_OK with *elem set; FJ_END; FJ_ERR_INVALID_ARG (`a` NULL or a
 *          zeroed `*a`); FJ_ERR_EXPECTED_VALUE;
 *          FJ_ERR_EXPECTED_COMMA; FJ_ERR_TRUNCATED; FJ_ERR_TRAILING_CONTENT
 *          (after the root array closes, and again on every later call on
 *          it); FJ_ERR_OUT_OF_ORDER (the cursor has left this array, or
 *          another copy of `*a` has stepped since this one did, or the
 *          cursor was rewound (fj_parser_rewind(), a JSON Pointer, the root
 *          entered again) since the root array's iteration ended);
 *          FJ_ERR_STALE_DOCUMENT. Passing over an unread container
 *          bracket-matches it: FJ_ERR_DEPTH (it nests deeper than the
 *          parser's maximum depth), FJ_ERR_TRUNCATED, or the errors of a
 *          mismatched closing bracket (FJ_ERR_EXPECTED_KEY for `[{],2]`,
 *          FJ_ERR_EXPECTED_VALUE, FJ_ERR_EXPECTED_COMMA). */
FJ_API fj_error fj_array_next(fj_array *a, fj_value *elem);

/** The element at index `i` (0-based), counted from the iteration's current
 *  position: it skips `i` elements and returns the next, so on a fresh
 *  iteration `i` is the absolute index, and after at(2) at(0) is element 3
 *  (the cursor only moves forward; enter the array again, by a JSON Pointer
 *  or a new parse, to go back).
 *  @return FJ_OK; FJ_ERR_INDEX_RANGE (the array closes first; the iteration
 *          is then finished); the errors of fj_array_next(). */
FJ_API fj_error fj_array_at(fj_array *a, size_t i, fj_value *elem);

/** Counts all elements of the array (however far the iteration has got) by
 *  bracket matching from the array's start; neither the cursor nor the
 *  iteration moves. It also works after the cursor has left the array (the
 *  iteration ended or its parent moved on), as long as the document is
 *  current. Costs a pass over the array's structurals. The commas between
 *  the elements, each element's first byte and an element container's own
 *  bracket pair are checked on the way, with the error and offset
 *  fj_parser_validate() gives; what lies inside the elements is only
 *  bracket-matched, as when they are skipped, so an error in there is
 *  reported where bracket matching finds it, which can be later than where
 *  validation does (`[[{"a":1]}]`: EXPECTED_COMMA at the '}', offset 9,
 *  where validation reports the ']' at 8). *count is written only with
 *  FJ_OK.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (`a` or `count` NULL, or a zeroed
 *          `*a`); FJ_ERR_EXPECTED_COMMA (`[1 2]`, `[1:2]`);
 *          FJ_ERR_EXPECTED_VALUE (`[1,,2]`, `[1,]`, `[x]`); FJ_ERR_TRUNCATED;
 *          FJ_ERR_DEPTH; the bracket errors of fj_value_get_raw() (the array
 *          closed by '}'); FJ_ERR_STALE_DOCUMENT. */
FJ_API fj_error fj_array_count(fj_array *a, size_t *count);

/* ---- objects --------------------------------------------------------------- */

/** Enters an object: the value must be the cursor's current value.
 *  @return as fj_value_get_array(). */
FJ_API fj_error fj_value_get_object(const fj_value *v, fj_object *out);

/** The next field. `key` receives the key as a string value (read it with
 *  fj_value_get_string() or fj_value_get_raw()); `value` the field's value.
 *  Either may be NULL.
 *  @return FJ_OK; FJ_END after the last field; FJ_ERR_INVALID_ARG (`o` NULL
 *          or a zeroed `*o`); FJ_ERR_EXPECTED_KEY;
 *          FJ_ERR_EXPECTED_COLON; FJ_ERR_EXPECTED_VALUE; FJ_ERR_EXPECTED_COMMA;
 *          FJ_ERR_TRUNCATED; FJ_ERR_TRAILING_CONTENT (as fj_array_next());
 *          FJ_ERR_OUT_OF_ORDER (as fj_array_next()); FJ_ERR_STALE_DOCUMENT;
 *          FJ_ERR_DEPTH and the bracket errors of passing over an unread
 *          container value (as fj_array_next()). */
FJ_API fj_error fj_object_next(fj_object *o, fj_value *key, fj_value *value);

/** The next field with its key already read as fj_value_get_string() reads
 *  it (one call instead of two, and no key handle).
 *  @param key      receives the unescaped key: `*key_len` bytes of UTF-8,
 *                  not NUL-terminated, pointing into the input or into
 *                  parser scratch memory, valid until the next document.
 *                  NULL and 0 on any error or FJ_END.
 *  @param value    receives the field's value (may be NULL).
 *  @return the codes of fj_object_next(); FJ_ERR_INVALID_ARG also when
 *          `key` or `key_len` is NULL (the cursor does not move); the key's
 *          errors of fj_value_get_string() (FJ_ERR_BAD_ESCAPE,
 *          FJ_ERR_BAD_SURROGATE, FJ_ERR_NOMEM: the iteration has then moved
 *          past the field). */
FJ_API fj_error fj_object_next_key(fj_object *o, const char **key, size_t *key_len,
                                   fj_value *value);

/** Finds a field whose unescaped key equals the `key_len` bytes at `key`:
 *  the first one at or after the cursor (the field after the one last
 *  returned), searching forward, then from the start of the object up to
 *  the cursor. So fields in any order are found, and with a duplicate key
 *  the one found depends on where the cursor is (fj_value_at_pointer()
 *  starts a fresh search, so it finds the first in document order); in-order lookups
 *  cost one key comparison each. Keys without escapes are compared without
 *  unescaping. The first lookup that wraps around in an object of 8 or more
 *  distinct keys without escapes indexes its fields in a hash table (one
 *  more pass over the fields, memory from the parser's allocator, kept for
 *  the next such object), so reading its fields in any order costs O(1)
 *  per lookup from then on (a hash of every key byte; a table whose keys
 *  would collide more than 64 deep is given up); the answer is the same
 *  either way, and if the memory is not available, or the table is given
 *  up, the search stays linear. On
 *  FJ_ERR_NO_SUCH_FIELD the cursor is where it was. A lookup searches an
 *  object the cursor is in: once its iteration has ended (FJ_END), or its
 *  parent has moved on, the cursor has left it and every lookup is
 *  FJ_ERR_OUT_OF_ORDER, found or not (enter it again by a JSON Pointer,
 *  or count it). `value` may be NULL,
 *  as in fj_object_next(): whether the field is there (the next step skips
 *  its value).
 *  @return FJ_OK; FJ_ERR_NO_SUCH_FIELD; the errors of fj_object_next();
 *          FJ_ERR_BAD_ESCAPE, FJ_ERR_BAD_SURROGATE (at a key passed on the
 *          way that is longer than `key`, holds a backslash and begins with
 *          a backslash or with `key`'s first byte: escapes only shorten a
 *          key and a first byte that begins no escape stays, so such a key
 *          may unescape to `key`, and it is unescaped; other keys are
 *          compared as written, so a malformed escape in them is not
 *          reported). */
FJ_API fj_error fj_object_findn(fj_object *o, const char *key, size_t key_len, fj_value *value);

/** fj_object_findn() for a NUL-terminated key (NULL: FJ_ERR_INVALID_ARG). */
FJ_API fj_error fj_object_find(fj_object *o, const char *key, fj_value *value);

/** Counts the fields of the object, like fj_array_count(): from the
 *  object's start, without moving the cursor or the iteration, so it also
 *  works after the cursor has left the object. Each field's key, colon and
 *  comma, its value's first byte and a container value's own bracket pair
 *  are checked on the way (what lies inside the values is only
 *  bracket-matched).
 *  @return as fj_array_count(), and FJ_ERR_EXPECTED_KEY (`{1:2}`,
 *          `{"a":1,}`) and FJ_ERR_EXPECTED_COLON (`{"a" 1}`). */
FJ_API fj_error fj_object_count(fj_object *o, size_t *count);

/* ---- JSON Pointer ---------------------------------------------------------- */

/** Resolves a JSON Pointer (RFC 6901) of `len` bytes relative to `v`: ""
 *  is `v` itself, "/a/0" the first element of field "a"; `~0` stands for `~`
 *  and `~1` for `/`; array indexes are decimal without leading zeros. On the
 *  root value the cursor is rewound first, so any number of pointers can be
 *  resolved on one document; on other values `v` must be the cursor's current
 *  value. The cursor stays at the value found: to enter the root itself
 *  again afterwards (fj_value_get_array(), fj_value_get_object() on it),
 *  call fj_parser_rewind() first, or the root is no longer the current
 *  value (FJ_ERR_OUT_OF_ORDER). Tokens are taken in order, each checked (escapes, index syntax)
 *  just before it is applied: the first that fails gives the error, so
 *  "/x/~2" without a field x is FJ_ERR_NO_SUCH_FIELD, and "/a/~2" with a
 *  scalar at "/a" is FJ_ERR_BAD_POINTER.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (`v` or `out` NULL, a zeroed `*v`, or
 *          `ptr` NULL with `len` > 0); FJ_ERR_BAD_POINTER (no leading '/',
 *          bad `~` escape, bad index); FJ_ERR_NO_SUCH_FIELD; FJ_ERR_INDEX_RANGE (including "-");
 *          FJ_ERR_WRONG_TYPE (a token applied to a scalar); FJ_ERR_NOMEM;
 *          the errors of the cursor calls. */
FJ_API fj_error fj_value_at_pointern(const fj_value *v, const char *ptr, size_t len, fj_value *out);

/** fj_value_at_pointern() for a NUL-terminated pointer (NULL:
 *  FJ_ERR_INVALID_ARG; "" is `v` itself). */
FJ_API fj_error fj_value_at_pointer(const fj_value *v, const char *ptr, fj_value *out);

/* ---- inline fast paths ----------------------------------------------------
 * Not API. The hottest calls (stepping through arrays and objects, reading
 * numbers, strings and literals) are macros for inline functions that do the
 * common case in the caller's code, where the cursor's state stays in
 * registers, and call the exported function, which checks everything again,
 * for anything else: a stale or zeroed handle, an iteration that is done or
 * not directly inside its container, a container to skip, the end of the
 * index, malformed or unusual text. Each inline path commits nothing before
 * it is sure, so the exported function starts from the same state. Taking the
 * function's address, or writing its name in parentheses, gets the exported
 * function. Define FJ_NO_INLINE before including this header to get only the
 * exported functions.
 * The inline code is C11 and C++11 (FJ__INLINE_CODE_BEGIN: fastjson/error.h). */
FJ__INLINE_CODE_BEGIN

/* The fj_type of a value by its first byte, plus one (0: no value starts so). */
FJ_API extern const uint8_t fj__type_of[256];
/* Whether a byte may follow a number or a literal (or the input ends). */
FJ_API extern const bool fj__delimiter[256];

/* Iteration states (fj_array.state, fj_object.state). */
enum { FJ__ITER_FRESH = 0, FJ__ITER_MIDDLE = 1, FJ__ITER_DONE = 2 };

/* The cursor state of a handle's parser (its first member). */
static inline fj__cursor *fj__cursor_of(fj_parser *p) { return (fj__cursor *)(void *)p; }

/* Whether a handle of `type` may be read in the common case: it is one
 * (NULL and a zeroed handle are FJ_TYPE_NULL), and the cursor is directly
 * inside its parent. The type is tested first: every handle the library
 * writes has its parser, and a handle it has not written (zeroed, or
 * zeroed by a failed call) has type FJ_TYPE_NULL, so for the other types
 * the parser needs no NULL test. */
static inline bool fj__handle_ok(const fj_value *v, fj_type type) {
  return fj_value_type(v) == type && (type != FJ_TYPE_NULL || (v && v->parser)) &&
         v->parent == fj__cursor_of(v->parser)->cur;
}

/* The exported functions, called with copies of the caller's handles and
 * iterations (written back after the call): those then never have their
 * address taken, so the compiler can keep them in registers on the inline
 * paths. (The exported functions write every handle and iteration they are
 * given, failing or not; the copies start zeroed all the same.) NULL stays
 * NULL. Scalar results go to the caller's memory directly. (The object
 * iteration's copy in fj_object_next_key() once measured 2-5 % slower; on
 * Zen 5 it made visit apache_builds.json 6 % faster, twitter.json 2 %.) */
static inline fj_error fj__call_array_next(fj_array *a, fj_value *elem) {
  if (!a || !elem) return (fj_array_next)(a, elem);
  fj_array ta = *a;
  fj_value te;
  memset(&te, 0, sizeof te);
  fj_error err = (fj_array_next)(&ta, &te);
  *a = ta;
  *elem = te;
  return err;
}

/* A getter f(v, args...) with a copy of the handle v. */
#define FJ__CALL_GETTER(f, v, ...)                                                                 \
  do {                                                                                             \
    if (!(v)) return (f)(v, __VA_ARGS__);                                                          \
    fj_value tv_ = *(v);                                                                           \
    return (f)(&tv_, __VA_ARGS__);                                                                 \
  } while (0)

/* A number getter f(v, out) with copies of the handle and of the result
 * (of type T), handed on when it holds one (FJ_OK, or the range error's
 * +-inf), as the exported getters do: the caller's result then never has
 * its address taken and can stay in a register on the inline paths. */
#define FJ__CALL_NUMBER_GETTER(f, v, T, out)                                                       \
  do {                                                                                             \
    if (!(v) || !(out)) return (f)(v, out);                                                        \
    fj_value tv_ = *(v);                                                                           \
    T t_;                                                                                          \
    memset(&t_, 0, sizeof t_);                                                                     \
    const fj_error err_ = (f)(&tv_, &t_);                                                          \
    if (err_ == FJ_OK || err_ == FJ_ERR_NUMBER_RANGE) *(out) = t_;                                 \
    return err_;                                                                                   \
  } while (0)

/* fj_value_get_array() / fj_value_get_object() with copies of the handle
 * and of the iteration it writes. */
#define FJ__CALL_ENTER(f, v, T, out)                                                               \
  do {                                                                                             \
    if (!(v) || !(out)) return (f)(v, out);                                                        \
    fj_value tv_ = *(v);                                                                           \
    T to_;                                                                                         \
    memset(&to_, 0, sizeof to_);                                                                   \
    fj_error err_ = (f)(&tv_, &to_);                                                               \
    *(out) = to_;                                                                                  \
    return err_;                                                                                   \
  } while (0)

/* The common case of an inline path, which the exported function's call
 * follows when it fails (FJ__UNLIKELY: the rare case inside a common path).
 * These paths are compiled into the caller's function, where the placement
 * of their blocks moves a file's time by up to +-4 % while simdjson's stays
 * put (bench/ab/ab.sh -l); the figures since fj__step's marks are means
 * over six layouts. Marked, GCC lays the common cases out as
 * straight-line code and moves the calls away; unmarked, it interleaved
 * them (A/B of the visit walk, Emerald Rapids: instruments.json 6 %,
 * citm_catalog.json 4 %, random.json 7 % faster, no input slower). A step
 * that hands out an element is marked likely against the container's end
 * too (once per container): twitter.json and update-center.json 6 %,
 * instruments.json 5 % faster again, mesh.json 1-2 % slower. Marking the
 * checks inside the common cases (the index's end, the digits' limit)
 * changed nothing. */
#if defined(__GNUC__)
#define FJ__LIKELY(x) __builtin_expect(!!(x), 1)
#define FJ__UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define FJ__LIKELY(x) (x)
#define FJ__UNLIKELY(x) (x)
#endif

/* An empty asm statement in one arm of a branch: GCC and clang then keep
 * the branch instead of turning it into arithmetic (if-conversion). */
#if defined(__GNUC__)
#define FJ__KEEP_BRANCH() __asm__ volatile("")
#else
#define FJ__KEEP_BRANCH() ((void)0)
#endif

/* Moves the cursor after handing out the value at structural pos: past a
 * scalar (`scalar`); onto a container's opening bracket, for
 * fj_value_get_array() / fj_value_get_object() to enter, marked handed out.
 * A predicted branch, not pos + scalar: the next step starts from
 * this position, and as arithmetic it waited for the three dependent loads
 * that found the type (index entry, byte, type table) at every value; the branch
 * lets the next step start at once (visit mesh.json on Zen 5, values not
 * read: 456 -> 319 us). */
static FJ__ALWAYS_INLINE void fj__step_over_if(fj__cursor *c, uint32_t pos, bool scalar) {
  if (scalar) {
    c->pos = pos + 1;
  } else {
    FJ__KEEP_BRANCH();
    c->pos = pos;
    c->handed = pos;
  }
}

/* fj__step_over_if() for a value whose fj__type_of entry is t. */
static inline void fj__step_over(fj__cursor *c, uint32_t pos, unsigned t) {
  fj__step_over_if(c, pos, t <= FJ_TYPE_STRING + 1);
}

/* The type of a value by its first byte, shifted into place for
 * fj_value.meta (type << 24); FJ__NO_VALUE where no value starts so. The
 * inline steps OR it into the handle as it is: no subtract and shift per
 * value, as fj__type_of's entries would need. */
FJ_API extern const uint32_t fj__type_meta[256];
#define FJ__NO_VALUE UINT32_MAX

/* Writes the handle of the value at structural pos (fj__type_meta entry
 * tm) in the entry `serial` at depth `depth`, and steps the cursor over a
 * scalar (one structural); it stays on a container's bracket for
 * get_array/get_object. */
static inline void fj__hand_out(fj_parser *p, fj__cursor *c, uint32_t pos, uint64_t serial,
                                uint32_t depth, uint32_t tm, fj_value *out) {
  fj__step_over_if(c, pos, tm <= (uint32_t)FJ_TYPE_STRING << 24);
  out->parser = p;
  out->parent = serial;
  out->pos = pos;
  out->meta = depth | tm;
}

/* fj__cursor.left for the container whose first structural is start, the
 * cursor standing at `next` after it. */
static inline uint64_t fj__left_word(uint32_t start, uint32_t next) {
  return (uint64_t)start << 32 | next;
}

/* Leaves the container whose brackets are structurals start and pos (never
 * the root, whose end the exported functions check) and ends the iteration. */
static inline fj_error fj__leave(fj__cursor *c, uint32_t start, uint32_t pos, uint32_t *state,
                                 fj_value *out) {
  c->pos = pos + 1;
  c->left = fj__left_word(start, pos + 1);
  c->depth--;
  c->cur = c->open[c->depth];
  *state = FJ__ITER_DONE;
  memset(out, 0, sizeof *out); /* as a failed call leaves it */
  return FJ_END;
}

/* Enters the container v of `type` in the common case: v is the cursor's
 * current value (the cursor stands on its bracket, at its depth) and its
 * children stay within the depth limit. Returns the entry's new serial, or 0
 * having changed nothing. */
static inline uint64_t fj__enter(const fj_value *v, fj_type type) {
  if (!fj__handle_ok(v, type)) return 0;
  fj__cursor *c = fj__cursor_of(v->parser);
  const uint32_t depth = v->meta & 0xFFFFFFu, at = v->pos;
  if (c->pos != at || c->depth != depth || depth + 1 > c->max_depth) return 0;
  const uint64_t serial = ++c->serial;
  c->open[depth + 1] = serial;
  c->cur = serial;
  c->depth = depth + 1;
  c->pos = at + 1;
  c->open_at[depth + 1] = at;
  return serial;
}

/* A fresh iteration of the container v, which fj__enter() entered as entry
 * `serial`: the one layout of fj_array and fj_object. */
#define FJ__FRESH_ITERATION(out, v, serial)                                                        \
  do {                                                                                             \
    const uint32_t at_ = (v)->pos, depth_ = ((v)->meta & 0xFFFFFFu) + 1;                           \
    (out)->parser = (v)->parser;                                                                   \
    (out)->serial = (serial);                                                                      \
    (out)->start = at_;                                                                            \
    (out)->depth = depth_;                                                                         \
    (out)->last = at_; /* as if the bracket were the previous element */                           \
    (out)->state = FJ__ITER_FRESH;                                                                 \
  } while (0)

static FJ__ALWAYS_INLINE fj_error fj__value_get_array_inline(const fj_value *v, fj_array *out) {
  uint64_t serial;
  if (FJ__LIKELY(out && (serial = fj__enter(v, FJ_TYPE_ARRAY)) != 0)) {
    FJ__FRESH_ITERATION(out, v, serial);
    return FJ_OK;
  }
  FJ__CALL_ENTER(fj_value_get_array, v, fj_array, out);
}

static FJ__ALWAYS_INLINE fj_error fj__value_get_object_inline(const fj_value *v, fj_object *out) {
  uint64_t serial;
  if (FJ__LIKELY(out && (serial = fj__enter(v, FJ_TYPE_OBJECT)) != 0)) {
    FJ__FRESH_ITERATION(out, v, serial);
    return FJ_OK;
  }
  FJ__CALL_ENTER(fj_value_get_object, v, fj_object, out);
}

/* The next element starts at structural *pos (0: fall back; 1: an element
 * is there; 2: the container ends there). The cursor is directly inside the
 * iteration, more than 4 structurals before the index ends (an object's
 * step reads 4, an array's 2: one limit for both, a compare with no add),
 * and right after the previous element (at `last`; a fresh iteration's is
 * its bracket): a scalar handed out (the cursor stepped over it) or a
 * container read to its end.
 * Anything else falls back: a container to skip, or an iteration that
 * another copy of it has moved on from, which the exported functions refuse. */
static inline int fj__step(const fj__cursor *c, uint32_t state, uint32_t last, uint8_t close,
                           uint32_t *pos) {
  uint32_t at = c->pos;
  if (at >= c->step_limit) return 0;
  /* The marks lay out the commonest step, a ',' after a scalar, as
   * straight-line code: unmarked, GCC put the check after a container in
   * line and the ',' out of line, three taken jumps per step (visit,
   * averaged over six code layouts: instruments.json 8 %, random.json 4 %,
   * apache_builds.json 3 %, citm_catalog.json 2 % faster, no input slower) */
  if (FJ__UNLIKELY(at != last + 1) && fj__left_word(last, at) != c->left) return 0;
  uint8_t b = c->buf[c->idx[at]];
  if (FJ__LIKELY(state == FJ__ITER_MIDDLE)) {
    if (FJ__LIKELY(b == ',')) {
      *pos = at + 1;
      return 1;
    }
  } else if (state != FJ__ITER_FRESH) {
    return 0;
  } else if (b != close && c->handed != at) { /* handed out: a copy stepped */
    *pos = at;
    return 1;
  }
  *pos = at;
  return b == close ? 2 : 0;
}

static FJ__ALWAYS_INLINE fj_error fj__array_next_inline(fj_array *a, fj_value *elem) {
  fj_parser *p = a ? a->parser : NULL;
  if (FJ__LIKELY(p && elem && fj__cursor_of(p)->cur == a->serial)) {
    fj__cursor *c = fj__cursor_of(p);
    uint32_t pos;
    int r = fj__step(c, a->state, a->last, ']', &pos);
    uint32_t tm;
    if (FJ__LIKELY(r == 1 && (tm = fj__type_meta[c->buf[c->idx[pos]]]) != FJ__NO_VALUE)) {
      a->state = FJ__ITER_MIDDLE;
      a->last = pos;
      fj__hand_out(p, c, pos, a->serial, a->depth, tm, elem);
      return FJ_OK;
    }
    if (r == 2 && a->depth > 1) return fj__leave(c, a->start, pos, &a->state, elem);
  }
  return fj__call_array_next(a, elem);
}

/* Whether the n bytes at s (a string's contents) hold no backslash, decided
 * inline for up to 64 bytes, 8 at a time: whole words inside the string,
 * and for fewer than 8 bytes one word that may reach past the string (the
 * closing quote and what follows it) while `room` bytes are readable.
 * Returns false when it cannot tell; the exported function then decides. */
static FJ__ALWAYS_INLINE bool fj__no_backslash(const uint8_t *s, size_t n, size_t room) {
  const uint64_t ones = 0x0101010101010101u, bs = 0x5C5C5C5C5C5C5C5Cu;
  uint64_t w, x, hits = 0;
  if (n >= 8) {
    if (n > 64) return false;
    for (size_t i = 0; i + 8 < n; i += 8) {
      memcpy(&w, s + i, 8);
      x = w ^ bs;
      hits |= (x - ones) & ~x;
    }
    memcpy(&w, s + n - 8, 8);
    x = w ^ bs;
    hits |= (x - ones) & ~x;
    return !(hits & ones << 7);
  }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (room < 8) return false;
  memcpy(&w, s, 8); /* the first n bytes are the low ones */
  x = w ^ bs;
  hits = (x - ones) & ~x & ones << 7;
  /* a borrow only runs from a backslash upward, so a hit in the first n
   * bytes is a backslash there */
  return !(hits & ((ones << 8 * n) - ones));
#else
  (void)room;
  return false;
#endif
}

/* Whether bytes b0 to b1 (b1 >= b0 + 8) of a block map (stage 1's
 * backslash or \u block bytes) are all 0 (string.c). */
FJ_API bool fj__blocks_zero_long(const uint8_t *map, size_t b0, size_t b1);

/* Whether bytes b0 to b1 (b0 <= b1) of a block map are all 0. Up to 8
 * bytes in one load (the map has 8 bytes of zeroed slack after the
 * document's blocks), the bytes past b1 shifted out; longer spans out of
 * line (inline, a loop over the bytes slowed visit by 15-20%, even for
 * strings that never took it). */
static FJ__ALWAYS_INLINE bool fj__blocks_zero(const uint8_t *map, size_t b0, size_t b1) {
  const size_t n = b1 - b0;
  if (n < 8) {
    uint64_t w;
    memcpy(&w, map + b0, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return (w >> (56 - 8 * n)) == 0; /* byte b0 is the highest */
#else
    return (w << (56 - 8 * n)) == 0; /* byte b0 is the lowest */
#endif
  }
  return fj__blocks_zero_long(map, b0, b1);
}

/* Whether stage 1 saw no backslash in the 64-byte blocks that hold the
 * bytes from s to last (both in the document). False when it cannot tell:
 * no block bytes. */
static FJ__ALWAYS_INLINE bool fj__blocks_clean(const fj__cursor *c, const uint8_t *s,
                                               const uint8_t *last) {
  if (!c->bs_blocks) return false;
  return fj__blocks_zero(c->bs_blocks, (size_t)(s - c->bs_base) >> 6,
                         (size_t)(last - c->bs_base) >> 6);
}

/* Sets c->clean_lo and c->clean_hi to the run of blocks without a
 * backslash from the block that holds s (which has none) up to the next
 * block with one, or the end of the document (cursor.c). */
FJ_API void fj__clean_window(fj__cursor *c, const uint8_t *s);

/* The last '"' at or before q: the closing quote of a string followed by
 * whitespace up to q (an indented closing bracket: a newline and the
 * indentation), found 8 bytes a step back from q while they lie in the
 * document (from `start` on; bytes before the string are as good as its
 * own: the whitespace after the closing quote has no '"'). No branch on
 * the whitespace's length, which a loop over the bytes mispredicts
 * wherever indentation varies (visit of a synthetic array of objects
 * indented 0 to 16 spaces: fastjson/simdjson 0.49 -> 0.6). The exact
 * per-byte equality (no borrow between bytes) gives the highest quote. */
static FJ__ALWAYS_INLINE const uint8_t *fj__quote_before(const uint8_t *start, const uint8_t *q) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  const uint64_t low7 = UINT64_C(0x7F7F7F7F7F7F7F7F), quotes = UINT64_C(0x2222222222222222);
  while (q - start >= 7) {
    uint64_t w;
    memcpy(&w, q - 7, 8);
    const uint64_t x = w ^ quotes;                          /* 0 where a byte is '"' */
    const uint64_t hit = ~(((x & low7) + low7) | x | low7); /* top bit of those bytes */
    if (hit) return q - 7 + ((63 - __builtin_clzll(hit)) >> 3);
    q -= 8;
  }
#else
  (void)start;
#endif
  while (*q != '"')
    q--;
  return q;
}

/* The contents of the string whose opening quote is at `open` and whose
 * closing quote comes before `next` (the next structural's byte, or the
 * input's end) with only whitespace between: true with them, if they hold
 * no escape. Always inline: gcc kept it out of line in a walk that reads
 * keys and strings, and the call spilled the key step's registers around
 * it (callgrind, visit walk: citm 16.5 -> 14.5 M instructions). */
static FJ__ALWAYS_INLINE bool fj__plain_string_before(fj__cursor *c, const uint8_t *open,
                                                      const uint8_t *next, const char **s,
                                                      size_t *len) {
  const uint8_t *q = next - 1;
  if (*open != '"') return false;
  if (*q != '"' && *--q != '"') /* whitespace: one byte, else more */
    q = fj__quote_before(c->buf, q);
  size_t n = (size_t)(q - open - 1);
  if (c->backslashes && !(open >= c->clean_lo && q < c->clean_hi)) {
    if (fj__blocks_clean(c, open, q))
      fj__clean_window(c, open); /* once per run of clean blocks */
    else if (!fj__no_backslash(open + 1, n, (size_t)(c->buf + c->len - open - 1)))
      return false;
  }
  *s = (const char *)open + 1;
  *len = n;
  return true;
}

/* fj__plain_string_before() for the string at structural pos. */
static inline bool fj__plain_string(fj__cursor *c, uint32_t pos, const char **s, size_t *len) {
  const uint8_t *next = pos + 1 < c->n ? c->buf + c->idx[pos + 1] : c->buf + c->len;
  return fj__plain_string_before(c, c->buf + c->idx[pos], next, s, len);
}

static FJ__ALWAYS_INLINE fj_error fj__object_next_key_inline(fj_object *o, const char **key,
                                                             size_t *key_len, fj_value *value) {
  fj_parser *p = o ? o->parser : NULL;
  if (FJ__LIKELY(p && key && key_len && value && fj__cursor_of(p)->cur == o->serial)) {
    fj__cursor *c = fj__cursor_of(p);
    uint32_t pos;
    int r = fj__step(c, o->state, o->last, '}', &pos);
    uint32_t tm;
    const uint8_t *colon;
    /* the key's closing quote is found from its ':' (pos + 1 < c->n) */
    if (FJ__LIKELY(r == 1 && *(colon = c->buf + c->idx[pos + 1]) == ':' &&
                   (tm = fj__type_meta[c->buf[c->idx[pos + 2]]]) != FJ__NO_VALUE &&
                   fj__plain_string_before(c, c->buf + c->idx[pos], colon, key, key_len))) {
      o->state = FJ__ITER_MIDDLE;
      o->last = pos + 2;
      fj__hand_out(p, c, pos + 2, o->serial, o->depth, tm, value);
      return FJ_OK;
    }
    if (r == 2 && o->depth > 1) {
      *key = NULL;
      *key_len = 0;
      return fj__leave(c, o->start, pos, &o->state, value);
    }
  }
  if (!key || !key_len) return (fj_object_next_key)(o, key, key_len, value);
  const char *tk = NULL; /* the call writes both, failing or not */
  size_t tn = 0;
  if (!o || !value) {
    const fj_error err = (fj_object_next_key)(o, &tk, &tn, value);
    *key = tk;
    *key_len = tn;
    return err;
  }
  fj_object to = *o;
  fj_value tv;
  memset(&tv, 0, sizeof tv);
  const fj_error err = (fj_object_next_key)(&to, &tk, &tn, &tv);
  *o = to;
  *value = tv;
  *key = tk;
  *key_len = tn;
  return err;
}

static FJ__ALWAYS_INLINE fj_error fj__value_get_string_inline(const fj_value *v, const char **s,
                                                              size_t *len) {
  if (FJ__LIKELY(fj__handle_ok(v, FJ_TYPE_STRING) && s && len &&
                 fj__plain_string(fj__cursor_of(v->parser), v->pos, s, len)))
    return FJ_OK;
  if (!v || !s || !len) return (fj_value_get_string)(v, s, len);
  /* copies both ways, so that the caller's string and length stay in
   * registers (they are read at once); the call writes both, failing or
   * not */
  fj_value tv = *v;
  const char *ts = NULL;
  size_t tn = 0;
  const fj_error err = (fj_value_get_string)(&tv, &ts, &tn);
  *s = ts;
  *len = tn;
  return err;
}

/* Nonzero where the 8 bytes (loaded little-endian) are not all ASCII
 * digits; then the lowest set bit is the top bit of the first non-digit
 * byte. With x = bytes - '0', a byte is a digit when x < 10, that is when
 * neither x nor x + 0x76 reaches 0x80. Bytes below the first non-digit are
 * digits, so no borrow or carry reaches it; what comes after it may be
 * disturbed, and does not matter. */
static inline uint64_t fj__nondigit_bytes(uint64_t v) {
  uint64_t x = v - UINT64_C(0x3030303030303030);
  return (x | (x + UINT64_C(0x7676767676767676))) & UINT64_C(0x8080808080808080);
}

/* The value of 8 digit values (bytes 0 to 9), first digit in the lowest
 * byte: combine neighbours into 2-, 4-, then 8-digit lanes (no lane ever
 * overflows). */
static inline uint64_t fj__lanes8(uint64_t v) {
  v = (v * 10 + (v >> 8)) & UINT64_C(0x00FF00FF00FF00FF);
  v = (v * 100 + (v >> 16)) & UINT64_C(0x0000FFFF0000FFFF);
  return (v * 10000 + (v >> 32)) & UINT64_C(0xFFFFFFFF);
}

/* The value of 8 ASCII digits, first digit in the lowest byte: combine
 * neighbours into 2-, 4-, then 8-digit lanes (no lane ever overflows). */
static inline uint64_t fj__value8(uint64_t v) {
  return fj__lanes8(v - UINT64_C(0x3030303030303030));
}

/* Whether the 8 bytes at q are all ASCII digits: then true, with their
 * value in *v, from one load (little-endian only: elsewhere false, and the
 * caller reads digit by digit). */
static inline bool fj__eight_digits(const uint8_t *q, uint64_t *v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t w;
  memcpy(&w, q, 8);
  if (fj__nondigit_bytes(w)) return false;
  *v = fj__value8(w);
  return true;
#else
  (void)q;
  (void)v;
  return false;
#endif
}

/* The integer digits at q, 20 bytes of which the input holds (so no digit
 * needs a bounds check): "0", or 1 to 18 digits without a leading zero (no
 * overflow), into *out; returns where they end, or NULL if q is no digit.
 * After the first digit, 8 more at once when there are (ids, timestamps: a
 * digit at a time, each waited for the multiplication before, 4 cycles a
 * digit). */
static FJ__ALWAYS_INLINE const uint8_t *fj__integer_digits(const uint8_t *q, uint64_t *out) {
  uint64_t m = (uint64_t)(*q - '0');
  if (m > 9) return NULL;
  q++;
  if (m) {
    uint64_t v8;
    int more = 17;
    /* q[7] a digit first: most numbers are shorter, and skip the test */
    if ((unsigned)(q[7] - '0') < 10u && fj__eight_digits(q, &v8)) {
      m = m * 100000000 + v8;
      q += 8;
      more = 9;
    }
    /* 64-bit digit values: no sign extension per digit */
    for (uint64_t i = 0, d; i < (uint64_t)more && (d = (uint64_t)*q - '0') < 10; i++, q++)
      m = m * 10 + d;
  }
  *out = m;
  return q;
}

/* The start of the common number at s: '-'?, then fj__integer_digits()
 * with 20 bytes readable from the first digit. Returns where the digits
 * end (NULL: not that shape), with their value in *m; *neg: the '-'. */
static FJ__ALWAYS_INLINE const uint8_t *fj__lead_digits(const fj__cursor *c, const uint8_t *s,
                                                        bool *neg, uint64_t *m) {
  *neg = *s == '-';
  const uint8_t *q = s + *neg;
  return (uintptr_t)q > c->digits_limit ? NULL : fj__integer_digits(q, m);
}

/* The common integer: fj__lead_digits(), then a delimiter. */
static FJ__ALWAYS_INLINE bool fj__short_integer(const fj__cursor *c, const uint8_t *s,
                                                int64_t *out) {
  bool neg;
  uint64_t m;
  const uint8_t *q = fj__lead_digits(c, s, &neg, &m);
  if (!q || !fj__delimiter[*q]) return false;
  *out = neg ? -(int64_t)m : (int64_t)m;
  return true;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&                        \
    defined(__FLT_EVAL_METHOD__) && __FLT_EVAL_METHOD__ == 0
#define FJ__INLINE_DECIMAL 1 /* digits from 8-byte loads; doubles rounded as doubles */
#else
#define FJ__INLINE_DECIMAL 0
#endif

#if FJ__INLINE_DECIMAL
FJ_API extern const uint64_t fj__pow10_u64[8];  /* 10^0 .. 10^7 */
FJ_API extern const double fj__pow10_exact[23]; /* 10^0 .. 10^22, each exact */

/* The fraction's digits 17 to 19 after "0." and 16 digits (c1, c2): the
 * k digits of the 8 bytes at f + 16 (k <= 3, so that w < 10^19 < 2^64),
 * when end leaves them readable. Returns 16 + k with w, or 0. */
static FJ__ALWAYS_INLINE unsigned fj__fraction_tail(const uint8_t *f, const uint8_t *end,
                                                    uint64_t c1, uint64_t c2, uint64_t *wp) {
  if (end - f < 24) return 0;
  uint64_t c3;
  memcpy(&c3, f + 16, 8);
  const unsigned k = (unsigned)__builtin_ctzll(fj__nondigit_bytes(c3) | (UINT64_C(1) << 63)) >> 3;
  if (k > 3) return 0;
  const uint64_t padded = ((c3 << (63 - 8 * k)) << 1) | (UINT64_C(0x3030303030303030) >> (8 * k));
  *wp = (fj__value8(c1) * 100000000 + fj__value8(c2)) * fj__pow10_u64[k] + fj__value8(padded);
  return 16 + k;
}

/* The fraction of the common decimal: 1 to 15 digits at f (16 to 19 after
 * "0.", w = 0), then a byte that is not a digit, from 8-byte loads (16
 * readable bytes at f, more checked against end). Appends the digits to
 * *wp, scaled: w * 10^e + their value * 10^(e - n), with *ep = e the
 * decimal places of the result (no overflow while w has at most 3 digits),
 * and returns their count n; 0 for no digit or too many (*wp and *ep are
 * then unchanged). e is n for 1 or 2 digits and 16 to 19; 3 to 7 digits
 * get e = 7, 8 to 15 get e = 15: the digits of the last word are taken in
 * place, the bytes from the first non-digit on zeroed, so that no shift by
 * the digit count and no power of ten from a table stand between the loads
 * and the value (the digit count only finds the delimiter). */
static FJ__ALWAYS_INLINE unsigned fj__fraction_digits(const uint8_t *f, const uint8_t *end,
                                                      uint64_t *wp, unsigned *ep) {
  const uint64_t zeros = UINT64_C(0x3030303030303030);
  uint64_t c1, c2, w = *wp;
  memcpy(&c1, f, 8);
  memcpy(&c2, f + 8, 8);
  const uint64_t b1 = fj__nondigit_bytes(c1);
  unsigned n;
  /* The lowest set bit of b1 or b2 is bit 7 of the first non-digit byte:
   * ((b & -b) >> 7) - 1 keeps the bytes below it, the digits. With at most
   * 7 digits the top byte is zeroed, and the word moved up a byte has the
   * digits' value times 10^(7 - n) in 8 lanes. */
  if (b1) { /* 0 to 7 */
    n = (unsigned)__builtin_ctzll(b1) >> 3;
    if (!n) return 0; /* "1." */
    if (n <= 2) {     /* prices, halves: a shorter chain than combining lanes */
      const uint64_t d0 = c1 & 0xF, d1 = (c1 >> 8) & 0xF;
      w = n == 2 ? w * 100 + d0 * 10 + d1 : w * 10 + d0;
      *ep = n;
    } else {
      const uint64_t x1 = (c1 - zeros) & (((b1 & (0 - b1)) >> 7) - 1);
      w = w * 10000000 + fj__lanes8(x1 << 8);
      *ep = 7;
    }
  } else { /* 8 to 15 */
    const uint64_t b2 = fj__nondigit_bytes(c2);
    if (!b2) { /* 16 or more */
      if (w) return 0;
      n = fj__fraction_tail(f, end, c1, c2, wp);
      *ep = n;
      return n;
    }
    const uint64_t x2 = (c2 - zeros) & (((b2 & (0 - b2)) >> 7) - 1);
    w = (w * 100000000 + fj__value8(c1)) * 10000000 + fj__lanes8(x2 << 8);
    n = 8 + ((unsigned)__builtin_ctzll(b2) >> 3);
    *ep = 15;
  }
  *wp = w;
  return n;
}

#if defined(__SIZEOF_INT128__)
/* The high 64 bits of 5^-n normalised to [2^63, 2^64), truncated, for n in
 * 8..19 (index n - 8): number.c's fj__pow5_128 entries for q = -8..-19. */
FJ_API extern const uint64_t fj__pow5_frac_hi[12];

/* The bits of the double nearest to w / 10^n for 2^53 < w < 10^19 and n in
 * 8..19 (a long fraction: too many digits for one exact division), or 0
 * when this narrowed Eisel-Lemire step cannot decide. Such w and n give a
 * normal double far from overflow. The product's high half decides unless
 * a carry from below could reach the round bit (its low 9 bits all ones)
 * or the tail is zero as far as computed (a possible tie); otherwise
 * rounding to nearest is adding the round bit. */
static FJ__ALWAYS_INLINE uint64_t fj__long_decimal_bits(uint64_t w, unsigned n) {
  __extension__ typedef unsigned __int128 u128;
  const int lz = __builtin_clzll(w);
  const u128 prod = (u128)(w << lz) * fj__pow5_frac_hi[n - 8];
  const uint64_t hi = (uint64_t)(prod >> 64), mid = (uint64_t)prod;
  if ((hi & 0x1FF) == 0x1FF || ((hi & 0x1FF) == 0 && mid == 0)) return 0;
  const uint64_t upper = hi >> 63;
  /* 53 bits and the round bit; a shift by a count, not a branch on the
   * product's top bit, which is as good as random */
  const uint64_t m = hi >> (9 + upper);
  /* floor(-n * log2(10)) + the product's top bit: the biased exponent */
  const int64_t be = ((-(int64_t)n * 217706) >> 16) + 63 + (int64_t)upper - lz + 1023;
  return ((uint64_t)(be - 1) << 52) + ((m + 1) >> 1);
}
#else
static FJ__ALWAYS_INLINE uint64_t fj__long_decimal_bits(uint64_t w, unsigned n) {
  (void)w, (void)n;
  return 0;
}
#endif

/* The common decimal: '-'?, 1 to 3 integer digits (no leading zero but
 * "0"), '.', 1 to 15 fraction digits (19 after "0."), a delimiter; q is the
 * byte after the integer digits, which start at `digits`, with value m, and
 * 20 bytes are readable from `digits`, the document ending at end. True with
 * the nearest double in *out. Short fractions take one exact division
 * (Clinger: w <= 2^53), long ones the narrowed Eisel-Lemire step. False
 * decides nothing. */
static FJ__ALWAYS_INLINE bool fj__short_decimal(const uint8_t *digits, const uint8_t *q,
                                                const uint8_t *end, uint64_t m, bool neg,
                                                double *out) {
  if (*q != '.' || q - digits > 3) return false;
  unsigned e;
  const unsigned n = fj__fraction_digits(q + 1, end, &m, &e);
  if (!n || !fj__delimiter[q[1 + n]]) return false; /* an exponent, or bad text */
  uint64_t bits;
  if (m <= (UINT64_C(1) << 53)) {
    const double d = (double)m / fj__pow10_exact[e];
    memcpy(&bits, &d, sizeof bits);
  } else if ((bits = e == 15 ? fj__long_decimal_bits(m, 15) /* constants folded */
                             : fj__long_decimal_bits(m, e)) == 0) {
    return false;
  }
  bits |= (uint64_t)neg << 63; /* no branch on the sign */
  memcpy(out, &bits, sizeof bits);
  return true;
}
#endif

/* fj__short_integer() for fj_value_get_number(), which also takes the
 * common decimal (fj__short_decimal) from where the integer digits end. */
static FJ__ALWAYS_INLINE bool fj__short_number(const fj__cursor *c, const uint8_t *s,
                                               fj_number *out) {
  bool neg;
  uint64_t m;
  const uint8_t *q = fj__lead_digits(c, s, &neg, &m);
  if (!q) return false;
  /* marked: GCC put the integer out of line, two taken jumps per integer
   * (visit, averaged over six code layouts: citm_catalog.json 2 %,
   * instruments.json 2 % faster; marine_ik.json and numbers.json, mostly
   * decimals, 3 % and 2 % faster too, no input slower) */
  if (FJ__LIKELY(fj__delimiter[*q])) {
    out->kind = FJ_NUMBER_INT64;
    out->i = neg ? -(int64_t)m : (int64_t)m;
    return true;
  }
#if FJ__INLINE_DECIMAL
  if (fj__short_decimal(s + neg, q, c->buf + c->len, m, neg, &out->d)) {
    out->kind = FJ_NUMBER_DOUBLE;
    return true;
  }
#endif
  return false;
}

/* fj__short_number() for fj_value_get_double(): the integer (at most 18
 * digits) converted to the nearest double by the int-to-double conversion
 * (correctly rounded: round-half-to-even), its sign set apart so that -0
 * gives -0.0; or the common decimal. */
static FJ__ALWAYS_INLINE bool fj__short_double(const fj__cursor *c, const uint8_t *s, double *out) {
#if FJ__INLINE_DECIMAL
  bool neg;
  uint64_t m, bits;
  const uint8_t *q = fj__lead_digits(c, s, &neg, &m);
  if (!q) return false;
  if (fj__delimiter[*q]) {
    const double d = (double)m;
    memcpy(&bits, &d, sizeof bits);
    bits |= (uint64_t)neg << 63;
    memcpy(out, &bits, sizeof bits);
    return true;
  }
  return fj__short_decimal(s + neg, q, c->buf + c->len, m, neg, out);
#else
  (void)c, (void)s, (void)out;
  return false;
#endif
}

/* The number whose text starts at s, in the document ending at end, when
 * it is well-formed, followed by a delimiter (not the end: the exported
 * getters tell a number cut off by the end of the input), and within the
 * fast path of the conversion (up to 19 significant digits, a double that
 * converts without the exact fallback, no range error): true with *out.
 * False decides nothing (number.c). */
FJ_API bool fj__number_fast(const uint8_t *s, const uint8_t *end, fj_number *out);

static FJ__ALWAYS_INLINE fj_error fj__value_get_number_inline(const fj_value *v, fj_number *out) {
  if (FJ__LIKELY(fj__handle_ok(v, FJ_TYPE_NUMBER) && out)) {
    const fj__cursor *c = fj__cursor_of(v->parser);
    const uint8_t *s = c->buf + c->idx[v->pos];
    if (FJ__LIKELY(fj__short_number(c, s, out))) return FJ_OK;
    /* the calls fill a copy, handed on when it holds a result, so that
     * the caller's result never has its address taken and can stay in
     * registers on the inline paths; *out, which the caller need not have
     * set, is never read */
    fj_number t;
    if (fj__number_fast(s, c->buf + c->len, &t)) {
      *out = t;
      return FJ_OK;
    }
  }
  FJ__CALL_NUMBER_GETTER(fj_value_get_number, v, fj_number, out);
}

/* fj_value_get_double(): the short forms inline, then fj__number_fast()
 * for a double (its integers go to the exported function, which keeps
 * -0's sign). */
static FJ__ALWAYS_INLINE fj_error fj__value_get_double_inline(const fj_value *v, double *out) {
  if (FJ__LIKELY(fj__handle_ok(v, FJ_TYPE_NUMBER) && out)) {
    const fj__cursor *c = fj__cursor_of(v->parser);
    const uint8_t *s = c->buf + c->idx[v->pos];
    if (FJ__LIKELY(fj__short_double(c, s, out))) return FJ_OK;
    fj_number t; /* a copy, as in fj__value_get_number_inline() */
    if (fj__number_fast(s, c->buf + c->len, &t) && t.kind == FJ_NUMBER_DOUBLE) {
      *out = t.d;
      return FJ_OK;
    }
  }
  FJ__CALL_NUMBER_GETTER(fj_value_get_double, v, double, out);
}

static FJ__ALWAYS_INLINE fj_error fj__value_get_int64_inline(const fj_value *v, int64_t *out) {
  if (FJ__LIKELY(fj__handle_ok(v, FJ_TYPE_NUMBER) && out)) {
    const fj__cursor *c = fj__cursor_of(v->parser);
    if (FJ__LIKELY(fj__short_integer(c, c->buf + c->idx[v->pos], out))) return FJ_OK;
  }
  FJ__CALL_GETTER(fj_value_get_int64, v, out);
}

/* Whether the literal `word` (n bytes) followed by a delimiter or the end of
 * the input stands at structural pos. */
static inline bool fj__literal(const fj__cursor *c, uint32_t pos, const char *word, size_t n) {
  size_t at = c->idx[pos];
  return c->len - at >= n && memcmp(c->buf + at, word, n) == 0 &&
         (at + n == c->len || fj__delimiter[c->buf[at + n]]);
}

static FJ__ALWAYS_INLINE fj_error fj__value_get_bool_inline(const fj_value *v, bool *out) {
  if (FJ__LIKELY(fj__handle_ok(v, FJ_TYPE_BOOL) && out)) {
    const fj__cursor *c = fj__cursor_of(v->parser);
    bool t = c->buf[c->idx[v->pos]] == 't';
    if (FJ__LIKELY(t ? fj__literal(c, v->pos, "true", 4) : fj__literal(c, v->pos, "false", 5))) {
      *out = t;
      return FJ_OK;
    }
  }
  FJ__CALL_GETTER(fj_value_get_bool, v, out);
}

static FJ__ALWAYS_INLINE fj_error fj__value_is_null_inline(const fj_value *v, bool *out) {
  if (FJ__LIKELY(fj__handle_ok(v, FJ_TYPE_NULL) && out &&
                 fj__literal(fj__cursor_of(v->parser), v->pos, "null", 4))) {
    *out = true;
    return FJ_OK;
  }
  FJ__CALL_GETTER(fj_value_is_null, v, out);
}

#ifndef FJ_NO_INLINE
#define fj_value_get_array(v, out) fj__value_get_array_inline(v, out)
#define fj_value_get_object(v, out) fj__value_get_object_inline(v, out)
#define fj_array_next(a, elem) fj__array_next_inline(a, elem)
#define fj_object_next_key(o, key, key_len, value)                                                 \
  fj__object_next_key_inline(o, key, key_len, value)
#define fj_value_get_string(v, s, len) fj__value_get_string_inline(v, s, len)
#define fj_value_get_number(v, out) fj__value_get_number_inline(v, out)
#define fj_value_get_int64(v, out) fj__value_get_int64_inline(v, out)
#define fj_value_get_double(v, out) fj__value_get_double_inline(v, out)
#define fj_value_get_bool(v, out) fj__value_get_bool_inline(v, out)
#define fj_value_is_null(v, out) fj__value_is_null_inline(v, out)
#endif

FJ__INLINE_CODE_END

#ifdef __cplusplus
}
#endif
#endif
