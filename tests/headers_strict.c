/* Compiled, not run (ctest headers_strict.*): the public headers, whose
 * inline fast paths are compiled in every caller's files, must stay free of
 * warnings under the strict flags a caller may build with (tests/CMakeLists.txt
 * lists them), optimised, as flow warnings such as -Wmaybe-uninitialized
 * need. The function uses every inline path, with results the caller has
 * not set (as natural code leaves them) and reads them back, so that their
 * bodies are checked where they are expanded too. */
#include <fastjson.h>

/* A conversion, without an old-style cast in C++ (-Wold-style-cast is on
 * there: the headers' own casts must not trip it either). */
#ifdef __cplusplus
#define TO(T, x) static_cast<T>(x)
#else
#define TO(T, x) ((T)(x))
#endif

double fj_headers_strict_walk(const fj_value *root);
double fj_headers_strict_walk(const fj_value *root) {
  fj_object o;
  const char *key;
  size_t key_len;
  fj_value v;
  double sum = 0;
  if (fj_value_get_object(root, &o)) return -1;
  while (fj_object_next_key(&o, &key, &key_len, &v) == FJ_OK) {
    int64_t i;
    fj_number num;
    const char *s;
    size_t n;
    bool b, null;
    fj_array a;
    fj_value e;
    sum += TO(double, key_len);
    if (fj_value_get_int64(&v, &i) == FJ_OK) sum += TO(double, i);
    if (fj_value_get_number(&v, &num) == FJ_OK)
      sum += num.kind == FJ_NUMBER_INT64 ? TO(double, num.i) : num.d;
    if (fj_value_get_string(&v, &s, &n) == FJ_OK) sum += TO(double, n) + TO(double, *s);
    if (fj_value_get_bool(&v, &b) == FJ_OK) sum += b;
    if (fj_value_is_null(&v, &null) == FJ_OK) sum += null;
    if (fj_value_get_array(&v, &a) == FJ_OK)
      while (fj_array_next(&a, &e) == FJ_OK)
        sum += 1;
  }
  return sum;
}

/* One getter a function, the result read straight after the call: the
 * shape in which gcc's -Wmaybe-uninitialized looks into the inline path. */
double fj_headers_strict_number(const fj_value *v);
double fj_headers_strict_number(const fj_value *v) {
  fj_number num;
  if (fj_value_get_number(v, &num) != FJ_OK) return 0;
  return num.kind == FJ_NUMBER_INT64 ? TO(double, num.i) : num.d;
}

int64_t fj_headers_strict_int64(const fj_value *v);
int64_t fj_headers_strict_int64(const fj_value *v) {
  int64_t i;
  if (fj_value_get_int64(v, &i) != FJ_OK) return 0;
  return i;
}

size_t fj_headers_strict_string(const fj_value *v);
size_t fj_headers_strict_string(const fj_value *v) {
  const char *s;
  size_t n;
  if (fj_value_get_string(v, &s, &n) != FJ_OK) return 0;
  return n + TO(size_t, TO(unsigned char, *s));
}

int fj_headers_strict_bool(const fj_value *v);
int fj_headers_strict_bool(const fj_value *v) {
  bool b, null;
  if (fj_value_get_bool(v, &b) == FJ_OK) return b;
  if (fj_value_is_null(v, &null) == FJ_OK) return null ? 2 : 3;
  return 0;
}

/* The writer's inline paths (fastjson/writer.h), each event once. */
fj_error fj_headers_strict_write(fj_writer *w, bool b);
fj_error fj_headers_strict_write(fj_writer *w, bool b) {
  fj_error e = fj_writer_begin_array(w);
  if (!e) e = fj_writer_begin_object(w);
  if (!e) e = fj_writer_keyn(w, "k", 1);
  if (!e) e = fj_writer_stringn(w, "v", 1);
  if (!e) e = fj_writer_key(w, "d");
  if (!e) e = fj_writer_double(w, 0.5);
  if (!e) e = fj_writer_end_object(w);
  if (!e) e = fj_writer_string(w, "s");
  if (!e) e = fj_writer_null(w);
  if (!e) e = fj_writer_bool(w, b);
  if (!e) e = fj_writer_end_array(w);
  return e;
}
