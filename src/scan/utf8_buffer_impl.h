/* UTF-8 validation of a whole buffer with a kernel's block primitives,
 * written once: fj__utf8_valid_<FJ_K_NAME>(), what fj__utf8_valid() (the
 * writer's check of the strings it is given) calls through the kernel in
 * use. A kernel file includes it after stage1_impl.h, whose fj_k_block,
 * fj_k_load and fj_k_utf8 primitives it runs: the same algorithm as stage
 * 1's (utf8_simd.h, Keiser and Lemire 2021; utf8_scalar.h for the scalar
 * kernel), over the buffer's 64-byte blocks. */
#include <string.h>

#define FJ_K_UTF8_VALID FJ_K_PASTE(fj__utf8_valid_, FJ_K_NAME)

bool FJ_K_UTF8_VALID(const uint8_t *src, size_t n) {
  fj_k_utf8 u;
  fj_k_utf8_init(&u);
  fj_k_block b;
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    fj_k_load(&b, src + i);
    fj_k_utf8_block(&u, &b);
  }
  if (i < n) {
    /* the tail, padded with NULs: a sequence cut off by the end is then
     * an error in the padding, as it is in a document's last block */
    fj_k_load_tail(&b, src + i, n - i, 0);
    fj_k_utf8_block(&u, &b);
  }
  return fj_k_utf8_valid(&u);
}

#undef FJ_K_UTF8_VALID
