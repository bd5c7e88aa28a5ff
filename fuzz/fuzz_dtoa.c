/* libFuzzer target: shortest round-trip doubles. Any 8 bytes as a double:
 * the text must read back (strtod) to the same bits, and no shorter %.Ng
 * form may round-trip. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastjson.h"

/* Significant digits of a formatted number: from the first nonzero digit to
 * the last nonzero one, before any exponent ("100.0" has 1, "0.0012" 2). */
static size_t digits(const char *s) {
  size_t n = 0, pending_zeros = 0;
  int seen = 0;
  for (; *s && *s != 'e' && *s != 'E'; s++) {
    if (*s < '0' || *s > '9') continue;
    if (*s == '0') {
      if (seen) pending_zeros++;
      continue;
    }
    n += pending_zeros + 1;
    pending_zeros = 0;
    seen = 1;
  }
  return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 8) return 0;
  double v;
  memcpy(&v, data, 8);
  char buf[64];
  size_t len = 0;
  fj_error err = fj_format_double(v, buf, sizeof buf - 1, &len);
  if (!isfinite(v)) return 0; /* non-finite values are the writer's policy */
  if (err || len >= sizeof buf) abort();
  buf[len] = '\0';
  double back = strtod(buf, NULL);
  if (memcmp(&back, &v, 8) != 0) abort();
  size_t ours = digits(buf);
  for (int prec = 1; prec < 17 && (size_t)prec < ours; prec++) {
    char g[64];
    snprintf(g, sizeof g, "%.*g", prec, v);
    double b = strtod(g, NULL);
    if (memcmp(&b, &v, 8) == 0) abort(); /* a shorter form round-trips */
  }
  return 0;
}
