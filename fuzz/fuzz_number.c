/* libFuzzer target: number parsing against glibc. Whatever the bytes, the
 * grammar check, the integer parsers and the double parser agree with each
 * other, with strtoll/strtoull and with strtod (correctly rounded). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ondemand/number.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t len = 0;
  int is_integer = 0;
  fj_error scan = fj__number_scan(data, data + size, &len, &is_integer);
  double d;
  size_t dlen = 0;
  fj_error derr = fj__parse_double(data, data + size, &d, &dlen);
  if (scan == FJ_ERR_BAD_NUMBER) {
    if (derr != FJ_ERR_BAD_NUMBER) abort();
    return 0;
  }
  if (scan != FJ_OK || len > size || dlen != len) abort();
  char *text = malloc(len + 1);
  memcpy(text, data, len);
  text[len] = '\0';
  double want = strtod(text, NULL);
  if (isinf(want) ? derr != FJ_ERR_NUMBER_RANGE : (derr != FJ_OK || memcmp(&d, &want, sizeof d)))
    abort();
  int64_t i;
  size_t ilen = 0;
  fj_error ierr = fj__parse_int64(data, data + size, &i, &ilen);
  if (!is_integer) {
    if (ierr != FJ_ERR_NOT_INTEGER) abort();
  } else {
    errno = 0;
    long long want_i = strtoll(text, NULL, 10);
    if (errno == ERANGE ? ierr != FJ_ERR_NUMBER_RANGE : (ierr != FJ_OK || i != want_i)) abort();
  }
  free(text);
  return 0;
}
