/* The exact first stage-1 error, byte by byte. Kernels only flag that an
 * input is bad; this one routine names the error and its offset, so every
 * kernel reports the same thing. It mirrors the kernels' rules: a backslash
 * escapes the next byte inside and outside strings (outside, the stray
 * backslash is a syntax error that stage 2 reports). */
#include "scan/stage1.h"
#include "scan/utf8_scalar.h"

static bool escapable(uint8_t c) {
  switch (c) {
  case '"':
  case '\\':
  case '/':
  case 'b':
  case 'f':
  case 'n':
  case 'r':
  case 't':
  case 'u': return true;
  default: return false;
  }
}

fj_error fj__stage1_locate(const uint8_t *buf, size_t len, size_t *err_offset) {
  fj__utf8_dfa dfa = {0, 0x80, 0xBF};
  bool in_string = false, escaped = false;
  size_t string_start = 0, seq_start = 0;
  for (size_t i = 0; i < len; i++) {
    uint8_t c = buf[i];
    if (escaped && in_string && !escapable(c)) {
      *err_offset = i - 1;
      return FJ_ERR_BAD_ESCAPE;
    }
    if (!dfa.need) seq_start = i;
    if (!fj__utf8_step(&dfa, c)) {
      *err_offset = dfa.need ? seq_start : i;
      return FJ_ERR_UTF8;
    }
    if (escaped) {
      escaped = false;
    } else if (c == '\\') {
      escaped = true;
    } else if (c == '"') {
      in_string = !in_string;
      string_start = i;
    } else if (in_string && c < 0x20) {
      *err_offset = i;
      return FJ_ERR_CONTROL_CHAR;
    }
  }
  if (dfa.need) {
    *err_offset = seq_start;
    return FJ_ERR_UTF8;
  }
  if (in_string) {
    *err_offset = string_start;
    return FJ_ERR_UNCLOSED_STRING;
  }
  return FJ_OK;
}

bool fj__stage1_u_escape(const uint8_t *buf, size_t len) {
  for (size_t i = 0; i + 1 < len; i++) {
    if (buf[i] != '\\') continue;
    if (buf[i + 1] == 'u') return true;
    i++; /* the escaped byte, which escapes nothing */
  }
  return false;
}
