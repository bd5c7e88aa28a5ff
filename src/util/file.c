/* Loading a file: read() into memory of our own. Not mmap: a mapped file
 * that another process truncates turns reads past its new end into SIGBUS,
 * a crash no error code can report (a log being rotated, a file rewritten
 * in place). A copy costs one pass at memory speed and cannot change. */
#define _POSIX_C_SOURCE 200809L
#include "fastjson/file.h"
#include "fastjson/parser.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads fd to its end into a block of at first `cap` bytes (grown by
 * doubling): a regular file's size plus one, so that its end is the first
 * read that returns 0, and a file that grew meanwhile is read whole too. */
static fj_error read_all(fj_file *f, int fd, size_t cap) {
  size_t len = 0;
  uint8_t *buf = malloc(cap);
  if (!buf) return FJ_ERR_NOMEM;
  for (;;) {
    if (len > FJ_MAX_DOCUMENT_SIZE) { /* no parse could take it: stop reading */
      free(buf);
      return FJ_ERR_CAPACITY;
    }
    if (len == cap) {
      uint8_t *bigger = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
      if (!bigger) {
        free(buf);
        return FJ_ERR_NOMEM;
      }
      buf = bigger;
      cap *= 2;
    }
    ssize_t r = read(fd, buf + len, cap - len);
    if (r == 0) break;
    if (r < 0) {
      if (errno == EINTR) continue;
      free(buf);
      return FJ_ERR_IO;
    }
    len += (size_t)r;
  }
  f->data = buf;
  f->len = len;
  f->base_ = buf;
  f->size_ = cap;
  return FJ_OK;
}

fj_error fj_file_load_fd(fj_file *f, int fd) {
  if (!f || fd < 0) return FJ_ERR_INVALID_ARG;
  memset(f, 0, sizeof *f);
  struct stat st;
  size_t cap = (size_t)1 << 16;
  /* a regular file of size 0 may still have content (/proc, /sys): read on */
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    if ((uintmax_t)st.st_size > FJ_MAX_DOCUMENT_SIZE) return FJ_ERR_CAPACITY;
    cap = (size_t)st.st_size + 1;
  }
  return read_all(f, fd, cap);
}

fj_error fj_file_load(fj_file *f, const char *path) {
  if (!f || !path) return FJ_ERR_INVALID_ARG;
  memset(f, 0, sizeof *f);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return FJ_ERR_IO;
  fj_error err = fj_file_load_fd(f, fd);
  int saved = errno;
  close(fd);
  errno = saved;
  return err;
}

void fj_file_free(fj_file *f) {
  if (!f || !f->base_) return;
  free(f->base_);
  memset(f, 0, sizeof *f);
}
