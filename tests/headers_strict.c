/* Compiled, not run (ctest headers_strict.*): the public headers, whose
 * inline fast paths are compiled in every caller's files, must stay free of
 * warnings under the strict flags a caller may build with (tests/CMakeLists.txt
 * lists them). The function uses the inline paths, so that their bodies are
 * checked where they are expanded too. */
#include <fastjson.h>

int fj_headers_strict_walk(const fj_value *root);
int fj_headers_strict_walk(const fj_value *root) {
  fj_object o;
  const char *key;
  size_t key_len;
  fj_value v;
  int64_t i;
  int n = 0;
  if (fj_value_get_object(root, &o)) return -1;
  while (fj_object_next_key(&o, &key, &key_len, &v) == FJ_OK)
    if (fj_value_get_int64(&v, &i) == FJ_OK) n++;
  return n;
}
