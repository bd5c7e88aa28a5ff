// write/LIBRARY/FILE: re-emitting a whole corpus document from a list of
// events recorded once (RapidJSON's SAX reader, full-precision doubles):
//   fastjson:  fj_writer into a reused fj_buffer (compact, UTF-8 checked)
//   rapidjson: Writer<StringBuffer> into a reused StringBuffer (no UTF-8
//              check: its default flags)
//   jansson, json-c: DOM libraries, which write a tree: the tree is built
//              from the events before timing, and the timed loop writes it
//              as compact JSON (jansson json_dumpb(JSON_COMPACT) into a
//              reused buffer; json-c json_object_to_json_string_length(
//              JSON_C_TO_STRING_PLAIN), into the tree's own reused buffer)
//   jansson-build, json-c-build: the tree built from the events, written and
//              freed in every iteration: what it costs a DOM library to
//              write events it does not hold as a tree already (the whole job
//              the fastjson and rapidjson rows do). jansson's constructors
//              check UTF-8, json-c's do not.
//   simdjson:  simdjson's serializer of its DOM (dom::parser, parsed before
//              timing), string_builder<mini_formatter> reused: what
//              simdjson::to_string() runs, without a new std::string per call
//              (its only public form; the builder is marked internal)
//   replay-only: the replay loop with no writer (play_replay_only()): what
//              the fastjson and rapidjson rows spend on the loop itself
// Before timing, each output is read back (RapidJSON, full precision) and
// must give the recorded events again: the same keys and strings, integers,
// and doubles to the bit (jansson and json-c print 17 significant digits,
// fastjson the shortest round trip, RapidJSON and simdjson Grisu2).
// format_double/LIBRARY/canada.json: every number of canada.json to text
// (each library's text must read back to the same double, checked first):
//   fastjson:  fj_format_double (shortest round trip, Schubfach)
//   to_chars:  std::to_chars(first, last, double) (C++17: shortest round
//              trip; libstdc++ 12 implements it with Ryu)
//   snprintf:  "%.17g" (round-trips, not shortest)
// minify/LIBRARY/FILE: whitespace removed from a whole corpus document:
//   fastjson:  fj_minify into a reused fj_buffer (validates the document
//              fully first: invalid input produces no output)
//   fastjson-unvalidated: fj_minify_unvalidated_into into a reused buffer
//              (no validation, like simdjson's; the stage-1 kernel in use,
//              FASTJSON_KERNEL picks another)
//   simdjson:  simdjson::minify into a reused buffer (no validation)
// Bytes per second are the input document's size for write/ and minify/,
// and the numbers' count is reported as items for format_double/.
#include "corpus.hpp"
#include "dom_peers.h"

#include <benchmark/benchmark.h>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "fastjson.h"

#ifdef FJ_BENCH_SIMDJSON
#include <simdjson.h>
#endif

#if __has_include(<rapidjson/writer.h>)
#define FJ_BENCH_RAPIDJSON 1
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#endif

namespace {

// The events of a document (dom_peers.h: the DOM peers build their trees
// from them through C); strings are at arena + off, followed by a '\0'.
using event = fjb_event;

struct recording {
  std::vector<event> events;
  std::string arena;
};

event make_event(fjb_event_kind k) {
  event e{};
  e.kind = uint8_t(k);
  return e;
}

// What simdjson::minify writes for f (simdjson's default kernel), against
// which every minify row checks its own output before timing: the same
// bytes (all three keep strings and numbers byte for byte). Without
// simdjson, the output of fj_minify_unvalidated_into, which the validating
// row must then match.
const std::string &minified(const fjbench::file *f) {
  static std::map<const fjbench::file *, std::string> cache;
  auto it = cache.find(f);
  if (it != cache.end()) return it->second;
  std::string out(f->data.size() + 64, '\0');
  size_t n = 0;
#ifdef FJ_BENCH_SIMDJSON
  if (simdjson::minify(f->data.data(), f->data.size(), out.data(), n) != simdjson::SUCCESS)
    fjbench::fail("simdjson::minify fails on " + f->name);
#else
  if (fj_minify_unvalidated_into(f->data.data(), f->data.size(), out.data(), &n) != FJ_OK)
    fjbench::fail("fj_minify_unvalidated_into fails on " + f->name);
#endif
  out.resize(n);
  return cache[f] = out;
}

void expect_minified(const char *lib, const fjbench::file *f, const char *out, size_t n) {
  const std::string &want = minified(f);
  if (n != want.size() || std::memcmp(out, want.data(), n) != 0)
    fjbench::fail(std::string(lib) + "'s minified " + f->name + " differs from simdjson::minify's");
}

void minify_fastjson(benchmark::State &state, const fjbench::file *f) {
  fj_parser *p;
  if (fj_parser_new(&p, nullptr) != FJ_OK) fjbench::fail("fj_parser_new");
  fj_buffer out = {};
  if (fj_minify(p, f->data.data(), f->data.size(), fj_sink_buffer(&out)) != FJ_OK)
    fjbench::fail("fj_minify fails on " + f->name);
  expect_minified("fastjson", f, reinterpret_cast<const char *>(out.data), out.len);
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

void minify_fastjson_unvalidated(benchmark::State &state, const fjbench::file *f) {
  std::vector<char> out(f->data.size());
  size_t n = 0;
  if (fj_minify_unvalidated_into(f->data.data(), f->data.size(), out.data(), &n) != FJ_OK)
    fjbench::fail("fj_minify_unvalidated_into fails on " + f->name);
  expect_minified("fastjson-unvalidated", f, out.data(), n);
  size_t bytes = n;
  for (auto _ : state) {
    fj_error e = fj_minify_unvalidated_into(f->data.data(), f->data.size(), out.data(), &n);
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(f->data.size()));
  state.counters["output_bytes"] = double(bytes);
}

#ifdef FJ_BENCH_SIMDJSON
// impl: one of simdjson's kernels forced (haswell: AVX2, westmere: SSE4.2),
// or nullptr for the one it picks (on AMD Zen 4 and later its AVX-512
// "icelake" minify is several times slower than its AVX2 one: simdjson
// issue #2334, fixed after the version Debian 12 ships; the forced rows
// show its best).
void minify_simdjson(benchmark::State &state, const simdjson::implementation *impl,
                     const fjbench::file *f) {
  std::vector<char> out(f->data.size() + simdjson::SIMDJSON_PADDING);
  size_t n = 0;
  auto run = [&] {
    return impl ? impl->minify(reinterpret_cast<const uint8_t *>(f->data.data()), f->data.size(),
                               reinterpret_cast<uint8_t *>(out.data()), n)
                : simdjson::minify(f->data.data(), f->data.size(), out.data(), n);
  };
  if (run() != simdjson::SUCCESS) fjbench::fail("simdjson::minify fails on " + f->name);
  expect_minified(impl ? impl->name().c_str() : "simdjson", f, out.data(), n);
  size_t bytes = n;
  for (auto _ : state) {
    auto e = run();
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
    benchmark::RegisterBenchmark(("minify/fastjson-unvalidated/" + f.name).c_str(),
                                 minify_fastjson_unvalidated, &f);
#ifdef FJ_BENCH_SIMDJSON
    benchmark::RegisterBenchmark(("minify/simdjson/" + f.name).c_str(), minify_simdjson, nullptr,
                                 &f);
    for (const char *name : {"haswell", "westmere"}) {
      const simdjson::implementation *impl = simdjson::get_available_implementations()[name];
      if (!impl || !impl->supported_by_runtime_system()) continue;
      std::string bname = std::string("minify/simdjson-") + name + "/" + f.name;
      benchmark::RegisterBenchmark(bname.c_str(), minify_simdjson, impl, &f);
    }
#endif
  }
}

fjbench::registrar reg_minify(register_minify);

#ifdef FJ_BENCH_RAPIDJSON
struct recorder : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, recorder> {
  recording *r;
  bool push(const event &e) {
    r->events.push_back(e);
    return true;
  }
  bool push(fjb_event_kind k) { return push(make_event(k)); }
  bool text(fjb_event_kind k, const char *s, rapidjson::SizeType n) {
    event e = make_event(k);
    e.len = n;
    e.off = r->arena.size();
    r->arena.append(s, n);
    r->arena.push_back('\0'); // json-c's keys end at a '\0'
    return push(e);
  }
  bool Null() { return push(FJB_NULL); }
  bool Bool(bool b) { return push(b ? FJB_TRUE : FJB_FALSE); }
  bool Int(int v) { return Int64(v); }
  bool Uint(unsigned v) { return Uint64(v); }
  bool Int64(int64_t v) {
    event e = make_event(FJB_INT64);
    e.i = v;
    return push(e);
  }
  bool Uint64(uint64_t v) {
    if (v <= uint64_t(INT64_MAX)) return Int64(int64_t(v));
    event e = make_event(FJB_UINT64);
    e.u = v;
    return push(e);
  }
  bool Double(double v) {
    event e = make_event(FJB_DOUBLE);
    e.d = v;
    return push(e);
  }
  bool String(const char *s, rapidjson::SizeType n, bool) { return text(FJB_STRING, s, n); }
  bool Key(const char *s, rapidjson::SizeType n, bool) { return text(FJB_KEY, s, n); }
  bool StartObject() { return push(FJB_BEGIN_OBJECT); }
  bool EndObject(rapidjson::SizeType) { return push(FJB_END_OBJECT); }
  bool StartArray() { return push(FJB_BEGIN_ARRAY); }
  bool EndArray(rapidjson::SizeType) { return push(FJB_END_ARRAY); }
};

// The events of json[0, len), read by RapidJSON (full-precision doubles);
// false if it rejects the text.
bool record(const char *json, size_t len, recording &r) {
  recorder h;
  h.r = &r;
  rapidjson::Reader reader;
  rapidjson::MemoryStream in(json, len);
  return !reader.Parse<rapidjson::kParseFullPrecisionFlag>(in, h).IsError();
}

recording record(const fjbench::file &f) {
  recording r;
  if (!record(f.data.data(), f.data.size(), r)) fjbench::fail("rapidjson cannot read " + f.name);
  return r;
}

// The first difference between two recordings, or an empty string.
std::string differ(const recording &a, const recording &b) {
  if (a.events.size() != b.events.size())
    return std::to_string(b.events.size()) + " events instead of " +
           std::to_string(a.events.size());
  for (size_t i = 0; i < a.events.size(); i++) {
    const event &x = a.events[i], &y = b.events[i];
    bool same = x.kind == y.kind;
    if (same && (x.kind == FJB_KEY || x.kind == FJB_STRING))
      same =
          x.len == y.len && std::memcmp(a.arena.data() + x.off, b.arena.data() + y.off, x.len) == 0;
    else if (same && x.kind >= FJB_INT64 && x.kind <= FJB_DOUBLE)
      same = std::memcmp(&x.u, &y.u, sizeof x.u) == 0; // the integer, or the double's bits
    if (!same) return "event " + std::to_string(i) + " differs";
  }
  return {};
}

// Stops the program unless out[0, len), written by lib, reads back as the
// events it was written from.
void expect_events(const char *lib, const fjbench::file &f, const recording &r, const char *out,
                   size_t len) {
  recording back;
  if (!record(out, len, back))
    fjbench::fail(std::string(lib) + " wrote invalid JSON for " + f.name);
  std::string d = differ(r, back);
  if (!d.empty())
    fjbench::fail(std::string(lib) + "'s output for " + f.name + " reads back wrong: " + d);
}

// Both replay loops start on a cache line (aligned(64)): their dispatch on the
// event kind is a large share of each write run, and where the rest of the
// binary happened to place them moved fastjson's rows by 5-8 % between
// builds with the same writer (play() at 16 vs 32 bytes into a line;
// RapidJSON's inlined loop unaffected). Pinned, changes elsewhere do not.
__attribute__((aligned(64))) fj_error play(fj_writer *w, const recording &r) {
  const char *a = r.arena.data();
  fj_error err = FJ_OK;
  for (const event &e : r.events) {
    switch (fjb_event_kind(e.kind)) {
    case FJB_BEGIN_OBJECT: err = fj_writer_begin_object(w); break;
    case FJB_END_OBJECT: err = fj_writer_end_object(w); break;
    case FJB_BEGIN_ARRAY: err = fj_writer_begin_array(w); break;
    case FJB_END_ARRAY: err = fj_writer_end_array(w); break;
    case FJB_KEY: err = fj_writer_keyn(w, a + e.off, e.len); break;
    case FJB_STRING: err = fj_writer_stringn(w, a + e.off, e.len); break;
    case FJB_INT64: err = fj_writer_int64(w, e.i); break;
    case FJB_UINT64: err = fj_writer_uint64(w, e.u); break;
    case FJB_DOUBLE: err = fj_writer_double(w, e.d); break;
    case FJB_TRUE: err = fj_writer_bool(w, true); break;
    case FJB_FALSE: err = fj_writer_bool(w, false); break;
    case FJB_NULL: err = fj_writer_null(w); break;
    }
    if (err) return err;
  }
  return fj_writer_finish(w);
}

template <class W> __attribute__((aligned(64))) void play_rapidjson(W &w, const recording &r) {
  const char *a = r.arena.data();
  for (const event &e : r.events) {
    switch (fjb_event_kind(e.kind)) {
    case FJB_BEGIN_OBJECT: w.StartObject(); break;
    case FJB_END_OBJECT: w.EndObject(); break;
    case FJB_BEGIN_ARRAY: w.StartArray(); break;
    case FJB_END_ARRAY: w.EndArray(); break;
    case FJB_KEY: w.Key(a + e.off, e.len); break;
    case FJB_STRING: w.String(a + e.off, e.len); break;
    case FJB_INT64: w.Int64(e.i); break;
    case FJB_UINT64: w.Uint64(e.u); break;
    case FJB_DOUBLE: w.Double(e.d); break;
    case FJB_TRUE: w.Bool(true); break;
    case FJB_FALSE: w.Bool(false); break;
    case FJB_NULL: w.Null(); break;
    }
  }
}

// The same loop with no writer: each event stores its kind's byte, or copies
// 16 bytes of its string or its 8-byte number, unformatted (no JSON, no
// checks). Its time is the share of every row above that is the replay:
// reading the events and the switch on their kind, whose indirect jump
// mispredicts wherever the kinds follow no pattern.
__attribute__((aligned(64))) size_t play_replay_only(uint8_t *out, const recording &r) {
  const char *a = r.arena.data();
  uint8_t *p = out;
  for (const event &e : r.events) {
    switch (fjb_event_kind(e.kind)) {
    case FJB_BEGIN_OBJECT: *p++ = '{'; break;
    case FJB_END_OBJECT: *p++ = '}'; break;
    case FJB_BEGIN_ARRAY: *p++ = '['; break;
    case FJB_END_ARRAY: *p++ = ']'; break;
    case FJB_KEY: std::memcpy(p, a + e.off, 16), p += e.len + 1; break;
    case FJB_STRING: std::memcpy(p, a + e.off, 16), p += e.len + 2; break;
    case FJB_INT64:
    case FJB_UINT64:
    case FJB_DOUBLE: std::memcpy(p, &e.u, 8), p += 8; break;
    case FJB_TRUE: std::memcpy(p, "true", 4), p += 4; break;
    case FJB_FALSE: std::memcpy(p, "false", 5), p += 5; break;
    case FJB_NULL: std::memcpy(p, "null", 4), p += 4; break;
    }
  }
  return size_t(p - out);
}

void write_replay_only(benchmark::State &state, const fjbench::file *f) {
  recording r = record(*f);
  // room for 16 bytes at every event's start
  std::vector<uint8_t> out(r.arena.size() + 24 * r.events.size() + 16);
  size_t bytes = 0;
  for (auto _ : state) {
    bytes = play_replay_only(out.data(), r);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(f->data.size()));
  state.counters["output_bytes"] = double(bytes);
}

void write_fastjson(benchmark::State &state, const fjbench::file *f) {
  recording r = record(*f);
  fj_buffer out = {};
  fj_writer *w;
  if (fj_writer_new(&w, nullptr, fj_sink_buffer(&out)) != FJ_OK) fjbench::fail("fj_writer_new");
  if (play(w, r) != FJ_OK) fjbench::fail("fastjson cannot write " + f->name);
  expect_events("fastjson", *f, r, reinterpret_cast<const char *>(out.data), out.len);
  size_t bytes = out.len;
  for (auto _ : state) {
    out.len = 0;
    fj_writer_reset(w, fj_sink_buffer(&out));
    fj_error e = play(w, r);
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(out.data);
    benchmark::ClobberMemory();
  }
  // the last iteration's output too (after a reset)
  expect_events("fastjson", *f, r, reinterpret_cast<const char *>(out.data), out.len);
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
  expect_events("rapidjson", *f, r, buf.GetString(), buf.GetSize());
  size_t bytes = buf.GetSize();
  for (auto _ : state) {
    buf.Clear();
    w.Reset(buf);
    play_rapidjson(w, r);
    benchmark::DoNotOptimize(buf.GetString());
    benchmark::ClobberMemory();
  }
  expect_events("rapidjson", *f, r, buf.GetString(), buf.GetSize()); // the last iteration's
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(f->data.size()));
  state.counters["output_bytes"] = double(bytes);
}

#ifdef FJ_BENCH_SIMDJSON
void write_simdjson(benchmark::State &state, const fjbench::file *f) {
  recording r = record(*f);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(f->data.data(), f->data.size()).get(doc) != simdjson::SUCCESS)
    fjbench::fail("simdjson cannot parse " + f->name);
  simdjson::internal::string_builder<> sb;
  sb.append(doc);
  expect_events("simdjson", *f, r, sb.str().data(), sb.str().size());
  size_t bytes = sb.str().size();
  for (auto _ : state) {
    sb.clear();
    sb.append(doc);
    benchmark::DoNotOptimize(sb.str().data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(f->data.size()));
  state.counters["output_bytes"] = double(bytes);
}
#endif

// jansson, json-c (dom_peers.h): the tree built from the events once, then
// written in every iteration; with Build, built, written and freed in every
// iteration (building frees the tree built before).
template <const fjb_dom_lib *Lib, bool Build>
void write_dom(benchmark::State &state, const char *lib, const fjbench::file *f) {
  recording r = record(*f);
  fjb_dom *d = Lib->create();
  if (!d) fjbench::fail(std::string(lib) + ": out of memory");
  const char *out = nullptr;
  size_t len = 0;
  if (!Lib->build(d, r.events.data(), r.events.size(), r.arena.data()))
    fjbench::fail(std::string(lib) + " cannot build a tree of " + f->name);
  if (!Lib->dump(d, &out, &len)) fjbench::fail(std::string(lib) + " cannot write " + f->name);
  expect_events(lib, *f, r, out, len);
  size_t bytes = len;
  for (auto _ : state) {
    bool ok = (!Build || Lib->build(d, r.events.data(), r.events.size(), r.arena.data())) &&
              Lib->dump(d, &out, &len);
    if (!ok) fjbench::fail(std::string(lib) + " cannot write " + f->name);
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
  expect_events(lib, *f, r, out, len); // the last iteration's output too
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(f->data.size()));
  state.counters["output_bytes"] = double(bytes);
  Lib->destroy(d);
}

std::vector<double> doubles_of(const fjbench::file &f) {
  recording r = record(f);
  std::vector<double> v;
  for (const event &e : r.events)
    if (e.kind == FJB_DOUBLE) v.push_back(e.d);
  return v;
}

// Before timing, every formatter's text for every number must read back
// (strtod) as the same double.
template <class Format> void expect_round_trips(const char *lib, const std::vector<double> &v,
                                               Format format) {
  char buf[64];
  for (double d : v) {
    size_t n = format(d, buf, sizeof buf - 1);
    buf[n] = '\0';
    double back = std::strtod(buf, nullptr);
    if (std::memcmp(&back, &d, sizeof d) != 0)
      fjbench::fail(std::string(lib) + " writes " + buf + ", which does not read back");
  }
}

size_t format_with_fastjson(double d, char *buf, size_t cap) {
  size_t n = 0;
  if (fj_format_double(d, buf, cap, &n) != FJ_OK) fjbench::fail("fj_format_double fails");
  return n;
}

size_t format_with_to_chars(double d, char *buf, size_t cap) {
  std::to_chars_result r = std::to_chars(buf, buf + cap, d);
  if (r.ec != std::errc()) fjbench::fail("std::to_chars fails");
  return size_t(r.ptr - buf);
}

size_t format_with_snprintf(double d, char *buf, size_t cap) {
  return size_t(std::snprintf(buf, cap, "%.17g", d));
}

// One format_double row: every double of the file through format.
template <size_t (*Format)(double, char *, size_t)>
void format_double(benchmark::State &state, const char *lib, const fjbench::file *f) {
  std::vector<double> v = doubles_of(*f);
  expect_round_trips(lib, v, Format);
  char buf[64];
  size_t total = 0;
  for (auto _ : state) {
    for (double d : v) {
      total += Format(d, buf, sizeof buf);
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
    benchmark::RegisterBenchmark(("write/replay-only/" + f.name).c_str(), write_replay_only, &f);
#ifdef FJ_BENCH_SIMDJSON
    benchmark::RegisterBenchmark(("write/simdjson/" + f.name).c_str(), write_simdjson, &f);
#endif
#ifdef FJ_BENCH_JANSSON
    benchmark::RegisterBenchmark(("write/jansson/" + f.name).c_str(),
                                 write_dom<&fjb_jansson, false>, "jansson", &f);
    benchmark::RegisterBenchmark(("write/jansson-build/" + f.name).c_str(),
                                 write_dom<&fjb_jansson, true>, "jansson-build", &f);
#endif
#ifdef FJ_BENCH_JSONC
    benchmark::RegisterBenchmark(("write/json-c/" + f.name).c_str(), write_dom<&fjb_jsonc, false>,
                                 "json-c", &f);
    benchmark::RegisterBenchmark(("write/json-c-build/" + f.name).c_str(),
                                 write_dom<&fjb_jsonc, true>, "json-c-build", &f);
#endif
    if (f.name == "canada.json") {
      benchmark::RegisterBenchmark(("format_double/fastjson/" + f.name).c_str(),
                                   format_double<format_with_fastjson>, "fastjson", &f);
      benchmark::RegisterBenchmark(("format_double/to_chars/" + f.name).c_str(),
                                   format_double<format_with_to_chars>, "std::to_chars", &f);
      benchmark::RegisterBenchmark(("format_double/snprintf/" + f.name).c_str(),
                                   format_double<format_with_snprintf>, "snprintf", &f);
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
