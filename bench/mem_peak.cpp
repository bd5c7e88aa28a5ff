// fastjson-mem-peak LIBRARY FILE: the peak memory one library needs to parse
// one document, measured in a fresh process (run_all.sh runs it once per
// library and file).
//
// The file is first read into a buffer with 64 bytes of zero padding (so
// simdjson needs no copy: the same buffer serves every library). The library
// then parses a small warm-up document (so that paging in its code and its
// first-use initialization are not charged to the document), the high-water
// mark of resident memory is reset to the current resident size (Linux:
// "5" > /proc/self/clear_refs; without it, the high-water mark so far is the
// baseline), and the library parses the document once, with a fresh parser.
// The report is the high-water mark after the parse (VmHWM; getrusage()'s
// ru_maxrss without the reset) minus that baseline:
// the memory the parse itself touched (index, tape, tree, string copies,
// allocator overhead). Memory allocated but never touched (fastjson reserves
// its index for the worst case of one structural per byte but touches only
// what it writes) is not resident and does not count.
//
//   fastjson           fj_parser_parse() + a walk that reads every value
//                      (keys and strings unescaped, numbers converted)
//   fastjson-validate  fj_parser_validate()
//   simdjson           DOM parser.parse() (tape + string buffer)
//   simdjson-ondemand  ondemand parser.iterate() + the same full walk
//   rapidjson          Document::Parse() (a tree, MemoryPoolAllocator)
//   cjson, jansson, json-c   their tree parsers (when built with them; jansson
//                      and json-c read as in validate/: dom_jansson.c, dom_jsonc.c)
//
// `fastjson-mem-peak --list` prints the libraries compiled in; `--info` the
// stage-1 kernels in use and the peers' versions, as JSON.
//
// Output: one JSON object on standard output, e.g.
//   {"library":"fastjson","file":"twitter.json","bytes":631515,
//    "baseline_kb":4096,"peak_kb":7168,"delta_kb":3072,"structurals":55263}
// (structurals: fastjson only, the number of index entries, each 4 bytes;
// counted after the measurement). Exit status 1 if the library rejects the
// document or the walk fails, 2 for a usage error or unknown library.
#include <sys/resource.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "fastjson.h"

extern "C" {
#include "scan/stage1.h"
}

#ifdef FJ_BENCH_SIMDJSON
#include <simdjson.h>
#endif
#ifdef FJ_BENCH_RAPIDJSON
#include <rapidjson/document.h>
#endif
#ifdef FJ_BENCH_CJSON
#include <cjson/cJSON.h>
#endif
// jansson and json-c (their headers clash): dom_jansson.c, dom_jsonc.c
#include "dom_peers.h"

namespace {

long max_rss_kb() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss; // kilobytes on Linux
}

// A field of /proc/self/status ("VmRSS", "VmHWM"), kilobytes; -1 if unknown.
long status_kb(const char *field) {
  FILE *f = std::fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kb = -1;
  size_t n = std::strlen(field);
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, field, n) == 0 && line[n] == ':') {
      kb = std::strtol(line + n + 1, nullptr, 10);
      break;
    }
  std::fclose(f);
  return kb;
}

bool peak_was_reset = false;

// Resets the high-water mark of resident memory to the current resident size
// (Linux 4.0+: "5" > /proc/self/clear_refs) and returns that size, the
// baseline. Without the reset, the baseline is getrusage's ru_maxrss so far.
long reset_peak_kb() {
  FILE *f = std::fopen("/proc/self/clear_refs", "w");
  bool reset = f && std::fputs("5", f) >= 0;
  if (f) reset = (std::fclose(f) == 0) && reset;
  long now = status_kb("VmRSS");
  peak_was_reset = reset && now >= 0 && status_kb("VmHWM") >= 0;
  return peak_was_reset ? now : max_rss_kb();
}

// The high-water mark since the reset: VmHWM (ru_maxrss would also include
// the memory of the process before exec, e.g. the shell that started us).
long peak_kb() { return peak_was_reset ? status_kb("VmHWM") : max_rss_kb(); }

// A small document with every kind of value: parsed once by each library
// before the measurement, so that paging in the library's code and its
// first-use initialization are not counted as the document's memory.
const char warmup_doc[] = "{\"a\":[1,-2.5e-3,9007199254740993,\"x\\n\\u00e9\",true,false,"
                          "null,{\"b\":{},\"c\":[]}],\"d\":\"caf\xc3\xa9\"}";

// What a walk read, so the compiler cannot drop it.
struct sink {
  double num = 0;
  size_t bytes = 0, values = 0;
};

bool fj_walk(const fj_value *v, sink &s) {
  fj_type t;
  if (fj_value_get_type(v, &t)) return false;
  s.values++;
  switch (t) {
  case FJ_TYPE_ARRAY: {
    fj_array a;
    fj_value e;
    fj_error err;
    if (fj_value_get_array(v, &a)) return false;
    while ((err = fj_array_next(&a, &e)) == FJ_OK)
      if (!fj_walk(&e, s)) return false;
    return err == FJ_END;
  }
  case FJ_TYPE_OBJECT: {
    fj_object o;
    fj_value k, e;
    fj_error err;
    const char *str;
    size_t n;
    if (fj_value_get_object(v, &o)) return false;
    while ((err = fj_object_next(&o, &k, &e)) == FJ_OK) {
      if (fj_value_get_string(&k, &str, &n)) return false;
      s.bytes += n;
      if (!fj_walk(&e, s)) return false;
    }
    return err == FJ_END;
  }
  case FJ_TYPE_NUMBER: {
    int64_t i;
    double d;
    fj_error err = fj_value_get_int64(v, &i);
    if (err == FJ_OK) return s.num += double(i), true;
    if (err != FJ_ERR_NOT_INTEGER && err != FJ_ERR_NUMBER_RANGE) return false;
    if (fj_value_get_double(v, &d)) return false;
    return s.num += d, true;
  }
  case FJ_TYPE_STRING: {
    const char *str;
    size_t n;
    if (fj_value_get_string(v, &str, &n)) return false;
    return s.bytes += n, true;
  }
  case FJ_TYPE_BOOL: {
    bool b;
    return fj_value_get_bool(v, &b) == FJ_OK;
  }
  case FJ_TYPE_NULL: {
    bool b;
    return fj_value_is_null(v, &b) == FJ_OK && b;
  }
  }
  return false;
}

#ifdef FJ_BENCH_SIMDJSON
namespace od = simdjson::ondemand;

bool sj_walk(od::value v, sink &s) {
  od::json_type t;
  if (v.type().get(t)) return false;
  s.values++;
  switch (t) {
  case od::json_type::array: {
    od::array a;
    if (v.get_array().get(a)) return false;
    for (auto e : a) {
      od::value x;
      if (std::move(e).get(x) || !sj_walk(x, s)) return false;
    }
    return true;
  }
  case od::json_type::object: {
    od::object o;
    if (v.get_object().get(o)) return false;
    for (auto f : o) {
      od::field fld;
      std::string_view k;
      if (std::move(f).get(fld) || fld.unescaped_key().get(k)) return false;
      s.bytes += k.size();
      if (!sj_walk(fld.value(), s)) return false;
    }
    return true;
  }
  case od::json_type::number: {
    od::number n;
    if (v.get_number().get(n)) return false;
    s.num += n.as_double();
    return true;
  }
  case od::json_type::string: {
    std::string_view str;
    if (v.get_string().get(str)) return false;
    s.bytes += str.size();
    return true;
  }
  case od::json_type::boolean: {
    bool b;
    return !v.get_bool().get(b);
  }
  case od::json_type::null: {
    bool b;
    return !v.is_null().get(b) && b;
  }
  }
  return false;
}
#endif

// The libraries this build measures, for --list and the usage message.
const char *const libraries = "fastjson fastjson-validate"
#ifdef FJ_BENCH_SIMDJSON
                              " simdjson simdjson-ondemand"
#endif
#ifdef FJ_BENCH_RAPIDJSON
                              " rapidjson"
#endif
#ifdef FJ_BENCH_CJSON
                              " cjson"
#endif
#ifdef FJ_BENCH_JANSSON
                              " jansson"
#endif
#ifdef FJ_BENCH_JSONC
                              " json-c"
#endif
    ;

int usage() {
  std::fprintf(stderr, "usage: fastjson-mem-peak LIBRARY FILE\nlibraries: %s\n", libraries);
  return 2;
}

// jansson, json-c: a fresh parser (json-c's tokener; jansson has none), the
// tree built and freed (buf[len] is the padding's '\0', as dom_peers.h wants).
[[maybe_unused]] bool parse_dom(const fjb_dom_lib &lib, const char *buf, size_t len) {
  fjb_dom *d = lib.create();
  bool ok = d && lib.parse(d, buf, len);
  lib.destroy(d);
  return ok;
}

// Parses buf[0, len) (zero padding after it) with one library: 1 if
// accepted (and walked), 0 if rejected, -1 for an unknown library.
int parse(const std::string &lib, const char *buf, size_t len, size_t padding, sink &s) {
  bool ok = false;
  (void)padding;
  if (lib == "fastjson" || lib == "fastjson-validate") {
    fj_parser *p;
    if (fj_parser_new(&p, nullptr)) return 0;
    if (lib == "fastjson") {
      fj_value root;
      ok = fj_parser_parse(p, buf, len, &root) == FJ_OK && fj_walk(&root, s);
    } else {
      ok = fj_parser_validate(p, buf, len) == FJ_OK;
    }
    fj_parser_free(p);
#ifdef FJ_BENCH_SIMDJSON
  } else if (lib == "simdjson") {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    ok = parser.parse(reinterpret_cast<const uint8_t *>(buf), len, false).get(root) ==
         simdjson::SUCCESS;
  } else if (lib == "simdjson-ondemand") {
    od::parser parser;
    od::document doc;
    od::value root;
    ok = !parser.iterate(buf, len, len + padding).get(doc) && !doc.get_value().get(root) &&
         sj_walk(root, s);
#endif
#ifdef FJ_BENCH_RAPIDJSON
  } else if (lib == "rapidjson") {
    rapidjson::Document d;
    d.Parse(buf, len);
    ok = !d.HasParseError();
#endif
#ifdef FJ_BENCH_CJSON
  } else if (lib == "cjson") {
    cJSON *root = cJSON_ParseWithLength(buf, len);
    ok = root != nullptr;
    cJSON_Delete(root);
#endif
#ifdef FJ_BENCH_JANSSON
  } else if (lib == fjb_jansson.name) {
    ok = parse_dom(fjb_jansson, buf, len);
#endif
#ifdef FJ_BENCH_JSONC
  } else if (lib == fjb_jsonc.name) {
    ok = parse_dom(fjb_jsonc, buf, len);
#endif
  } else {
    return -1;
  }
  return ok ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
    std::printf("%s\n", libraries);
    return 0;
  }
  if (argc == 2 && std::strcmp(argv[1], "--info") == 0) { // for the report's Environment
    std::printf("{\"fastjson_kernel\":\"%s\"", fj__kernel_active()->name);
#ifdef FJ_BENCH_SIMDJSON
    std::printf(",\"simdjson_version\":\"%d.%d.%d\",\"simdjson_kernel\":\"%s\"",
                int(simdjson::SIMDJSON_VERSION_MAJOR), int(simdjson::SIMDJSON_VERSION_MINOR),
                int(simdjson::SIMDJSON_VERSION_REVISION),
                simdjson::get_active_implementation()->name().c_str());
#endif
#ifdef FJ_BENCH_RAPIDJSON
    std::printf(",\"rapidjson_version\":\"%s\"", RAPIDJSON_VERSION_STRING);
#endif
#ifdef FJ_BENCH_CJSON
    std::printf(",\"cjson_version\":\"%s\"", cJSON_Version());
#endif
    std::printf("}\n");
    return 0;
  }
  if (argc != 3) return usage();
  const std::string lib = argv[1];
  const char *path = argv[2];

  // the document, zero-padded, every page touched
  FILE *f = std::fopen(path, "rb");
  if (!f) {
    std::perror(path);
    return 2;
  }
  std::fseek(f, 0, SEEK_END);
  const size_t len = size_t(std::ftell(f));
  std::fseek(f, 0, SEEK_SET);
  const size_t padding = 64;
  char *buf = static_cast<char *>(std::calloc(len + padding, 1));
  if (!buf || std::fread(buf, 1, len, f) != len) {
    std::fprintf(stderr, "%s: cannot read\n", path);
    return 2;
  }
  std::fclose(f);
  const char *name = std::strrchr(path, '/') ? std::strrchr(path, '/') + 1 : path;

  sink s;
  // warm-up on a copy with the same padding
  std::vector<char> warm(sizeof warmup_doc - 1 + padding, 0);
  std::memcpy(warm.data(), warmup_doc, sizeof warmup_doc - 1);
  int r = parse(lib, warm.data(), sizeof warmup_doc - 1, padding, s);
  if (r < 0) return usage();
  if (r == 0) {
    std::fprintf(stderr, "fastjson-mem-peak: %s rejects the warm-up document\n", lib.c_str());
    return 1;
  }
  const long baseline = reset_peak_kb();
  const bool ok = parse(lib, buf, len, padding, s) == 1;
  const long peak = peak_kb();
  if (!ok) {
    std::fprintf(stderr, "fastjson-mem-peak: %s rejects %s\n", lib.c_str(), path);
    return 1;
  }

  std::printf("{\"library\":\"%s\",\"file\":\"%s\",\"bytes\":%zu,\"baseline_kb\":%ld,"
              "\"peak_kb\":%ld,\"delta_kb\":%ld",
              lib.c_str(), name, len, baseline, peak, peak - baseline);
  if (lib.rfind("fastjson", 0) == 0) {
    // the index's length, counted after the measurement with the kernel in use
    std::vector<uint32_t> idx(len + FJ_INDEX_SLACK);
    fj__stage1_result res = {};
    if (fj__kernel_active()->stage1(reinterpret_cast<const uint8_t *>(buf), len, idx.data(),
                                    &res) == FJ_OK)
      std::printf(",\"structurals\":%u", res.n);
  }
  std::printf("}\n");
  std::free(buf);
  return 0;
}
