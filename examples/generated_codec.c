/* A generated codec: `fastjson-gen examples/codec/order.json` writes
 * order.h/order.c with `struct Order`, fj_read_Order() and fj_write_Order()
 * (CMake: fastjson_generate(TARGET t SCHEMA order.json)). This program reads
 * one order from FILE (or standard input), prints its total, and writes the
 * order back as compact JSON. A bad order prints where it went wrong as a
 * JSON Pointer and byte offset, e.g. "/lines/1/qty at byte 97: ...".
 * usage: generated_codec [FILE] */
#include <fastjson.h>
#include <stdio.h>
#include <string.h>

#include "order.h"

int main(int argc, char **argv) {
  fj_file f;
  if (argc > 2 || (argc == 2 ? fj_file_load(&f, argv[1]) : fj_file_load_fd(&f, 0)) != FJ_OK) {
    fprintf(stderr, "usage: generated_codec [FILE] (a readable file)\n");
    return 2;
  }
  fj_arena arena;
  fj_arena_init(&arena, NULL); /* every string and array of the order lives here */
  Order order;
  fj_decode_error err;
  int rc = 1;
  if (fj_read_Order(NULL, f.data, f.len, &arena, 0, &order, &err) != FJ_OK) {
    fprintf(stderr, "bad order: %s\n", err.message);
    goto done;
  }
  double total = 0;
  for (size_t i = 0; i < order.lines.count; i++)
    total += order.lines.items[i].qty * order.lines.items[i].price;
  printf("order %llu for %.*s: %zu lines, total %.2f\n", (unsigned long long)order.id,
         (int)order.customer.len, order.customer.data, order.lines.count, total);

  fj_buffer out = {0};
  fj_writer *w;
  if (fj_writer_new(&w, NULL, fj_sink_buffer(&out)) == FJ_OK) {
    if (fj_write_Order(w, &order) == FJ_OK && fj_writer_finish(w) == FJ_OK) {
      printf("%.*s\n", (int)out.len, (const char *)out.data);
      rc = 0;
    }
    fj_writer_free(w);
  }
  fj_buffer_free(&out);
done:
  fj_arena_free(&arena); /* frees the whole decoded order at once */
  fj_file_free(&f);
  return rc;
}
