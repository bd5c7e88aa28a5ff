/* Compiler hints shared by the library's sources (private). */
#ifndef FJ_UTIL_COMPILER_H
#define FJ_UTIL_COMPILER_H

#if defined(__GNUC__) || defined(__clang__)
#define FJ_LIKELY(x) __builtin_expect(!!(x), 1)
#define FJ_UNLIKELY(x) __builtin_expect(!!(x), 0)
/* general paths kept out of line, so the inline paths in front of them need
 * no stack frame */
#define FJ_SLOW __attribute__((noinline, cold))
/* a general path that is common too: out of line, but not cold */
#define FJ_NOINLINE __attribute__((noinline))
/* a hot helper with two callers, which compilers would keep out of line */
#define FJ_ALWAYS_INLINE __attribute__((always_inline))
#else
#define FJ_LIKELY(x) (x)
#define FJ_UNLIKELY(x) (x)
#define FJ_SLOW
#define FJ_NOINLINE
#define FJ_ALWAYS_INLINE
#endif

#endif
