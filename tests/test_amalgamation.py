#!/usr/bin/env python3
"""The single-file distribution: scripts/amalgamate.py writes fastjson.h and
fastjson.c into an empty folder; a program (tools/fastjson.c, the fastjson
command) is compiled with just those files, with the distribution's default
flags (no -march), by each C compiler given, warning-free; then it must
  - list the same kernels as the CMake build, with the best one this CPU
    runs in use (a SIMD kernel wherever the CPU has one: run-time dispatch),
  - minify and validate a corpus file exactly like the CMake build, with
    every kernel the CPU runs, and report the same error for a bad file.

usage: test_amalgamation.py SOURCE_DIR DATA_DIR REFERENCE_FASTJSON CC...
"""
import os
import shutil
import subprocess
import sys
import tempfile

source, data, reference = sys.argv[1:4]
compilers, seen = [], set()
for c in sys.argv[4:]:  # each distinct compiler once (cc is often gcc)
    path = shutil.which(c) if c else None
    if path and os.path.realpath(path) not in seen:
        seen.add(os.path.realpath(path))
        compilers.append(c)
# Debian's dpkg-buildflags defaults for C (less the path map), plus warnings
FLAGS = ["-g", "-O2", "-fstack-protector-strong", "-Wformat", "-Werror=format-security",
         "-Wall", "-Wextra", "-Werror"]
failures = []


def run(cmd, env=None, check=True):
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and r.returncode != 0:
        sys.exit("FAIL: %s: exit %d\n%s%s" % (" ".join(cmd), r.returncode, r.stdout.decode(),
                                              r.stderr.decode()))
    return r


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def kernels(exe):
    """[(name, supported, in_use)] from `fastjson --kernels`."""
    lines = run([exe, "--kernels"]).stdout.decode().strip().split("\n")[1:]
    out = []
    for line in lines:
        f = line.split()
        out.append((f[0], f[1] == "yes", len(f) > 2 and f[2] == "*"))
    return out


corpus = os.path.join(data, "corpus", "twitter.json")
if not os.path.exists(corpus):
    corpus = os.path.join(source, "tests", "install", "consumer.c")  # any file: invalid JSON
    print("note: no corpus, using an invalid document only")

with tempfile.TemporaryDirectory(prefix="fj-amalgamation-") as tmp:
    run([sys.executable, os.path.join(source, "scripts", "amalgamate.py"), "--out", tmp])
    shutil.copy(os.path.join(source, "tools", "fastjson.c"), os.path.join(tmp, "main.c"))
    check(sorted(os.listdir(tmp)) == ["fastjson.c", "fastjson.h", "main.c"],
          "only fastjson.h, fastjson.c and the program")
    ref_kernels = kernels(reference)
    ref_minify = run([reference, "minify", corpus], check=False)
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "wb") as f:
        f.write(b'{"a": [1, 2,\n "\xff"]}')
    ref_bad = run([reference, "validate", bad], check=False)
    if not compilers:
        sys.exit("FAIL: no C compiler found")
    for cc in compilers:
        exe = os.path.join(tmp, "fastjson-" + os.path.basename(cc))
        run([cc] + FLAGS + ["-o", exe, os.path.join(tmp, "main.c"), os.path.join(tmp, "fastjson.c")])
        check(True, "%s compiles fastjson.c + main.c with %s" % (cc, " ".join(FLAGS)))
        ks = kernels(exe)
        check([(k, s) for k, s, _ in ks] == [(k, s) for k, s, _ in ref_kernels],
              "%s: same kernels and CPU support as the CMake build: %s" % (cc, ks))
        best = next((k for k, s, _ in ks if s), None)
        in_use = [k for k, _, u in ks if u]
        check(in_use == [best], "%s: the best supported kernel is in use: %s" % (cc, in_use))
        if any(s for k, s, _ in ks if k != "scalar"):
            check(in_use != ["scalar"], "%s: run-time dispatch picked a SIMD kernel" % cc)
        for k, s, _ in ks:
            if not s:
                continue
            env = dict(os.environ, FASTJSON_KERNEL=k)
            got = run([exe, "minify", corpus], env=env, check=False)
            check(got.returncode == ref_minify.returncode and got.stdout == ref_minify.stdout,
                  "%s, kernel %s: minify %s as the CMake build" % (cc, k, os.path.basename(corpus)))
            got = run([exe, "validate", bad], env=env, check=False)
            check(got.returncode == 1 and got.stderr == ref_bad.stderr,
                  "%s, kernel %s: same error for a bad file: %s" % (cc, k, got.stderr.decode().strip()))

if failures:
    sys.exit("%d check(s) failed" % len(failures))
print("amalgamation ok")
