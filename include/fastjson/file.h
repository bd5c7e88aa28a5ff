/* libfastjson — loading a whole file for parsing. */
#ifndef FASTJSON_FILE_H
#define FASTJSON_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "fastjson/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A loaded file: `len` bytes at `data` (read-only; no padding, no NUL
 *  added). The other fields are private. */
typedef struct fj_file {
  const uint8_t *data;
  size_t len;
  void *base_;  /* the heap block */
  size_t size_; /* its size in bytes */
} fj_file;

/** Loads the file at `path` (NUL-terminated): reads it to its end into
 *  memory of its own (regular files, pipes, devices), a copy that later
 *  changes to the file cannot touch. (Not memory-mapped: reading a mapping
 *  of a file that another process truncates raises SIGBUS.)
 *  @param f  receives the contents; release them with fj_file_free(). After
 *            any failure but FJ_ERR_INVALID_ARG, *f is zeroed (nothing to
 *            release; fj_file_free() on it is safe and does nothing);
 *            FJ_ERR_INVALID_ARG leaves *f untouched.
 *  @return FJ_OK; FJ_ERR_INVALID_ARG (`f` or `path` NULL); FJ_ERR_IO (errno
 *          tells why);
 *          FJ_ERR_CAPACITY (a regular file larger than
 *          FJ_MAX_DOCUMENT_SIZE bytes, refused before reading, or a pipe or
 *          device that delivered more: reading stops there);
 *          FJ_ERR_NOMEM. */
FJ_API fj_error fj_file_load(fj_file *f, const char *path);

/** Loads everything readable from the open file descriptor `fd` (for
 *  example 0 for standard input) until end of file; `fd` stays open.
 *  @return as fj_file_load(), with *f in the same state after a failure;
 *          FJ_ERR_INVALID_ARG here means `f` NULL or `fd` negative. */
FJ_API fj_error fj_file_load_fd(fj_file *f, int fd);

/** Releases a loaded file; `data` becomes invalid. Safe on a zeroed fj_file. */
FJ_API void fj_file_free(fj_file *f);

#ifdef __cplusplus
}
#endif
#endif
