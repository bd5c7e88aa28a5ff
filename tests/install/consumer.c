/* A program built against an installed libfastjson (tests/test_install.py):
 * parses a document with the cursor, writes one with the writer, and prints
 * what it read, the library version and the stage-1 kernel in use. */
#include <fastjson.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  static const char json[] = "{\"name\": \"caf\\u00e9\", \"n\": [1, 2, 3]}";
  fj_parser *p;
  fj_value root, name, n, el;
  fj_object obj;
  fj_array arr;
  const char *s;
  size_t len;
  int64_t sum = 0, x;
  if (fj_parser_new(&p, NULL) != FJ_OK) return 1;
  fj_error err = fj_parser_parse(p, json, strlen(json), &root);
  if (!err) err = fj_value_get_object(&root, &obj);
  if (!err) err = fj_object_find(&obj, "name", &name);
  if (!err) err = fj_value_get_string(&name, &s, &len);
  if (!err) err = fj_object_find(&obj, "n", &n);
  if (!err) err = fj_value_get_array(&n, &arr);
  while (!err && (err = fj_array_next(&arr, &el)) == FJ_OK)
    if ((err = fj_value_get_int64(&el, &x)) == FJ_OK) sum += x;
  if (err != FJ_END) {
    fprintf(stderr, "consumer: %s\n", fj_error_name(err));
    return 1;
  }

  fj_buffer out = {0};
  fj_writer *w;
  if (fj_writer_new(&w, NULL, fj_sink_buffer(&out)) != FJ_OK) return 1;
  fj_writer_begin_object(w);
  fj_writer_key(w, "name");
  fj_writer_stringn(w, s, len);
  fj_writer_key(w, "sum");
  fj_writer_int64(w, sum);
  fj_writer_end_object(w);
  err = fj_writer_finish(w);
  if (err) return 1;
  printf("%s\nfastjson %s, kernel %s\n", (const char *)out.data, FASTJSON_VERSION_STRING,
         fj_kernel_active());
  fj_writer_free(w);
  fj_buffer_free(&out);
  fj_parser_free(p);
  return 0;
}
