/* Integer to decimal text with digit pairs; see itoa.h. */
#include "write/itoa.h"

const char fj__digit_pairs[200] = {
#define FJ_PAIR_ROW(t)                                                                             \
  t, '0', t, '1', t, '2', t, '3', t, '4', t, '5', t, '6', t, '7', t, '8', t, '9'
    FJ_PAIR_ROW('0'), FJ_PAIR_ROW('1'), FJ_PAIR_ROW('2'), FJ_PAIR_ROW('3'), FJ_PAIR_ROW('4'),
    FJ_PAIR_ROW('5'), FJ_PAIR_ROW('6'), FJ_PAIR_ROW('7'), FJ_PAIR_ROW('8'), FJ_PAIR_ROW('9'),
#undef FJ_PAIR_ROW
};
