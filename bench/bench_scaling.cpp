// scaling/LIBRARY/SIZE: validating one generated document per size, from
// 1 KB to 100 MB, to show where each library's cost grows (index and tape
// no longer in cache, allocation of the per-document buffers, page faults).
// The documents are the *.json files of the folder $FJ_SCALING_DIR (run_all.sh
// writes them with fastjson-sample: twitter-like records with big ids,
// floats, escapes and non-ASCII text); without that variable nothing is
// registered, so the usual runs do not load hundreds of megabytes.
// Every library of validate/, with the same settings, validators and checks
// (validators.hpp): fastjson fj_parser_validate(), simdjson DOM, RapidJSON
// SAX, the trees of cJSON, jansson and json-c, yajl without callbacks.
// Bytes per second are the document's size.
#include "corpus.hpp"
#include "validators.hpp"

#include <benchmark/benchmark.h>
#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

// The documents, named by size ("1KB"), kept for the program's lifetime.
std::vector<fjbench::file> &docs() {
  static std::vector<fjbench::file> d;
  return d;
}

void register_scaling() {
  const char *dir = std::getenv("FJ_SCALING_DIR");
  if (!dir || !*dir) return;
  DIR *dp = opendir(dir);
  if (!dp) fjbench::fail(std::string("cannot open FJ_SCALING_DIR ") + dir);
  while (dirent *e = readdir(dp)) {
    std::string name = e->d_name;
    if (name.size() < 6 || name.compare(name.size() - 5, 5, ".json") != 0) continue;
    std::ifstream in(std::string(dir) + "/" + name, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    docs().push_back({name.substr(0, name.size() - 5), s.str()});
  }
  closedir(dp);
  std::sort(docs().begin(), docs().end(), [](const fjbench::file &a, const fjbench::file &b) {
    return a.data.size() < b.data.size();
  });
  for (const fjbench::file &d : docs())
    fjbench::register_validators("scaling", d);
}

fjbench::registrar reg(register_scaling);

} // namespace
