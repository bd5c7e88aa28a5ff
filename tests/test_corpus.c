/* The standard corpus (shared/data/corpus, corpus/extra): every document
 * validates; minify equals the input with whitespace outside strings
 * removed (computed here by an independent byte-state machine); pretty
 * output re-parses to the same values (Python's json module is the oracle),
 * and pretty-printing the minified text gives the same bytes again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fastjson.h"
#include "test_util.h"

typedef struct growbuf {
  unsigned char *data;
  size_t len, cap;
} growbuf;

static fj_error append(void *ctx, const void *bytes, size_t len) {
  growbuf *g = ctx;
  if (g->len + len > g->cap) {
    g->cap = (g->len + len) * 2;
    g->data = realloc(g->data, g->cap);
  }
  memcpy(g->data + g->len, bytes, len);
  g->len += len;
  return FJ_OK;
}

/* The oracle for minify: drop whitespace outside strings. */
static unsigned char *strip(const unsigned char *s, size_t n, size_t *out_len) {
  unsigned char *out = malloc(n + 1);
  size_t k = 0;
  int in_string = 0, escaped = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = s[i];
    if (in_string) {
      if (escaped)
        escaped = 0;
      else if (c == '\\')
        escaped = 1;
      else if (c == '"')
        in_string = 0;
    } else if (c == '"') {
      in_string = 1;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      continue;
    }
    out[k++] = c;
  }
  *out_len = k;
  return out;
}

static int write_file(const char *path, const void *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t w = fwrite(data, 1, len, f);
  return fclose(f) == 0 && w == len ? 0 : -1;
}

/* Pretty outputs wait in temporary files for one Python run (a process per
 * file spent most of the test starting interpreters). */
typedef struct pending {
  FILE *list; /* lines "original<TAB>pretty" */
  char list_path[64];
  size_t count;
} pending;

/* Python's verdict on every pair listed: 1 if each pair holds equal JSON
 * values, 0 if one differs (named on stdout), -1 without python3. */
static int python_all_equal(const char *list_path) {
  if (system("python3 -c 'import json' >/dev/null 2>&1") != 0) return -1;
  char cmd[1024];
  snprintf(
      cmd, sizeof cmd,
      "python3 -c 'import json,sys\n"
      "bad = 0\n"
      "for line in open(sys.argv[1], encoding=\"utf-8\"):\n"
      "    a, b = line.rstrip(\"\\n\").split(\"\\t\")\n"
      "    if json.load(open(a, encoding=\"utf-8\")) != json.load(open(b, encoding=\"utf-8\")):\n"
      "        print(a + \": pretty output differs in value (python)\"); bad = 1\n"
      "sys.exit(bad)' %s",
      list_path);
  return system(cmd) == 0;
}

static void check_folder(const char *dir, pending *todo) {
  size_t count;
  char **names = fj_test_list_dir(dir, ".json", &count);
  if (!names) return;
  fj_parser *p;
  assert_int_equal(fj_parser_new(&p, NULL), FJ_OK);
  for (size_t i = 0; i < count; i++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    size_t len, want_len;
    unsigned char *buf = fj_test_read_file(path, &len);
    assert_non_null(buf);
    fj_error err = fj_parser_validate(p, buf, len);
    if (err) printf("%s: %s\n", names[i], fj_error_name(err));
    assert_int_equal(err, FJ_OK);

    growbuf mini = {0}, pretty = {0}, pretty2 = {0};
    assert_int_equal(fj_minify(p, buf, len, (fj_sink){append, &mini}), FJ_OK);
    unsigned char *want = strip(buf, len, &want_len);
    assert_int_equal(mini.len, want_len);
    assert_memory_equal(mini.data, want, want_len);

    assert_int_equal(fj_pretty(p, buf, len, NULL, (fj_sink){append, &pretty}), FJ_OK);
    assert_int_equal(fj_pretty(p, mini.data, mini.len, NULL, (fj_sink){append, &pretty2}), FJ_OK);
    assert_int_equal(pretty.len, pretty2.len);
    assert_memory_equal(pretty.data, pretty2.data, pretty.len);
    assert_int_equal(fj_parser_validate(p, pretty.data, pretty.len), FJ_OK);

    char tmp[] = "/tmp/fj_pretty_XXXXXX";
    int fd = mkstemp(tmp);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(write_file(tmp, pretty.data, pretty.len), 0);
    fprintf(todo->list, "%s\t%s\n", path, tmp);
    todo->count++;
    free(want);
    free(mini.data);
    free(pretty.data);
    free(pretty2.data);
    free(buf);
  }
  fj_parser_free(p);
  fj_test_free_list(names, count);
}

/* Removes the pretty outputs listed and the list itself. */
static void remove_pending(pending *todo) {
  FILE *f = fopen(todo->list_path, "r");
  char line[2200];
  while (f && fgets(line, sizeof line, f)) {
    char *tab = strchr(line, '\t');
    if (!tab) continue;
    tab[1 + strcspn(tab + 1, "\n")] = '\0';
    remove(tab + 1);
  }
  if (f) fclose(f);
  remove(todo->list_path);
}

static void corpus_round_trips(void **state) {
  (void)state;
  pending todo = {.list_path = "/tmp/fj_pretty_list_XXXXXX"};
  int fd = mkstemp(todo.list_path);
  assert_true(fd >= 0);
  todo.list = fdopen(fd, "w");
  assert_non_null(todo.list);
  check_folder(FJ_DATA_DIR "/corpus", &todo);
  check_folder(FJ_DATA_DIR "/corpus/extra", &todo);
  check_folder(FJ_DATA_DIR "/corpus/variants", &todo);
  assert_int_equal(fclose(todo.list), 0);
  int eq = python_all_equal(todo.list_path);
  remove_pending(&todo);
  printf("corpus files checked: %zu\n", todo.count);
  if (eq < 0) printf("python3 missing: pretty value check skipped\n");
  assert_true(eq != 0);
  if (!todo.count) skip();
  assert_true(todo.count >= 20);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(corpus_round_trips),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
