/* Document streams (private): the stream object shared by stream.c (buffers,
 * sources, NDJSON, JSON text sequences, concatenated documents),
 * stream_array.c (the elements of one huge array), stream_scan.c (finding
 * value ends byte by byte) and stream_source.c (fd and FILE readers). */
#ifndef FJ_ONDEMAND_STREAM_INTERNAL_H
#define FJ_ONDEMAND_STREAM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fastjson/stream.h"
#include "ondemand/internal.h"
#include "util/location.h"

/* ---- finding where a value ends, resumable across chunks (stream_scan.c) -- */

enum { FJ__VS_IDLE, FJ__VS_STRING, FJ__VS_CONTAINER, FJ__VS_SCALAR };

typedef struct fj__vscan {
  uint64_t depth; /* open brackets of the value (any kind: `[}` balances) */
  uint8_t state;  /* FJ__VS_* */
  bool escaped;   /* in a string, just after a backslash */
} fj__vscan;

/* Scans d[*i, end) for the end of a value. In state IDLE, d[*i] must be the
 * value's first byte (not whitespace). Returns true when the value ended,
 * with *i just past it (the state is IDLE again); false when the bytes ran
 * out (*i == end), keeping the state for the next call with more bytes. A
 * scalar ends at whitespace or one of `{}[]",:`; one of `]},:` where a value
 * should start is a one-byte value (the parser then reports it). */
bool fj__vscan_run(fj__vscan *v, const uint8_t *d, size_t *i, size_t end);

/* Scans a string body from d[*i] (just after the opening quote, or after
 * more of the body): true with *i past the closing quote, or false at end. */
bool fj__vscan_string(fj__vscan *v, const uint8_t *d, size_t *i, size_t end);

/* First non-whitespace position in d[i, end), or end. */
size_t fj__skip_ws(const uint8_t *d, size_t i, size_t end);

/* Number of '\n' bytes in d[a, b). */
uint64_t fj__count_newlines(const uint8_t *d, size_t a, size_t b);

/* ---- sources (stream_source.c) --------------------------------------------- */

fj_error fj__stream_read_fd(void *ctx, void *buf, size_t cap, size_t *got);
fj_error fj__stream_read_file(void *ctx, void *buf, size_t cap, size_t *got);

/* ---- the stream ------------------------------------------------------------ */

/* Phases of FJ_STREAM_ARRAY (stream_array.c). */
enum {
  FJ__AR_NAV_VALUE,       /* a value on the pointer's path is due */
  FJ__AR_NAV_KEY_FIRST,   /* just inside an object on the path */
  FJ__AR_NAV_KEY,         /* a key is due */
  FJ__AR_NAV_COLON,       /* after a key */
  FJ__AR_NAV_SKIP,        /* skipping a value off the path, then ar_after */
  FJ__AR_NAV_AFTER_FIELD, /* after a skipped field value */
  FJ__AR_NAV_INDEX_FIRST, /* just inside an array on the path */
  FJ__AR_NAV_INDEX,       /* an element of an array on the path is due */
  FJ__AR_NAV_AFTER_ELEM,  /* after a skipped element */
  FJ__AR_FIRST,           /* just inside the streamed array */
  FJ__AR_ELEM,            /* an element is due */
  FJ__AR_AFTER,           /* after an element */
  FJ__AR_TAIL,            /* after a value in a container around the array */
  FJ__AR_TRAILER          /* only whitespace may follow */
};

struct fj_stream {
  fj_allocator alloc;
  fj_parser *parser;
  bool owns_parser;
  fj_stream_format format;
  uint32_t flags;
  size_t batch_size, chunk_size, max_doc;

  /* the input: data[pos, end) is unconsumed; data[0] is stream byte `base` */
  const uint8_t *data;
  size_t pos, end;
  uint64_t base;
  bool eof;         /* no more bytes will come */
  fj_error pending; /* the source's read error, reported after the documents before it */
  uint8_t *buf;     /* chunked streams: the buffer that data points to */
  size_t cap;
  fj_stream_read_fn read;
  void *ctx;
  int fd;
  FILE *file;

  uint64_t index;      /* of the next document */
  uint64_t line;       /* line of data[pos] */
  uint64_t pos_column; /* column of data[pos] (1-based, code points); 0 if not known */
  uint64_t pos_dist;   /* bytes from the start of data[pos]'s line (if pos_column) */
  uint64_t doc_column; /* column of the document delivered last (doc_start_column()) */
  /* the UTF-8 sequence in progress at data[pos] and at that document's
   * start (util/location.h), so that columns do not depend on the chunks */
  fj__column_state pos_cstate, doc_cstate;
  size_t scanned; /* the search for a document end resumes here */
  bool skipping;  /* discarding the rest of an oversized document */
  bool finished;  /* FJ_END from now on */
  fj__vscan vs;

  /* the current stage-1 batch (NDJSON, JSON text sequences) */
  size_t batch_start, batch_end;
  uint32_t batch_n, entry;
  uint32_t taken;     /* entries of the document about to be delivered already moved (take_line) */
  bool batch_indexed; /* false: parse each document of the batch on its own */

  /* FJ_STREAM_ARRAY: the pointer's unescaped tokens, and where we are */
  uint8_t *tokens; /* token bytes, back to back */
  size_t tokens_len;
  size_t *token_end; /* token k is tokens[token_end[k-1], token_end[k]) */
  size_t ntokens, token;
  int phase, ar_after;
  uint64_t enclosing;  /* containers around the streamed array still open */
  uint8_t *path_kinds; /* their opening brackets, outermost first (ntokens bytes) */
  uint64_t skip_count;
  bool key_match;
  bool in_tail;        /* after the array: keys and values are checked, not followed */
  uint8_t value_first; /* first byte of the element or value off the path passed last */
  uint64_t value_end;  /* and the offset in the input just past it */
  uint8_t *key_buf;
  size_t key_cap;
};

/* Results of one step of a format's state machine. */
enum { FJ__STEP_AGAIN, FJ__STEP_NEED_MORE, FJ__STEP_DOC };

/* Whether the input ended cleanly (not by a read error). */
static inline bool fj__stream_ended(const fj_stream *s) { return s->eof && !s->pending; }

/* Moves pos to `to`, counting lines. */
void fj__stream_consume(fj_stream *s, size_t to);

/* Parses data[a, b) as the next document and fills *doc; `cut` says that
 * the end of the input cut it off. Returns the document's error. */
fj_error fj__stream_deliver(fj_stream *s, size_t a, size_t b, bool cut, fj_document *doc);

/* Records the document's error at `rel` bytes from its start (offset,
 * line, column) and returns it. */
fj_error fj__stream_doc_error(const fj_stream *s, fj_document *doc, fj_error err, size_t rel);

/* Reports an oversized document starting at `a` and makes the stream skip it. */
fj_error fj__stream_oversized(fj_stream *s, size_t a, fj_document *doc);

/* Reports an error that ends the stream, at data offset `at`. */
fj_error fj__stream_fatal(fj_stream *s, fj_error err, size_t at, fj_document *doc);

/* One step of FJ_STREAM_ARRAY; *err is the document's result on FJ__STEP_DOC. */
int fj__array_step(fj_stream *s, fj_document *doc, fj_error *err);

/* Parses options.pointer into tokens (FJ_ERR_BAD_POINTER, FJ_ERR_NOMEM). */
fj_error fj__array_init(fj_stream *s, const char *pointer);
void fj__array_free(fj_stream *s);

#endif
