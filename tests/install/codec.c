/* A struct codec generated at build time by the installed fastjson-gen
 * (fastjson_generate() from the CMake package): reads a point, writes it
 * back, prints the output. */
#include <stdio.h>
#include <string.h>

#include "point.h"

int main(void) {
  const char *json = "{\"y\": -2, \"label\": \"p\", \"x\": 7}";
  fj_arena arena;
  fj_arena_init(&arena, NULL);
  Point p;
  fj_decode_error err;
  if (fj_read_Point(NULL, json, strlen(json), &arena, 0, &p, &err)) {
    fprintf(stderr, "%s\n", err.message);
    return 1;
  }
  fj_buffer out = {0};
  fj_writer *w;
  if (fj_writer_new(&w, NULL, fj_sink_buffer(&out)) || fj_write_Point(w, &p) || fj_writer_finish(w))
    return 1;
  printf("%.*s\n", (int)out.len, (const char *)out.data);
  fj_writer_free(w);
  fj_buffer_free(&out);
  fj_arena_free(&arena);
  return 0;
}
