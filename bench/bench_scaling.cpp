// scaling/LIBRARY/SIZE: validating one generated document per size, from
// 1 KB to 100 MB, to show where each library's cost grows (index and tape
// no longer in cache, allocation of the per-document buffers, page faults).
// The documents are the *.json files of the folder $FJ_SCALING_DIR (run_all.sh
// writes them with fastjson-sample: twitter-like records with big ids,
// floats, escapes and non-ASCII text); without that variable nothing is
// registered, so the usual runs do not load hundreds of megabytes.
//   fastjson:  fj_parser_validate() with a reused parser
//   simdjson:  DOM parser.parse() of a copy padded once, reused parser
//   rapidjson: Reader::Parse<kParseValidateEncodingFlag>, a handler that
//              accepts every event (SAX, no tree)
// The same settings as validate/ (bench_validate.cpp). Before timing, each
// library must accept the document and reject a copy with its last closing
// bracket turned into a comma. Bytes per second are the document's size.
#include "corpus.hpp"

#include <benchmark/benchmark.h>
#include <dirent.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "fastjson.h"

#ifdef FJ_BENCH_SIMDJSON
#include <simdjson.h>
#endif
#ifdef FJ_BENCH_RAPIDJSON
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#endif

namespace {

struct doc {
  std::string name, data;
};

std::vector<doc> &docs() {
  static std::vector<doc> d;
  return d;
}

struct validator {
  virtual ~validator() = default;
  virtual bool valid(const std::string &json) = 0;
};

struct fastjson_validator : validator {
  fj_parser *p = nullptr;
  fastjson_validator() {
    if (fj_parser_new(&p, nullptr)) fjbench::fail("fj_parser_new");
  }
  ~fastjson_validator() override { fj_parser_free(p); }
  bool valid(const std::string &json) override {
    return fj_parser_validate(p, json.data(), json.size()) == FJ_OK;
  }
};

#ifdef FJ_BENCH_SIMDJSON
struct simdjson_validator : validator {
  simdjson::dom::parser parser;
  const std::string *last = nullptr; // the document `padded` holds
  simdjson::padded_string padded;
  bool valid(const std::string &json) override {
    if (last != &json) {
      padded = simdjson::padded_string(json);
      last = &json;
    }
    simdjson::dom::element e;
    return parser.parse(padded).get(e) == simdjson::SUCCESS;
  }
};
#endif

#ifdef FJ_BENCH_RAPIDJSON
struct rapidjson_validator : validator {
  rapidjson::Reader reader;
  bool valid(const std::string &json) override {
    rapidjson::BaseReaderHandler<> handler;
    rapidjson::MemoryStream ms(json.data(), json.size());
    return !reader.Parse<rapidjson::kParseValidateEncodingFlag>(ms, handler).IsError();
  }
};
#endif

template <class V> void scaling(benchmark::State &state, const char *lib, const doc *d) {
  V v;
  {
    std::string broken = d->data;
    size_t at = broken.find_last_of("]}");
    if (at == std::string::npos) fjbench::fail("no bracket in " + d->name);
    broken[at] = ',';
    if (v.valid(broken)) fjbench::fail(std::string(lib) + " accepts a broken copy of " + d->name);
  }
  if (!v.valid(d->data)) fjbench::fail(std::string(lib) + " rejects " + d->name);
  for (auto _ : state) {
    bool ok = v.valid(d->data);
    if (!ok) fjbench::fail(std::string(lib) + " rejects " + d->name);
    benchmark::DoNotOptimize(ok);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(d->data.size()));
  state.counters["doc_bytes"] = double(d->data.size());
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
  std::sort(docs().begin(), docs().end(),
            [](const doc &a, const doc &b) { return a.data.size() < b.data.size(); });
  for (const doc &d : docs()) {
    benchmark::RegisterBenchmark(("scaling/fastjson/" + d.name).c_str(),
                                 scaling<fastjson_validator>, "fastjson", &d);
#ifdef FJ_BENCH_SIMDJSON
    benchmark::RegisterBenchmark(("scaling/simdjson/" + d.name).c_str(),
                                 scaling<simdjson_validator>, "simdjson", &d);
#endif
#ifdef FJ_BENCH_RAPIDJSON
    benchmark::RegisterBenchmark(("scaling/rapidjson/" + d.name).c_str(),
                                 scaling<rapidjson_validator>, "rapidjson", &d);
#endif
  }
}

fjbench::registrar reg(register_scaling);

} // namespace
