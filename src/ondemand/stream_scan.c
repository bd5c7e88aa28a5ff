/* Finding where a JSON value ends without parsing it: a byte-level state
 * machine over strings, escapes and bracket depth that can stop at the end
 * of a chunk and resume when more bytes arrive. Concatenated documents and
 * the elements of a streamed array are delimited with it; the parser then
 * checks each one in full. Strings are crossed with memchr, so large string
 * values cost little. */
#include <string.h>

#include "ondemand/stream_internal.h"

/* Bytes that end a scalar token (whitespace and the structural characters). */
static bool ends_scalar(uint8_t c) {
  return fj__is_ws(c) || c == '{' || c == '}' || c == '[' || c == ']' || c == '"' || c == ',' ||
         c == ':';
}

bool fj__vscan_string(fj__vscan *v, const uint8_t *d, size_t *pi, size_t end) {
  size_t i = *pi;
  size_t quote = SIZE_MAX; /* the next '"' at or after i (end: none), found once */
  for (;;) {
    if (v->escaped) { /* the byte after a backslash is never the closing quote */
      if (i == end) break;
      i++;
      v->escaped = false;
    }
    if (quote == SIZE_MAX || quote < i) {
      const uint8_t *q = i < end ? memchr(d + i, '"', end - i) : NULL;
      quote = q ? (size_t)(q - d) : end;
    }
    const uint8_t *b = quote > i ? memchr(d + i, '\\', quote - i) : NULL;
    if (b) {
      i = (size_t)(b - d) + 1;
      v->escaped = true;
      continue;
    }
    if (quote == end) break;
    *pi = quote + 1;
    return true;
  }
  *pi = end;
  return false;
}

/* Inside a container: counts brackets until the depth returns to zero. */
static bool scan_container(fj__vscan *v, const uint8_t *d, size_t *pi, size_t end) {
  size_t i = *pi;
  uint64_t depth = v->depth;
  for (; i < end; i++) {
    uint8_t c = d[i];
    if (c == '"') {
      v->depth = depth;
      v->state = FJ__VS_STRING;
      *pi = i + 1;
      return false; /* not the end: the caller goes on with the string */
    }
    if (c == '[' || c == '{') {
      depth++;
    } else if ((c == ']' || c == '}') && --depth == 0) {
      v->depth = 0;
      v->state = FJ__VS_IDLE;
      *pi = i + 1;
      return true;
    }
  }
  v->depth = depth;
  *pi = end;
  return false;
}

bool fj__vscan_run(fj__vscan *v, const uint8_t *d, size_t *pi, size_t end) {
  size_t i = *pi;
  if (v->state == FJ__VS_IDLE) {
    uint8_t c = d[i++];
    v->depth = 0;
    v->escaped = false;
    if (c == '"') {
      v->state = FJ__VS_STRING;
    } else if (c == '[' || c == '{') {
      v->state = FJ__VS_CONTAINER;
      v->depth = 1;
    } else if (c == ']' || c == '}' || c == ',' || c == ':') {
      *pi = i;
      return true;
    } else {
      v->state = FJ__VS_SCALAR;
    }
  }
  while (i < end || v->state == FJ__VS_STRING) {
    switch (v->state) {
    case FJ__VS_STRING:
      if (!fj__vscan_string(v, d, &i, end)) {
        *pi = end;
        return false;
      }
      v->state = v->depth ? FJ__VS_CONTAINER : FJ__VS_IDLE;
      if (!v->depth) {
        *pi = i;
        return true;
      }
      break;
    case FJ__VS_CONTAINER:
      if (scan_container(v, d, &i, end)) {
        *pi = i;
        return true;
      }
      break;
    default: /* scalar */
      while (i < end && !ends_scalar(d[i]))
        i++;
      if (i < end) {
        v->state = FJ__VS_IDLE;
        *pi = i;
        return true;
      }
      break;
    }
  }
  *pi = end;
  return false;
}

size_t fj__skip_ws(const uint8_t *d, size_t i, size_t end) {
  static const uint64_t spaces = 0x2020202020202020u;
  for (;;) {
    /* long runs of spaces (padding) go eight bytes at a time */
    while (end - i >= 8) {
      uint64_t w;
      memcpy(&w, d + i, 8);
      if (w != spaces) break;
      i += 8;
    }
    if (i == end || !fj__is_ws(d[i])) return i;
    i++;
  }
}

uint64_t fj__count_newlines(const uint8_t *d, size_t a, size_t b) {
  uint64_t n = 0;
  while (a < b) {
    const uint8_t *q = memchr(d + a, '\n', b - a);
    if (!q) break;
    n++;
    a = (size_t)(q - d) + 1;
  }
  return n;
}
