/* Loading a file: mmap for regular files (no copy), read() otherwise. */
#define _POSIX_C_SOURCE 200809L
#include "fastjson/file.h"
#include "fastjson/parser.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static fj_error read_all(fj_file *f, int fd) {
  size_t cap = 1 << 16, len = 0;
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
  f->mapped_ = 0;
  return FJ_OK;
}

fj_error fj_file_load_fd(fj_file *f, int fd) {
  if (!f || fd < 0) return FJ_ERR_INVALID_ARG;
  memset(f, 0, sizeof *f);
  struct stat st;
  /* a regular file of size 0 may still have content (/proc, /sys): read it */
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m != MAP_FAILED) {
      f->data = m;
      f->len = (size_t)st.st_size;
      f->base_ = m;
      f->size_ = (size_t)st.st_size;
      f->mapped_ = 1;
      return FJ_OK;
    }
  }
  return read_all(f, fd);
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
  if (f->mapped_)
    munmap(f->base_, f->size_);
  else
    free(f->base_);
  memset(f, 0, sizeof *f);
}
