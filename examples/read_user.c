/* The README's example as a program: prints the screen name of the first
 * status's user in a twitter.json-shaped file. Build: cc read_user.c -lfjson
 * (pkg-config fastjson).
 * usage: read_user FILE */
#include <fastjson.h>
#include <stdio.h>

int main(int argc, char **argv) {
  fj_file f;
  if (argc != 2 || fj_file_load(&f, argv[1]) != FJ_OK) {
    fprintf(stderr, "usage: read_user FILE (a readable file)\n");
    return 2;
  }
  fj_parser *p;
  fj_value root, statuses, user, name;
  fj_object obj, u;
  int rc = 1;
  if (fj_parser_new(&p, NULL) != FJ_OK) return 3;
  fj_error err = fj_parser_parse(p, f.data, f.len, &root);
  if (!err) err = fj_value_at_pointer(&root, "/statuses/0", &statuses);
  if (!err) err = fj_value_get_object(&statuses, &obj);
  if (!err) err = fj_object_find(&obj, "user", &user);
  if (!err) err = fj_value_get_object(&user, &u);
  if (!err) err = fj_object_find(&u, "screen_name", &name);
  const char *s;
  size_t n;
  if (!err) err = fj_value_get_string(&name, &s, &n);
  if (!err) {
    printf("%.*s\n", (int)n, s);
    rc = 0;
  } else {
    fj_location loc;
    fj_parser_last_error(p, &loc);
    fprintf(stderr, "%s:%zu:%zu: %s\n", argv[1], loc.line, loc.column, fj_error_message(err));
  }
  fj_parser_free(p);
  fj_file_free(&f);
  return rc;
}
