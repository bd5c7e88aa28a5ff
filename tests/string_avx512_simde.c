/* The AVX-512 string primitives (src/ondemand/string_avx512.h) compiled
 * through SIMDe, for test_string --simde (ctest's string.avx512_simde) on
 * CPUs without AVX-512: tests/CMakeLists.txt builds this file with
 * FJ_AVX512_SIMDE defined and tests/avx512_simde.h included first, as it
 * builds kernel_avx512.c for test_kernels. The header's functions are static,
 * so they leave this file as a table of the library's own type. */
#include "ondemand/internal.h"
#include "ondemand/string_avx512.h"

extern const fj__string_kernel fj__string_avx512_simde;
const fj__string_kernel fj__string_avx512_simde = {find_backslash_avx512, copy_plain_avx512};
