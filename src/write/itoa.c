/* Integer to decimal text with digit pairs; see itoa.h. */
#include "write/itoa.h"

const char fj__digit_pairs[200] = {
#define FJ_PAIR_ROW(t) \
  t, '0', t, '1', t, '2', t, '3', t, '4', t, '5', t, '6', t, '7', t, '8', t, '9'
    FJ_PAIR_ROW('0'), FJ_PAIR_ROW('1'), FJ_PAIR_ROW('2'), FJ_PAIR_ROW('3'), FJ_PAIR_ROW('4'),
    FJ_PAIR_ROW('5'), FJ_PAIR_ROW('6'), FJ_PAIR_ROW('7'), FJ_PAIR_ROW('8'), FJ_PAIR_ROW('9'),
#undef FJ_PAIR_ROW
};

size_t fj__u64toa(char *out, uint64_t v) {
  if (v < 100000000u) return fj__put_upto8(out, (uint32_t)v);
  if (v < UINT64_C(10000000000000000)) { /* 9 to 16 digits: two groups */
    uint64_t hi = v / 100000000u;
    size_t k = fj__put_upto8(out, (uint32_t)hi);
    fj__put8(out + k, (uint32_t)(v - hi * 100000000u));
    return k + 8;
  }
  /* 17 to 20 digits: the top group has at most 4 (2^64 < 1.9 * 10^19) */
  uint64_t top = v / UINT64_C(10000000000000000);
  uint64_t rest = v - top * UINT64_C(10000000000000000);
  uint64_t mid = rest / 100000000u;
  size_t k = fj__put_upto8(out, (uint32_t)top);
  fj__put8(out + k, (uint32_t)mid);
  fj__put8(out + k + 8, (uint32_t)(rest - mid * 100000000u));
  return k + 16;
}

size_t fj__i64toa(char *out, int64_t v) {
  /* negate in unsigned arithmetic: INT64_MIN has no positive twin */
  uint64_t mag = (uint64_t)v;
  if (v >= 0) return fj__u64toa(out, mag);
  out[0] = '-';
  return 1 + fj__u64toa(out + 1, 0 - mag);
}
