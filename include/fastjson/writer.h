/* libfastjson — the streaming writer: events in, JSON text (RFC 8259) out.
 *
 * Call begin/end for arrays and objects, fj_writer_key() before each object
 * member, and one call per scalar value; the writer places commas, colons
 * and (when pretty) newlines and indentation. Misuse is refused with an
 * error and writes nothing, so the output is never broken JSON: a value
 * where a key is due, a key where a value is due, an end that matches no
 * begin, a second root value, finishing an incomplete document. The
 * exceptions are what the writer takes on the caller's word: the bytes of
 * fj_writer_raw(), copied unchecked, the pre-quoted keys of the
 * fj_writer_qkey*() and fj_writer_qmember_*() calls (their quotes and colon
 * are not checked, and in compact output neither is the name), and, with
 * FJ_WRITE_NO_VALIDATE_UTF8, that strings and keys are UTF-8. A refused call
 * leaves the writer as it was, ready for another try (another value, or
 * giving up): the error is reported by that call only, not again by
 * fj_writer_finish(), so check every call's result (a document is complete
 * when every call returned FJ_OK, the last of them fj_writer_finish():
 * without it, the output may lack the end of the document and stay unflushed
 * in the writer). Sink errors are the exception: they stick (below).
 *
 *   fj_buffer out = {0};          // C++: fj_buffer out{};
 *   fj_writer *w;
 *   fj_writer_new(&w, NULL, fj_sink_buffer(&out));
 *   fj_writer_begin_object(w);    // each call returns an fj_error: check
 *                                 // them all (left out here for brevity)
 *   fj_writer_key(w, "pi");
 *   fj_writer_double(w, 3.14159);
 *   fj_writer_end_object(w);
 *   fj_writer_finish(w);          // FJ_OK: out.data = {"pi":3.14159}, NUL-terminated
 *   fj_writer_free(w);
 *
 * Numbers: integers exactly; doubles as the shortest decimal that reads
 * back to the same double (Schubfach: R. Giulietti, "The Schubfach way to
 * render doubles", 2020), JavaScript's choice of notation — fixed when the
 * decimal exponent x of d.ddd * 10^x is in [-6, 21), else d.ddde[-]x — but
 * an integral value in fixed notation keeps ".0" ("1.0", "-0.0", "1e21",
 * "1.5e-7").
 * Strings: escaped per RFC 8259 section 7 (\" \\ \b \f \n \r \t, \u00xx for
 * the other control characters, lower-case hex).
 *
 * A writer is not thread-safe; distinct writers are independent. */
#ifndef FASTJSON_WRITER_H
#define FASTJSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fastjson/error.h"
#include "fastjson/parser.h"
#include "fastjson/sink.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Writer option bits (fj_writer_options.flags). */
enum fj_write_flags {
  /** One member or element per line, indented, `": "` after keys, `[]`/`{}`
   *  for empty containers, a final newline (as fj_pretty()). */
  FJ_WRITE_PRETTY = 1u << 0,
  /** With FJ_WRITE_PRETTY: indent with tabs instead of spaces. */
  FJ_WRITE_TABS = 1u << 1,
  /** Write every non-ASCII character as `\\uxxxx` (a UTF-16 surrogate pair
   *  beyond U+FFFF), so the output is pure ASCII. Implies UTF-8 validation. */
  FJ_WRITE_ESCAPE_UNICODE = 1u << 2,
  /** Write '/' as `"\/"` (for embedding in an HTML `<script>` element). */
  FJ_WRITE_ESCAPE_SLASH = 1u << 3,
  /** Do not check that strings and keys are UTF-8 (RFC 3629); their bytes
   *  are copied as they are. Ignored with FJ_WRITE_ESCAPE_UNICODE. */
  FJ_WRITE_NO_VALIDATE_UTF8 = 1u << 4,
  /** Replace each invalid UTF-8 sequence (its maximal subpart, as Unicode
   *  section 3.9 recommends) by U+FFFD instead of failing with FJ_ERR_UTF8.
   *  Nothing is replaced with FJ_WRITE_NO_VALIDATE_UTF8, which copies the
   *  bytes unchecked (unless FJ_WRITE_ESCAPE_UNICODE overrides it). */
  FJ_WRITE_REPLACE_INVALID_UTF8 = 1u << 5,
  /** Write NaN and infinities as `null` instead of failing with
   *  FJ_ERR_NUMBER_RANGE. */
  FJ_WRITE_NONFINITE_AS_NULL = 1u << 6
};

/** Options for fj_writer_new(). Zero-initialise (`= {0}` in C, `{}` in C++,
 *  where `{0}` draws -Wmissing-field-initializers), then set what you need:
 *  zero means the default (compact output, UTF-8 checked). */
typedef struct fj_writer_options {
  /** FJ_WRITE_* bits. */
  uint32_t flags;
  /** With FJ_WRITE_PRETTY: spaces (or tabs) per level, at most 16;
   *  0 means 2 spaces (or 1 tab). */
  uint32_t indent;
  /** Deepest nesting of arrays and objects, at most 1 << 20
   *  (0: FJ_DEFAULT_MAX_DEPTH). The writer keeps one byte per level
   *  (allocated by fj_writer_new()). */
  uint32_t max_depth;
  /** Allocation hooks; NULL means malloc/realloc/free. The structure is
   *  copied; the functions must stay valid for the writer's lifetime. */
  const fj_allocator *allocator;
} fj_writer_options;

/** A writer: the nesting state and an output buffer. Opaque. */
typedef struct fj_writer fj_writer;

/** Most bytes fj_format_double() writes. */
#define FJ_DOUBLE_MAX_CHARS 32

/** Creates a writer for one document (see fj_writer_reset() to reuse it).
 *  Output goes to `sink` (fastjson/sink.h): the buffer sinks are filled
 *  directly; other sinks receive chunks from the writer's own buffer when it
 *  fills and at fj_writer_flush()/fj_writer_finish(). A chunk is at most as
 *  long as that buffer: 64 KiB, or more once an event reserved more room (the
 *  buffer grows to that and keeps its size, also across fj_writer_reset()).
 *  An event reserves the most it could write, not what it writes: room for
 *  its separator (in pretty output 2 + depth * indent bytes for its line's
 *  start, depth as fj_writer_depth() gives it) plus up to 32 KiB for
 *  fj_writer_raw(), 6 * len + 36 for a string or key of len bytes up to 4 KiB
 *  (longer ones go in 4 KiB pieces: about 24 KiB each), at most 32 for the
 *  others. So chunks exceed 64 KiB only in pretty output at depth * indent >
 *  32,766 (depth 2048 and deeper at indent 16); only then does the writer's
 *  buffer grow, and an event can fail with FJ_ERR_NOMEM if it cannot.
 *  @param out   receives the writer; free it with fj_writer_free().
 *  @param opts  options, or NULL for the defaults.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG if `out` or `sink.write` is NULL,
 *          `sink` is fj_sink_buffer() or fj_sink_file() of NULL,
 *          fj_sink_fixed() of NULL or of a buffer that
 *          fj_fixed_buffer says is refused, an allocator function is NULL,
 *          indent > 16, max_depth > 1 << 20, or `flags` has a bit that is
 *          no FJ_WRITE_* flag (*out is then NULL); FJ_ERR_NOMEM. */
FJ_API fj_error fj_writer_new(fj_writer **out, const fj_writer_options *opts, fj_sink sink);

/** Starts a new document on `sink`, keeping the options and memory. Output
 *  still buffered for the previous sink is dropped (finish first).
 *  @return FJ_OK; FJ_ERR_INVALID_ARG if `w` or `sink.write` is NULL, or
 *          `sink` is one fj_writer_new() refuses (the writer then
 *          goes on unchanged, on its previous sink). */
FJ_API fj_error fj_writer_reset(fj_writer *w, fj_sink sink);

/** Frees the writer (not the sink's buffer). Output not yet flushed is lost.
 *  NULL is ignored. */
FJ_API void fj_writer_free(fj_writer *w);

/* Events. Each returns FJ_OK or one of:
 *  - FJ_ERR_EXPECTED_KEY: a value (or begin) inside an object where a key is due;
 *  - FJ_ERR_EXPECTED_VALUE: a key where a value is due (in an array, at the
 *    root, or right after a key), an end right after a key, or an end
 *    before the root value (nothing open to end);
 *  - FJ_ERR_WRONG_TYPE: fj_writer_end_array() in an object or
 *    fj_writer_end_object() in an array;
 *  - FJ_ERR_TRAILING_CONTENT: any event after the root value is complete;
 *  - FJ_ERR_INVALID_ARG: `w` is NULL, or a NULL pointer with a length > 0;
 *  (nothing is written and the state is unchanged after those), or
 *  - the sink's error (FJ_ERR_NOMEM for the buffer sink, FJ_ERR_IO for a
 *    stream, your callback's), or FJ_ERR_NOMEM when the writer's own buffer
 *    cannot grow for an event that reserves more than 64 KiB (pretty output
 *    at depth * indent > 32,766, see fj_writer_new(); any sink but
 *    fj_sink_buffer(), whose memory grows instead, and a fixed buffer only
 *    once an event's room exceeds its free room): the output is then
 *    incomplete and every later call that passes the checks above returns
 *    that error again (the checks come first: misuse is reported as misuse;
 *    the extra errors listed with each function below, FJ_ERR_DEPTH,
 *    FJ_ERR_NUMBER_RANGE and FJ_ERR_UTF8, come after it).
 * Only the extra errors are listed with each function. */

/** Begins an object `{`. Also FJ_ERR_DEPTH beyond max_depth. */
FJ_API fj_error fj_writer_begin_object(fj_writer *w);
/** Ends the innermost object `}`. */
FJ_API fj_error fj_writer_end_object(fj_writer *w);
/** Begins an array `[`. Also FJ_ERR_DEPTH beyond max_depth. */
FJ_API fj_error fj_writer_begin_array(fj_writer *w);
/** Ends the innermost array `]`. */
FJ_API fj_error fj_writer_end_array(fj_writer *w);

/** The next member's key: `len` bytes of UTF-8 at `key` (bytes, not code
 *  points; the caller keeps ownership; NUL bytes are written as `\\u0000`).
 *  Duplicate keys are not detected. Also FJ_ERR_UTF8 (see FJ_WRITE_* for
 *  validation and replacement). */
FJ_API fj_error fj_writer_keyn(fj_writer *w, const char *key, size_t len);
/** fj_writer_keyn() of a NUL-terminated key. */
FJ_API fj_error fj_writer_key(fj_writer *w, const char *key);

/** A string value of `len` bytes of UTF-8 at `s`, escaped as needed. Also
 *  FJ_ERR_UTF8 unless FJ_WRITE_REPLACE_INVALID_UTF8, or
 *  FJ_WRITE_NO_VALIDATE_UTF8 without FJ_WRITE_ESCAPE_UNICODE (which must
 *  decode the text, so it always checks it). */
FJ_API fj_error fj_writer_stringn(fj_writer *w, const char *s, size_t len);
/** fj_writer_stringn() of a NUL-terminated string. */
FJ_API fj_error fj_writer_string(fj_writer *w, const char *s);

/** An integer, exactly, in decimal. */
FJ_API fj_error fj_writer_int64(fj_writer *w, int64_t v);
/** An unsigned integer, exactly, in decimal. */
FJ_API fj_error fj_writer_uint64(fj_writer *w, uint64_t v);
/** A double as the shortest decimal that reads back to it (see the top of
 *  this header). Also FJ_ERR_NUMBER_RANGE for NaN and infinities (JSON has
 *  no such numbers) unless FJ_WRITE_NONFINITE_AS_NULL. */
FJ_API fj_error fj_writer_double(fj_writer *w, double v);
/** `true` or `false`. */
FJ_API fj_error fj_writer_bool(fj_writer *w, bool v);
/** `null`. */
FJ_API fj_error fj_writer_null(fj_writer *w);
/** `len` bytes of pre-encoded JSON written as one value, unchanged and
 *  unchecked: the caller vouches for it being exactly one valid value. The
 *  writer checks only where the value goes (as for any value); if the bytes
 *  are not one valid JSON value, the output is not valid JSON, and nothing
 *  reports it. No bytes (len 0) are no value at all: FJ_ERR_INVALID_ARG,
 *  as for a NULL `w`. */
FJ_API fj_error fj_writer_raw(fj_writer *w, const char *json, size_t len);

/** @name Members: a key and its value in one call
 *  fj_writer_member_X(w, key, key_len, v) writes exactly what
 *  fj_writer_keyn(w, key, key_len) followed by fj_writer_X(w, v) writes, and
 *  returns the same errors, in one call: the common case (compact output,
 *  key and string of at most 32 bytes needing no escape) is one state check
 *  and one copy, which is what generated struct writers spend most calls
 *  on. If the key is accepted but the value refused (NaN, invalid UTF-8),
 *  the key stays written and a value is still due, as with the two calls.
 *  `key`: `key_len` bytes of UTF-8 (bytes, not code points), the caller's.
 *  @{ */
FJ_API fj_error fj_writer_member_int64(fj_writer *w, const char *key, size_t key_len, int64_t v);
FJ_API fj_error fj_writer_member_uint64(fj_writer *w, const char *key, size_t key_len, uint64_t v);
FJ_API fj_error fj_writer_member_double(fj_writer *w, const char *key, size_t key_len, double v);
FJ_API fj_error fj_writer_member_bool(fj_writer *w, const char *key, size_t key_len, bool v);
FJ_API fj_error fj_writer_member_null(fj_writer *w, const char *key, size_t key_len);
/** The string value is `len` bytes of UTF-8 at `s`, as fj_writer_stringn(). */
FJ_API fj_error fj_writer_member_stringn(fj_writer *w, const char *key, size_t key_len,
                                         const char *s, size_t len);
/** @} */

/** @name Pre-quoted keys: members whose keys were written ahead of time
 *  For code that knows its keys before it runs (generated struct writers):
 *  the key comes as the exact bytes it is written as, quotes and colon
 *  included (`"\"name\":"`, qlen 7), and compact output copies them with
 *  no check or escaping. fj_writer_qkey(w, qkey, qlen) writes exactly what
 *  fj_writer_keyn(w, qkey + 1, qlen - 3) writes and fj_writer_qmember_X()
 *  what fj_writer_member_X() does with that key, with the same errors and
 *  the same key-written-value-refused rule.
 *
 *  The caller vouches for the key (the writer does not check it; other
 *  bytes make the output wrong, and nothing reports it):
 *  - `qkey` holds qlen bytes: `"`, a name of bytes 0x20-0x7E other than
 *    `"`, `\` and `/` (written the same under every FJ_WRITE_* option),
 *    `"` and `:`; so qlen >= 3. The caller keeps ownership.
 *  - FJ_QKEY_SPAN(qlen) bytes from `qkey` are readable (the writer copies
 *    keys of up to 32 bytes as one 32-byte block; the bytes after the key
 *    are read but never become output). Keys packed one after another in one
 *    array followed by 32 spare bytes meet this.
 *  Also FJ_ERR_INVALID_ARG when `qkey` is NULL or qlen < 3. Longer keys
 *  (qlen > 32) and pretty output take the general path through
 *  fj_writer_keyn().
 *  @{ */
/** Bytes readable from a pre-quoted key of `qlen` bytes (at least 32). */
#define FJ_QKEY_SPAN(qlen) ((qlen) < 32 ? (size_t)32 : (size_t)(qlen))
FJ_API fj_error fj_writer_qkey(fj_writer *w, const char *qkey, size_t qlen);
/** fj_writer_qkey() then fj_writer_begin_object() (or _begin_array()) in one
 *  call: the key of a member whose value is a container, and its bracket.
 *  Also FJ_ERR_DEPTH beyond max_depth, after the key is written (as with
 *  the two calls). */
FJ_API fj_error fj_writer_qkey_begin_object(fj_writer *w, const char *qkey, size_t qlen);
FJ_API fj_error fj_writer_qkey_begin_array(fj_writer *w, const char *qkey, size_t qlen);
FJ_API fj_error fj_writer_qmember_int64(fj_writer *w, const char *qkey, size_t qlen, int64_t v);
FJ_API fj_error fj_writer_qmember_uint64(fj_writer *w, const char *qkey, size_t qlen, uint64_t v);
FJ_API fj_error fj_writer_qmember_double(fj_writer *w, const char *qkey, size_t qlen, double v);
FJ_API fj_error fj_writer_qmember_bool(fj_writer *w, const char *qkey, size_t qlen, bool v);
FJ_API fj_error fj_writer_qmember_null(fj_writer *w, const char *qkey, size_t qlen);
/** The string value is `len` bytes of UTF-8 at `s`, as fj_writer_stringn(). */
FJ_API fj_error fj_writer_qmember_stringn(fj_writer *w, const char *qkey, size_t qlen,
                                          const char *s, size_t len);
/** @} */

/** Passes all buffered output to the sink (and updates a buffer sink's
 *  `len`, or a fixed buffer's `len` and `needed`). The document may be
 *  incomplete. @return FJ_OK; FJ_ERR_INVALID_ARG; the sink's error. */
FJ_API fj_error fj_writer_flush(fj_writer *w);

/** Ends the document: checks that exactly one complete root value was
 *  written, adds the final newline when pretty, and flushes. A buffer sink's
 *  data is then NUL-terminated. Calling it again does nothing more.
 *  A refused event (an error from an earlier call) wrote nothing and is
 *  not remembered: check every call, or the events after it may pair up
 *  differently (a value refused after a key leaves the key waiting for the
 *  next value).
 *  @return FJ_OK; the sink's error if an earlier call got one (it sticks,
 *          so it comes before any of the following), or this flush's;
 *          FJ_ERR_EMPTY if no value was written; FJ_ERR_TRUNCATED if an
 *          array or object is open, or a key waits for its value (nothing
 *          is flushed then: write the rest and call again);
 *          FJ_ERR_BUFFER_TOO_SMALL if the output did not fit a fixed buffer
 *          (its `needed` is then the exact size); FJ_ERR_INVALID_ARG. */
FJ_API fj_error fj_writer_finish(fj_writer *w);

/** The number of output bytes produced so far (including buffered ones),
 *  into *bytes. @return FJ_OK; FJ_ERR_INVALID_ARG if an argument is NULL. */
FJ_API fj_error fj_writer_size(const fj_writer *w, size_t *bytes);

/** How many arrays and objects are open: 0 before the root value and after
 *  it ends, and for a NULL `w`. The struct writers (generated and
 *  descriptor tables) recurse once per level and stop past
 *  FJ_DECODE_MAX_DEPTH levels of it with FJ_ERR_DEPTH (fastjson/codec.h),
 *  whatever max_depth allows, rather than exhaust the C stack. */
FJ_API uint32_t fj_writer_depth(const fj_writer *w);

/** Formats a finite double as fj_writer_double() does, without a NUL, into
 *  `buf` of `cap` bytes, and its length into *len. Thread-safe.
 *  @return FJ_OK; FJ_ERR_NUMBER_RANGE for NaN or an infinity;
 *          FJ_ERR_BUFFER_TOO_SMALL if cap < FJ_DOUBLE_MAX_CHARS (even when
 *          this value's text would fit: a short buffer is never truncated);
 *          FJ_ERR_INVALID_ARG if `buf` or `len` is NULL. On an error nothing
 *          is written to `buf` and *len is unchanged. */
FJ_API fj_error fj_format_double(double v, char *buf, size_t cap, size_t *len);

#ifdef __cplusplus
}
#endif

#include "fastjson/writer_inline.h" /* the inline paths of the common events */

#endif
