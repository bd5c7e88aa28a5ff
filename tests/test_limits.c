/* Limits: inputs too large for 32-bit index offsets are refused up front
 * (before any byte is read), and truncated documents are always rejected:
 * every prefix of every corpus document (100 sampled evenly, plus the last
 * 128 bytes byte by byte) fails validation, since each corpus root is a
 * container that only its final bracket closes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fastjson.h"
#include "test_util.h"

static fj_error discard(void *ctx, const void *bytes, size_t len) {
  (void)ctx;
  (void)bytes;
  (void)len;
  return FJ_OK;
}

static void oversized_input_is_refused_up_front(void **state) {
  (void)state;
  if (sizeof(size_t) < 8) skip();
  fj_parser *p;
  assert_int_equal(fj_parser_new(&p, NULL), FJ_OK);
  static const char small[] = "[1]";
  /* the length is a lie: the parser must refuse it without reading */
  size_t huge = (size_t)FJ_MAX_DOCUMENT_SIZE + 1;
  fj_value root;
  fj_location loc;
  assert_int_equal(fj_parser_parse(p, small, huge, &root), FJ_ERR_CAPACITY);
  assert_int_equal(fj_parser_last_error(p, NULL), FJ_ERR_CAPACITY);
  assert_int_equal(fj_parser_validate(p, small, (size_t)5 << 30), FJ_ERR_CAPACITY);
  assert_int_equal(fj_minify(p, small, huge, (fj_sink){discard, NULL}), FJ_ERR_CAPACITY);
  /* and the parser still works afterwards */
  assert_int_equal(fj_parser_parse(p, small, 3, &root), FJ_OK);
  assert_int_equal(fj_parser_last_error(p, &loc), FJ_OK);
  fj_parser_free(p);
}

/* The offset just past the root's closing bracket (the document without
 * its trailing whitespace). */
static size_t content_end(const unsigned char *s, size_t n) {
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == '\t'))
    n--;
  return n;
}

static void check_prefix(fj_parser *p, const unsigned char *buf, size_t k, const char *name) {
  unsigned char *copy = malloc(k ? k : 1); /* exact size: over-reads are caught */
  memcpy(copy, buf, k);
  fj_error err = fj_parser_validate(p, copy, k);
  if (err == FJ_OK) fail_msg("%s: prefix of %zu bytes accepted", name, k);
  fj_location loc;
  assert_int_equal(fj_parser_last_error(p, &loc), err);
  assert_true(loc.offset <= k);
  free(copy);
}

static void every_truncated_corpus_document_is_rejected(void **state) {
  (void)state;
  size_t count, checked = 0;
  char **names = fj_test_list_dir(FJ_DATA_DIR "/corpus", ".json", &count);
  if (!names) skip();
  fj_parser *p;
  assert_int_equal(fj_parser_new(&p, NULL), FJ_OK);
  for (size_t i = 0; i < count; i++) {
    char path[1024];
    size_t len;
    snprintf(path, sizeof path, "%s/%s", FJ_DATA_DIR "/corpus", names[i]);
    unsigned char *buf = fj_test_read_file(path, &len);
    assert_non_null(buf);
    size_t end = content_end(buf, len);
    size_t stride = end / 100 + 1;
    for (size_t k = 0; k < end; k += stride, checked++)
      check_prefix(p, buf, k, names[i]);
    for (size_t k = end > 128 ? end - 128 : 0; k < end; k++, checked++)
      check_prefix(p, buf, k, names[i]);
    assert_int_equal(fj_parser_validate(p, buf, end), FJ_OK);
    free(buf);
  }
  fj_parser_free(p);
  fj_test_free_list(names, count);
  printf("prefixes checked: %zu\n", checked);
  assert_true(checked > 1000);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(oversized_input_is_refused_up_front),
      cmocka_unit_test(every_truncated_corpus_document_is_rejected),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
