/* fj_file_load() and fj_file_load_fd(): the bytes loaded are the file's,
 * whatever happens to the file afterwards (truncated, rewritten: a memory
 * mapping would raise SIGBUS on the lost pages), from regular files, empty
 * files, pipes and standard-input style descriptors; and the errors. The
 * oracle is the bytes this test wrote itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fastjson.h"

/* A temporary file holding `len` bytes of a pattern; its path in `path`. */
static unsigned char *make_file(char *path, size_t len) {
  strcpy(path, "/tmp/fj_test_file_XXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  unsigned char *bytes = malloc(len ? len : 1);
  assert_non_null(bytes);
  for (size_t i = 0; i < len; i++)
    bytes[i] = (unsigned char)(i * 131u + (i >> 12));
  size_t done = 0;
  while (done < len) {
    ssize_t w = write(fd, bytes + done, len - done);
    assert_true(w > 0);
    done += (size_t)w;
  }
  close(fd);
  return bytes;
}

static void regular_file_is_loaded_whole(void **state) {
  (void)state;
  static const size_t sizes[] = {1, 4095, 4096, 4097, 65535, 65536, 65537, 3000001};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    char path[64];
    unsigned char *bytes = make_file(path, sizes[k]);
    fj_file f;
    assert_int_equal(fj_file_load(&f, path), FJ_OK);
    assert_int_equal(f.len, sizes[k]);
    assert_memory_equal(f.data, bytes, sizes[k]);
    fj_file_free(&f);
    assert_null(f.data);
    fj_file_free(&f); /* twice: nothing to release */
    unlink(path);
    free(bytes);
  }
}

/* Loaded, then truncated to a page and rewritten by another writer: the
 * loaded bytes stay the original ones, all readable. */
static void loaded_bytes_survive_truncation(void **state) {
  (void)state;
  char path[64];
  const size_t len = (size_t)1 << 21;
  unsigned char *bytes = make_file(path, len);
  fj_file f;
  assert_int_equal(fj_file_load(&f, path), FJ_OK);
  assert_int_equal(truncate(path, 4096), 0);
  int fd = open(path, O_WRONLY);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, "xxxx", 4), 4);
  close(fd);
  assert_int_equal(f.len, len);
  assert_memory_equal(f.data, bytes, len); /* every page, the lost ones too */
  fj_file_free(&f);
  unlink(path);
  free(bytes);
}

static void empty_file_loads_empty(void **state) {
  (void)state;
  char path[64];
  unsigned char *bytes = make_file(path, 0);
  fj_file f;
  assert_int_equal(fj_file_load(&f, path), FJ_OK);
  assert_int_equal(f.len, 0);
  fj_file_free(&f);
  unlink(path);
  free(bytes);
}

/* A pipe has no size: read to its end, across many reads. */
static void pipe_is_read_to_its_end(void **state) {
  (void)state;
  const size_t len = 300000; /* more than a pipe buffer: the writer waits for the reader */
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    close(fds[0]);
    for (size_t i = 0; i < len; i++) {
      unsigned char b = (unsigned char)(i % 251);
      if (write(fds[1], &b, 1) != 1) _exit(1);
    }
    _exit(0);
  }
  close(fds[1]);
  fj_file f;
  assert_int_equal(fj_file_load_fd(&f, fds[0]), FJ_OK);
  close(fds[0]);
  assert_int_equal(f.len, len);
  for (size_t i = 0; i < len; i++)
    if (f.data[i] != (unsigned char)(i % 251)) fail_msg("byte %zu differs", i);
  fj_file_free(&f);
}

static void errors_are_reported(void **state) {
  (void)state;
  fj_file f;
  memset(&f, 0x5A, sizeof f);
  assert_int_equal(fj_file_load(&f, "/nonexistent/fj_test_file"), FJ_ERR_IO);
  assert_int_equal(errno, ENOENT);
  assert_null(f.data); /* zeroed after the failure */
  assert_int_equal(f.len, 0);
  fj_file_free(&f);
  assert_int_equal(fj_file_load(&f, "/tmp"), FJ_ERR_IO); /* a directory */
  assert_int_equal(errno, EISDIR);
  assert_null(f.data);
  assert_int_equal(fj_file_load(NULL, "/tmp"), FJ_ERR_INVALID_ARG);
  memset(&f, 0x5A, sizeof f);
  assert_int_equal(fj_file_load(&f, NULL), FJ_ERR_INVALID_ARG);
  assert_int_equal(fj_file_load_fd(&f, -1), FJ_ERR_INVALID_ARG);
  unsigned char untouched[sizeof f];
  memset(untouched, 0x5A, sizeof untouched);
  assert_memory_equal(&f, untouched, sizeof f); /* INVALID_ARG leaves *f as it was */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(regular_file_is_loaded_whole),
      cmocka_unit_test(loaded_bytes_survive_truncation),
      cmocka_unit_test(empty_file_loads_empty),
      cmocka_unit_test(pipe_is_read_to_its_end),
      cmocka_unit_test(errors_are_reported),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
