/* Writing JSON with the streaming writer: an array of C structs becomes a
 * JSON document, written twice — compactly into a growable buffer (then
 * printed as one line), and pretty-printed straight to standard output.
 *
 * What it shows: the event calls (begin/end, key, values), how the writer
 * escapes strings and formats doubles (shortest round-trip form), the buffer
 * and FILE * sinks, and checking the one error that matters at the end
 * (fj_writer_finish() reports misuse or a failed sink).
 *
 * Build: cc write_json.c $(pkg-config --cflags --libs fastjson)
 * Usage: write_json            (prints the compact line, then the pretty form) */
#include <fastjson.h>
#include <stdio.h>
#include <stdlib.h>

struct city {
  const char *name;
  double lat, lon;
  int64_t population;
  const char *tags[3]; /* NULL-terminated if fewer */
};

static const struct city cities[] = {
    {"Z\xc3\xbcrich", 47.3769, 8.5417, 421878, {"lake", "banks", NULL}},
    {"Reykjav\xc3\xadk", 64.1466, -21.9426, 139875, {"geysers", NULL, NULL}},
    {"\"Quoted\" \\ Town\n", 0.1, -0.5, 0, {NULL, NULL, NULL}},
};

/* One document: {"count": N, "cities": [{...}, ...], "source": null}. */
static fj_error write_cities(fj_writer *w) {
  fj_writer_begin_object(w);
  fj_writer_key(w, "count");
  fj_writer_uint64(w, sizeof cities / sizeof cities[0]);
  fj_writer_key(w, "cities");
  fj_writer_begin_array(w);
  for (size_t i = 0; i < sizeof cities / sizeof cities[0]; i++) {
    const struct city *c = &cities[i];
    fj_writer_begin_object(w);
    fj_writer_key(w, "name");
    fj_writer_string(w, c->name); /* escaped as needed, UTF-8 checked */
    fj_writer_key(w, "location");
    fj_writer_begin_array(w);
    fj_writer_double(w, c->lat);
    fj_writer_double(w, c->lon);
    fj_writer_end_array(w);
    fj_writer_key(w, "population");
    fj_writer_int64(w, c->population);
    fj_writer_key(w, "capital");
    fj_writer_bool(w, false);
    fj_writer_key(w, "tags");
    fj_writer_begin_array(w);
    for (int t = 0; t < 3 && c->tags[t]; t++)
      fj_writer_string(w, c->tags[t]);
    fj_writer_end_array(w);
    fj_writer_end_object(w);
  }
  fj_writer_end_array(w);
  fj_writer_key(w, "source");
  fj_writer_null(w);
  fj_writer_end_object(w);
  /* Each event returns an error too; misuse (a value where a key is due, an
   * unbalanced end) is refused and leaves the document incomplete, so
   * checking the result of finish() is enough to know the output is whole. */
  return fj_writer_finish(w);
}

int main(void) {
  /* compact, into memory */
  fj_buffer buf = {0};
  fj_writer *w;
  if (fj_writer_new(&w, NULL, fj_sink_buffer(&buf)) != FJ_OK) return 3;
  fj_error err = write_cities(w);
  fj_writer_free(w);
  if (err) {
    fprintf(stderr, "write_json: %s\n", fj_error_message(err));
    return 1;
  }
  printf("%s\n", (const char *)buf.data); /* NUL-terminated after finish */
  fj_buffer_free(&buf);

  /* pretty, straight to a FILE * */
  fj_writer_options opts = {0};
  opts.flags = FJ_WRITE_PRETTY;
  opts.indent = 2;
  if (fj_writer_new(&w, &opts, fj_sink_file(stdout)) != FJ_OK) return 3;
  err = write_cities(w);
  fj_writer_free(w);
  if (err || fflush(stdout) != 0) {
    fprintf(stderr, "write_json: %s\n", err ? fj_error_message(err) : "cannot write output");
    return err == FJ_ERR_IO || !err ? 3 : 1;
  }
  return 0;
}
