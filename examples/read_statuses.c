/* Reading JSON into C structs by hand with the cursor: every status of a
 * twitter.json-shaped file becomes a `struct status`, then a few fields of
 * each are printed, one status per line, tab-separated:
 *
 *   id  screen_name  followers  retweets  favorites  hashtags  lang  text_bytes
 *
 * What it shows: entering objects and arrays, looking fields up by key (in
 * document order that costs one key comparison each; out of order they are
 * still found), skipping what you do not need for free, copying strings into
 * your own fixed-size buffers (FJ_ERR_BUFFER_TOO_SMALL instead of an
 * overflow), zero-copy string pointers into the input, exact integers, and
 * reporting an error with its line and column.
 *
 * Build: cc read_statuses.c $(pkg-config --cflags --libs fastjson)
 * Usage: read_statuses FILE        (for example twitter.json) */
#include <fastjson.h>
#include <stdio.h>
#include <stdlib.h>

struct user {
  char screen_name[32]; /* NUL-terminated copy */
  uint64_t followers_count;
};

struct status {
  uint64_t id;
  const char *text; /* zero copy when unescaped: valid while the parser keeps this document */
  size_t text_len;  /* bytes of UTF-8 */
  struct user user;
  int64_t retweet_count, favorite_count;
  size_t hashtags;
  char lang[8];
};

/* Reads `"user": {...}`; fields of the user we do not name are skipped. */
static fj_error read_user(fj_value *v, struct user *u) {
  fj_object o;
  fj_value f;
  size_t len;
  fj_error err = fj_value_get_object(v, &o);
  if (!err) err = fj_object_find(&o, "screen_name", &f);
  if (!err) err = fj_value_copy_string(&f, u->screen_name, sizeof u->screen_name, &len);
  if (!err) err = fj_object_find(&o, "followers_count", &f);
  if (!err) err = fj_value_get_uint64(&f, &u->followers_count);
  return err;
}

static fj_error read_status(fj_value *v, struct status *s) {
  fj_object o;
  fj_value f, entities, tags;
  fj_object eo;
  fj_array ta;
  size_t len;
  fj_error err = fj_value_get_object(v, &o);
  if (!err) err = fj_object_find(&o, "id", &f);
  if (!err) err = fj_value_get_uint64(&f, &s->id);
  if (!err) err = fj_object_find(&o, "text", &f);
  if (!err) err = fj_value_get_string(&f, &s->text, &s->text_len);
  if (!err) err = fj_object_find(&o, "user", &f);
  if (!err) err = read_user(&f, &s->user);
  if (!err) err = fj_object_find(&o, "retweet_count", &f);
  if (!err) err = fj_value_get_int64(&f, &s->retweet_count);
  if (!err) err = fj_object_find(&o, "favorite_count", &f);
  if (!err) err = fj_value_get_int64(&f, &s->favorite_count);
  if (!err) err = fj_object_find(&o, "entities", &entities);
  if (!err) err = fj_value_get_object(&entities, &eo);
  if (!err) err = fj_object_find(&eo, "hashtags", &tags);
  if (!err) err = fj_value_get_array(&tags, &ta);
  if (!err) err = fj_array_count(&ta, &s->hashtags);
  if (!err) err = fj_object_find(&o, "lang", &f);
  if (!err) err = fj_value_copy_string(&f, s->lang, sizeof s->lang, &len);
  return err;
}

/* Reads {"statuses": [...]} into a growing array of structs. */
static fj_error read_statuses(fj_value *root, struct status **out, size_t *count) {
  fj_object o;
  fj_array a;
  fj_value v;
  size_t n = 0, cap = 0;
  struct status *all = NULL;
  fj_error err = fj_value_get_object(root, &o);
  if (!err) err = fj_object_find(&o, "statuses", &v);
  if (!err) err = fj_value_get_array(&v, &a);
  while (!err && (err = fj_array_next(&a, &v)) == FJ_OK) {
    if (n == cap) {
      cap = cap ? 2 * cap : 16;
      struct status *grown = realloc(all, cap * sizeof *all);
      if (!grown) {
        err = FJ_ERR_NOMEM;
        break;
      }
      all = grown;
    }
    err = read_status(&v, &all[n]);
    if (!err) n++;
  }
  *out = all;
  *count = n;
  return err == FJ_END ? FJ_OK : err;
}

int main(int argc, char **argv) {
  fj_file f;
  if (argc != 2) {
    fprintf(stderr, "usage: read_statuses FILE\n");
    return 2;
  }
  if (fj_file_load(&f, argv[1]) != FJ_OK) {
    perror(argv[1]);
    return 3;
  }
  fj_parser *p;
  if (fj_parser_new(&p, NULL) != FJ_OK) return 3;
  fj_value root;
  struct status *st = NULL;
  size_t n = 0;
  fj_error err = fj_parser_parse(p, f.data, f.len, &root);
  if (!err) err = read_statuses(&root, &st, &n);
  if (err) {
    fj_location loc;
    fj_parser_last_error(p, &loc);
    fprintf(stderr, "%s:%zu:%zu: %s (%s)\n", argv[1], loc.line, loc.column, fj_error_message(err),
            fj_error_name(err));
  } else {
    for (size_t i = 0; i < n; i++)
      printf("%llu\t%s\t%llu\t%lld\t%lld\t%zu\t%s\t%zu\n", (unsigned long long)st[i].id,
             st[i].user.screen_name, (unsigned long long)st[i].user.followers_count,
             (long long)st[i].retweet_count, (long long)st[i].favorite_count, st[i].hashtags,
             st[i].lang, st[i].text_len);
  }
  free(st);
  fj_parser_free(p); /* the text pointers die with the parser and the file */
  fj_file_free(&f);
  return err ? 1 : 0;
}
