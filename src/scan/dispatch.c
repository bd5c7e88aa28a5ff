/* Run-time choice of the stage-1 kernel: the best one the CPU supports, or
 * the one named by FASTJSON_KERNEL or fj_kernel_select(). The choice is one
 * atomic pointer; the first use sets it only if nothing has yet (two first
 * uses in a race compute the same answer). A
 * kernel's table also names the number conversion built for its CPU, which
 * number.c's entry points call (fj__kernel_now() in stage1.h). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "fastjson/kernel.h"
#include "ondemand/number.h"
#include "scan/stage1.h"

static bool always(void) { return true; }

/* Number conversion per kernel (number.c): on x86-64 the variant compiled
 * with the toolchain's flags (_base) or for AVX2 with LZCNT (_avx2); on
 * other targets there is one, the entry points themselves. */
#if defined(FJ_KERNEL_X86)
#define FJ_NUMBER(v) fj__parse_double_##v, fj__parse_number_##v, fj__number_fast_##v
#else
#define FJ_NUMBER(v) fj__parse_double, fj__parse_number, fj__number_fast
#endif

static const fj__kernel scalar_kernel = {
    "scalar", fj__stage1_scalar, always, fj__minify_scalar, FJ_NUMBER(base), fj__utf8_valid_scalar};

/* kernels.cmake defines FJ_KERNEL_X86 or FJ_KERNEL_NEON when it compiles
 * those kernels in (by the target architecture, not by this compiler's flags). */
#if defined(FJ_KERNEL_X86)
#include "scan/cpu.h"
static const fj__kernel avx512_kernel = {"avx512",        fj__stage1_avx512,
                                         fj__cpu_avx512,  fj__minify_avx512,
                                         FJ_NUMBER(avx2), fj__utf8_valid_avx512};
static const fj__kernel avx2_kernel = {"avx2",          fj__stage1_avx2, fj__cpu_avx2,
                                       fj__minify_avx2, FJ_NUMBER(avx2), fj__utf8_valid_avx2};
static const fj__kernel sse42_kernel = {"sse42",          fj__stage1_sse42, fj__cpu_sse42,
                                        fj__minify_sse42, FJ_NUMBER(base),  fj__utf8_valid_sse42};
#elif defined(FJ_KERNEL_NEON)
/* Advanced SIMD is mandatory on AArch64 */
static const fj__kernel neon_kernel = {"neon",          fj__stage1_neon, always,
                                       fj__minify_neon, FJ_NUMBER(base), fj__utf8_valid_neon};
#endif

/* Best first. */
static const fj__kernel *const kernels[] = {
#if defined(FJ_KERNEL_X86)
    &avx512_kernel,
    &avx2_kernel,
    &sse42_kernel,
#elif defined(FJ_KERNEL_NEON)
    &neon_kernel,
#endif
    &scalar_kernel,
};
#define KERNEL_COUNT (sizeof kernels / sizeof kernels[0])

_Atomic(const fj__kernel *) fj__active_kernel; /* NULL: not chosen yet */

const fj__kernel *const *fj__kernels(size_t *count) {
  *count = KERNEL_COUNT;
  return kernels;
}

static const fj__kernel *best(void) {
  for (size_t i = 0; i < KERNEL_COUNT; i++)
    if (kernels[i]->supported()) return kernels[i];
  return &scalar_kernel;
}

static const fj__kernel *find(const char *name) {
  if (!name || !*name || strcmp(name, "auto") == 0) return best();
  for (size_t i = 0; i < KERNEL_COUNT; i++)
    if (strcmp(kernels[i]->name, name) == 0) return kernels[i]->supported() ? kernels[i] : NULL;
  return NULL;
}

const fj__kernel *fj__kernel_active(void) {
  const fj__kernel *k = atomic_load_explicit(&fj__active_kernel, memory_order_acquire);
  if (k) return k;
  /* An unusable FASTJSON_KERNEL falls back to the best kernel; the command
   * line tool reports the bad name (fj_kernel_select tells it). */
  k = find(getenv("FASTJSON_KERNEL"));
  if (!k) k = best();
  /* only if still unset: a fj_kernel_select() that returned while this
   * first use was deciding wins (a plain store here overwrote it) */
  const fj__kernel *none = NULL;
  if (atomic_compare_exchange_strong_explicit(&fj__active_kernel, &none, k, memory_order_acq_rel,
                                              memory_order_acquire))
    return k;
  return none; /* the kernel that was stored first */
}

size_t fj_kernel_count(void) { return KERNEL_COUNT; }

const char *fj_kernel_name(size_t i) { return i < KERNEL_COUNT ? kernels[i]->name : NULL; }

bool fj_kernel_supported(size_t i) { return i < KERNEL_COUNT && kernels[i]->supported(); }

const char *fj_kernel_active(void) { return fj__kernel_active()->name; }

fj_error fj_kernel_select(const char *name) {
  const fj__kernel *k = find(name);
  if (!k) return FJ_ERR_KERNEL;
  atomic_store_explicit(&fj__active_kernel, k, memory_order_release);
  return FJ_OK;
}
