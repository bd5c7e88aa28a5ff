/* Helpers shared by the test programs: reading files, listing folders, an
 * allocator that counts. */
#ifndef FJ_TEST_UTIL_H
#define FJ_TEST_UTIL_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fastjson.h"

/* Reads a whole file into malloc'ed memory of exactly its size (so that
 * AddressSanitizer catches any read past the end). NULL if unreadable. */
static inline unsigned char *fj_test_read_file(const char *path, size_t *len) {
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
  if (buf && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = n > 0 ? (size_t)n : 0;
  return buf;
}

/* fj_test_read_file() of the file `name` in folder `dir`. */
static inline unsigned char *fj_test_read_in(const char *dir, const char *name, size_t *len) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return fj_test_read_file(path, len);
}

static inline int fj_test_cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the files in `dir` ending in `suffix`; *count entries.
 * Free each name and the array. NULL (count 0) if the folder is missing. */
static inline char **fj_test_list_dir(const char *dir, const char *suffix, size_t *count) {
  DIR *d = opendir(dir);
  *count = 0;
  if (!d) return NULL;
  size_t cap = 64;
  char **names = malloc(cap * sizeof *names);
  struct dirent *e;
  size_t sl = strlen(suffix);
  while ((e = readdir(d))) {
    size_t nl = strlen(e->d_name);
    if (nl < sl || strcmp(e->d_name + nl - sl, suffix) != 0) continue;
    if (*count == cap) names = realloc(names, (cap *= 2) * sizeof *names);
    names[(*count)++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, *count, sizeof *names, fj_test_cmp_names);
  return names;
}

static inline void fj_test_free_list(char **names, size_t count) {
  for (size_t i = 0; i < count; i++)
    free(names[i]);
  free(names);
}

/* A library allocator (fj_allocator) that counts, in the fj_test_alloc_count
 * its ctx points to: bytes asked for (malloc sizes and realloc's new sizes,
 * failed requests included) and bytes live. */
typedef struct fj_test_alloc_count {
  size_t asked, live;
} fj_test_alloc_count;

static inline void *fj_test_count_malloc(void *ctx, size_t n) {
  fj_test_alloc_count *c = (fj_test_alloc_count *)ctx;
  void *p = malloc(n);
  c->asked += n;
  if (p) c->live += n;
  return p;
}

static inline void *fj_test_count_realloc(void *ctx, void *p, size_t old, size_t n) {
  fj_test_alloc_count *c = (fj_test_alloc_count *)ctx;
  void *q = realloc(p, n);
  c->asked += n;
  if (q) c->live += n - old;
  return q;
}

static inline void fj_test_count_free(void *ctx, void *p, size_t n) {
  ((fj_test_alloc_count *)ctx)->live -= n;
  free(p);
}

static inline fj_allocator fj_test_counting_allocator(fj_test_alloc_count *c) {
  fj_allocator a = {fj_test_count_malloc, fj_test_count_realloc, fj_test_count_free, c};
  return a;
}

#endif
