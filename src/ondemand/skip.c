/* Skipping many structurals at once: the stage-2 bracket matching of
 * fj__skip_to_depth() (cursor.c) for long skips, 16 structurals a step.
 *
 * A skip only needs each structural's first byte, and that byte's only use
 * is its bracket delta (+1 for [ and {, -1 for ] and }). Scalar code loads
 * idx[i], then buf[idx[i]], then the delta: three dependent loads and an add
 * per structural. With AVX-512 one gather fetches sixteen of those bytes,
 * and a prefix sum over sixteen lanes gives the depth after each of them:
 * the first lane at the target depth is where the skip ends. Stepping over
 * a document's large unread values (fj_object_find passing `user` objects,
 * fj_value_at_pointer, skipping the rest of an element) is what this is for;
 * short skips stay with the scalar loop, which ends before a group would
 * have been gathered. */
#include <string.h>

#include "ondemand/internal.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FJ_SKIP_X86 1
#include <immintrin.h>

#define FJ_SKIP_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,popcnt")))

/* Lanes shifted up by k (k = 1, 2, 4, 8), zeros coming in at lane 0: the
 * steps of a 16-lane inclusive prefix sum. */
#define FJ_LANES_UP(v, k) _mm512_alignr_epi32((v), _mm512_setzero_si512(), 16 - (k))

FJ_SKIP_AVX512 static void skip_groups_avx512(const uint8_t *buf, const uint8_t *read_end,
                                              const uint32_t *idx, uint32_t n, uint32_t *pos_io,
                                              uint32_t *depth_io, uint32_t target,
                                              uint32_t max_depth) {
  const __m512i low = _mm512_set1_epi32(0xFF), case_bit = _mm512_set1_epi32(0x20),
                opens = _mm512_set1_epi32('{'), closes = _mm512_set1_epi32('}'),
                one = _mm512_set1_epi32(1), minus_one = _mm512_set1_epi32(-1);
  uint32_t pos = *pos_io, depth = *depth_io;
  /* a group: sixteen structurals in the index, each gathered as 4 bytes
   * from a signed 32-bit offset, all inside the caller's memory, and the
   * depth limit out of reach of sixteen opening brackets */
  while (depth > target && n - pos >= 16 && depth + 16 <= max_depth) {
    const uint32_t last = idx[pos + 15];
    if (last > (uint32_t)INT32_MAX - 4 || (size_t)(read_end - buf) < (size_t)last + 4) break;
    const __m512i at = _mm512_loadu_si512((const void *)(idx + pos));
    /* '[' | 0x20 == '{' and ']' | 0x20 == '}', and no other byte maps there */
    const __m512i c =
        _mm512_or_si512(_mm512_and_si512(_mm512_i32gather_epi32(at, buf, 1), low), case_bit);
    const __mmask16 up = _mm512_cmpeq_epi32_mask(c, opens),
                    down = _mm512_cmpeq_epi32_mask(c, closes);
    const uint32_t ups = (uint32_t)__builtin_popcount(up),
                   downs = (uint32_t)__builtin_popcount(down);
    if (downs >= depth - target) { /* fewer closing brackets cannot reach it */
      __m512i d = _mm512_mask_mov_epi32(_mm512_maskz_mov_epi32(up, one), down, minus_one);
      d = _mm512_add_epi32(d, FJ_LANES_UP(d, 1));
      d = _mm512_add_epi32(d, FJ_LANES_UP(d, 2));
      d = _mm512_add_epi32(d, FJ_LANES_UP(d, 4));
      d = _mm512_add_epi32(d, FJ_LANES_UP(d, 8)); /* lane i: the depth change up to i */
      const __mmask16 there =
          _mm512_cmple_epi32_mask(d, _mm512_set1_epi32((int32_t)target - (int32_t)depth));
      if (there) { /* the first structural that brings the depth to target */
        *pos_io = pos + (uint32_t)__builtin_ctz(there) + 1;
        *depth_io = target;
        return;
      }
    }
    depth = depth + ups - downs;
    pos += 16;
  }
  *pos_io = pos;
  *depth_io = depth;
}
#endif

fj__skip_groups_fn fj__skip_groups_for(const char *kernel_name) {
#ifdef FJ_SKIP_X86
  if (strcmp(kernel_name, "avx512") == 0) return skip_groups_avx512;
#endif
  (void)kernel_name;
  return NULL; /* the scalar loop alone */
}
