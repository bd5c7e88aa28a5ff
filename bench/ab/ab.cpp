// ab TASK ROUNDS FILE...: a task (walk: the visit walk; validate) of two
// builds of fastjson, A and B (task.cpp, linked into this program twice by
// ab.sh), timed in turns in one process; for each file, the median over
// ROUNDS of the per-round time ratio B/A (below 1: B is faster).
// Interleaving the two builds in one process, and swapping which goes first
// every round, cancels most of the drift that makes two separate benchmark
// runs differ by 5-10 % on a shared machine: the same build against itself
// (A/A) comes out within about 2 % on the corpus. Both builds are compiled as
// the benchmark is (Release, the distribution's default flags, no -fPIC).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" {
double fjab_walk_a(const char *json, size_t len, int n);
double fjab_walk_b(const char *json, size_t len, int n);
double fjab_validate_a(const char *json, size_t len, int n);
double fjab_validate_b(const char *json, size_t len, int n);
}

typedef double (*task_fn)(const char *, size_t, int);

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Microseconds per run of n runs of the task.
static double time_task(task_fn f, const std::string &json, int n, double *sink) {
  auto t0 = std::chrono::steady_clock::now();
  *sink += f(json.data(), json.size(), n);
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
         n;
}

int main(int argc, char **argv) {
  const bool validate = argc > 1 && std::strcmp(argv[1], "validate") == 0;
  if (argc < 4 || (!validate && std::strcmp(argv[1], "walk") != 0)) {
    std::fprintf(stderr, "usage: ab walk|validate ROUNDS FILE...\n");
    return 2;
  }
  const task_fn task[2] = {validate ? fjab_validate_a : fjab_walk_a,
                           validate ? fjab_validate_b : fjab_walk_b};
  const int rounds = std::max(1, std::atoi(argv[2]));
  double sink = 0;
  std::printf("%-24s %9s %9s %7s\n", "file", "A us", "B us", "B/A");
  for (int a = 3; a < argc; a++) {
    std::ifstream in(argv[a], std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "ab: cannot read %s\n", argv[a]);
      return 1;
    }
    std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // warm both up, then turns of about 50 ms each: shorter ones are noisier
    const int n0 = std::max(3, int(20000000 / std::max<size_t>(json.size(), 1)));
    const double us =
        std::max(time_task(task[0], json, n0, &sink), time_task(task[1], json, n0, &sink));
    const int n = std::max(3, int(50000 / std::max(us, 0.01)));
    std::vector<double> ratio, ta, tb;
    for (int r = 0; r < rounds; r++) {
      double t[2];
      const int first = r & 1;
      t[first] = time_task(task[first], json, n, &sink);
      t[1 - first] = time_task(task[1 - first], json, n, &sink);
      ratio.push_back(t[1] / t[0]);
      ta.push_back(t[0]);
      tb.push_back(t[1]);
    }
    const char *base = std::strrchr(argv[a], '/');
    std::printf("%-24s %9.1f %9.1f %7.3f\n", base ? base + 1 : argv[a], median(ta), median(tb),
                median(ratio));
  }
  return sink == -1.0; // never: keeps the results live
}
