/* Where a chunked stream's bytes come from: a file descriptor or a FILE *
 * (a caller's callback needs no code here). Each reader returns FJ_OK with
 * *got == 0 at the end of the input. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <unistd.h>

#include "ondemand/stream_internal.h"

fj_error fj__stream_read_fd(void *ctx, void *buf, size_t cap, size_t *got) {
  int fd = *(const int *)ctx;
  for (;;) {
    ssize_t n = read(fd, buf, cap);
    if (n >= 0) {
      *got = (size_t)n;
      return FJ_OK;
    }
    if (errno != EINTR) break; /* a signal is not a read error: ask again */
  }
  *got = 0;
  return FJ_ERR_IO;
}

fj_error fj__stream_read_file(void *ctx, void *buf, size_t cap, size_t *got) {
  FILE *f = ctx;
  *got = fread(buf, 1, cap, f);
  if (*got == 0 && ferror(f)) return FJ_ERR_IO;
  return FJ_OK; /* a short read with data: the error, if any, comes next call */
}
