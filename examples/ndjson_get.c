/* NDJSON from standard input: prints, for every line (document), the value
 * at a JSON Pointer as written in the input, one per line; a line that is
 * not valid JSON, or has nothing at the pointer, is reported on standard
 * error with its line number, and the stream goes on with the next line.
 *
 * What it shows: a chunked stream over a file descriptor (memory stays
 * bounded by the chunk size plus the longest line, however long the input),
 * the cursor API on each document, and per-document errors that do not end
 * the stream.
 *
 * Build: cc ndjson_get.c $(pkg-config --cflags --libs fastjson)
 * Usage: ndjson_get POINTER < FILE.ndjson     (for example /0 or /user/name)
 * Exit status: 0 all lines had a value, 1 some did not, 3 read error. */
#include <fastjson.h>
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: ndjson_get POINTER < FILE.ndjson\n");
    return 2;
  }
  fj_stream_options opts = {0};
  opts.format = FJ_STREAM_NDJSON;
  opts.flags = FJ_STREAM_VALIDATE; /* a document delivered with FJ_OK is valid JSON */
  fj_stream *s;
  if (fj_stream_new_fd(&s, 0, &opts) != FJ_OK) return 3;
  fj_document doc;
  fj_error err;
  int status = 0;
  while ((err = fj_stream_next(s, &doc)) != FJ_END) {
    fj_value v;
    const char *raw;
    size_t len;
    if (!err) err = fj_value_at_pointer(&doc.root, argv[1], &v);
    if (!err) err = fj_value_get_raw(&v, &raw, &len);
    if (err) {
      fprintf(stderr, "stdin:%llu:%llu: %s\n",
              (unsigned long long)(doc.error ? doc.error_line : doc.line),
              (unsigned long long)(doc.error ? doc.error_column : 1), fj_error_message(err));
      if (err == FJ_ERR_IO || err == FJ_ERR_NOMEM) {
        status = 3;
        break;
      }
      status = 1;
      continue;
    }
    printf("%.*s\n", (int)len, raw);
  }
  fj_stream_free(s);
  return status;
}
