/* One program using this libfastjson and rsyslog's libfastjson (Debian's
 * libfastjson-dev) at once: headers, library names and symbols coexist. */
#include <fastjson.h> /* ours: <prefix>/include/fastjson.h */
#include <json.h>     /* rsyslog's: /usr/include/libfastjson/json.h (its pkg-config -I) */
#include <stdio.h>

int main(void) {
  fj_parser *p;
  fj_value root;
  int64_t v = 0;
  if (fj_parser_new(&p, NULL) != FJ_OK || fj_parser_parse(p, "42", 2, &root) != FJ_OK ||
      fj_value_get_int64(&root, &v) != FJ_OK)
    return 1;
  fj_parser_free(p);
  struct fjson_object *o = fjson_object_new_int(7);
  printf("ours %lld, rsyslog's %d\n", (long long)v, fjson_object_get_int(o));
  fjson_object_put(o);
  return 0;
}
