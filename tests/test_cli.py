#!/usr/bin/env python3
"""The fastjson command against Python's json module as the oracle.

usage: test_cli.py PATH/TO/fastjson DATA_DIR
Checks stats counts, get (JSON Pointer), minify/pretty values, validate's
FILE:LINE:COL messages and exit codes, standard input, and --help.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

FASTJSON = sys.argv[1] if len(sys.argv) > 1 else "fastjson"
DATA = sys.argv[2] if len(sys.argv) > 2 else "../shared/data"
CORPUS = os.path.join(DATA, "corpus")


def run(*args, stdin=None):
    return subprocess.run([FASTJSON, *args], input=stdin, capture_output=True)


def corpus(name):
    path = os.path.join(CORPUS, name)
    if not os.path.exists(path):
        raise unittest.SkipTest("corpus not present: " + path)
    return path


def count(value, c, depth=0):
    """Counts like `fastjson stats`: the root container is depth 1."""
    if isinstance(value, dict):
        c["objects"] += 1
        c["keys"] += len(value)
        c["max depth"] = max(c["max depth"], depth + 1)
        for v in value.values():
            count(v, c, depth + 1)
    elif isinstance(value, list):
        c["arrays"] += 1
        c["max depth"] = max(c["max depth"], depth + 1)
        for v in value:
            count(v, c, depth + 1)
    elif isinstance(value, str):
        c["strings"] += 1
    elif value is True:
        c["true"] += 1
    elif value is False:
        c["false"] += 1
    elif value is None:
        c["null"] += 1
    else:
        c["numbers"] += 1
    return c


class Cli(unittest.TestCase):
    def test_stats_counts_match_python(self):
        for name in ["twitter.json", "citm_catalog.json", "canada.json", "github_events.json"]:
            path = corpus(name)
            r = run("stats", path)
            self.assertEqual(r.returncode, 0, r.stderr)
            got = {}
            for line in r.stdout.decode().splitlines():
                key, _, val = line.partition(":")
                got[key.strip()] = val.strip()
            with open(path, encoding="utf-8") as f:
                want = count(json.load(f), dict.fromkeys(
                    ["objects", "arrays", "keys", "strings", "numbers", "true", "false", "null",
                     "max depth"], 0))
            for key, val in want.items():
                self.assertEqual(int(got[key]), val, f"{name}: {key}")
            self.assertEqual(int(got["bytes"]), os.path.getsize(path))
            self.assertRegex(got["parse"], r"^\d+\.\d+ GB/s")

    def test_get_matches_python(self):
        path = corpus("twitter.json")
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        cases = {
            "/statuses/0/user/screen_name": doc["statuses"][0]["user"]["screen_name"],
            "/statuses/3/id": doc["statuses"][3]["id"],
            "/statuses/99/retweet_count": doc["statuses"][99]["retweet_count"],
            "/search_metadata": doc["search_metadata"],
            "/statuses/5/entities/hashtags": doc["statuses"][5]["entities"]["hashtags"],
        }
        for ptr, want in cases.items():
            r = run("get", path, ptr)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(json.loads(r.stdout), want, ptr)
        r = run("get", path, "/statuses/100")
        self.assertEqual(r.returncode, 1)
        r = run("get", path, "/nope")
        self.assertEqual(r.returncode, 1)
        self.assertIn(b"no field", r.stderr)

    def test_get_escaped_pointer(self):
        doc = b'{"a/b": {"m~n": [10, 20]}}'
        r = run("get", "-", "/a~1b/m~0n/1", stdin=doc)
        self.assertEqual((r.returncode, r.stdout), (0, b"20\n"))

    def test_minify_and_pretty_keep_values(self):
        for name in ["twitter.json", "canada.json", "citm_catalog.json"]:
            path = corpus(name)
            with open(path, encoding="utf-8") as f:
                want = json.load(f)
            mini = run("minify", path)
            self.assertEqual(mini.returncode, 0)
            self.assertEqual(json.loads(mini.stdout), want)
            # one line: a final newline, as pretty and get end theirs, and none before
            self.assertTrue(mini.stdout.endswith(b"\n"))
            self.assertNotIn(b"\n", mini.stdout[:-1])
            pretty = run("pretty", "--indent", "4", path)
            self.assertEqual(json.loads(pretty.stdout), want)
            self.assertTrue(pretty.stdout.startswith(b"{\n    \""))

    def test_minify_unvalidated(self):
        # the same bytes as the validating minify on valid input
        for name in ["twitter.json", "twitterescaped.json", "canada.json"]:
            path = corpus(name)
            want = run("minify", path)
            got = run("minify", "--unvalidated", path)
            self.assertEqual((got.returncode, got.stdout, got.stderr), (0, want.stdout, b""))
        # invalid input is not checked: the whitespace goes, the rest stays
        r = run("minify", "--unvalidated", "-", stdin=b'[1, 2,] " a b " \t tru')
        self.assertEqual((r.returncode, r.stdout), (0, b'[1,2,]" a b "tru\n'))
        # a string open at the end: printed as it is, then reported
        r = run("minify", "--unvalidated", "-", stdin=b'["a", "b\\" ]')
        self.assertEqual((r.returncode, r.stdout), (1, b'["a","b\\" ]'))
        self.assertIn(b"-: string is not closed", r.stderr)
        self.assertIn(b"(FJ_ERR_UNCLOSED_STRING)", r.stderr)
        # only minify takes it
        self.assertEqual(run("pretty", "--unvalidated", "-", stdin=b"[]").returncode, 2)

    def test_pretty_tab_and_empty_containers(self):
        r = run("pretty", "--tab", "-", stdin=b'{"a":[],"b":{},"c":[1]}')
        self.assertEqual(r.stdout, b'{\n\t"a": [],\n\t"b": {},\n\t"c": [\n\t\t1\n\t]\n}\n')

    def test_validate_reports_file_line_column(self):
        with tempfile.TemporaryDirectory() as d:
            good = os.path.join(d, "good.json")
            bad = os.path.join(d, "bad.json")
            with open(good, "w") as f:
                f.write('{"a": [1, 2]}\n')
            with open(bad, "wb") as f:
                f.write(b'{\n  "a": [1,\n  \xc3\xa9, 2]\n}\n')
            r = run("validate", good)
            self.assertEqual((r.returncode, r.stderr), (0, b""))
            r = run("validate", good, bad)
            self.assertEqual(r.returncode, 1)
            # the stray 'é' is at line 3, column 3 (byte 17)
            self.assertTrue(r.stderr.decode().startswith(bad + ":3:3: expected a value"), r.stderr)
            self.assertNotIn(good, r.stderr.decode())

    def test_second_document_on_a_new_line_suggests_ndjson(self):
        doc = b'{"a": 1}\n{"a": 2}\n'
        for cmd in ("validate", "stats"):
            r = run(cmd, "-", stdin=doc)
            self.assertEqual(r.returncode, 1)
            self.assertEqual(r.stderr.decode().splitlines(),
                             ["-:2:1: unexpected content after the end of the document "
                              "(FJ_ERR_TRAILING_CONTENT, byte 9)",
                              "-: note: one document per line is NDJSON: add --ndjson"])
            self.assertEqual(run(cmd, "--ndjson", "-", stdin=doc).returncode, 0)
        # not where --ndjson is no option, nor for content in the same line
        self.assertNotIn(b"note:", run("minify", "-", stdin=doc).stderr)
        self.assertNotIn(b"note:", run("validate", "-", stdin=b'{} {}').stderr)

    def test_ndjson_stats_and_validate_report_bad_lines(self):
        lines = ['{"a": 1}', '[1, 2,]', '', '"x"', '{"b": tru}', '[true, null]']
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "mixed.ndjson")
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")
            bad = []  # the oracle: Python's json, line by line (1-based, empty lines skipped)
            good = []
            for i, line in enumerate(lines, 1):
                if not line:
                    continue
                try:
                    good.append(json.loads(line))
                except ValueError:
                    bad.append(i)
            for cmd in (["stats", "--ndjson"], ["validate", "--ndjson"]):
                r = run(*cmd, path)
                self.assertEqual(r.returncode, 1, cmd)
                err = r.stderr.decode().splitlines()
                self.assertEqual([e.split(":")[1] for e in err], [str(i) for i in bad], err)
                for e in err:
                    self.assertRegex(e, r"^" + re.escape(path) + r":\d+:\d+: .* \(FJ_ERR_\w+, byte \d+\)$")
            out = run("stats", "--ndjson", path).stdout.decode()
            self.assertIn("documents:  %d\n" % (len(good) + len(bad)), out)
            self.assertIn("valid:      %d\n" % len(good), out)
            self.assertIn("bad lines:  %d\n" % len(bad), out)
            for i in bad:
                self.assertIn("bad line:   %d\n" % i, out)

    def test_ndjson_last_line_cut_off_is_truncated(self):
        # as validate --help says: without its newline, a last line with a
        # string left open may have been cut off; with it, the string is
        # unclosed, and the line's number and column are the same either way
        for tail, code in ((b"", "FJ_ERR_TRUNCATED"), (b"\n", "FJ_ERR_UNCLOSED_STRING")):
            r = run("validate", "--ndjson", "-", stdin=b'{"a": 1}\n{"a":"x}' + tail)
            self.assertEqual(r.returncode, 1)
            self.assertRegex(r.stderr.decode(), r"^-:2:\d+: .* \(%s, byte \d+\)\n$" % code)
        help_text = run("validate", "--help").stdout.decode()
        self.assertIn("FJ_ERR_TRUNCATED", help_text)
        self.assertNotIn("Pipes and\n", help_text)  # a line once broken there

    def test_exit_code_does_not_depend_on_order(self):
        with tempfile.TemporaryDirectory() as d:
            bad = os.path.join(d, "bad.json")
            missing = os.path.join(d, "missing.json")
            with open(bad, "w") as f:
                f.write("[1,\n")
            for flags in ([], ["--ndjson"]):
                self.assertEqual(run("validate", *flags, bad, missing).returncode, 3, flags)
                self.assertEqual(run("validate", *flags, missing, bad).returncode, 3, flags)
                self.assertEqual(run("validate", *flags, bad, bad).returncode, 1, flags)

    def test_get_errors_name_code_and_place(self):
        path = corpus("twitter.json")
        with open(path, "rb") as f:
            text = f.read()
        start = text.index(b"[")  # the statuses array: where /statuses/500 stops
        line = text[:start].count(b"\n") + 1
        col = start - (text.rfind(b"\n", 0, start) + 1) + 1
        r = run("get", path, "/statuses/500")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr.decode(), "%s:%d:%d: /statuses/500: the array has no element at "
                         "that index (FJ_ERR_INDEX_RANGE, byte %d)\n" % (path, line, col, start))
        r = run("get", path, "/nope")
        self.assertEqual(r.returncode, 1)
        self.assertRegex(r.stderr.decode(), r":1:1: /nope: .* \(FJ_ERR_NO_SUCH_FIELD, byte 0\)\n$")

    def test_ndjson_from_a_pipe_path_is_read_in_chunks(self):
        path = corpus("amazon_cellphones.ndjson")
        with open(path, "rb") as f:
            want = sum(1 for line in f if line.strip())
        with tempfile.TemporaryDirectory() as d:
            fifo = os.path.join(d, "fifo")
            os.mkfifo(fifo)
            writer = subprocess.Popen(["sh", "-c", 'cat "$0" > "$1"', path, fifo])
            r = run("stats", "--ndjson", fifo)
            writer.wait()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("documents:  %d\n" % want, r.stdout.decode())

    def test_ndjson_file_larger_than_a_document_is_read_in_chunks(self):
        # a regular file past FJ_MAX_DOCUMENT_SIZE (4 GiB - 2) cannot be loaded
        # as one buffer; it was refused (FJ_ERR_CAPACITY) where the same bytes
        # from a pipe were read. A sparse file: 4.3 GB of NULs, written as none.
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "big.ndjson")
            with open(path, "wb") as f:
                f.write(b'{"a":1}\n')
                f.truncate(4400 << 20)
                f.seek(0, os.SEEK_END)
                f.write(b'\n{"b":2}\n')
            if os.stat(path).st_blocks * 512 > (1 << 20):
                self.skipTest("no sparse files here")
            r = run("stats", "--ndjson", path)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn(b"big.ndjson:2:1: the line is longer than the longest accepted, here 64 "
                      b"MiB (see --max-line) (FJ_ERR_DOCUMENT_TOO_LARGE, byte 8)", r.stderr)
        self.assertIn(b"valid:      2\n", r.stdout)  # the lines around it

    def test_invalid_input_writes_nothing_to_stdout(self):
        for cmd in ("minify", "pretty"):
            r = run(cmd, "-", stdin=b'[1, 2,]')
            self.assertEqual(r.returncode, 1)
            self.assertEqual(r.stdout, b"")
            self.assertIn(b"-:1:7:", r.stderr)

    def test_million_brackets_is_a_depth_error(self):
        # issue 9: a depth error with its position, never a stack overflow
        deep = b"[" * 1000000
        for doc in (deep, deep + b"]" * 1000000):
            for args in (["validate"], ["validate", "--ndjson"], ["minify"], ["pretty"],
                         ["stats"], ["get", "-", "/0/0"]):
                r = run(*(args if "-" in args else args + ["-"]), stdin=doc)
                self.assertEqual((r.returncode, r.stdout), (1, b""), args)
                self.assertIn(b"-:1:1025: ", r.stderr, args)
                # the limit in force is named, and the option that raises it
                self.assertIn(b"depth, here 1024 levels (see --max-depth) (FJ_ERR_DEPTH, "
                              b"byte 1024)", r.stderr, args)

    def test_max_depth_option(self):
        # up to the library's limit (was 10000: a 100000-deep document could
        # not be validated at all); pretty printing, whose output grows with
        # the square of the depth, at 10000 levels
        for n, commands in ((100000, (["validate"], ["validate", "--ndjson"], ["minify"],
                                      ["stats"], ["get", "-", "/0/0"])),
                            (10000, (["pretty"],))):
            deep = b"[" * n + b"]" * n
            for args in commands:
                argv = args if "-" in args else args + ["-"]
                r = run("--max-depth", str(n), *argv, stdin=deep)
                self.assertEqual(r.returncode, 0, (args, r.stderr))
                r = run("--max-depth=%d" % (n - 1), *argv, stdin=deep)
                self.assertEqual(r.returncode, 1, args)
                self.assertIn(b"-:1:%d: " % n, r.stderr, args)
                self.assertIn(b"here %d levels (see --max-depth)" % (n - 1), r.stderr, args)
        deep = b"[" * 1048576 + b"]" * 1048576
        self.assertEqual(run("--max-depth", "1048576", "validate", "-", stdin=deep).returncode, 0)
        # digits only: strtoul alone took " 4" and "+4"
        for bad in ("0", "1048577", "-5", "x", "", " 4", "+4", "4 "):
            r = run("--max-depth", bad, "validate", "-", stdin=b"[]")
            self.assertEqual(r.returncode, 2, bad)
            self.assertIn(b"--max-depth takes 1..1048576 (levels)", r.stderr, bad)
        self.assertEqual(run("validate", "--max-depth", "5", "-", stdin=b"[]").returncode, 2)

    def test_malformed_pointer_is_a_usage_error(self):
        for ptr in ("a", "/b~2c", "/b~", "~0"):
            r = run("get", "-", ptr, stdin=b'{"a": 1}')
            self.assertEqual(r.returncode, 2, ptr)
            self.assertIn(b"malformed JSON Pointer", r.stderr, ptr)
            self.assertNotIn(b"-:1:", r.stderr, ptr)  # no location in the file
        for ptr, out in (("", b'{"a~/": 1}\n'), ("/a~0~1", b"1\n")):
            r = run("get", "-", ptr, stdin=b'{"a~/": 1}')
            self.assertEqual((r.returncode, r.stdout), (0, out), ptr)

    def test_pointer_token_on_an_array_is_explained(self):
        r = run("get", "-", "/a/x", stdin=b'{"a": [1, 2]}')
        self.assertEqual(r.returncode, 1)
        self.assertIn(b"/a/x: malformed JSON Pointer (RFC 6901), or a token on an array that is "
                      b"not an index (FJ_ERR_BAD_POINTER", r.stderr)

    def test_oversized_ndjson_line_names_the_limit(self):
        big = b'["' + b"a" * (64 << 20) + b'"]\n[1]\n'
        r = run("stats", "--ndjson", "-", stdin=big)
        self.assertEqual(r.returncode, 1)
        self.assertIn(b"-:1:1: the line is longer than the longest accepted, here 64 MiB "
                      b"(see --max-line) (FJ_ERR_DOCUMENT_TOO_LARGE, byte 0)", r.stderr)
        self.assertIn(b"valid:      1\n", r.stdout)  # the line after it is still read
        # --max-line raises (or lowers) the limit, from a pipe and from a file alike
        with tempfile.NamedTemporaryFile(suffix=".ndjson") as f:
            f.write(big)
            f.flush()
            for src, stdin in (("-", big), (f.name, None)):
                r = run("--max-line", "65", "validate", "--ndjson", src, stdin=stdin)
                self.assertEqual((r.returncode, r.stderr), (0, b""), src)
                r = run("--max-line=1", "validate", "--ndjson", src, stdin=stdin)
                self.assertEqual(r.returncode, 1, src)
                self.assertIn(b":1:1: ", r.stderr, src)
                self.assertIn(b", here 1 MiB (see --max-line)", r.stderr, src)
        for bad in ("0", "4096", "-1", "x", ""):
            r = run("--max-line", bad, "validate", "--ndjson", "-", stdin=b"[]")
            self.assertEqual(r.returncode, 2, bad)
            self.assertIn(b"--max-line takes 1..4095 (MiB)", r.stderr, bad)
        # without --ndjson it would do nothing: a usage error, not silence
        for args in (["validate"], ["stats"], ["minify"], ["pretty"], ["get", "-", ""]):
            r = run("--max-line", "1", *args, *(["-"] if args[0] != "get" else []),
                    stdin=b"[]")
            self.assertEqual(r.returncode, 2, args)
            self.assertIn(b"--max-line applies to --ndjson input only", r.stderr, args)
        self.assertEqual(run("--max-line", "1", "stats", "--ndjson", "-", stdin=b"[]").returncode, 0)

    def test_depth_limit_of_one_level(self):
        r = run("--max-depth", "1", "validate", "-", stdin=b"[[]]")
        self.assertEqual(r.returncode, 1)
        self.assertIn(b", here 1 level (see --max-depth)", r.stderr)

    def test_stats_operands(self):
        r = run("stats", "a.json", "b.json")
        self.assertEqual(r.returncode, 2)
        self.assertIn(b"one FILE only: b.json", r.stderr)
        r = run("stats")
        self.assertEqual(r.returncode, 2)
        self.assertIn(b"missing FILE", r.stderr)

    def test_usage_errors_and_help(self):
        self.assertEqual(run().returncode, 2)
        self.assertEqual(run("frobnicate").returncode, 2)
        # input that cannot be read is exit 3, and the message names the
        # error code as every other error does (fresh-user trial)
        r = run("validate", "/nonexistent/file.json")
        self.assertEqual(r.returncode, 3)
        self.assertIn(b"/nonexistent/file.json: cannot read: ", r.stderr)
        self.assertIn(b"(FJ_ERR_IO)", r.stderr)
        with tempfile.TemporaryDirectory() as d:
            for args in (("validate", d), ("validate", "--ndjson", d), ("minify", d)):
                r = run(*args)
                self.assertEqual(r.returncode, 3, args)
                self.assertIn(b"cannot read: ", r.stderr, args)
                self.assertIn(b"(FJ_ERR_", r.stderr, args)
        for cmd in ("validate", "minify", "pretty", "get", "stats"):
            r = run(cmd, "--help")
            self.assertEqual(r.returncode, 0)
            self.assertIn(b"usage: fastjson " + cmd.encode(), r.stdout)
        r = run("--help")
        self.assertIn(b"Exit status", r.stdout)

    def test_kernels_listing(self):
        r = run("--kernels")
        self.assertEqual(r.returncode, 0)
        self.assertIn(b"scalar", r.stdout)
        self.assertEqual(r.stdout.count(b"*"), 1)
        r = run("--kernel", "no-such-kernel", "validate", "-", stdin=b"1")
        self.assertEqual(r.returncode, 2)

    def test_fresh_user_findings(self):
        # a fault in a scalar root comes before "trailing content"
        r = run("validate", "-", stdin=b"not json")
        self.assertEqual(r.returncode, 1)
        self.assertIn(b"-:1:1: invalid literal", r.stderr)
        # unknown options are usage errors; "--" ends the options
        self.assertEqual(run("validate", "--bogus", "x").returncode, 2)
        self.assertEqual(run("stats", "--bogus", "x").returncode, 2)
        self.assertEqual(run("validate", "--", "-", stdin=b"[1]").returncode, 0)
        # after "--", "--help" is a file name, not a request for help
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "--help"), "wb") as f:
                f.write(b"[7, 8]")
            r = subprocess.run([FASTJSON, "minify", "--", "--help"], cwd=d, capture_output=True)
            self.assertEqual((r.returncode, r.stdout), (0, b"[7,8]\n"), r.stderr)
            r = subprocess.run([FASTJSON, "validate", "--", "--help"], cwd=d, capture_output=True)
            self.assertEqual((r.returncode, r.stdout), (0, b""), r.stderr)
        # a global option after the command is told to go before it
        for args in (("validate", "--ndjson", "--max-line", "1", "x"), ("get", "--max-depth=9"),
                     ("pretty", "--kernel", "scalar", "x")):
            r = run(*args)
            self.assertEqual(r.returncode, 2)
            self.assertIn(b"a global option goes before the command", r.stderr)
        # standard input is read once: naming it twice is a usage error (the
        # second read found nothing: FJ_ERR_EMPTY)
        r = run("validate", "-", "-", stdin=b"[1]")
        self.assertEqual(r.returncode, 2)
        self.assertIn(b"standard input named twice", r.stderr)
        # --indent: 1..16, also as --indent=N; a missing value is a usage error
        self.assertEqual(run("pretty", "--indent", "0", "-", stdin=b"[1]").returncode, 2)
        self.assertEqual(run("pretty", "--indent", "-", stdin=b"[1]").returncode, 2)
        for bad in (" 4", "+4", "4 ", "0x4"):
            self.assertEqual(run("pretty", "--indent", bad, "-", stdin=b"[1]").returncode, 2, bad)
        r = run("pretty", "--indent=3", "-", stdin=b"[1]")
        self.assertEqual(r.stdout, b"[\n   1\n]\n")
        # a bad FASTJSON_KERNEL still lets --kernels list the names; --kernel wins
        env = dict(os.environ, FASTJSON_KERNEL="bogus")
        r = subprocess.run([FASTJSON, "--kernels"], env=env, capture_output=True)
        self.assertEqual(r.returncode, 0)
        self.assertIn(b"scalar", r.stdout)
        r = subprocess.run([FASTJSON, "--kernel", "scalar", "validate", "-"], env=env,
                           input=b"[1]", capture_output=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        r = subprocess.run([FASTJSON, "validate", "-"], env=env, input=b"[1]", capture_output=True)
        self.assertEqual(r.returncode, 2)
        # files of size 0 that have content (/proc) are read to the end
        if os.path.exists("/proc/self/status"):
            r = run("validate", "/proc/self/status")
            self.assertNotIn(b"empty", r.stderr)
        # output that cannot be written is exit 3
        if os.path.exists("/dev/full"):
            with open("/dev/full", "wb") as full:
                r = subprocess.run([FASTJSON, "--help"], stdout=full, stderr=subprocess.PIPE)
            self.assertEqual(r.returncode, 3)
            self.assertIn(b"fastjson: cannot write output: ", r.stderr)
            self.assertIn(b"(FJ_ERR_IO)", r.stderr)
            # a command's help too (fresh-user trial: it always exited 0)
            with open("/dev/full", "wb") as full:
                r = subprocess.run([FASTJSON, "validate", "--help"], stdout=full,
                                   stderr=subprocess.PIPE)
            self.assertEqual(r.returncode, 3)
        # help for a command that does not exist is a usage error, as the
        # command itself is
        r = run("nosuchcmd", "--help")
        self.assertEqual(r.returncode, 2)
        self.assertIn(b"unknown command: nosuchcmd", r.stderr)

    def test_out_of_memory(self):
        # running out of memory is exit 3 with no location (it says nothing
        # of the JSON); skipped where the tool cannot start in 32 MB of
        # address space (sanitizers reserve more)
        import resource
        import tempfile

        def limit():
            resource.setrlimit(resource.RLIMIT_AS, (32 << 20, 32 << 20))

        def limited(*args, stdin=None):
            return subprocess.run([FASTJSON, *args], input=stdin, capture_output=True,
                                  preexec_fn=limit)

        if limited("validate", "-", stdin=b"[1]").returncode != 0:
            self.skipTest("the tool does not start in 32 MB")
        with tempfile.NamedTemporaryFile(suffix=".json") as f:
            f.write(b"[" + b"1," * 6000000 + b"1]")  # 12 MB: about 50 MB of index
            f.flush()
            r = limited("validate", f.name)
            self.assertEqual(r.returncode, 3, r.stderr)
            self.assertEqual(r.stderr, (f.name + ": memory allocation failed (FJ_ERR_NOMEM)\n").encode())
            self.assertEqual(run("validate", f.name).returncode, 0)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
