/* libFuzzer target: kernel differential. Every stage-1 kernel this CPU runs
 * must produce the same structural index, error and error offset as the
 * scalar reference, for any input; and the same unvalidated-minify output
 * and open-string verdict (src/scan/minify_impl.h), at most as long as the
 * input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scan/stage1.h"

/* Every kernel's minify equals the scalar one's. The outputs are exactly
 * `size` bytes, so a write past the input's length is a sanitizer report. */
static void check_minify(const uint8_t *data, size_t size, const fj__kernel *const *kernels,
                         size_t count) {
  uint8_t *ref = malloc(size + 1), *got = malloc(size + 1);
  fj__minify_carry ref_c = {0, 0};
  size_t ref_n = fj__minify_scalar(data, size, ref, &ref_c);
  if (ref_n > size) abort();
  for (size_t k = 0; k < count; k++) {
    if (!kernels[k]->supported()) continue;
    fj__minify_carry c = {0, 0};
    size_t n = kernels[k]->minify(data, size, got, &c);
    if (n != ref_n || memcmp(got, ref, n) != 0 || c.in_string != ref_c.in_string) abort();
  }
  free(ref);
  free(got);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t count;
  const fj__kernel *const *kernels = fj__kernels(&count);
  uint32_t *ref = malloc((size + FJ_INDEX_SLACK) * sizeof *ref);
  uint32_t *got = malloc((size + FJ_INDEX_SLACK) * sizeof *got);
  fj__stage1_result r = {0}, g;
  fj_error ref_err = fj__stage1_scalar(data, size, ref, &r);
  for (size_t k = 0; k < count; k++) {
    if (!kernels[k]->supported()) continue;
    g = (fj__stage1_result){0};
    fj_error err = kernels[k]->stage1(data, size, got, &g);
    if (err != ref_err || (err && g.err_offset != r.err_offset)) abort();
    if (!err && (g.n != r.n || g.u_escapes != r.u_escapes || g.backslashes != r.backslashes ||
                 memcmp(got, ref, r.n * sizeof *ref)))
      abort();
  }
  free(ref);
  free(got);
  check_minify(data, size, kernels, count);
  return 0;
}
