/* Replays saved inputs through a fuzz target's LLVMFuzzerTestOneInput
 * without libFuzzer, so that every crash ever found (and a seed per target)
 * runs in the ordinary test suite, under any compiler and sanitizer.
 *
 *   fuzz_replay_<target> DIR|FILE...
 *
 * Each file is read into a buffer of exactly its size (so that an
 * over-read is caught by AddressSanitizer) and passed to the target; the
 * target aborts on any broken invariant. A directory that is missing or
 * holds no file is a failure: a regression directory that silently stops
 * running anything would be no test at all. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return 1;
  }
  size_t cap = 4096, len = 0, got;
  uint8_t *buf = malloc(cap);
  while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  if (!buf) return 1;
  uint8_t *exact = malloc(len ? len : 1); /* no slack after the input */
  if (!exact) return 1;
  memcpy(exact, buf, len);
  free(buf);
  printf("%s (%zu bytes)\n", path, len);
  fflush(stdout); /* the name is out before a crash */
  LLVMFuzzerTestOneInput(exact, len);
  free(exact);
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of `dir`, in name order; the count into *n. */
static int run_dir(const char *dir, size_t *n) {
  DIR *d = opendir(dir);
  if (!d) {
    perror(dir);
    return 1;
  }
  char **names = NULL;
  size_t count = 0, fails = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char **grown = realloc(names, (count + 1) * sizeof *names);
    if (!grown) return 1;
    names = grown;
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    names[count] = malloc(len);
    snprintf(names[count++], len, "%s/%s", dir, e->d_name);
  }
  closedir(d);
  qsort(names, count, sizeof *names, by_name);
  *n = 0;
  for (size_t i = 0; i < count; i++) {
    struct stat st;
    if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
      fails += (size_t)run_file(names[i]);
      ++*n;
    }
    free(names[i]);
  }
  free(names);
  return fails != 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s DIR|FILE...\n", argv[0]);
    return 2;
  }
  int status = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
      size_t n = 0;
      status |= run_dir(argv[i], &n);
      if (n == 0) {
        fprintf(stderr, "%s: no inputs to replay\n", argv[i]);
        status = 1;
      }
    } else {
      status |= run_file(argv[i]);
    }
  }
  return status;
}
