/* The DOM peers jansson and json-c, reached through C: their headers clash
 * (both declare json_type, json_object, ...), so each library lives in its
 * own C file (dom_jansson.c, dom_jsonc.c) behind this one interface, used by
 * fastjson_bench (validate/, scaling/, write/) and fastjson-mem-peak.
 * A file is only compiled when its library is found; FJ_BENCH_JANSSON and
 * FJ_BENCH_JSONC say which are.
 * Both libraries export json_object_get and json_object_iter_next (different
 * functions). A program that links both binds each name, for all its own
 * calls, to the first library on the link line (jansson: bench/CMakeLists.txt
 * links it first), so dom_jsonc.c calls neither. */
#ifndef FJ_BENCH_DOM_PEERS_H
#define FJ_BENCH_DOM_PEERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One event of a document recorded once (bench_write.cpp records them with
 * RapidJSON's SAX reader). */
enum fjb_event_kind {
  FJB_BEGIN_OBJECT,
  FJB_END_OBJECT,
  FJB_BEGIN_ARRAY,
  FJB_END_ARRAY,
  FJB_KEY,
  FJB_STRING,
  FJB_INT64,
  FJB_UINT64, /* only above INT64_MAX */
  FJB_DOUBLE,
  FJB_TRUE,
  FJB_FALSE,
  FJB_NULL
};

typedef struct fjb_event {
  uint8_t kind; /* enum fjb_event_kind */
  uint32_t len; /* FJB_KEY, FJB_STRING: len bytes at arena + off, then a '\0' */
  union {
    uint64_t off;
    int64_t i;
    uint64_t u;
    double d;
  };
} fjb_event;

/* What a document holds, counted by a walk in document order (keys apart
 * from values; a container counts as one value besides its contents). */
typedef struct fjb_counts {
  uint64_t objects, arrays, keys, key_bytes, strings, string_bytes, numbers, trues, falses, nulls;
  double number_sum; /* every number as a double, added in document order */
  uint8_t root;      /* the root's kind: FJB_BEGIN_OBJECT, FJB_BEGIN_ARRAY, FJB_STRING,
                        FJB_DOUBLE (any number), FJB_TRUE, FJB_FALSE or FJB_NULL */
} fjb_counts;

/* One library's state: a reusable parser, a tree built from events, an
 * output buffer. */
typedef struct fjb_dom fjb_dom;

typedef struct fjb_dom_lib {
  const char *name;         /* as in benchmark names */
  fjb_dom *(*create)(void); /* NULL when out of memory */
  void (*destroy)(fjb_dom *d);
  /* Parses buf[0, len) into the library's tree and frees the tree: true if
   * the library accepts the document. buf[len] must be readable and '\0'
   * (json-c reads it as the end of the input). */
  bool (*parse)(fjb_dom *d, const char *buf, size_t len);
  /* Parses like parse() and counts what the tree holds; false if rejected. */
  bool (*count)(fjb_dom *d, const char *buf, size_t len, fjb_counts *out);
  /* Builds the library's tree from n events (replacing the tree built
   * before); false if the library cannot hold them (or out of memory). */
  bool (*build)(fjb_dom *d, const fjb_event *ev, size_t n, const char *arena);
  /* The built tree as compact JSON, in memory the state owns (valid until
   * the next call); false on failure. */
  bool (*dump)(fjb_dom *d, const char **out, size_t *len);
} fjb_dom_lib;

#ifdef FJ_BENCH_JANSSON
extern const fjb_dom_lib fjb_jansson;
#endif
#ifdef FJ_BENCH_JSONC
extern const fjb_dom_lib fjb_jsonc;
#endif

#ifdef __cplusplus
}
#endif

#endif
