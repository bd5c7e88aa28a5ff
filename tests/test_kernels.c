/* Differential test of the stage-1 kernels (src/scan/kernel_*.c): every
 * kernel this CPU runs must give the scalar kernel's structural index (count
 * and entries), error code and error offset, on every input.
 *
 * Why: the SIMD kernels share one algorithm but each supplies its own
 * primitives (classification tables, byte shifts across vectors, masks); a
 * wrong primitive shows up only for some byte values at some positions. The
 * inputs therefore cover every corpus and JSONTestSuite file, every prefix
 * of a few of them, every byte value at every position of the first two
 * blocks in several contexts, backslash runs across block boundaries, and
 * random and mutated inputs from a fixed-seed generator.
 *
 * Every input is copied so that it ends at an unreadable page: a kernel that
 * reads past the caller's buffer crashes the test.
 *
 * test_kernels --simde (ctest's kernels.avx512_simde) compares instead the
 * avx512 kernel built with SIMDe's portable AVX-512 intrinsics (see
 * avx512_simde.h and tests/CMakeLists.txt), so that its primitives are
 * checked on CPUs without AVX-512 too. That build is in the test only where
 * SIMDe's headers (libsimde-dev) were found. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "scan/stage1.h"

/* ---- the inputs' home: a buffer that ends at a PROT_NONE page ------------ */

#define MAX_LEN (4u << 20) /* the largest corpus file is 3.3 MB */

static uint8_t *guard_end; /* first byte of the unreadable page */
static uint32_t *idx_ref, *idx_k;
static const fj__kernel *kernels[8];
static size_t kernel_count;
static unsigned long inputs_checked;
static bool simde_only; /* --simde: the avx512 kernel through SIMDe, not the CPU's kernels */

#ifdef FJ_TEST_AVX512_SIMDE
/* kernel_avx512.c compiled with FJ_AVX512_SIMDE and its names renamed */
fj_error fj__stage1_avx512_simde(const uint8_t *buf, size_t len, uint32_t *idx,
                                 fj__stage1_result *res);
size_t fj__minify_avx512_simde(const uint8_t *in, size_t len, uint8_t *out,
                               fj__minify_carry *carry);
bool fj__utf8_valid_avx512_simde(const uint8_t *src, size_t n);
static bool always(void) { return true; }
/* by name: any other fields of a kernel are not used by this test (left NULL) */
static const fj__kernel avx512_simde = {.name = "avx512 (SIMDe)",
                                        .stage1 = fj__stage1_avx512_simde,
                                        .supported = always,
                                        .minify = fj__minify_avx512_simde,
                                        .utf8_valid = fj__utf8_valid_avx512_simde};
#endif

static int setup(void **state) {
  (void)state;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t size = (MAX_LEN + page - 1) / page * page;
  uint8_t *mem =
      mmap(NULL, size + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED || mprotect(mem + size, page, PROT_NONE) != 0) return -1;
  guard_end = mem + size;
  idx_ref = malloc((MAX_LEN + FJ_INDEX_SLACK) * sizeof *idx_ref);
  idx_k = malloc((MAX_LEN + FJ_INDEX_SLACK) * sizeof *idx_k);
  if (!idx_ref || !idx_k) return -1;
  if (simde_only) {
#ifdef FJ_TEST_AVX512_SIMDE
    kernels[kernel_count++] = &avx512_simde;
    return 0;
#else
    fprintf(stderr, "--simde: this build has no SIMDe avx512 kernel (SIMDe not found)\n");
    return -1;
#endif
  }
  size_t n = 0;
  const fj__kernel *const *all = fj__kernels(&n);
  for (size_t i = 0; i < n && kernel_count < 8; i++)
    if (all[i]->supported() && strcmp(all[i]->name, "scalar") != 0)
      kernels[kernel_count++] = all[i];
  return 0;
}

static int teardown(void **state) {
  (void)state;
  free(idx_ref);
  free(idx_k);
  return 0;
}

static void dump(const uint8_t *p, size_t len) {
  size_t shown = len < 512 ? len : 512;
  for (size_t i = 0; i < shown; i++)
    fprintf(stderr, "%02x%s", p[i], i % 32 == 31 ? "\n" : " ");
  fprintf(stderr, "%s\n", shown < len ? "..." : "");
}

/* Runs every kernel on `data` and compares with scalar. */
static void check(const uint8_t *data, size_t len, const char *what) {
  assert_true(len <= MAX_LEN);
  uint8_t *buf = guard_end - len;
  memmove(buf, data, len);
  fj__stage1_result ref = {0}, got;
  fj_error err_ref = fj__stage1_scalar(buf, len, idx_ref, &ref);
  uint32_t n_ref = ref.n, n_k;
  size_t off_ref = ref.err_offset, off_k;
  /* the backslash block bytes: the same from every kernel, errors or not:
   * a block holding a backslash, or beginning with an escaped byte */
  static uint8_t bs_want[FJ_BLOCKS(MAX_LEN)], bs_got[FJ_BLOCKS(MAX_LEN)];
  /* and the \u block bytes: a 'u' after an odd run of backslashes */
  static uint8_t u_want[FJ_BLOCKS(MAX_LEN)], u_got[FJ_BLOCKS(MAX_LEN)];
  memset(bs_want, 0, sizeof bs_want);
  memset(u_want, 0, sizeof u_want);
  size_t run = 0; /* backslashes just before byte i */
  for (size_t i = 0; i < len; i++) {
    if (buf[i] == '\\' || (i % 64 == 0 && run % 2)) bs_want[i / 64] = 1;
    if (buf[i] == 'u' && run % 2) u_want[i / 64] = 1;
    run = buf[i] == '\\' ? run + 1 : 0;
  }
  /* stage 1 derives `backslashes` from the escaped bytes it saw: check it
   * against the plain definition */
  if (err_ref == FJ_OK && ref.backslashes != (memchr(buf, '\\', len) != NULL)) {
    fprintf(stderr, "%s: scalar: backslashes is %d (len %zu)\n", what, ref.backslashes, len);
    dump(buf, len);
    fail();
  }
  for (size_t k = 0; k < kernel_count; k++) {
    memset(bs_got, 0, sizeof bs_got);
    memset(u_got, 0, sizeof u_got);
    got = (fj__stage1_result){0};
    got.bs_blocks = bs_got;
    got.u_blocks = u_got;
    fj_error err_k = kernels[k]->stage1(buf, len, idx_k, &got);
    if (memcmp(bs_got, bs_want, sizeof bs_got) != 0) {
      fprintf(stderr, "%s: kernel %s: wrong backslash block bytes (len %zu)\n", what,
              kernels[k]->name, len);
      fail();
    }
    if (memcmp(u_got, u_want, sizeof u_got) != 0) {
      fprintf(stderr, "%s: kernel %s: wrong \\u block bytes (len %zu)\n", what, kernels[k]->name,
              len);
      fail();
    }
    n_k = got.n;
    off_k = got.err_offset;
    bool same = err_k == err_ref && n_k == n_ref && (err_ref == FJ_OK || off_k == off_ref) &&
                (err_ref != FJ_OK ||
                 (got.u_escapes == ref.u_escapes && got.backslashes == ref.backslashes)) &&
                memcmp(idx_k, idx_ref, n_ref * sizeof *idx_ref) == 0;
    if (!same) {
      uint32_t i = 0;
      while (i < n_ref && i < n_k && idx_k[i] == idx_ref[i])
        i++;
      fprintf(stderr,
              "%s: kernel %s differs from scalar (len %zu): error %s/%s, offset %zu/%zu, "
              "count %u/%u, first different entry #%u (%u/%u)\n",
              what, kernels[k]->name, len, fj_error_name(err_k), fj_error_name(err_ref), off_k,
              off_ref, n_k, n_ref, i, i < n_k ? idx_k[i] : 0, i < n_ref ? idx_ref[i] : 0);
      dump(buf, len);
      fail();
    }
  }
  inputs_checked++;
}

/* ---- files ----------------------------------------------------------------- */

static uint8_t *load(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  uint8_t *p = malloc(MAX_LEN);
  size_t n = p ? fread(p, 1, MAX_LEN, f) : 0;
  fclose(f);
  *len = n;
  return p;
}

/* Calls fn on every regular file of a folder (in readdir order). */
static unsigned each_file(const char *dir,
                          void (*fn)(const char *path, const uint8_t *p, size_t n)) {
  DIR *d = opendir(dir);
  if (!d) { /* the data folder is missing (-DFJ_REQUIRE_DATA=OFF) */
    printf("# %s missing: skipping\n", dir);
    skip();
  }
  unsigned files = 0;
  struct dirent *e;
  char path[2048];
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.' || e->d_type == DT_DIR) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    size_t n = 0;
    uint8_t *p = load(path, &n);
    if (!p) continue; /* a folder */
    fn(path, p, n);
    free(p);
    files++;
  }
  closedir(d);
  return files;
}

static void check_file(const char *path, const uint8_t *p, size_t n) { check(p, n, path); }

static void every_data_file(void **state) {
  (void)state;
  static const char *const dirs[] = {"corpus",
                                     "corpus/extra",
                                     "corpus/variants",
                                     "conformance/JSONTestSuite/test_parsing",
                                     "conformance/JSONTestSuite/test_transform",
                                     "conformance/nativejson-benchmark/roundtrip"};
  unsigned files = 0;
  char dir[1024];
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
    snprintf(dir, sizeof dir, "%s/%s", FJ_DATA_DIR, dirs[i]);
    files += each_file(dir, check_file);
  }
  assert_true(files > 350);
  printf("# %u data files, %zu kernels besides scalar\n", files, kernel_count);
}

/* Every prefix (every length from 0) of the head of a few files: each cut
 * leaves a string, escape, UTF-8 sequence or token open at the end. */
static void every_prefix(void **state) {
  (void)state;
  static const struct {
    const char *file;
    size_t head;
  } files[] = {
      {"corpus/twitter.json", 6000},        /* CJK UTF-8, escapes */
      {"corpus/twitterescaped.json", 6000}, /* \u escapes, backslash runs */
      {"corpus/citm_catalog.json", 3000},
      {"corpus/extra/demo.json", 1000},
      {"conformance/JSONTestSuite/test_parsing/y_string_accepted_surrogate_pair.json", 100},
  };
  unsigned long before = inputs_checked;
  char path[1024], what[1100];
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    snprintf(path, sizeof path, "%s/%s", FJ_DATA_DIR, files[f].file);
    size_t n = 0;
    uint8_t *p = load(path, &n);
    if (!p) {
      printf("# %s missing: skipping\n", path);
      skip();
    }
    if (n > files[f].head) n = files[f].head;
    for (size_t len = 0; len <= n; len++) {
      snprintf(what, sizeof what, "%s prefix %zu", files[f].file, len);
      check(p, len, what);
    }
    free(p);
  }
  printf("# %lu prefixes\n", inputs_checked - before);
}

/* ---- every byte value at every position -------------------------------------- */

/* Byte b at position pos (4..133) of a 160-byte input, in several contexts:
 * outside strings, inside a string, right after a backslash, after each byte
 * of an unfinished 3- and 4-byte UTF-8 sequence, and as the lead byte of
 * continuation bytes from each range that the UTF-8 rules tell apart. */
static void every_byte_everywhere(void **state) {
  (void)state;
  unsigned long before = inputs_checked;
  uint8_t in[160];
  for (int ctx = 0; ctx < 10; ctx++) {
    for (int b = 0; b < 256; b++) {
      for (size_t pos = 4; pos < 134; pos++) {
        if (ctx == 0) { /* outside: [1, 2, 3 ... with b among the tokens */
          for (size_t i = 0; i < sizeof in; i++)
            in[i] = "1, [\"a\": 2 ]"[i % 12];
        } else { /* inside one string that spans the whole input */
          memset(in, 'a', sizeof in);
          in[0] = '[';
          in[1] = '"';
          in[sizeof in - 2] = '"';
          in[sizeof in - 1] = ']';
        }
        if (ctx == 2) in[pos - 1] = '\\';
        if (ctx == 3) in[pos - 1] = 0xE2;
        if (ctx == 4) in[pos - 2] = 0xE2, in[pos - 1] = 0x82;
        if (ctx == 5) in[pos - 3] = 0xF0, in[pos - 2] = 0x9F, in[pos - 1] = 0x98;
        in[pos] = (uint8_t)b;
        if (ctx >= 6) { /* b as a lead byte, then as many continuations as it asks for */
          static const uint8_t second[4] = {0x80, 0x90, 0xA0, 0xBF};
          int conts = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : 1;
          in[pos + 1] = second[ctx - 6];
          for (int i = 2; i <= conts; i++)
            in[pos + i] = (uint8_t)(ctx == 9 ? 0xBF : 0x80);
        }
        check(in, sizeof in, "every byte");
        check(in, pos + 1, "every byte, at the end");
      }
    }
  }
  printf("# %lu byte/position inputs\n", inputs_checked - before);
}

/* Runs of 1..130 backslashes starting at each position of the first two
 * blocks, then a quote: the parity of each run decides what is a string. */
static void backslash_runs(void **state) {
  (void)state;
  unsigned long before = inputs_checked;
  uint8_t in[300];
  for (size_t start = 1; start < 130; start++) {
    for (size_t run = 1; run <= 130; run++) {
      memset(in, 'x', sizeof in);
      in[0] = '"';
      memset(in + start, '\\', run);
      in[start + run] = '"';
      in[start + run + 1] = ',';
      in[start + run + 2] = '"';
      size_t len = start + run + 3 + (run % 7);
      check(in, len, "backslash run");
    }
  }
  printf("# %lu backslash runs\n", inputs_checked - before);
}

/* ---- random and mutated inputs --------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void) { /* xorshift64*: fixed seed, so every run sees the same inputs */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1Dull;
}

static size_t rnd_below(size_t n) { return (size_t)(rnd() % n); }

/* Pieces that random inputs are made of. The first group keeps an input
 * valid at the stage-1 level; the second breaks it in every way stage 1
 * checks (and in ways it does not). */
static const char *const clean_pieces[] = {
    "\"",
    "\"",
    "\"",
    "\\\"",
    "\\\\",
    "\\n",
    "\\u00e9",
    "\\/",
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    " ",
    "\n",
    "\t",
    "\r",
    "    ",
    "1",
    "-2.5e3",
    "true",
    "null",
    "false",
    "abc",
    "x",
    "\xc3\xa9",
    "\xe2\x82\xac",
    "\xf0\x9f\x98\x80",
    "\xed\x9f\xbf",
    "\xf4\x8f\xbf\xbf",
    "\xe0\xa0\x80",
    "\xef\xbf\xbf",
    "\"key\": ",
    "0123456789abcdef0123456789abcdef",
    "\"\"",
};
static const char *const dirty_pieces[] = {
    "\\",
    "\\x",
    "\\a",
    "\x01",
    "\x1f",
    "\x7f",
    "\x80",
    "\xbf",
    "\xc0\x80",
    "\xc1\xbf",
    "\xc2",
    "\xe0\x80\x80",
    "\xe0\x9f\xbf",
    "\xed\xa0\x80",
    "\xed\xbf\xbf",
    "\xf0\x8f\xbf\xbf",
    "\xf4\x90\x80\x80",
    "\xf5\x80\x80\x80",
    "\xff",
    "\xfe",
    "\xe2\x82",
    "\xf0\x9f\x98",
    "\x0c",
    "\x1a",
    "\x00",
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static size_t random_input(uint8_t *out, size_t max, int dirty_percent) {
  /* lengths cluster around block boundaries */
  static const size_t around[] = {0, 64, 128, 192, 256};
  size_t target =
      rnd_below(4) ? around[rnd_below(COUNT(around))] + rnd_below(12) - 6 : rnd_below(max);
  if (target > max) target = rnd_below(max);
  size_t len = 0;
  while (len < target) {
    const char *piece;
    size_t plen;
    uint8_t byte;
    int r = (int)rnd_below(100);
    if (r < dirty_percent) {
      if (rnd_below(4) == 0) {
        byte = (uint8_t)rnd();
        piece = (const char *)&byte;
        plen = 1;
      } else {
        piece = dirty_pieces[rnd_below(COUNT(dirty_pieces))];
        plen = strlen(piece);
        if (plen == 0) plen = 1; /* "\x00" */
      }
    } else {
      piece = clean_pieces[rnd_below(COUNT(clean_pieces))];
      plen = strlen(piece);
    }
    if (len + plen > max) break;
    memcpy(out + len, piece, plen);
    len += plen;
  }
  return len;
}

static void random_inputs(void **state) {
  (void)state;
  unsigned long before = inputs_checked;
  uint8_t in[400];
  for (int i = 0; i < 300000; i++) {
    int dirty = i % 3 == 0 ? 0 : i % 3 == 1 ? 2 : 20;
    check(in, random_input(in, sizeof in, dirty), "random");
  }
  printf("# %lu random inputs\n", inputs_checked - before);
}

/* Windows of corpus files with a few bytes replaced, inserted or deleted. */
static void mutated_inputs(void **state) {
  (void)state;
  static const char *const files[] = {"corpus/twitter.json", "corpus/twitterescaped.json",
                                      "corpus/citm_catalog.json", "corpus/gsoc-2018.json",
                                      "corpus/github_events.json"};
  static const uint8_t special[] = {'"',  '\\', '{',  '}',  '[',  ']',  ':',  ',',  ' ', '\n',
                                    0x80, 0xC2, 0xE2, 0xED, 0xF0, 0xF4, 0x1F, 0x00, 'u'};
  unsigned long before = inputs_checked;
  char path[1024];
  uint8_t in[1200];
  for (size_t f = 0; f < COUNT(files); f++) {
    snprintf(path, sizeof path, "%s/%s", FJ_DATA_DIR, files[f]);
    size_t n = 0;
    uint8_t *p = load(path, &n);
    if (!p) {
      printf("# %s missing: skipping\n", path);
      skip();
    }
    for (int i = 0; i < 30000; i++) {
      size_t len = 1 + rnd_below(1000);
      size_t at = rnd_below(n - len);
      memcpy(in, p + at, len);
      for (int m = (int)rnd_below(4); m > 0 && len > 1; m--) {
        size_t pos = rnd_below(len);
        uint8_t byte = rnd_below(2) ? (uint8_t)rnd() : special[rnd_below(COUNT(special))];
        switch (rnd_below(3)) {
        case 0: in[pos] = byte; break;
        case 1: /* insert */
          memmove(in + pos + 1, in + pos, len - pos);
          in[pos] = byte;
          len++;
          break;
        default: /* delete */
          memmove(in + pos, in + pos + 1, len - pos - 1);
          len--;
          break;
        }
      }
      check(in, len, files[f]);
    }
    free(p);
  }
  printf("# %lu mutated inputs\n", inputs_checked - before);
}

/* RFC 3629 section 4's grammar, byte by byte: the oracle for the kernels'
 * buffer validation (utf8_buffer_impl.h). */
static bool utf8_rfc3629(const uint8_t *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint8_t c = s[i];
    size_t k;
    uint8_t lo = 0x80, hi = 0xBF; /* the second byte's range */
    if (c < 0x80) {
      i++;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      k = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      k = 2;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      k = 3;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return false;
    }
    if (n - i <= k || s[i + 1] < lo || s[i + 1] > hi) return false;
    for (size_t j = 2; j <= k; j++)
      if ((s[i + j] & 0xC0) != 0x80) return false;
    i += k + 1;
  }
  return true;
}

/* Every kernel's validation of whole buffers (what the writer checks its
 * strings with) against RFC 3629 at every length to 200 (three blocks and
 * a tail), the buffer ending at an unreadable page: well-formed text of 1-
 * to 4-byte characters with now and then one malformed piece, anywhere,
 * the end included. */
static void utf8_buffers(void **state) {
  (void)state;
  static const char *const pieces[] = {
      "a",    "\xC3\xA9",     "\xE2\x82\xAC",    "\xF0\x9F\x98\x80",
      "\x7F", "\xEF\xBF\xBF", "\xF4\x8F\xBF\xBF"};
  static const char *const bad[] = {"\x80",
                                    "\xC0\x80",
                                    "\xC1\xBF",
                                    "\xE0\x80\x80",
                                    "\xED\xA0\x80",
                                    "\xF0\x80\x80\x80",
                                    "\xF4\x90\x80\x80",
                                    "\xF5\x80\x80\x80",
                                    "\xFF",
                                    "\xC3",
                                    "\xE2\x82",
                                    "\xF0\x9F\x98"};
  const fj__kernel *all[9];
  size_t nk = 0;
  for (size_t i = 0; i < kernel_count; i++)
    all[nk++] = kernels[i];
  if (!simde_only) {
    size_t n = 0;
    const fj__kernel *const *list = fj__kernels(&n);
    all[nk++] = list[n - 1]; /* scalar, last */
  }
  uint64_t seed = 0x9E3779B97F4A7C15u;
  unsigned long checked = 0;
  uint8_t text[256];
  for (size_t len = 0; len <= 200; len++)
    for (int round = 0; round < 40; round++) {
      size_t n = 0;
      while (n < len) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        unsigned r = (unsigned)(seed >> 33);
        const char *p = r % 23 == 0 ? bad[r / 23 % 12] : pieces[r / 23 % 7];
        size_t k = strlen(p);
        if (n + k > len) k = len - n; /* the end may cut a character: malformed */
        memcpy(text + n, p, k);
        n += k;
      }
      uint8_t *buf = guard_end - len;
      memcpy(buf, text, len);
      bool want = utf8_rfc3629(buf, len);
      for (size_t i = 0; i < nk; i++) {
        if (all[i]->utf8_valid(buf, len) != want) {
          dump(buf, len);
          fail_msg("%s: utf8_valid says %s for these %zu bytes", all[i]->name,
                   want ? "invalid" : "valid", len);
        }
        checked++;
      }
    }
  printf("# %lu buffers validated\n", checked);
}

int main(int argc, char **argv) {
  simde_only = argc > 1 && strcmp(argv[1], "--simde") == 0;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_data_file),       cmocka_unit_test(every_prefix),
      cmocka_unit_test(every_byte_everywhere), cmocka_unit_test(backslash_runs),
      cmocka_unit_test(random_inputs),         cmocka_unit_test(mutated_inputs),
      cmocka_unit_test(utf8_buffers),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
