/* libfastjson — a fast, strict JSON parser and writer for C.
 * Include this one header; the parts are in include/fastjson/. */
#ifndef FASTJSON_H
#define FASTJSON_H

#define FASTJSON_VERSION_MAJOR 0
#define FASTJSON_VERSION_MINOR 1
#define FASTJSON_VERSION_PATCH 0
#define FASTJSON_VERSION_STRING "0.1.0"

#include "fastjson/codec.h"
#include "fastjson/error.h"
#include "fastjson/file.h"
#include "fastjson/kernel.h"
#include "fastjson/parser.h"
#include "fastjson/sink.h"
#include "fastjson/stream.h"
#include "fastjson/text.h"
#include "fastjson/writer.h"

#endif
