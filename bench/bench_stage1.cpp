// stage1/LIBRARY/FILE: building the structural index of a whole document.
//   fastjson-<kernel>: each stage-1 kernel this CPU runs, called directly on
//                      the caller's (unpadded) bytes into a reused index
//   simdjson:          On-Demand parser.iterate(), which runs simdjson's
//                      stage 1 eagerly over the padded document
#include "corpus.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "scan/stage1.h"
}

#ifdef FJ_BENCH_SIMDJSON
#include <simdjson.h>
#endif

namespace {

void fastjson_stage1(benchmark::State &state, const fj__kernel *k, const fjbench::file *f) {
  const auto *buf = reinterpret_cast<const uint8_t *>(f->data.data());
  std::vector<uint32_t> idx(f->data.size() + FJ_INDEX_SLACK);
  // the block bytes fj_parser_parse() has stage 1 set (the 64-byte blocks
  // that hold a backslash), cleared each time as it does: the escape branch
  // is then the one a parse runs (the \u block bytes are validation's only)
  const size_t blocks = FJ_BLOCKS(f->data.size());
  std::vector<uint8_t> bs(blocks);
  fj__stage1_result res = {};
  auto run = [&] {
    res = fj__stage1_result{};
    res.bs_blocks = bs.data();
    std::memset(bs.data(), 0, blocks);
    return k->stage1(buf, f->data.size(), idx.data(), &res);
  };
  if (run() != FJ_OK || res.n == 0) fjbench::fail(std::string(k->name) + " rejects " + f->name);
  for (auto _ : state) {
    fj_error e = run();
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(res);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(f->data.size()));
  state.counters["structurals"] = res.n;
}

#ifdef FJ_BENCH_SIMDJSON
// impl: one of simdjson's own kernels (to compare like with like: haswell is
// its AVX2 kernel, westmere its SSE4.2 one), or nullptr for its default
// choice. The parser takes the active implementation when it allocates.
void simdjson_stage1(benchmark::State &state, const simdjson::implementation *impl,
                     const fjbench::file *f) {
  const simdjson::implementation *saved = simdjson::get_active_implementation();
  if (impl) simdjson::get_active_implementation() = impl;
  simdjson::padded_string json(f->data);
  simdjson::ondemand::parser parser;
  if (parser.allocate(json.size()) != simdjson::SUCCESS) fjbench::fail("simdjson allocate");
  simdjson::get_active_implementation() = saved;
  if (parser.iterate(json).error() != simdjson::SUCCESS)
    fjbench::fail("simdjson rejects " + f->name);
  for (auto _ : state) {
    auto doc = parser.iterate(json);
    if (doc.error() != simdjson::SUCCESS) fjbench::fail("simdjson rejects " + f->name);
    benchmark::DoNotOptimize(doc);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(f->data.size()));
}
#endif

void register_stage1() {
  size_t count;
  const fj__kernel *const *kernels = fj__kernels(&count);
  for (const auto &f : fjbench::corpus()) {
    for (size_t i = 0; i < count; i++) {
      if (!kernels[i]->supported()) continue;
      std::string name = std::string("stage1/fastjson-") + kernels[i]->name + "/" + f.name;
      benchmark::RegisterBenchmark(name.c_str(), fastjson_stage1, kernels[i], &f);
    }
#ifdef FJ_BENCH_SIMDJSON
    benchmark::RegisterBenchmark(("stage1/simdjson/" + f.name).c_str(), simdjson_stage1,
                                 nullptr, &f);
    for (const char *name : {"haswell", "westmere"}) {
      const simdjson::implementation *impl = simdjson::get_available_implementations()[name];
      if (!impl || !impl->supported_by_runtime_system()) continue;
      std::string bname = std::string("stage1/simdjson-") + name + "/" + f.name;
      benchmark::RegisterBenchmark(bname.c_str(), simdjson_stage1, impl, &f);
    }
#endif
  }
}

fjbench::registrar reg(register_stage1);

} // namespace
