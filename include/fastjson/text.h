/* libfastjson — text to text: minify and pretty-print straight from the
 * structural index, with no tree in between. Numbers and strings are copied
 * byte for byte as written in the input. */
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
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (`parser` or `sink.write` NULL, or
 *          `json` NULL with `len` > 0; nothing is parsed then); any other
 *          error of fj_parser_validate() (its location is kept in the
 *          parser); the sink's error. */
FJ_API fj_error fj_minify(fj_parser *parser, const void *json, size_t len, fj_sink sink);

/** Validates, then writes the document pretty-printed: one element or field
 *  per line, `indent` per level, `": "` after keys, empty containers as `[]`
 *  and `{}`, a final newline. As fj_minify(), it parses into `parser`:
 *  handles of its previous document become stale (FJ_ERR_STALE_DOCUMENT
 *  afterwards) whatever the result, except FJ_ERR_INVALID_ARG.
 *  @param opts  options, or NULL for the defaults.
 *  @return as fj_minify(); also FJ_ERR_INVALID_ARG if opts->indent > 16. */
FJ_API fj_error fj_pretty(fj_parser *parser, const void *json, size_t len,
                          const fj_pretty_options *opts, fj_sink sink);

#ifdef __cplusplus
}
#endif
#endif
