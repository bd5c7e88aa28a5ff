/* libfastjson — choosing the stage-1 kernel.
 *
 * Stage 1 has one implementation per instruction set (for example "avx512",
 * "avx2", "sse42", "neon", "scalar"). By default the best one this CPU runs
 * is used, decided once on first use. The environment variable
 * FASTJSON_KERNEL=<name> overrides that choice at that moment, and
 * fj_kernel_select() at any time. A FASTJSON_KERNEL that names no usable
 * kernel (not compiled in, or not supported by this CPU) is ignored, as
 * the library has no call to fail at that moment: the best kernel is used
 * (fj_kernel_active() says which; fj_kernel_select() with the same name
 * returns the error, which is how the fastjson tool refuses it). All
 * kernels produce identical results. On x86-64 the kernel also decides
 * which build of the number conversion runs (the avx2 and avx512 kernels
 * have one compiled for their CPUs); its results are identical too.
 */
#ifndef FASTJSON_KERNEL_H
#define FASTJSON_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#include "fastjson/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Number of kernels compiled into this build. */
FJ_API size_t fj_kernel_count(void);

/** Name of compiled kernel `i` (0 <= i < fj_kernel_count(), best first), a
 *  static string; NULL if `i` is out of range. */
FJ_API const char *fj_kernel_name(size_t i);

/** Whether this CPU and OS can run compiled kernel `i` (false if out of range). */
FJ_API bool fj_kernel_supported(size_t i);

/** Name of the kernel in use, a static string. Thread-safe. */
FJ_API const char *fj_kernel_active(void);

/** Selects the kernel for all parsers of the process, from their next
 *  step on: a call running meanwhile (a parse, a number conversion, a
 *  stream's next batch) may do its remaining steps with either kernel,
 *  which give the same results. It also wins over the first use's choice
 *  if that first use is deciding at the same time. NULL, "" or "auto"
 *  selects the best supported one (so an empty FASTJSON_KERNEL variable
 *  means automatic).
 *  @return FJ_OK; FJ_ERR_KERNEL if no compiled kernel has that name or this
 *          CPU cannot run it (the selection is then unchanged). Thread-safe. */
FJ_API fj_error fj_kernel_select(const char *name);

#ifdef __cplusplus
}
#endif
#endif
