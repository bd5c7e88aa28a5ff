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
  fj__stage1_result r = {0}, g;
  fj_error ref_err = fj__stage1_scalar(data, size, ref, &r);
  for (size_t k = 0; k < count; k++) {
    if (!kernels[k]->supported()) continue;
    g = (fj__stage1_result){0};
    fj_error err = kernels[k]->stage1(data, size, got, &g);
    if (err != ref_err || (err && g.err_offset != r.err_offset)) abort();
    if (!err && (g.n != r.n || g.u_escapes != r.u_escapes || memcmp(got, ref, r.n * sizeof *ref)))
      abort();
  }
  free(ref);
  free(got);
  return 0;
}
