/* fastjson — the command-line tool: validate, minify, pretty, get, stats.
 *
 * Exit codes: 0 success; 1 invalid JSON, or a pointer that names nothing;
 * 2 usage error; 3 a file could not be read, output could not be written,
 * or memory ran out.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fastjson.h"

enum { EXIT_INVALID = 1, EXIT_USAGE = 2, EXIT_IO = 3 };

static const char *const usage_text =
    "usage: fastjson [--kernel NAME] [--max-depth N] [--max-line MIB] COMMAND [OPTIONS]\n"
    "                FILE...\n"
    "\n"
    "Commands:\n"
    "  validate [--ndjson] FILE...\n"
    "                            check that each FILE is valid JSON (RFC 8259);\n"
    "                            --ndjson: one document per line\n"
    "  minify [--unvalidated] FILE\n"
    "                            print FILE without whitespace outside strings\n"
    "  pretty [--indent N] [--tab] FILE\n"
    "                            print FILE indented (N spaces per level, default 2;\n"
    "                            a line at depth d starts with d * N of them, so the\n"
    "                            output grows with the square of the nesting depth)\n"
    "  get FILE POINTER          print the value at a JSON Pointer (RFC 6901)\n"
    "  stats [--ndjson] FILE     count values, depth and bytes; measure parse speed\n"
    "\n"
    "FILE may be '-' for standard input. Every command takes --help.\n"
    "\n"
    "Options:\n"
    "  --kernel NAME   use this stage-1 kernel (see --kernels; FASTJSON_KERNEL too)\n"
    "  --max-depth N   accept arrays and objects nested up to N levels (default 1024,\n"
    "                  at most 1048576)\n"
    "  --max-line MIB  --ndjson: accept lines (documents) up to MIB mebibytes\n"
    "                  (default 64, at most 4095)\n"
    "  --kernels       list the compiled kernels, which this CPU runs, the one in use\n"
    "  --version       print the version\n"
    "  --help          print this help\n"
    "\n"
    "Errors are printed as FILE:LINE:COLUMN: message (NAME, byte OFFSET); columns\n"
    "count code points (with --ndjson, from the document's first byte when its\n"
    "line began more than 256 bytes before it). They are in colour when standard\n"
    "error is a terminal, unless NO_COLOR is set or TERM is dumb.\n"
    "\n"
    "Environment:\n"
    "  FASTJSON_KERNEL=NAME   as --kernel NAME\n"
    "  NO_COLOR               never colour the messages (https://no-color.org)\n"
    "\n"
    "Exit status:\n"
    "  0  success (every FILE valid)\n"
    "  1  invalid JSON, or nothing at the pointer (also a token that is no index on\n"
    "     an array)\n"
    "  2  usage error (unknown command or option, missing FILE, malformed POINTER,\n"
    "     unusable kernel)\n"
    "  3  a file could not be read, output could not be written, or memory ran out\n"
    "\n"
    "Examples:\n"
    "  fastjson validate *.json\n"
    "  fastjson get twitter.json /statuses/0/user/screen_name\n"
    "  fastjson pretty --indent 4 - < in.json > out.json\n";

static const char *const command_help[][2] = {
    {"validate",
     "usage: fastjson validate [--ndjson] FILE...\n"
     "Checks each FILE against RFC 8259 (syntax, UTF-8, escapes, numbers).\n"
     "Prints FILE:LINE:COLUMN: message for each invalid file; exit 1 if any is invalid.\n"
     "--ndjson: each FILE holds one document per line (NDJSON); every bad line is\n"
     "reported with its line number and the others are still checked. Empty lines\n"
     "are skipped, so an empty FILE is valid NDJSON (without --ndjson it is\n"
     "FJ_ERR_EMPTY). Lines over 64 MiB (not counting whitespace around the\n"
     "document; --max-line MIB sets another limit) are FJ_ERR_DOCUMENT_TOO_LARGE.\n"
     "A last line without its newline that leaves a string or bracket open may\n"
     "have been cut off: it is FJ_ERR_TRUNCATED (with its newline, an open string\n"
     "is FJ_ERR_UNCLOSED_STRING).\n"
     "A regular file under 4 GiB is loaded whole (memory: its size); pipes,\n"
     "standard input and larger files are read in chunks (memory: about the\n"
     "longest line). On a terminal a progress bar is drawn on standard error\n"
     "during long runs.\n"
     "Exit code: 3 if any FILE cannot be read, else 1 if any is invalid, else 0.\n"},
    {"minify", "usage: fastjson minify [--unvalidated] FILE\n"
               "Prints FILE with all whitespace outside strings removed; numbers and strings\n"
               "are copied byte for byte. Invalid input prints an error and nothing else.\n"
               "--unvalidated: for input known to be valid, several times faster: FILE is\n"
               "not checked (invalid input gives unspecified output) except for a string\n"
               "left open at the end, which is printed as it is and then reported (exit 1).\n"},
    {"pretty", "usage: fastjson pretty [--indent N] [--tab] FILE\n"
               "Prints FILE with one element or field per line, N spaces (1..16, default 2)\n"
               "or N tabs per level; numbers and strings are copied byte for byte.\n"},
    {"get", "usage: fastjson get FILE POINTER\n"
            "Prints the value at the JSON Pointer (RFC 6901), as written in FILE.\n"
            "Example: fastjson get twitter.json /statuses/0/user/screen_name\n"
            "'~1' stands for '/' and '~0' for '~' in keys; array indexes count from 0.\n"},
    {"stats", "usage: fastjson stats [--ndjson] FILE\n"
              "Prints the number of objects, arrays, keys, strings, numbers, true, false and\n"
              "null values, the maximum nesting depth, the size in bytes, and the speed of a\n"
              "full validating parse in GB/s (best of several runs).\n"
              "--ndjson: FILE holds one document per line (NDJSON); prints the totals over\n"
              "all lines (documents: non-empty lines, valid or not; empty lines are\n"
              "skipped), documents and bytes per second of one validating pass, and the\n"
              "line numbers of bad lines (the first 100). On a terminal a progress bar is\n"
              "drawn on standard error during long runs.\n"},
};

static const char *prog_file; /* the file being processed, for messages */

/* COMMAND --help: its help on standard output; false for an unknown COMMAND. */
static bool print_help(const char *cmd) {
  for (size_t i = 0; i < sizeof command_help / sizeof command_help[0]; i++)
    if (strcmp(command_help[i][0], cmd) == 0) {
      fputs(command_help[i][1], stdout);
      return true;
    }
  return false;
}

/* Colour for messages on standard error: only on a terminal, and never with
 * NO_COLOR set (to anything but the empty string) or TERM=dumb. */
static int stderr_colour = -1; /* -1 not decided yet */

static bool use_colour(void) {
  if (stderr_colour < 0) {
    const char *no = getenv("NO_COLOR"), *term = getenv("TERM");
    stderr_colour = isatty(2) && !(no && *no) && !(term && strcmp(term, "dumb") == 0);
  }
  return stderr_colour;
}

/* SGR sequences, or empty strings when not colouring. */
static const char *sgr_bold(void) { return use_colour() ? "\033[1m" : ""; }
static const char *sgr_red(void) { return use_colour() ? "\033[1;31m" : ""; }
static const char *sgr_off(void) { return use_colour() ? "\033[0m" : ""; }

static int usage_error(const char *msg, const char *arg) {
  fprintf(stderr, "%sfastjson:%s %s%s%s\n", sgr_bold(), sgr_off(), msg, arg ? ": " : "",
          arg ? arg : "");
  fputs("Try 'fastjson --help'.\n", stderr);
  return EXIT_USAGE;
}

/* An option the command does not take; one of the global options (which
 * come before the command) is told so, rather than called unknown. */
static int unknown_option(const char *arg) {
  static const char *const globals[] = {"--kernel",   "--kernels", "--max-depth",
                                        "--max-line", "--help",    "--version"};
  size_t n = strcspn(arg, "=");
  for (size_t k = 0; k < sizeof globals / sizeof *globals; k++)
    if (strlen(globals[k]) == n && strncmp(arg, globals[k], n) == 0)
      return usage_error("a global option goes before the command "
                         "(fastjson [OPTIONS] COMMAND ...)",
                         arg);
  return usage_error("unknown option", arg);
}

/* Whether arg is the option `name`, alone or as name=VALUE. */
static bool is_option(const char *arg, const char *name) {
  size_t n = strlen(name);
  return strncmp(arg, name, n) == 0 && (!arg[n] || arg[n] == '=');
}

/* The value of the option at argv[*i] (name=N, or name and N as the next
 * argument, which *i then moves to): N in *out and 0, or the usage error's
 * exit code for a missing value or one outside 1..max (`unit` names N's in
 * the messages: "levels", "MiB"). */
/* Whether s is a decimal number as the options take it: digits only (strtoul
 * alone also takes leading space, '+' and '-'). */
static bool plain_digits(const char *s) {
  if (!*s) return false;
  for (; *s; s++)
    if (*s < '0' || *s > '9') return false;
  return true;
}

static int count_option(int argc, char **argv, int *i, const char *name, const char *unit,
                        unsigned long max, unsigned long *out) {
  const char *arg = argv[*i], *eq = strchr(arg, '=');
  const char *value = eq ? eq + 1 : *i + 1 < argc ? argv[++*i] : NULL;
  char msg[96];
  if (!value) {
    snprintf(msg, sizeof msg, "%s needs a number of %s", name, unit);
    return usage_error(msg, NULL);
  }
  unsigned long n = strtoul(value, NULL, 10); /* ULONG_MAX if too long: refused */
  if (!plain_digits(value) || n < 1 || n > max) {
    snprintf(msg, sizeof msg, "%s takes 1..%lu (%s)", name, max, unit);
    return usage_error(msg, value);
  }
  *out = n;
  return 0;
}

/* Input or output that failed: "WHAT: VERB: MESSAGE (FJ_ERR_NAME)" on
 * standard error, exit 3. FJ_ERR_IO says what errno says; call it before
 * anything else can change errno. */
static int io_failed(const char *what, const char *verb, fj_error err) {
  const char *msg = err == FJ_ERR_IO ? strerror(errno) : fj_error_message(err);
  fprintf(stderr, "%s: %s: %s (%s)\n", what, verb, msg, fj_error_name(err));
  return EXIT_IO;
}

static int load(const char *path, fj_file *f) {
  fj_error err = strcmp(path, "-") == 0 ? fj_file_load_fd(f, 0) : fj_file_load(f, path);
  if (err == FJ_OK) return 0;
  return io_failed(path, "cannot read", err);
}

/* The nesting limit in force (--max-depth), up to the library's: no
 * command recurses per level (stats keeps a heap stack). */
#define MAX_DEPTH_LIMIT FJ_MAX_DEPTH
static uint32_t max_depth = FJ_DEFAULT_MAX_DEPTH;

/* The longest NDJSON line (document) in force, in bytes (--max-line MIB). */
#define MAX_LINE_LIMIT_MIB 4095 /* the largest whole MiB under FJ_MAX_DOCUMENT_SIZE */
static size_t max_line = FJ_STREAM_DEFAULT_MAX_DOCUMENT;
static bool max_line_given;

/* --max-line limits NDJSON lines only: given for anything else, it would
 * silently do nothing. */
static int check_max_line(bool ndjson) {
  if (max_line_given && !ndjson)
    return usage_error("--max-line applies to --ndjson input only", NULL);
  return 0;
}

/* The message for err. The library's messages for a limit name the
 * setting; the command line's also give the value in force and the option
 * that raises it, and speak of lines, not of the stream API's setting. */
static const char *message(fj_error err) {
  static char text[160];
  if (err == FJ_ERR_DEPTH)
    snprintf(text, sizeof text, "%s, here %u level%s (see --max-depth)", fj_error_message(err),
             max_depth, max_depth == 1 ? "" : "s");
  else if (err == FJ_ERR_DOCUMENT_TOO_LARGE)
    snprintf(text, sizeof text,
             "the line is longer than the longest accepted, here %zu MiB (see --max-line)",
             max_line >> 20);
  else
    return fj_error_message(err);
  return text;
}

/* Whether the command takes --ndjson (validate, stats, given without it):
 * then a second document at the start of a line suggests it. */
static bool ndjson_hint;

/* Prints FILE:LINE:COL: message for the parser's last error. Running out
 * of memory says nothing of the JSON: no location, and exit status 3. */
static int report(fj_parser *p, fj_error err) {
  if (err == FJ_ERR_NOMEM) {
    fprintf(stderr, "%s: %s (%s)\n", prog_file, fj_error_message(err), fj_error_name(err));
    return EXIT_IO;
  }
  fj_location loc;
  fj_parser_last_error(p, &loc);
  fprintf(stderr, "%s%s:%zu:%zu:%s %s%s%s (%s, byte %zu)\n", sgr_bold(), prog_file, loc.line,
          loc.column, sgr_off(), sgr_red(), message(err), sgr_off(), fj_error_name(err),
          loc.offset);
  if (ndjson_hint && err == FJ_ERR_TRAILING_CONTENT && loc.line > 1 && loc.column == 1)
    fprintf(stderr, "%s: note: one document per line is NDJSON: add --ndjson\n", prog_file);
  return EXIT_INVALID;
}

static fj_error write_stdout(void *ctx, const void *bytes, size_t len) {
  (void)ctx;
  return fwrite(bytes, 1, len, stdout) == len ? FJ_OK : FJ_ERR_IO;
}

static int finish_output(fj_error err, fj_parser *p) {
  if (err == FJ_ERR_IO) return io_failed("fastjson", "cannot write output", err);
  if (err) return report(p, err);
  if (fflush(stdout) != 0) return io_failed("fastjson", "cannot write output", FJ_ERR_IO);
  return 0;
}

/* ---- commands ---------------------------------------------------------------- */

/* ---- NDJSON: document streams, with a progress bar on a terminal ------------ */

static double now_seconds(void);

/* Removes every `flag` from argv; tells whether there was one. */
static bool take_flag(int *argc, char **argv, const char *flag) {
  int out = 0;
  bool found = false;
  for (int i = 0; i < *argc; i++) {
    if (strcmp(argv[i], flag) == 0)
      found = true;
    else
      argv[out++] = argv[i];
  }
  *argc = out;
  return found;
}

/* Leaves only operands in argv: a "--" ends the options (and is dropped);
 * before it, anything else that starts with '-' (but "-", standard input)
 * is an unknown option. Standard input can be read once: a second "-" is
 * a usage error. Returns 0 or the usage error's exit code. */
static int operands_only(int *argc, char **argv) {
  int out = 0;
  bool options = true, stdin_taken = false;
  for (int i = 0; i < *argc; i++) {
    if (options && strcmp(argv[i], "--") == 0) {
      options = false;
      continue;
    }
    if (options && argv[i][0] == '-' && argv[i][1]) return unknown_option(argv[i]);
    if (strcmp(argv[i], "-") == 0) {
      if (stdin_taken) return usage_error("standard input named twice", argv[i]);
      stdin_taken = true;
    }
    argv[out++] = argv[i];
  }
  *argc = out;
  return 0;
}

/* A one-line progress bar on standard error, drawn only when it is a
 * terminal (piped or redirected output shows none), at most ten times a
 * second, and only for runs that last (after half a second). */
typedef struct progress {
  bool on, drawn;
  uint64_t total; /* bytes, 0 if unknown (standard input) */
  double start, next;
} progress;

static void progress_start(progress *pg, uint64_t total) {
  pg->on = isatty(2);
  pg->drawn = false;
  pg->total = total;
  pg->start = now_seconds();
  pg->next = pg->start + 0.5;
}

static void progress_clear(progress *pg) {
  if (pg->drawn) fputs("\r\033[K", stderr);
  pg->drawn = false;
}

static void progress_update(progress *pg, uint64_t done) {
  if (!pg->on) return;
  double t = now_seconds();
  if (t < pg->next) return;
  pg->next = t + 0.1;
  double mb = (double)done / 1e6, rate = mb / (t - pg->start);
  if (pg->total) {
    int width = 30, fill = (int)((double)width * (double)done / (double)pg->total);
    char bar[31];
    for (int i = 0; i < width; i++)
      bar[i] = i < fill ? '#' : '.';
    bar[width] = 0;
    fprintf(stderr, "\r[%s] %3d%%  %.*f MB  %.*f MB/s", bar,
            (int)(100.0 * (double)done / (double)pg->total), mb < 10, mb, rate < 10, rate);
  } else { /* small amounts (a slow pipe) get a decimal, not "0 MB" */
    fprintf(stderr, "\r%.*f MB  %.*f MB/s", mb < 10, mb, rate < 10, rate);
  }
  pg->drawn = true;
}

/* Several files: the most serious outcome is the exit code, whatever the
 * order (cannot read 3 > invalid 1 > valid 0). */
static int worse(int a, int b) { return a == EXIT_IO || b == EXIT_IO ? EXIT_IO : a > b ? a : b; }

/* Opens FILE as an NDJSON stream that validates every line: the loaded
 * file for a regular file, chunked reads (memory bounded by the longest
 * line) for '-' (standard input), pipes, devices and regular files too large
 * to load as one buffer (FJ_MAX_DOCUMENT_SIZE). Lines longer than
 * max_line (--max-line) are FJ_ERR_DOCUMENT_TOO_LARGE either way,
 * so a file gives the same verdict however it is passed. *fd receives a
 * descriptor to close, or -1. */
static int open_ndjson(const char *path, fj_file *f, fj_stream **s, uint64_t *total, int *fd) {
  const fj_parser_options po = {.max_depth = max_depth};
  fj_stream_options o = {.format = FJ_STREAM_NDJSON,
                         .flags = FJ_STREAM_VALIDATE,
                         .max_document_size = max_line,
                         .parser = &po};
  fj_error err;
  struct stat st;
  memset(f, 0, sizeof *f);
  *total = 0;
  *fd = -1;
  if (strcmp(path, "-") == 0) {
    err = fj_stream_new_fd(s, 0, &o);
  } else if (stat(path, &st) == 0 &&
             (S_ISREG(st.st_mode) ? (uint64_t)st.st_size > FJ_MAX_DOCUMENT_SIZE
                                  : !S_ISDIR(st.st_mode))) {
    if ((*fd = open(path, O_RDONLY)) < 0) return io_failed(path, "cannot read", FJ_ERR_IO);
    if (S_ISREG(st.st_mode)) *total = (uint64_t)st.st_size;
    err = fj_stream_new_fd(s, *fd, &o);
  } else {
    int rc = load(path, f);
    if (rc) return rc;
    *total = f->len;
    err = fj_stream_new_buffer(s, f->data, f->len, &o);
  }
  if (err) {
    fprintf(stderr, "fastjson: %s\n", fj_error_message(err));
    fj_file_free(f);
    if (*fd >= 0) close(*fd);
    return EXIT_IO;
  }
  return 0;
}

/* FILE:LINE:COLUMN: message (NAME, byte OFFSET) for a bad line. */
static void report_document(const fj_document *d) {
  fprintf(stderr, "%s%s:%llu:%llu:%s %s%s%s (%s, byte %llu)\n", sgr_bold(), prog_file,
          (unsigned long long)d->error_line, (unsigned long long)d->error_column, sgr_off(),
          sgr_red(), message(d->error), sgr_off(), fj_error_name(d->error),
          (unsigned long long)d->error_offset);
}

/* Counts of one NDJSON run; `visit` is called on each valid document. */
typedef struct ndjson_run {
  uint64_t docs, bad, bytes;
  uint64_t *bad_lines; /* the first max_bad lines of bad documents */
  size_t max_bad;
  bool report;    /* print each bad line as it is found */
  fj_error fatal; /* a read error that ended the stream */
  double seconds;
} ndjson_run;

static int run_ndjson(const char *path, ndjson_run *r, fj_error (*visit)(fj_value *, void *),
                      void *ctx) {
  fj_file f;
  fj_stream *s;
  uint64_t total;
  int fd;
  prog_file = path;
  int rc = open_ndjson(path, &f, &s, &total, &fd);
  if (rc) return rc;
  progress pg;
  progress_start(&pg, total);
  fj_document d;
  fj_error err;
  while ((err = fj_stream_next(s, &d)) != FJ_END) {
    if (err == FJ_OK && visit) err = visit(&d.root, ctx);
    if (err == FJ_ERR_IO || err == FJ_ERR_NOMEM) { /* the stream ends after these */
      r->fatal = err;
      continue;
    }
    r->docs++;
    if (err) {
      if (r->bad < r->max_bad) r->bad_lines[r->bad] = d.error ? d.error_line : d.line;
      r->bad++;
      progress_clear(&pg);
      if (r->report) report_document(&d);
    }
    if ((r->docs & 255) == 0) progress_update(&pg, fj_stream_position(s));
  }
  progress_clear(&pg);
  r->bytes = fj_stream_position(s);
  r->seconds = now_seconds() - pg.start;
  fj_stream_free(s);
  fj_file_free(&f);
  if (fd >= 0) close(fd);
  if (r->fatal) return io_failed(path, "cannot read", r->fatal);
  return r->bad ? EXIT_INVALID : 0;
}

/* validate --ndjson: every line of every FILE is a valid document. */
static int validate_ndjson(int argc, char **argv) {
  int status = 0;
  for (int i = 0; i < argc; i++) {
    ndjson_run r = {0};
    r.report = true;
    status = worse(status, run_ndjson(argv[i], &r, NULL, NULL));
  }
  return status;
}

static int cmd_validate(fj_parser *p, int argc, char **argv) {
  bool ndjson = take_flag(&argc, argv, "--ndjson");
  int bad = check_max_line(ndjson);
  if (!bad) bad = operands_only(&argc, argv);
  if (bad) return bad;
  if (argc < 1) return usage_error("validate needs at least one FILE", NULL);
  if (ndjson) return validate_ndjson(argc, argv);
  ndjson_hint = true;
  int status = 0;
  for (int i = 0; i < argc; i++) {
    fj_file f;
    prog_file = argv[i];
    int rc = load(argv[i], &f);
    if (rc) {
      status = worse(status, rc);
      continue;
    }
    fj_error err = fj_parser_validate(p, f.data, f.len);
    if (err) status = worse(status, report(p, err));
    fj_file_free(&f);
  }
  return status;
}

/* minify --unvalidated: the library has no parser, so no line and column */
static int minify_unvalidated(const fj_file *f) {
  fj_error err = fj_minify_unvalidated(f->data, f->len, (fj_sink){write_stdout, NULL});
  if (err == FJ_OK) err = write_stdout(NULL, "\n", 1);
  if (err == FJ_ERR_IO || err == FJ_OK) return finish_output(err, NULL);
  fflush(stdout);
  fprintf(stderr, "%s%s:%s %s%s%s (%s)\n", sgr_bold(), prog_file, sgr_off(), sgr_red(),
          fj_error_message(err), sgr_off(), fj_error_name(err));
  return EXIT_INVALID;
}

static int cmd_text(fj_parser *p, int argc, char **argv, bool pretty) {
  if (check_max_line(false)) return EXIT_USAGE;
  fj_pretty_options opt = {0, false};
  const char *path = NULL;
  bool options = true, unvalidated = false;
  for (int i = 0; i < argc; i++) {
    const char *value = NULL;
    if (options && pretty && strncmp(argv[i], "--indent=", 9) == 0) {
      value = argv[i] + 9;
    } else if (options && pretty && strcmp(argv[i], "--indent") == 0) {
      if (i + 1 >= argc) return usage_error("--indent needs a value", NULL);
      value = argv[++i];
    }
    if (value) {
      long n = strtol(value, NULL, 10); /* LONG_MAX if too long: refused */
      if (!plain_digits(value) || n < 1 || n > 16)
        return usage_error("--indent takes 1..16", value);
      opt.indent = (uint32_t)n;
    } else if (options && strcmp(argv[i], "--") == 0) {
      options = false;
    } else if (options && pretty && strcmp(argv[i], "--tab") == 0) {
      opt.use_tabs = true;
    } else if (options && !pretty && strcmp(argv[i], "--unvalidated") == 0) {
      unvalidated = true;
    } else if (options && argv[i][0] == '-' && argv[i][1]) {
      return unknown_option(argv[i]);
    } else if (path) {
      return usage_error("one FILE only", argv[i]);
    } else {
      path = argv[i];
    }
  }
  if (!path) return usage_error("missing FILE", NULL);
  fj_file f;
  prog_file = path;
  int rc = load(path, &f);
  if (rc) return rc;
  fj_sink sink = {write_stdout, NULL};
  if (unvalidated) {
    rc = minify_unvalidated(&f);
  } else {
    fj_error err =
        pretty ? fj_pretty(p, f.data, f.len, &opt, sink) : fj_minify(p, f.data, f.len, sink);
    /* a final newline, as pretty (the library's) and get write: a line for the shell */
    if (!pretty && err == FJ_OK) err = write_stdout(NULL, "\n", 1);
    rc = finish_output(err, p);
  }
  fj_file_free(&f);
  return rc;
}

/* Whether a JSON Pointer is well formed (RFC 6901 section 3): empty, or
 * '/'-separated tokens in which '~' is always followed by '0' or '1'. A
 * malformed one is the command line's fault, not the file's, so it is
 * refused before the file is read. */
static bool pointer_well_formed(const char *ptr) {
  if (*ptr && *ptr != '/') return false;
  for (const char *c = ptr; *c; c++)
    if (*c == '~' && c[1] != '0' && c[1] != '1') return false;
  return true;
}

static int cmd_get(fj_parser *p, int argc, char **argv) {
  if (check_max_line(false)) return EXIT_USAGE;
  /* a pointer starts with '/', so only a FILE can look like an option */
  if (argc > 0 && strcmp(argv[0], "--") == 0)
    argc--, argv++;
  else if (argc > 0 && argv[0][0] == '-' && argv[0][1])
    return unknown_option(argv[0]);
  if (argc != 2) return usage_error("get takes FILE and POINTER, one of each", NULL);
  if (!pointer_well_formed(argv[1]))
    return usage_error("malformed JSON Pointer (RFC 6901: empty, or starting with '/'; "
                       "'~' only as ~0 or ~1)",
                       argv[1]);
  fj_file f;
  prog_file = argv[0];
  int rc = load(argv[0], &f);
  if (rc) return rc;
  fj_value root, v;
  const char *raw;
  size_t len;
  fj_error err = fj_parser_validate(p, f.data, f.len);
  if (!err) err = fj_parser_parse(p, f.data, f.len, &root);
  if (!err) err = fj_value_at_pointer(&root, argv[1], &v);
  if (!err) err = fj_value_get_raw(&v, &raw, &len);
  if (err == FJ_ERR_NO_SUCH_FIELD || err == FJ_ERR_INDEX_RANGE || err == FJ_ERR_BAD_POINTER ||
      err == FJ_ERR_WRONG_TYPE) { /* where the pointer stops: the value it could not enter */
    fj_location loc;
    fj_parser_last_error(p, &loc);
    fprintf(stderr, "%s%s:%zu:%zu:%s %s: %s%s%s (%s, byte %zu)\n", sgr_bold(), prog_file, loc.line,
            loc.column, sgr_off(), argv[1], sgr_red(), message(err), sgr_off(), fj_error_name(err),
            loc.offset);
    rc = EXIT_INVALID;
  } else if (err) {
    rc = report(p, err);
  } else {
    fwrite(raw, 1, len, stdout);
    putchar('\n');
    rc = finish_output(FJ_OK, p);
  }
  fj_file_free(&f);
  return rc;
}

typedef struct stats {
  size_t objects, arrays, keys, strings, numbers, trues, falses, nulls, max_depth;
} stats;

/* One open container of walk(): its iteration. */
typedef struct walk_frame {
  bool object;
  union {
    fj_array a;
    fj_object o;
  } it;
} walk_frame;

/* Counts the scalar v (containers are walk()'s business). */
static fj_error count_scalar(fj_value *v, fj_type t, stats *s) {
  bool b;
  fj_error err;
  switch (t) {
  case FJ_TYPE_STRING: s->strings++; break;
  case FJ_TYPE_NUMBER: s->numbers++; break;
  case FJ_TYPE_NULL: s->nulls++; break;
  case FJ_TYPE_BOOL:
    if ((err = fj_value_get_bool(v, &b))) return err;
    if (b)
      s->trues++;
    else
      s->falses++;
    break;
  default: break;
  }
  return FJ_OK;
}

/* Visits every value with the cursor, counting. Iterative, with the open
 * containers on a heap stack: a document may nest as deep as --max-depth
 * allows (up to FJ_MAX_DEPTH), far deeper than the C stack would let a
 * recursion go (10000 levels overflowed it under AddressSanitizer). */
static fj_error walk(fj_value *root, stats *s) {
  walk_frame *stack = NULL;
  size_t n = 0, cap = 0;
  fj_value v = *root;
  fj_error err;
  for (;;) {
    fj_type t;
    if ((err = fj_value_get_type(&v, &t))) break;
    if (t == FJ_TYPE_OBJECT || t == FJ_TYPE_ARRAY) {
      /* nesting depth: the root container is level 1, a scalar root level 0 */
      if (n + 1 > s->max_depth) s->max_depth = n + 1;
      if (n == cap) {
        size_t ncap = cap ? cap * 2 : 64;
        walk_frame *grown = realloc(stack, ncap * sizeof *stack);
        if (!grown) {
          err = FJ_ERR_NOMEM;
          break;
        }
        stack = grown;
        cap = ncap;
      }
      walk_frame *f = &stack[n++];
      f->object = t == FJ_TYPE_OBJECT;
      if (f->object)
        s->objects++;
      else
        s->arrays++;
      if ((err = f->object ? fj_value_get_object(&v, &f->it.o) : fj_value_get_array(&v, &f->it.a)))
        break;
    } else if ((err = count_scalar(&v, t, s))) {
      break;
    }
    /* the next value: of the innermost container that has one */
    while (n) {
      walk_frame *f = &stack[n - 1];
      fj_value key;
      err = f->object ? fj_object_next(&f->it.o, &key, &v) : fj_array_next(&f->it.a, &v);
      if (!err) {
        s->keys += f->object;
        break;
      }
      if (err != FJ_END) break;
      n--;
    }
    if (err || !n) break;
  }
  free(stack);
  return err == FJ_END ? FJ_OK : err;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Best time of full validation over repeated runs (at least 5, about 0.3 s). */
static double best_validate_seconds(fj_parser *p, const fj_file *f) {
  double best = 1e30, start = now_seconds();
  for (int i = 0; i < 5 || (now_seconds() - start < 0.3 && i < 10000); i++) {
    double t0 = now_seconds();
    fj_parser_validate(p, f->data, f->len);
    double t = now_seconds() - t0;
    if (t < best) best = t;
  }
  return best;
}

/* stats --ndjson: walks every valid line; reports documents and bytes per
 * second and the line numbers of the bad lines (each bad line's error also
 * goes to stderr, as with validate --ndjson). */
static fj_error walk_document(fj_value *root, void *ctx) { return walk(root, ctx); }

static int stats_ndjson(const char *path) {
  enum { MAX_LISTED = 100 };
  uint64_t lines[MAX_LISTED];
  ndjson_run r = {0};
  r.bad_lines = lines;
  r.max_bad = MAX_LISTED;
  r.report = true; /* each bad line's error, offset and line:column on stderr */
  stats s = {0};
  int rc = run_ndjson(path, &r, walk_document, &s);
  if (rc == EXIT_IO || rc == EXIT_USAGE) return rc;
  double t = r.seconds > 0 ? r.seconds : 1e-9;
  printf("file:       %s\n", path);
  printf("documents:  %llu\n", (unsigned long long)r.docs); /* every non-empty line */
  printf("valid:      %llu\n", (unsigned long long)(r.docs - r.bad));
  printf("bad lines:  %llu\n", (unsigned long long)r.bad);
  printf("bytes:      %llu\n", (unsigned long long)r.bytes);
  printf("objects:    %zu\n", s.objects);
  printf("arrays:     %zu\n", s.arrays);
  printf("keys:       %zu\n", s.keys);
  printf("strings:    %zu\n", s.strings);
  printf("numbers:    %zu\n", s.numbers);
  printf("true:       %zu\n", s.trues);
  printf("false:      %zu\n", s.falses);
  printf("null:       %zu\n", s.nulls);
  printf("max depth:  %zu\n", s.max_depth);
  printf("kernel:     %s\n", fj_kernel_active());
  printf("time:       %.*f s (validating stream, one pass)\n", r.seconds < 0.01 ? 6 : 3, r.seconds);
  printf("speed:      %.0f documents/s, %.3f GB/s\n", (double)r.docs / t,
         (double)r.bytes / t / 1e9);
  for (uint64_t i = 0; i < r.bad && i < MAX_LISTED; i++)
    printf("bad line:   %llu\n", (unsigned long long)lines[i]);
  if (r.bad > MAX_LISTED)
    printf("bad lines:  ... and %llu more\n", (unsigned long long)(r.bad - MAX_LISTED));
  int out = finish_output(FJ_OK, NULL);
  return out ? out : rc;
}

static int cmd_stats(fj_parser *p, int argc, char **argv) {
  bool ndjson = take_flag(&argc, argv, "--ndjson");
  int bad = check_max_line(ndjson);
  if (!bad) bad = operands_only(&argc, argv);
  if (bad) return bad;
  if (argc == 0) return usage_error("missing FILE", NULL);
  if (argc > 1) return usage_error("one FILE only", argv[1]);
  if (ndjson) return stats_ndjson(argv[0]);
  ndjson_hint = true;
  fj_file f;
  prog_file = argv[0];
  int rc = load(argv[0], &f);
  if (rc) return rc;
  stats s = {0};
  fj_value root;
  fj_error err = fj_parser_validate(p, f.data, f.len);
  if (!err) err = fj_parser_parse(p, f.data, f.len, &root);
  if (!err) err = walk(&root, &s);
  if (err) {
    rc = report(p, err);
  } else {
    double t = best_validate_seconds(p, &f);
    printf("file:       %s\n", argv[0]);
    printf("bytes:      %zu\n", f.len);
    printf("objects:    %zu\n", s.objects);
    printf("arrays:     %zu\n", s.arrays);
    printf("keys:       %zu\n", s.keys);
    printf("strings:    %zu\n", s.strings);
    printf("numbers:    %zu\n", s.numbers);
    printf("true:       %zu\n", s.trues);
    printf("false:      %zu\n", s.falses);
    printf("null:       %zu\n", s.nulls);
    printf("max depth:  %zu\n", s.max_depth);
    printf("kernel:     %s\n", fj_kernel_active());
    printf("parse:      %.3f GB/s (full validation, best of repeated runs, %.1f us)\n",
           t > 0 ? (double)f.len / t / 1e9 : 0.0, t * 1e6);
    rc = finish_output(FJ_OK, p);
  }
  fj_file_free(&f);
  return rc;
}

static int list_kernels(void) {
  printf("%-10s %-9s %s\n", "kernel", "this CPU", "in use");
  for (size_t i = 0; i < fj_kernel_count(); i++)
    printf("%-10s %-9s %s\n", fj_kernel_name(i), fj_kernel_supported(i) ? "yes" : "no",
           strcmp(fj_kernel_name(i), fj_kernel_active()) == 0 ? "*" : "");
  return 0;
}

/* Flushes standard output: exit 3 if it could not be written. */
static int stdout_status(void) {
  if (fflush(stdout) != 0 || ferror(stdout))
    return io_failed("fastjson", "cannot write output", FJ_ERR_IO);
  return 0;
}

/* The kernel: --kernel wins over FASTJSON_KERNEL. A bad environment value
 * stops commands, but --kernels still lists the names (with a warning). */
static int choose_kernel(const char *option, bool listing) {
  if (option) {
    if (fj_kernel_select(option) == FJ_OK) return 0;
    return usage_error("kernel not compiled in or not supported by this CPU (see --kernels)",
                       option);
  }
  const char *env = getenv("FASTJSON_KERNEL");
  if (!env || !*env || fj_kernel_select(env) == FJ_OK) return 0;
  if (listing) {
    fprintf(stderr, "fastjson: ignoring FASTJSON_KERNEL=%s: not compiled in or not supported\n",
            env);
    return 0;
  }
  return usage_error("FASTJSON_KERNEL names a kernel that is not compiled in or not supported "
                     "by this CPU (see fastjson --kernels)",
                     env);
}

int main(int argc, char **argv) {
  const char *kernel = NULL;
  bool listing = false;
  int i = 1;
  for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
    if (strcmp(argv[i], "--help") == 0) {
      fputs(usage_text, stdout);
      return stdout_status();
    } else if (strcmp(argv[i], "--version") == 0) {
      if (i + 1 < argc) return usage_error("--version takes no arguments", argv[i + 1]);
      printf("fastjson %s\n", FASTJSON_VERSION_STRING);
      return stdout_status();
    } else if (strcmp(argv[i], "--kernels") == 0) {
      listing = true;
    } else if (strncmp(argv[i], "--kernel=", 9) == 0) {
      kernel = argv[i] + 9;
    } else if (strcmp(argv[i], "--kernel") == 0) {
      if (i + 1 >= argc) return usage_error("--kernel needs a NAME (see --kernels)", NULL);
      kernel = argv[++i];
    } else if (is_option(argv[i], "--max-depth")) {
      unsigned long n;
      int rc = count_option(argc, argv, &i, "--max-depth", "levels", MAX_DEPTH_LIMIT, &n);
      if (rc) return rc;
      max_depth = (uint32_t)n;
    } else if (is_option(argv[i], "--max-line")) {
      unsigned long n;
      int rc = count_option(argc, argv, &i, "--max-line", "MiB", MAX_LINE_LIMIT_MIB, &n);
      if (rc) return rc;
      max_line = (size_t)n << 20;
      max_line_given = true;
    } else {
      return usage_error("unknown option", argv[i]);
    }
  }
  int bad = choose_kernel(kernel, listing);
  if (bad) return bad;
  if (listing) {
    list_kernels();
    return stdout_status();
  }
  if (i >= argc) return usage_error("missing COMMAND", NULL);
  const char *cmd = argv[i++];
  for (int k = i; k < argc && strcmp(argv[k], "--") != 0; k++) /* "--" ends the options */
    if (strcmp(argv[k], "--help") == 0)
      return print_help(cmd) ? stdout_status() : usage_error("unknown command", cmd);
  fj_parser *p;
  if (fj_parser_new(&p, &(fj_parser_options){.max_depth = max_depth}) != FJ_OK) {
    fputs("fastjson: out of memory\n", stderr);
    return EXIT_IO;
  }
  int rc;
  if (strcmp(cmd, "validate") == 0)
    rc = cmd_validate(p, argc - i, argv + i);
  else if (strcmp(cmd, "minify") == 0)
    rc = cmd_text(p, argc - i, argv + i, false);
  else if (strcmp(cmd, "pretty") == 0)
    rc = cmd_text(p, argc - i, argv + i, true);
  else if (strcmp(cmd, "get") == 0)
    rc = cmd_get(p, argc - i, argv + i);
  else if (strcmp(cmd, "stats") == 0)
    rc = cmd_stats(p, argc - i, argv + i);
  else
    rc = usage_error("unknown command", cmd);
  fj_parser_free(p);
  return rc;
}
