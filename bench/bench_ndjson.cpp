// Document streams against simdjson's iterate_many (On-Demand document
// streams), over NDJSON held in memory:
//   ndjson/LIBRARY/INPUT: every document of the stream is walked whole: keys
//       and strings unescaped, numbers read (int64 when they are integers,
//       else double), literals read.
//   ndjson-first/LIBRARY/INPUT: only the first element or field value of each
//       document is read (mostly stage 1 and finding the documents).
// Inputs: amazon_cellphones.ndjson from the corpus, and twitter.ndjson: the
// 100 statuses of twitter.json, minified, one per line.
// Each run computes a checksum of what it read; before the first row of an
// input is timed, fastjson's and simdjson's reads must agree, exactly
// (walk.hpp). Bytes per second are the input's size.
// simdjson needs its input padded: the padded copy is made once, outside the
// timing; fastjson reads the plain buffer. Both reuse one parser and use
// batches of 1 MB (simdjson's default batch size).
#include "walk.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fastjson.h"

#ifdef FJ_BENCH_SIMDJSON
#include <simdjson.h>
#endif

namespace {

using namespace fjbench;

const size_t batch_size = 1000000;

struct input {
  std::string name, data;
};

fj_error append(void *ctx, const void *bytes, size_t len) {
  static_cast<std::string *>(ctx)->append(static_cast<const char *>(bytes), len);
  return FJ_OK;
}

// The inputs: the corpus's NDJSON file and twitter.json's statuses, one per line.
const std::vector<input> &inputs() {
  static std::vector<input> in = [] {
    std::vector<input> out;
    const char *env = std::getenv("FJ_DATA_DIR");
    std::string dir = std::string(env && *env ? env : FJ_DATA_DIR) + "/corpus/";
    std::ifstream f(dir + "amazon_cellphones.ndjson", std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    if (!s.str().empty()) out.push_back({"amazon_cellphones.ndjson", s.str()});
    for (const auto &file : fjbench::corpus()) {
      if (file.name != "twitter.json") continue;
      fj_parser *p, *q;
      fj_value root, statuses, st;
      fj_object o;
      fj_array a;
      const char *raw;
      size_t n;
      std::string nd;
      if (fj_parser_new(&p, nullptr) || fj_parser_new(&q, nullptr)) fjbench::fail("parser");
      if (fj_parser_parse(p, file.data.data(), file.data.size(), &root) ||
          fj_value_get_object(&root, &o) || fj_object_find(&o, "statuses", &statuses) ||
          fj_value_get_array(&statuses, &a))
        fjbench::fail("twitter.json: no statuses");
      while (fj_array_next(&a, &st) == FJ_OK) {
        if (fj_value_get_raw(&st, &raw, &n) || fj_minify(q, raw, n, fj_sink{append, &nd}))
          fjbench::fail("twitter.json: status");
        nd += '\n';
      }
      fj_parser_free(p);
      fj_parser_free(q);
      out.push_back({"twitter.ndjson", nd});
    }
    return out;
  }();
  return in;
}

// ---- what a row reads of each document -----------------------------------------

// Every value of the document.
struct read_all {
  template <class C> static void fastjson(fj_value *root, C &c) {
    if (!fj_visit<false, C>(root, c)) fjbench::fail("fastjson cannot walk a document");
  }
#ifdef FJ_BENCH_SIMDJSON
  template <class C> static void simdjson(od::document_reference &doc, C &c) {
    od::value root;
    if (doc.get_value().get(root) || !sj_visit<false, C>(root, c))
      fjbench::fail("simdjson cannot walk a document");
  }
#endif
};

// The first element or field value of the root container (the root itself
// otherwise): its string when it is one, and one value counted.
struct read_first {
  template <class C> static void fastjson(fj_value *root, C &c) {
    fj_type t;
    fj_value v = *root;
    if (fj_value_get_type(root, &t)) fjbench::fail("fastjson: type");
    if (t == FJ_TYPE_ARRAY) {
      fj_array a;
      if (fj_value_get_array(root, &a) || fj_array_next(&a, &v)) fjbench::fail("fastjson: first");
    } else if (t == FJ_TYPE_OBJECT) {
      fj_object o;
      if (fj_value_get_object(root, &o) || fj_object_next(&o, nullptr, &v))
        fjbench::fail("fastjson: first");
    }
    const char *s;
    size_t n;
    if (fj_value_get_type(&v, &t)) fjbench::fail("fastjson: first type");
    if (t == FJ_TYPE_STRING) {
      if (fj_value_get_string(&v, &s, &n)) fjbench::fail("fastjson: first string");
      c.string(s, n);
    }
    c.literal(1);
  }
#ifdef FJ_BENCH_SIMDJSON
  template <class C> static void simdjson(od::document_reference &doc, C &c) {
    od::json_type t;
    if (doc.type().get(t)) fjbench::fail("simdjson: type");
    od::value v;
    if (t == od::json_type::array) {
      od::array a;
      if (doc.get_array().get(a)) fjbench::fail("simdjson: first");
      for (auto e : a) {
        if (std::move(e).get(v)) fjbench::fail("simdjson: first");
        break;
      }
    } else {
      od::object o;
      if (doc.get_object().get(o)) fjbench::fail("simdjson: first");
      for (auto f : o) {
        od::field fld;
        if (std::move(f).get(fld)) fjbench::fail("simdjson: first");
        v = fld.value();
        break;
      }
    }
    if (v.type().get(t)) fjbench::fail("simdjson: first type");
    if (t == od::json_type::string) {
      std::string_view s;
      if (v.get_string().get(s)) fjbench::fail("simdjson: first string");
      c.string(s.data(), s.size());
    }
    c.literal(1);
  }
#endif
};

// ---- the streams -----------------------------------------------------------------

// Each document of the stream read by R; a document counts as a container.
template <class R, class C = checksum> C fj_stream_all(fj_parser *p, const std::string &in) {
  C c;
  fj_stream_options o{};
  o.format = FJ_STREAM_NDJSON;
  o.batch_size = batch_size;
  o.use_parser = p;
  fj_stream *s;
  fj_document d;
  fj_error err;
  if (fj_stream_new_buffer(&s, in.data(), in.size(), &o)) fjbench::fail("fastjson: stream");
  while ((err = fj_stream_next(s, &d)) == FJ_OK) {
    c.container();
    R::fastjson(&d.root, c);
  }
  if (err != FJ_END) fjbench::fail(std::string("fastjson: ") + fj_error_name(err));
  fj_stream_free(s);
  return c;
}

#ifdef FJ_BENCH_SIMDJSON
template <class R, class C = checksum>
C sj_stream_all(od::parser &parser, const simdjson::padded_string &in) {
  C c;
  od::document_stream stream;
  if (parser.iterate_many(in, batch_size).get(stream)) fjbench::fail("simdjson: iterate_many");
  for (auto it = stream.begin(); it != stream.end(); ++it) {
    od::document_reference doc;
    if ((*it).get(doc)) fjbench::fail("simdjson: document");
    c.container();
    R::simdjson(doc, c);
  }
  return c;
}
#endif

template <class R> const checksum &stream_reference(const input *in, const std::string &task) {
  auto fj = [in] {
    fj_parser_holder h;
    return reads{fj_stream_all<R>(h.p, in->data), fj_stream_all<R, exact_checksum>(h.p, in->data)};
  };
#ifdef FJ_BENCH_SIMDJSON
  auto sj = [in] {
    simdjson::padded_string padded(in->data);
    od::parser parser;
    return reads{sj_stream_all<R>(parser, padded), sj_stream_all<R, exact_checksum>(parser, padded)};
  };
#else
  auto sj = [] { return reads{}; };
#endif
  return reference(task + "/" + in->name, fj, sj);
}

// ---- the rows -----------------------------------------------------------------

template <class R> void fastjson_ndjson(benchmark::State &state, const input *in, std::string task) {
  const checksum &want = stream_reference<R>(in, task);
  fj_parser_holder h;
  expect("fastjson", task + "/" + in->name, want, fj_stream_all<R>(h.p, in->data));
  for (auto _ : state) {
    checksum c = fj_stream_all<R>(h.p, in->data);
    benchmark::DoNotOptimize(c);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(in->data.size()));
  state.counters["doc_bytes"] = double(in->data.size()); // the report's size column
}

#ifdef FJ_BENCH_SIMDJSON
template <class R> void simdjson_ndjson(benchmark::State &state, const input *in, std::string task) {
  const checksum &want = stream_reference<R>(in, task);
  simdjson::padded_string padded(in->data);
  od::parser parser;
  expect("simdjson", task + "/" + in->name, want, sj_stream_all<R>(parser, padded));
  for (auto _ : state) {
    checksum c = sj_stream_all<R>(parser, padded);
    benchmark::DoNotOptimize(c);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(in->data.size()));
  state.counters["doc_bytes"] = double(in->data.size()); // the report's size column
}
#endif

void register_ndjson() {
  for (const auto &in : inputs()) {
    benchmark::RegisterBenchmark(("ndjson/fastjson/" + in.name).c_str(), fastjson_ndjson<read_all>,
                                 &in, std::string("ndjson"));
#ifdef FJ_BENCH_SIMDJSON
    benchmark::RegisterBenchmark(("ndjson/simdjson/" + in.name).c_str(), simdjson_ndjson<read_all>,
                                 &in, std::string("ndjson"));
#endif
    benchmark::RegisterBenchmark(("ndjson-first/fastjson/" + in.name).c_str(),
                                 fastjson_ndjson<read_first>, &in, std::string("ndjson-first"));
#ifdef FJ_BENCH_SIMDJSON
    benchmark::RegisterBenchmark(("ndjson-first/simdjson/" + in.name).c_str(),
                                 simdjson_ndjson<read_first>, &in, std::string("ndjson-first"));
#endif
  }
}

fjbench::registrar r(register_ndjson);

} // namespace
