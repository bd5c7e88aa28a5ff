/* libfastjson — text to text: minify and pretty-print straight from the
 * structural index, with no tree in between, and a minify without
 * validation for trusted input. Numbers and strings are copied byte for
 * byte as written in the input. */
#ifndef FASTJSON_TEXT_H
#define FASTJSON_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fastjson/error.h"
#include "fastjson/parser.h"
#include "fastjson/sink.h"

#ifdef __cplusplus
extern "C" {
#endif

/* fj_sink: see fastjson/sink.h */

/** Pretty-printing options. Zero-initialised means 2 spaces. */
typedef struct fj_pretty_options {
  uint32_t indent; /**< spaces (or tabs) per level; 0 means 2 (or 1 tab); at most 16 */
  bool use_tabs;   /**< indent with tab characters instead of spaces */
} fj_pretty_options;

/** Validates the `len` bytes at `json` (fj_parser_validate()) and, if valid,
 *  writes them without any whitespace outside strings, followed by nothing
 *  (no newline). Nothing is written for an invalid document. The document
 *  is parsed into `parser`, so handles of its previous document become
 *  stale (FJ_ERR_STALE_DOCUMENT afterwards) whatever the result, except
 *  FJ_ERR_INVALID_ARG.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (`parser` or `sink.write` NULL,
 *          `sink` fj_sink_buffer() or fj_sink_file() of NULL,
 *          fj_sink_fixed() of NULL or of a buffer fj_fixed_buffer
 *          says is refused, or `json` NULL with `len` > 0; nothing is
 *          parsed then); any other error of fj_parser_validate() (its
 *          location is kept in the parser); the sink's error. With
 *          fj_sink_fixed(), an output that does not fit is
 *          FJ_ERR_BUFFER_TOO_SMALL at the end, and the buffer's `needed`
 *          is the whole output's size in bytes. */
FJ_API fj_error fj_minify(fj_parser *parser, const void *json, size_t len, fj_sink sink);

/** Removes whitespace like fj_minify(), but without validating: for input
 *  already known to be valid JSON (the output of a writer, a document that
 *  was validated before), 3-20 times faster than fj_minify(). The `len` bytes
 *  at `json` are written to `sink` without the four JSON whitespace bytes
 *  (space, tab, LF, CR) that are outside strings; every other byte is
 *  copied unchanged and in order, so valid input gives exactly fj_minify()'s
 *  output. Strings are found as the validating parser's first stage finds
 *  them: a '"' opens or closes a string unless an odd run of backslashes
 *  comes right before it (inside or outside strings).
 *
 *  Nothing else is checked: not the grammar, UTF-8, escapes, control
 *  characters or numbers, and the output of invalid input is unspecified,
 *  except that it is never longer than `len` and the call stays memory-safe.
 *  The input needs no padding: nothing past json + len is read. No
 *  allocation except through `sink`; thread-safe for distinct sinks. The
 *  stage-1 kernel in use (fastjson/kernel.h) does the work, so
 *  FASTJSON_KERNEL and fj_kernel_select() choose it too.
 *
 *  Output reaches `sink` in pieces of up to 16 KiB, or, with
 *  fj_sink_buffer(), is written straight into the buffer's memory (reserved
 *  for `len` more bytes once, then `len` is advanced and `data[len]` NUL as
 *  after any write to it).
 *  @param json  the document, `len` bytes; may be NULL when `len` is 0.
 *  @return FJ_OK; FJ_ERR_UNCLOSED_STRING when the input ends inside a
 *          string (an odd number of unescaped quotes: the whole output has
 *          been written then, the open string to its end; no position is
 *          reported: fj_parser_validate() locates errors); FJ_ERR_INVALID_ARG
 *          (`sink.write` NULL, a sink refused as by fj_minify(),
 *          or `json` NULL with `len` > 0; nothing is written); the sink's
 *          error, after which nothing more is written (FJ_ERR_NOMEM from
 *          fj_sink_buffer()); with fj_sink_fixed(),
 *          FJ_ERR_BUFFER_TOO_SMALL when the output did not fit (in place of
 *          any other result; `needed` is then the whole output's size). */
FJ_API fj_error fj_minify_unvalidated(const void *json, size_t len, fj_sink sink);

/** fj_minify_unvalidated() into caller memory, like simdjson::minify():
 *  writes the output to `dst`, which must have room for `len` bytes (the
 *  output is never longer than the input; no padding is needed, nothing
 *  is written past dst + len and no NUL is added), and its length in bytes
 *  to *out_len. `dst` may be `json` itself (minify in place); other
 *  overlaps are not allowed.
 *  @return FJ_OK; FJ_ERR_UNCLOSED_STRING as fj_minify_unvalidated() (the
 *          output and *out_len are complete then); FJ_ERR_INVALID_ARG
 *          (`out_len` NULL, or `json` or `dst` NULL with `len` > 0). */
FJ_API fj_error fj_minify_unvalidated_into(const void *json, size_t len, void *dst,
                                           size_t *out_len);

/** Validates, then writes the document pretty-printed: one element or field
 *  per line, `indent` per level, `": "` after keys, empty containers as `[]`
 *  and `{}`, a final newline. As fj_minify(), it parses into `parser`:
 *  handles of its previous document become stale (FJ_ERR_STALE_DOCUMENT
 *  afterwards) whatever the result, except FJ_ERR_INVALID_ARG.
 *  The output grows with the square of the depth (each line is indented
 *  once per level): a document nested d deep writes about indent * d^2
 *  bytes of indentation (d = 100 000 with the default indent: 20 GB), so a
 *  raised max_depth with untrusted input wants a sink that caps its size.
 *  @param opts  options, or NULL for the defaults.
 *  @return as fj_minify(); also FJ_ERR_INVALID_ARG if opts->indent > 16. */
FJ_API fj_error fj_pretty(fj_parser *parser, const void *json, size_t len,
                          const fj_pretty_options *opts, fj_sink sink);

#ifdef __cplusplus
}
#endif
#endif
