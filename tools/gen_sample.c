/* fastjson-sample: writes a realistic JSON document to standard output, for
 * trying the tool where the standard corpus is not at hand. Records look
 * like an API's user timeline: nested objects, ids above 2^53, floats,
 * booleans, nulls, escapes and non-ASCII text. Deterministic for a count. */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state = 42;
static uint64_t next(void) { /* xorshift64 */
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

static const char *const words[] = {"fast",
                                    "JSON",
                                    "parser",
                                    "caf\xc3\xa9",
                                    "\xe6\x97\xa5\xe6\x9c\xac",
                                    "line\\nbreak",
                                    "quote\\\"d",
                                    "\xd0\xbf\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82",
                                    "emoji \xf0\x9f\x98\x80",
                                    "tab\\there"};

static void text(int n) {
  putchar('"');
  for (int i = 0; i < n; i++)
    printf("%s%s", i ? " " : "", words[next() % 10]);
  putchar('"');
}

int main(int argc, char **argv) {
  long count = 1000;
  if (argc > 2 || (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))) {
    fputs("usage: fastjson-sample [COUNT]\nWrites a JSON document of COUNT status records "
          "(default 1000) to standard output.\n",
          argc > 2 ? stderr : stdout);
    return argc > 2 ? 2 : 0;
  }
  if (argc == 2) {
    char *end;
    errno = 0;
    count = strtol(argv[1], &end, 10);
    if (!*argv[1] || *end || errno || count < 0) {
      fprintf(stderr, "fastjson-sample: COUNT must be a number >= 0, not '%s'\n", argv[1]);
      return 2;
    }
  }
  printf("{\n  \"statuses\": [");
  for (long i = 0; i < count; i++) {
    printf("%s\n    {\n      \"id\": %" PRIu64 ",\n      \"text\": ", i ? "," : "",
           UINT64_C(500000000000000000) + next() % UINT64_C(100000000000000000));
    text(3 + (int)(next() % 12));
    printf(",\n      \"user\": {\"id\": %" PRIu64 ", \"screen_name\": ", next() % 100000000);
    text(1);
    printf(", \"followers_count\": %" PRIu64 ", \"verified\": %s, \"url\": %s},\n",
           next() % 1000000, next() % 2 ? "true" : "false",
           next() % 3 ? "null" : "\"https://example.com/\"");
    printf("      \"coordinates\": [%.6f, %.6f],\n", (double)(next() % 360000000) / 1e6 - 180,
           (double)(next() % 180000000) / 1e6 - 90);
    printf("      \"retweet_count\": %" PRIu64 ", \"favorited\": %s, \"tags\": [", next() % 5000,
           next() % 2 ? "true" : "false");
    for (int k = 0, n = (int)(next() % 4); k < n; k++) {
      if (k) printf(", ");
      text(1);
    }
    printf("]\n    }");
  }
  printf("\n  ],\n  \"count\": %ld\n}\n", count);
  return 0;
}
