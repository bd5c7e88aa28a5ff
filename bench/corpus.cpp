// Shared harness of fastjson_bench: loads the corpus, runs the registrars,
// then google-benchmark's usual main.
#include "corpus.hpp"

#include <benchmark/benchmark.h>
#include <dirent.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace fjbench {

static std::vector<void (*)()> &registrars() {
  static std::vector<void (*)()> r; // function-local: safe from static-init order
  return r;
}

registrar::registrar(void (*fn)()) { registrars().push_back(fn); }

void fail(const std::string &what) {
  std::fprintf(stderr, "fastjson_bench: %s\n", what.c_str());
  std::exit(1);
}

const std::vector<file> &corpus() {
  static std::vector<file> files = [] {
    const char *env = std::getenv("FJ_DATA_DIR");
    std::string dir = std::string(env && *env ? env : FJ_DATA_DIR) + "/corpus";
    std::vector<file> out;
    DIR *d = opendir(dir.c_str());
    if (!d) fail("cannot open " + dir);
    while (dirent *e = readdir(d)) {
      std::string name = e->d_name;
      if (name.size() < 6 || name.compare(name.size() - 5, 5, ".json") != 0) continue;
      std::ifstream in(dir + "/" + name, std::ios::binary);
      std::ostringstream s;
      s << in.rdbuf();
      out.push_back({name, s.str()});
    }
    closedir(d);
    if (out.empty()) fail("no .json files in " + dir);
    std::sort(out.begin(), out.end(), [](const file &a, const file &b) { return a.name < b.name; });
    return out;
  }();
  return files;
}

} // namespace fjbench

int main(int argc, char **argv) {
  fjbench::corpus();
  for (auto fn : fjbench::registrars()) fn();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
