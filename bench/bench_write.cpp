// write/LIBRARY/FILE: re-emitting a whole corpus document from a list of
// events recorded once (RapidJSON's SAX reader, full-precision doubles):
//   fastjson:  fj_writer into a reused fj_buffer (compact, UTF-8 checked)
//   rapidjson: Writer<StringBuffer> into a reused StringBuffer (no UTF-8
//              check: its default flags)
// format_double/LIBRARY/canada.json: every number of canada.json to text:
//   fastjson:  fj_format_double (shortest round trip, Schubfach)
//   snprintf:  "%.17g" (round-trips, not shortest)
// minify/LIBRARY/FILE: whitespace removed from a whole corpus document:
//   fastjson:  fj_minify into a reused fj_buffer (validates the document
//              fully first: invalid input produces no output)
//   simdjson:  simdjson::minify into a reused buffer (no validation)
// Bytes per second are the input document's size for write/ and minify/,
// and the numbers' count is reported as items for format_double/.
#include "corpus.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "fastjson.h"

#ifdef FJ_BENCH_SIMDJSON
#include <simdjson.h>
#endif

#if __has_include(<rapidjson/writer.h>)
#define FJ_BENCH_RAPIDJSON 1
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#endif

namespace {

enum class ev : uint8_t { bo, eo, ba, ea, key, str, i64, u64, dbl, t, f, null };

struct event {
  ev kind;
  uint32_t len; // key/str: bytes at arena + off
  union {
    uint64_t off;
    int64_t i;
    uint64_t u;
    double d;
  };
};

struct recording {
  std::vector<event> events;
  std::string arena;
};

void minify_fastjson(benchmark::State &state, const fjbench::file *f) {
  fj_parser *p;
  if (fj_parser_new(&p, nullptr) != FJ_OK) fjbench::fail("fj_parser_new");
  fj_buffer out = {};
  if (fj_minify(p, f->data.data(), f->data.size(), fj_sink_buffer(&out)) != FJ_OK)
    fjbench::fail("fj_minify fails on " + f->name);
  size_t bytes = out.len;
  for (auto _ : state) {
    out.len = 0;
    fj_error e = fj_minify(p, f->data.data(), f->data.size(), fj_sink_buffer(&out));
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(out.data);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(f->data.size()));
  state.counters["output_bytes"] = double(bytes);
  fj_buffer_free(&out);
  fj_parser_free(p);
}

#ifdef FJ_BENCH_SIMDJSON
void minify_simdjson(benchmark::State &state, const fjbench::file *f) {
  std::vector<char> out(f->data.size() + simdjson::SIMDJSON_PADDING);
  size_t n = 0;
  if (simdjson::minify(f->data.data(), f->data.size(), out.data(), n) != simdjson::SUCCESS)
    fjbench::fail("simdjson::minify fails on " + f->name);
  size_t bytes = n;
  for (auto _ : state) {
    auto e = simdjson::minify(f->data.data(), f->data.size(), out.data(), n);
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(f->data.size()));
  state.counters["output_bytes"] = double(bytes);
}
#endif

void register_minify() {
  for (const fjbench::file &f : fjbench::corpus()) {
    benchmark::RegisterBenchmark(("minify/fastjson/" + f.name).c_str(), minify_fastjson, &f);
#ifdef FJ_BENCH_SIMDJSON
    benchmark::RegisterBenchmark(("minify/simdjson/" + f.name).c_str(), minify_simdjson, &f);
#endif
  }
}

fjbench::registrar reg_minify(register_minify);

#ifdef FJ_BENCH_RAPIDJSON
struct recorder : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, recorder> {
  recording *r;
  bool push(ev k) {
    event e{};
    e.kind = k;
    r->events.push_back(e);
    return true;
  }
  bool text(ev k, const char *s, rapidjson::SizeType n) {
    event e{};
    e.kind = k;
    e.len = n;
    e.off = r->arena.size();
    r->arena.append(s, n);
    r->events.push_back(e);
    return true;
  }
  bool Null() { return push(ev::null); }
  bool Bool(bool b) { return push(b ? ev::t : ev::f); }
  bool Int(int v) { return Int64(v); }
  bool Uint(unsigned v) { return Uint64(v); }
  bool Int64(int64_t v) {
    event e{};
    e.kind = ev::i64;
    e.i = v;
    r->events.push_back(e);
    return true;
  }
  bool Uint64(uint64_t v) {
    if (v <= uint64_t(INT64_MAX)) return Int64(int64_t(v));
    event e{};
    e.kind = ev::u64;
    e.u = v;
    r->events.push_back(e);
    return true;
  }
  bool Double(double v) {
    event e{};
    e.kind = ev::dbl;
    e.d = v;
    r->events.push_back(e);
    return true;
  }
  bool String(const char *s, rapidjson::SizeType n, bool) { return text(ev::str, s, n); }
  bool Key(const char *s, rapidjson::SizeType n, bool) { return text(ev::key, s, n); }
  bool StartObject() { return push(ev::bo); }
  bool EndObject(rapidjson::SizeType) { return push(ev::eo); }
  bool StartArray() { return push(ev::ba); }
  bool EndArray(rapidjson::SizeType) { return push(ev::ea); }
};

recording record(const fjbench::file &f) {
  recording r;
  recorder h;
  h.r = &r;
  rapidjson::Reader reader;
  rapidjson::StringStream in(f.data.c_str());
  if (!reader.Parse<rapidjson::kParseFullPrecisionFlag>(in, h))
    fjbench::fail("rapidjson cannot read " + f.name);
  return r;
}

fj_error play(fj_writer *w, const recording &r) {
  const char *a = r.arena.data();
  fj_error err = FJ_OK;
  for (const event &e : r.events) {
    switch (e.kind) {
    case ev::bo: err = fj_writer_begin_object(w); break;
    case ev::eo: err = fj_writer_end_object(w); break;
    case ev::ba: err = fj_writer_begin_array(w); break;
    case ev::ea: err = fj_writer_end_array(w); break;
    case ev::key: err = fj_writer_keyn(w, a + e.off, e.len); break;
    case ev::str: err = fj_writer_stringn(w, a + e.off, e.len); break;
    case ev::i64: err = fj_writer_int64(w, e.i); break;
    case ev::u64: err = fj_writer_uint64(w, e.u); break;
    case ev::dbl: err = fj_writer_double(w, e.d); break;
    case ev::t: err = fj_writer_bool(w, true); break;
    case ev::f: err = fj_writer_bool(w, false); break;
    case ev::null: err = fj_writer_null(w); break;
    }
    if (err) return err;
  }
  return fj_writer_finish(w);
}

template <class W> void play_rapidjson(W &w, const recording &r) {
  const char *a = r.arena.data();
  for (const event &e : r.events) {
    switch (e.kind) {
    case ev::bo: w.StartObject(); break;
    case ev::eo: w.EndObject(); break;
    case ev::ba: w.StartArray(); break;
    case ev::ea: w.EndArray(); break;
    case ev::key: w.Key(a + e.off, e.len); break;
    case ev::str: w.String(a + e.off, e.len); break;
    case ev::i64: w.Int64(e.i); break;
    case ev::u64: w.Uint64(e.u); break;
    case ev::dbl: w.Double(e.d); break;
    case ev::t: w.Bool(true); break;
    case ev::f: w.Bool(false); break;
    case ev::null: w.Null(); break;
    }
  }
}

void write_fastjson(benchmark::State &state, const fjbench::file *f) {
  recording r = record(*f);
  fj_buffer out = {};
  fj_writer *w;
  if (fj_writer_new(&w, nullptr, fj_sink_buffer(&out)) != FJ_OK) fjbench::fail("fj_writer_new");
  if (play(w, r) != FJ_OK) fjbench::fail("fastjson cannot write " + f->name);
  fj_parser *p;
  fj_parser_new(&p, nullptr);
  if (fj_parser_validate(p, out.data, out.len) != FJ_OK)
    fjbench::fail("fastjson wrote invalid JSON for " + f->name);
  fj_parser_free(p);
  size_t bytes = out.len;
  for (auto _ : state) {
    out.len = 0;
    fj_writer_reset(w, fj_sink_buffer(&out));
    fj_error e = play(w, r);
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(out.data);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(f->data.size()));
  state.counters["output_bytes"] = double(bytes);
  fj_writer_free(w);
  fj_buffer_free(&out);
}

void write_rapidjson(benchmark::State &state, const fjbench::file *f) {
  recording r = record(*f);
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  play_rapidjson(w, r);
  size_t bytes = buf.GetSize();
  for (auto _ : state) {
    buf.Clear();
    w.Reset(buf);
    play_rapidjson(w, r);
    benchmark::DoNotOptimize(buf.GetString());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(f->data.size()));
  state.counters["output_bytes"] = double(bytes);
}

std::vector<double> doubles_of(const fjbench::file &f) {
  recording r = record(f);
  std::vector<double> v;
  for (const event &e : r.events)
    if (e.kind == ev::dbl) v.push_back(e.d);
  return v;
}

void format_fastjson(benchmark::State &state, const fjbench::file *f) {
  std::vector<double> v = doubles_of(*f);
  char buf[FJ_DOUBLE_MAX_CHARS];
  size_t total = 0;
  for (auto _ : state) {
    for (double d : v) {
      size_t n;
      fj_format_double(d, buf, sizeof buf, &n);
      total += n;
      benchmark::DoNotOptimize(buf);
    }
  }
  benchmark::DoNotOptimize(total);
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(v.size()));
}

void format_snprintf(benchmark::State &state, const fjbench::file *f) {
  std::vector<double> v = doubles_of(*f);
  char buf[32];
  size_t total = 0;
  for (auto _ : state) {
    for (double d : v) {
      total += size_t(std::snprintf(buf, sizeof buf, "%.17g", d));
      benchmark::DoNotOptimize(buf);
    }
  }
  benchmark::DoNotOptimize(total);
  state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(v.size()));
}

void register_write() {
  for (const fjbench::file &f : fjbench::corpus()) {
    benchmark::RegisterBenchmark(("write/fastjson/" + f.name).c_str(), write_fastjson, &f);
    benchmark::RegisterBenchmark(("write/rapidjson/" + f.name).c_str(), write_rapidjson, &f);
    if (f.name == "canada.json") {
      benchmark::RegisterBenchmark(("format_double/fastjson/" + f.name).c_str(), format_fastjson, &f);
      benchmark::RegisterBenchmark(("format_double/snprintf/" + f.name).c_str(), format_snprintf, &f);
    }
  }
}
#else
void register_write() {
  std::fprintf(stderr, "bench_write: RapidJSON headers not found (Debian: rapidjson-dev); "
                       "write/ and format_double/ left out\n");
}
#endif

fjbench::registrar reg(register_write);

} // namespace
