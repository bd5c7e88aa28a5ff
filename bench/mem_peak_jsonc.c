/* fastjson-mem-peak's json-c parse, in its own translation unit: jansson's
 * and json-c's headers both declare json_type. */
#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

bool fj_mem_parse_jsonc(const char *buf, size_t len);

bool fj_mem_parse_jsonc(const char *buf, size_t len) {
  json_tokener *tok = json_tokener_new_ex(1024); /* the default depth is 32 */
  if (!tok) return false;
  json_object *root = json_tokener_parse_ex(tok, buf, (int)len);
  bool ok = root && json_tokener_get_error(tok) == json_tokener_success;
  json_object_put(root);
  json_tokener_free(tok);
  return ok;
}
