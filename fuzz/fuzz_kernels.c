/* libFuzzer target: kernel differential. Every stage-1 kernel this CPU runs
 * must produce the same structural index, error and error offset as the
 * scalar reference, for any input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scan/stage1.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t count;
  const fj__kernel *const *kernels = fj__kernels(&count);
  uint32_t *ref = malloc((size + FJ_INDEX_SLACK) * sizeof *ref);
  uint32_t *got = malloc((size + FJ_INDEX_SLACK) * sizeof *got);
  uint32_t ref_n = 0, got_n = 0;
  size_t ref_off = 0, got_off = 0;
  fj_error ref_err = fj__stage1_scalar(data, size, ref, &ref_n, &ref_off);
  for (size_t k = 0; k < count; k++) {
    if (!kernels[k]->supported()) continue;
    got_n = 0;
    got_off = 0;
    fj_error err = kernels[k]->stage1(data, size, got, &got_n, &got_off);
    if (err != ref_err || (err && got_off != ref_off)) abort();
    if (!err && (got_n != ref_n || memcmp(got, ref, ref_n * sizeof *ref) != 0)) abort();
  }
  free(ref);
  free(got);
  return 0;
}
