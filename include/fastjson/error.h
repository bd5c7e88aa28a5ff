/* libfastjson — error codes, their names and messages.
 *
 * Every fallible function of the library returns an fj_error. FJ_OK (0) is
 * success; FJ_END (1) is not a failure but the end of an iteration; every
 * other code is an error. The list below is the single source of truth: it
 * generates the enum, fj_error_name() and fj_error_message().
 */
#ifndef FASTJSON_ERROR_H
#define FASTJSON_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/* FJ_API marks the public functions: the only symbols the shared library
 * exports (everything else is built with hidden visibility). */
#if defined(FJ_BUILDING_LIBRARY) && defined(__GNUC__)
#define FJ_API __attribute__((visibility("default")))
#else
#define FJ_API
#endif

/* Around the headers' inline code (not API): it is compiled in the
 * caller's files, so that a warning the caller's flags raise about it (C89
 * style in C; casts and 0 as a null pointer in C++) would not be the
 * caller's to fix. The code is C11 and C++11 as it stands. */
/* clang-format off */
/* (_Pragma takes one string literal: it must not be split) */
#if defined(__GNUC__) && !defined(__cplusplus)
#define FJ__INLINE_CODE_BEGIN \
  _Pragma("GCC diagnostic push") \
  _Pragma("GCC diagnostic ignored \"-Wdeclaration-after-statement\"")
#elif defined(__clang__)
#define FJ__INLINE_CODE_BEGIN \
  _Pragma("GCC diagnostic push") \
  _Pragma("GCC diagnostic ignored \"-Wold-style-cast\"") \
  _Pragma("GCC diagnostic ignored \"-Wzero-as-null-pointer-constant\"")
#elif defined(__GNUC__)
#define FJ__INLINE_CODE_BEGIN \
  _Pragma("GCC diagnostic push") \
  _Pragma("GCC diagnostic ignored \"-Wold-style-cast\"") \
  _Pragma("GCC diagnostic ignored \"-Wzero-as-null-pointer-constant\"") \
  _Pragma("GCC diagnostic ignored \"-Wuseless-cast\"")
#endif
#if defined(__GNUC__)
#define FJ__INLINE_CODE_END _Pragma("GCC diagnostic pop")
#else
#define FJ__INLINE_CODE_BEGIN
#define FJ__INLINE_CODE_END
#endif
/* clang-format on */

/* For the headers' inline paths (not API): inlined in every caller. gcc
 * keeps a static inline function that has more than one caller in a file
 * out of line when it finds it large: fj__short_decimal() and
 * fj__fraction_digits() then ran as calls shared by fj_value_get_number()
 * and fj_value_get_double() (visit numbers.json 9-15 % slower), and a file
 * that read strings in two places called one shared copy of the whole
 * fj_value_get_string() path (the benchmarks' walker, once it had two
 * checksums). */
#if defined(__GNUC__)
#define FJ__ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define FJ__ALWAYS_INLINE inline
#endif

/* X(code, message) */
#define FJ_ERROR_LIST(X)                                                                           \
  X(FJ_OK, "success")                                                                              \
  X(FJ_END, "no more elements (end of iteration, not an error)")                                   \
  X(FJ_ERR_NOMEM, "memory allocation failed")                                                      \
  X(FJ_ERR_INVALID_ARG, "invalid argument (NULL pointer or out-of-range option)")                  \
  X(FJ_ERR_CAPACITY, "input is larger than FJ_MAX_DOCUMENT_SIZE (4 GiB - 2 bytes)")                \
  X(FJ_ERR_DOCUMENT_TOO_LARGE,                                                                     \
    "a document of the stream is longer than the stream's max_document_size")                      \
  X(FJ_ERR_IO, "a file or stream could not be opened, read or written")                            \
  X(FJ_ERR_EMPTY, "the document is empty (no value, only whitespace)")                             \
  X(FJ_ERR_BOM, "the document starts with a byte order mark (RFC 8259 section 8.1)")               \
  X(FJ_ERR_UTF8, "invalid UTF-8 (RFC 3629)")                                                       \
  X(FJ_ERR_UNCLOSED_STRING, "string is not closed before the document ends")                       \
  X(FJ_ERR_CONTROL_CHAR, "unescaped control character (below U+0020) in a string")                 \
  X(FJ_ERR_BAD_ESCAPE, "invalid escape sequence in a string")                                      \
  X(FJ_ERR_BAD_SURROGATE, "\\u escape is a lone or mismatched UTF-16 surrogate")                   \
  X(FJ_ERR_EXPECTED_VALUE, "expected a value")                                                     \
  X(FJ_ERR_EXPECTED_KEY, "expected a string key")                                                  \
  X(FJ_ERR_EXPECTED_COLON, "expected ':' after an object key")                                     \
  X(FJ_ERR_EXPECTED_COMMA, "expected ',' or the end of the array or object")                       \
  X(FJ_ERR_TRAILING_CONTENT, "unexpected content after the end of the document")                   \
  X(FJ_ERR_TRUNCATED,                                                                              \
    "the document ends before its value is complete (open brackets, or cut off)")                  \
  X(FJ_ERR_BAD_NUMBER, "malformed number (RFC 8259 section 6)")                                    \
  X(FJ_ERR_BAD_LITERAL, "invalid literal (expected true, false or null)")                          \
  X(FJ_ERR_DEPTH, "arrays and objects are nested deeper than the maximum depth")                   \
  X(FJ_ERR_WRONG_TYPE, "the value is not of the requested type")                                   \
  X(FJ_ERR_NUMBER_RANGE, "the number is out of range for the requested type")                      \
  X(FJ_ERR_NOT_INTEGER, "the number has a fraction or exponent; it is not an integer")             \
  X(FJ_ERR_DUPLICATE_KEY, "the object has the same key twice and duplicates are refused")          \
  X(FJ_ERR_NO_SUCH_FIELD, "the object has no field with that key")                                 \
  X(FJ_ERR_INDEX_RANGE, "the array has no element at that index")                                  \
  X(FJ_ERR_BAD_POINTER,                                                                            \
    "malformed JSON Pointer (RFC 6901), or a token on an array that is not an index")              \
  X(FJ_ERR_OUT_OF_ORDER,                                                                           \
    "cursor misuse: the value was already passed over or its parent moved on")                     \
  X(FJ_ERR_STALE_DOCUMENT, "the value belongs to an earlier document of this parser")              \
  X(FJ_ERR_BUFFER_TOO_SMALL, "the caller's buffer is too small")                                   \
  X(FJ_ERR_KERNEL, "that stage 1 kernel is not compiled in or this CPU lacks it")

/** The result of every fallible call. FJ_OK is 0, so `if (err)` tests for
 *  anything but success; FJ_END (1) only ends iterations. */
typedef enum fj_error {
#define FJ_X_ENUM(code, msg) code,
  FJ_ERROR_LIST(FJ_X_ENUM)
#undef FJ_X_ENUM
      FJ_ERROR_COUNT
} fj_error;

/** The enum constant's name as a static NUL-terminated string, for example
 *  "FJ_ERR_UTF8"; "FJ_ERR_UNKNOWN" for a value outside the enum. Thread-safe. */
FJ_API const char *fj_error_name(fj_error err);

/** A one-line English description as a static NUL-terminated string, without
 *  a trailing period or newline; "unknown error" for a value outside the
 *  enum. Thread-safe. */
FJ_API const char *fj_error_message(fj_error err);

#ifdef __cplusplus
}
#endif
#endif
