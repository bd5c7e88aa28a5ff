// One build's visit walk (bench/walk.hpp) and validation, for ab.cpp:
// fjab_walk(json, len, n) parses and walks the document n times,
// fjab_validate(json, len, n) validates it n times. ab.sh compiles this once
// per tree against that tree's headers (with -Dfjbench=fjbench_a or _b, so
// that the walk templates of the two builds are distinct code), links it
// with that tree's library into one object, hides every other symbol and
// renames these two with the build's suffix (fjab_walk_a, ...).
#include "walk.hpp"

#include <cstdio>
#include <cstdlib>

namespace fjbench {
void fail(const std::string &what) {
  std::fprintf(stderr, "%s\n", what.c_str());
  std::exit(1);
}
} // namespace fjbench

extern "C" __attribute__((visibility("default"))) double fjab_walk(const char *json, size_t len,
                                                                   int n) {
  static fjbench::fj_parser_holder holder; // one parser, reused as the benchmark does
  fjbench::checksum c;
  for (int i = 0; i < n; i++) {
    fj_value root;
    if (fj_parser_parse(holder.p, json, len, &root) || !fjbench::fj_visit<false>(&root, c))
      fjbench::fail("fjab_walk: the walk failed");
  }
  return c.num + double(c.strings + c.containers); // read, so the walk is not optimised away
}

extern "C" __attribute__((visibility("default"))) double fjab_validate(const char *json, size_t len,
                                                                       int n) {
  static fjbench::fj_parser_holder holder;
  for (int i = 0; i < n; i++)
    if (fj_parser_validate(holder.p, json, len)) fjbench::fail("fjab_validate: not valid");
  return 0;
}
