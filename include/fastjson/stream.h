/* libfastjson — document streams: NDJSON, JSON text sequences, concatenated
 * documents, and the elements of one huge array, from a buffer or pulled in
 * chunks from a file descriptor, a FILE * or a callback.
 *
 * A stream hands out one document at a time. Each document is parsed by the
 * stream's own parser and comes as an fj_value root that works with the
 * whole cursor API of fastjson/parser.h; it stays valid until the next call
 * of fj_stream_next() (whatever that returns; the handles then fail with
 * FJ_ERR_STALE_DOCUMENT) or fj_stream_free(). Documents carry their index
 * (0-based), their byte offset in the stream and their line (64-bit, so
 * positions past 4 GiB are exact).
 *
 * A bad document is not the end of the stream: fj_stream_next() returns its
 * error with the document's index, offset and the error's position, and the
 * next call continues with the following document (NDJSON resynchronises at
 * the next newline, JSON text sequences at the next RS). The caller decides
 * whether to stop. Errors that leave no way to find the next document (a
 * read error of the source, broken array syntax between elements) are
 * reported once; the stream then ends (FJ_END).
 *
 * Memory: a buffer stream never copies the input. A chunked stream keeps the
 * unconsumed tail of the input plus one chunk; a document that spans chunks
 * is moved to the front of that buffer. Memory stays within a small factor
 * of the chunk size plus the largest document, and a document longer than
 * fj_stream_options.max_document_size is an error (FJ_ERR_DOCUMENT_TOO_LARGE) naming
 * its offset, after which the stream skips it and goes on.
 *
 * Thread-safety: a stream and its documents belong to one thread at a time.
 */
#ifndef FASTJSON_STREAM_H
#define FASTJSON_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fastjson/error.h"
#include "fastjson/parser.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How documents are delimited. */
typedef enum fj_stream_format {
  /** Newline-delimited JSON: one document per line. Lines end at LF (`0x0A`); a
   *  CR (`0x0D`) before it is whitespace. Empty and whitespace-only lines are
   *  skipped (they still count as lines). The last line needs no LF. A
   *  raw newline cannot occur inside a valid JSON string, so a line is
   *  exactly one document; a bad line is reported and the next line read. */
  FJ_STREAM_NDJSON = 0,
  /** JSON text sequences (RFC 7464): each document is preceded by the record
   *  separator 0x1E and normally ends with LF (0x0A). Empty records are skipped;
   *  text before the first RS is read as a record too (a sequence whose
   *  first RS was lost), not refused.
   *  As RFC 7464 section 2.4 requires, a well-formed top-level number or
   *  literal that is not followed by whitespace before the next RS (or the
   *  end) is FJ_ERR_TRUNCATED; a malformed one (`1x`, or `tru` before the
   *  next RS) is FJ_ERR_BAD_NUMBER or FJ_ERR_BAD_LITERAL, as
   *  fj_parser_validate() reports it (`tru` at the very end of the input
   *  may be a cut-off `true`: FJ_ERR_TRUNCATED). A bad record is reported
   *  and the next RS read. */
  FJ_STREAM_JSON_SEQ = 1,
  /** Concatenated documents: values one after another, separated by
   *  whitespace where they would otherwise run together (`1 2`, `{}{}`,
   *  `[1]"a"`). Document ends are found by a byte-level scan of strings,
   *  escapes and bracket depth, so a bad document is delimited all the same
   *  and the next one read after it. An error inside one (say `[1,,2]`, or a
   *  literal `truefalse`) is reported by fj_stream_next() with
   *  FJ_STREAM_VALIDATE; without it, when the cursor reads that part of the
   *  document, as for fj_parser_parse(). A stray `]`, `}`, `,` or `:` between
   *  documents is a one-byte bad document either way. */
  FJ_STREAM_CONCATENATED = 2,
  /** The elements of one array, each delivered as a document: the root
   *  array, or the array at fj_stream_options.pointer (RFC 6901; for example
   *  "/data/items"). Memory is bounded by the largest element (or value
   *  off the path, which is held whole while it is checked), however large
   *  the array. Element offsets and lines count from the start of the input.
   *  Everything around the elements is checked, with or without
   *  FJ_STREAM_VALIDATE, since no cursor will read it: every key, every
   *  value off the path (before and after the array, each validated as
   *  fj_parser_validate() does), the commas and colons, and the brackets
   *  that close the containers around the array, each with its own kind;
   *  only whitespace may follow. The stream ends at the first error in the
   *  input's order, with the code and offset fj_parser_validate() gives
   *  for it. (Validation too reports the first error in the input,
   *  whichever of its passes finds it: for `[1 2,"\x01"]` both say
   *  FJ_ERR_EXPECTED_COMMA at the `2`, not FJ_ERR_CONTROL_CHAR at the
   *  string. Two differences: an element that the end of the input cuts
   *  off inside a string is FJ_ERR_TRUNCATED, where validation says
   *  FJ_ERR_UNCLOSED_STRING at its quote; and a byte that is not UTF-8
   *  where a value or punctuation is due is reported by what was due,
   *  FJ_ERR_EXPECTED_VALUE, ..., where validation says FJ_ERR_UTF8.) The
   *  parser's max_depth applies to each element and each value off the
   *  path as a document of its own: the array and the containers on the
   *  pointer's path around it are not counted (they are scanned without
   *  recursion). */
  FJ_STREAM_ARRAY = 3
} fj_stream_format;

/** Stream flags (bit set, fj_stream_options.flags). */
enum {
  /** Validate every document fully (as fj_parser_validate()) before it is
   *  delivered, so a document returned with FJ_OK is valid RFC 8259 JSON.
   *  Without this flag a document is checked lazily like any parse: stage 1
   *  (UTF-8, strings) and the number of brackets up front, the rest by the
   *  cursor, which reports a malformed number, literal or bracket of the
   *  wrong kind (`{"k":[}]`) when it reads that part. A document whose
   *  brackets do not pair up in number gets the first error that validation
   *  finds (`{"x":[}`: FJ_ERR_EXPECTED_VALUE at the `}`). */
  FJ_STREAM_VALIDATE = 1u << 0
};

/** Default batch size for stage 1 (bytes). */
#define FJ_STREAM_DEFAULT_BATCH_SIZE ((size_t)1 << 20)
/** Default bytes asked of the source per read. */
#define FJ_STREAM_DEFAULT_CHUNK_SIZE ((size_t)64 << 10)
/** Default document size limit of a chunked stream (a buffer stream's
 *  default is FJ_MAX_DOCUMENT_SIZE). */
#define FJ_STREAM_DEFAULT_MAX_DOCUMENT ((size_t)64 << 20)

/** Options for the fj_stream_new_* functions. Zero-initialise (`= {0}` in C,
 *  `{}` in C++, where `{0}` draws -Wmissing-field-initializers) and set what
 *  you need: zero fields mean their defaults. */
typedef struct fj_stream_options {
  fj_stream_format format;
  /** FJ_STREAM_* bits. */
  uint32_t flags;
  /** NDJSON and JSON text sequences: bytes of input that one stage-1 run
   *  covers (whole documents; a longer document gets a run of its own).
   *  0: FJ_STREAM_DEFAULT_BATCH_SIZE. At most FJ_MAX_DOCUMENT_SIZE. */
  size_t batch_size;
  /** Chunked streams: bytes asked of the source per read (0:
   *  FJ_STREAM_DEFAULT_CHUNK_SIZE). Ignored by buffer streams. */
  size_t chunk_size;
  /** Longest document accepted, in bytes (leading and trailing whitespace
   *  excluded). 0: FJ_MAX_DOCUMENT_SIZE for a buffer stream,
   *  FJ_STREAM_DEFAULT_MAX_DOCUMENT for a chunked one. At most
   *  FJ_MAX_DOCUMENT_SIZE. FJ_STREAM_ARRAY also holds each key (quotes
   *  included) and each value around the elements whole while it checks
   *  it: a longer one is FJ_ERR_DOCUMENT_TOO_LARGE, after which the stream
   *  ends. */
  size_t max_document_size;
  /** FJ_STREAM_ARRAY: JSON Pointer (RFC 6901, NUL-terminated) to the array
   *  whose elements are streamed; NULL or "" for the root. Copied. */
  const char *pointer;
  /** Options of the stream's parser (depth limit, flags, allocator); NULL
   *  for defaults. The allocator is also used for the stream's buffers. */
  const fj_parser_options *parser;
  /** An existing parser to parse the documents with, instead of a new one
   *  (its buffers are reused, so streams made one after another allocate
   *  little). The stream does not free it; it must outlive the stream, and
   *  the parser must not be used for anything else meanwhile. Its documents
   *  become stale. NULL: the stream makes its own from `parser`. */
  fj_parser *use_parser;
} fj_stream_options;

/** A document stream. Opaque. */
typedef struct fj_stream fj_stream;

/** One document of a stream, filled in by fj_stream_next(). */
typedef struct fj_document {
  /** The document's root; usable with the cursor API until the next
   *  fj_stream_next() or fj_stream_free(). Only valid when fj_stream_next()
   *  returned FJ_OK. Offsets the cursor reports (fj_value_offset(),
   *  fj_parser_last_error()) count from the document's first byte. */
  fj_value root;
  /** 0-based position of the document in the stream; bad documents count. */
  uint64_t index;
  /** Byte offset of the document's first byte (its first non-whitespace
   *  byte) from the start of the stream. */
  uint64_t offset;
  /** 1-based line of the document's first byte (lines end at LF, 0x0A). */
  uint64_t line;
  /** The document's bytes, without surrounding whitespace or separators;
   *  valid until the next fj_stream_next() or fj_stream_free(). For an
   *  oversized document (FJ_ERR_DOCUMENT_TOO_LARGE) or a read error: NULL, 0. */
  const char *data;
  size_t len;
  /** FJ_OK, or the error fj_stream_next() returned. */
  fj_error error;
  /** Where the error is: byte offset from the start of the stream, line
   *  (1-based), and column (1-based, in code points, counted from the start
   *  of that line; each byte of invalid UTF-8 counts as one, as in
   *  fj_location). One exception: when the line began more than 256 bytes
   *  before the document (after long documents on the same line, in the
   *  array and concatenated formats, or after more than 256 bytes of
   *  whitespace at the start of a line in any format), the column counts
   *  from the document's first byte; for an error that ends the stream,
   *  which has no document, from the error's own byte (column 1). */
  uint64_t error_offset;
  uint64_t error_line;
  uint64_t error_column;
} fj_document;

/** Reads up to `cap` bytes into `buf` for a callback stream. Sets *got to
 *  the number of bytes read (0 means the end of the input) and returns
 *  FJ_OK, or returns an error (for example FJ_ERR_IO), which the stream
 *  reports after the documents read before it. Returning FJ_END, or
 *  setting *got above `cap`, is a failed read too: the stream reports
 *  FJ_ERR_IO (an unfinished last document is never passed off as complete).
 *  Called from fj_stream_next() only. */
typedef fj_error (*fj_stream_read_fn)(void *ctx, void *buf, size_t cap, size_t *got);

/** Creates a stream over `len` bytes at `data` (no padding needed; never
 *  copied or written). The bytes must stay alive and unchanged until the
 *  stream is freed.
 *  @param out   receives the stream; free it with fj_stream_free().
 *  @param opts  options or NULL (NDJSON, defaults); copied.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (NULL `out`, NULL `data` with len > 0,
 *          an unknown format or flag, a size option above FJ_MAX_DOCUMENT_SIZE, an
 *          incomplete allocator); FJ_ERR_BAD_POINTER (FJ_STREAM_ARRAY with a
 *          `pointer` that is not RFC 6901 syntax: not empty and not starting
 *          with '/', or '~' not followed by '0' or '1'); FJ_ERR_NOMEM. */
FJ_API fj_error fj_stream_new_buffer(fj_stream **out, const void *data, size_t len,
                                     const fj_stream_options *opts);

/** Creates a stream that reads the open file descriptor `fd` in chunks
 *  (read(2), retried on EINTR) until end of file. `fd` stays open and is
 *  not closed by the stream. A failed read is FJ_ERR_IO with errno set.
 *  @return as fj_stream_new_buffer(); FJ_ERR_INVALID_ARG for fd < 0. */
FJ_API fj_error fj_stream_new_fd(fj_stream **out, int fd, const fj_stream_options *opts);

/** Creates a stream that reads `file` in chunks (fread) until end of file;
 *  ferror() is FJ_ERR_IO. The FILE is not closed by the stream.
 *  @return as fj_stream_new_buffer(); FJ_ERR_INVALID_ARG for NULL `file`. */
FJ_API fj_error fj_stream_new_file(fj_stream **out, FILE *file, const fj_stream_options *opts);

/** Creates a stream that pulls bytes from `read` (called with `ctx`).
 *  @return as fj_stream_new_buffer(); FJ_ERR_INVALID_ARG for NULL `read`. */
FJ_API fj_error fj_stream_new_callback(fj_stream **out, fj_stream_read_fn read, void *ctx,
                                       const fj_stream_options *opts);

/** Frees the stream, its parser and its buffers; documents it returned
 *  become invalid. NULL is ignored. */
FJ_API void fj_stream_free(fj_stream *s);

/** The next document.
 *  @param doc  receives the document: root, index, offset, line, bytes; on
 *              an error also the error and its position.
 *  @return FJ_OK; FJ_END when the input is exhausted (and on every later
 *          call); FJ_ERR_INVALID_ARG. Errors of one bad document, after
 *          which the next call goes on with the following document: every
 *          error of fj_parser_parse() (FJ_ERR_UTF8, FJ_ERR_CONTROL_CHAR, ...;
 *          with FJ_STREAM_VALIDATE every error of fj_parser_validate());
 *          FJ_ERR_TRUNCATED (brackets left open, including a last document
 *          cut off by the end of the input, whose unclosed string is also
 *          reported as FJ_ERR_TRUNCATED, even when the cut fell inside a
 *          character (the bytes of an unfinished UTF-8 character at the
 *          end of a string); with FJ_STREAM_VALIDATE so is its
 *          cut-off number or literal, which without it the getter that reads
 *          the value reports as FJ_ERR_TRUNCATED; a number or literal followed
 *          by whitespace or a separator, as `1e+` or `tru` on an NDJSON line,
 *          is FJ_ERR_BAD_NUMBER or FJ_ERR_BAD_LITERAL as fj_parser_validate()
 *          reports it: from fj_stream_next() with FJ_STREAM_VALIDATE, and
 *          without it from the getter); FJ_ERR_TRAILING_CONTENT (more after
 *          the root value closes, as in an NDJSON line `{} {}`);
 *          FJ_ERR_DOCUMENT_TOO_LARGE (longer than max_document_size). Errors after
 *          which the stream ends: whatever the source's read returned
 *          (FJ_ERR_IO for fd and FILE sources), reported after every
 *          complete document read before it (an NDJSON line is complete
 *          at its LF, a JSON text sequence's record at the next RS or the
 *          end of the input: one that the error cut off is not delivered),
 *          at the offset of the first byte not delivered; FJ_ERR_NOMEM; for FJ_STREAM_ARRAY
 *          FJ_ERR_EMPTY (no value in the input), FJ_ERR_BOM (the input starts
 *          with a byte order mark, as fj_parser_parse()), FJ_ERR_EXPECTED_VALUE
 *          (a byte no value starts with where the root or a value on the path
 *          is due), FJ_ERR_NO_SUCH_FIELD, FJ_ERR_INDEX_RANGE, FJ_ERR_BAD_POINTER,
 *          FJ_ERR_WRONG_TYPE (the pointer names no array), FJ_ERR_DOCUMENT_TOO_LARGE
 *          (a key on the path longer than max_document_size),
 *          FJ_ERR_EXPECTED_COMMA, FJ_ERR_EXPECTED_KEY, FJ_ERR_EXPECTED_COLON
 *          (broken syntax around the elements), every error of
 *          fj_parser_validate() in a key or a value off the path,
 *          FJ_ERR_TRUNCATED and FJ_ERR_TRAILING_CONTENT (the enclosing
 *          document). */
FJ_API fj_error fj_stream_next(fj_stream *s, fj_document *doc);

/** Bytes of input the stream has consumed so far (everything before the
 *  next document), for progress reports. */
FJ_API uint64_t fj_stream_position(const fj_stream *s);

#ifdef __cplusplus
}
#endif
#endif
