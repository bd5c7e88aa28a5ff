// Shared harness of fastjson_bench: the corpus files, and registration of
// each task's benchmarks (a bench_<task>.cpp file adds a registrar).
#pragma once

#include <string>
#include <vector>

namespace fjbench {

struct file {
  std::string name; // file name, e.g. "twitter.json"
  std::string data; // its bytes
};

// Every /corpus/*.json file of FJ_DATA_DIR (or $FJ_DATA_DIR), sorted by name.
const std::vector<file> &corpus();

// A task's benchmarks are registered by a function called from main(), after
// the corpus is loaded: `static fjbench::registrar r(register_my_task);`
struct registrar {
  explicit registrar(void (*fn)());
};

// Stops the program with a message: a benchmark whose result is wrong must
// not report a speed.
[[noreturn]] void fail(const std::string &what);

} // namespace fjbench
