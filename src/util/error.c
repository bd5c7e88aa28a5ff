/* Names and messages of fj_error, generated from FJ_ERROR_LIST. */
#include "fastjson/error.h"

static const char *const names[] = {
#define FJ_X_NAME(code, msg) #code,
    FJ_ERROR_LIST(FJ_X_NAME)
#undef FJ_X_NAME
};

static const char *const messages[] = {
#define FJ_X_MSG(code, msg) msg,
    FJ_ERROR_LIST(FJ_X_MSG)
#undef FJ_X_MSG
};

const char *fj_error_name(fj_error err) {
  if ((unsigned)err >= FJ_ERROR_COUNT) return "FJ_ERR_UNKNOWN";
  return names[err];
}

const char *fj_error_message(fj_error err) {
  if ((unsigned)err >= FJ_ERROR_COUNT) return "unknown error";
  return messages[err];
}
