/* fastjson-mem-peak's jansson parse, in its own translation unit: jansson's
 * and json-c's headers both declare json_type. */
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

bool fj_mem_parse_jansson(const char *buf, size_t len);

bool fj_mem_parse_jansson(const char *buf, size_t len) {
  json_error_t e;
  json_t *root = json_loadb(buf, len, 0, &e);
  if (!root) return false;
  json_decref(root);
  return true;
}
