/* The compress step of unvalidated minify for the SSE4.2 and AVX2 kernels
 * (minify_impl.h's fj_k_compress): SSSE3's pshufb moves the kept bytes of
 * each 8-byte group to its front, with the positions from
 * fj__minify_shuffle, and each group is stored where the kept bytes before
 * it end. The offsets of the eight groups are popcounts of the mask below
 * each group, all independent of one another, so the only chain from block
 * to block is one addition. Include after the kernel's <immintrin.h>. */
#ifndef FJ_SCAN_MINIFY_X86_H
#define FJ_SCAN_MINIFY_X86_H

#include <stddef.h>
#include <stdint.h>

#include "scan/minify.h"

/* Kept bytes before bit `bit` of keep. */
#define FJ_K_BELOW(keep, bit) ((size_t)__builtin_popcountll((keep) & ((1ull << (bit)) - 1)))

/* The 16 bytes at p: two 8-byte groups in one shuffle (the second group's
 * positions are 8..15: the table's 0..7 with bit 3 set; the table's 0x80
 * filler stays >= 0x80, which pshufb turns into 0). */
static inline void fj_k_compress16(uint8_t *out, const uint8_t *p, uint64_t keep, unsigned bit) {
  unsigned lo = (unsigned)(keep >> bit) & 0xFF, hi = (unsigned)(keep >> (bit + 8)) & 0xFF;
  __m128i idx = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)fj__minify_shuffle[lo]),
                                   _mm_loadl_epi64((const __m128i *)fj__minify_shuffle[hi]));
  idx = _mm_or_si128(idx, _mm_set_epi64x(0x0808080808080808ll, 0));
  __m128i r = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p), idx);
  _mm_storel_epi64((__m128i *)(out + FJ_K_BELOW(keep, bit)), r);
  _mm_storel_epi64((__m128i *)(out + FJ_K_BELOW(keep, bit + 8)), _mm_unpackhi_epi64(r, r));
}

static inline uint8_t *fj_k_compress(uint8_t *out, const uint8_t *p, const fj_k_block *blk,
                                     uint64_t keep) {
  (void)blk; /* reloading from p is as cheap as taking vectors apart */
  fj_k_compress16(out, p, keep, 0);
  fj_k_compress16(out, p + 16, keep, 16);
  fj_k_compress16(out, p + 32, keep, 32);
  fj_k_compress16(out, p + 48, keep, 48);
  return out + __builtin_popcountll(keep);
}

#endif
