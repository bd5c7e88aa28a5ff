#!/usr/bin/env python3
"""The fastjson command colours its error messages only on a terminal:
standard error on a pseudo-terminal gets SGR sequences (bold location, red
message), unless NO_COLOR is set or TERM=dumb; a pipe never does. Also
checks --help (commands, exit status) and --version.

usage: test_cli_colour.py FASTJSON
"""
import os
import pty
import re
import subprocess
import sys
import tempfile

exe = sys.argv[1]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def stderr_on_tty(args, env):
    """Runs with standard error on a pseudo-terminal; returns (exit, text)."""
    master, slave = pty.openpty()
    p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave,
                         env=env)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the other side closed
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    return p.wait(), out.decode("utf-8", "replace")


with tempfile.TemporaryDirectory() as tmp:
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        f.write('{"a": [1, 2,]}')
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    base["TERM"] = "xterm"
    plain = "%s:1:13: expected a value (FJ_ERR_EXPECTED_VALUE, byte 12)" % bad

    rc, text = stderr_on_tty([exe, "validate", bad], base)
    check(rc == 1 and "\033[1m%s:1:13:\033[0m \033[1;31mexpected a value\033[0m" % bad in text,
          "terminal: coloured error %r" % text)
    rc, text = stderr_on_tty([exe, "frobnicate"], base)
    check(rc == 2 and "\033[1mfastjson:\033[0m unknown command" in text,
          "terminal: coloured usage error %r" % text)
    rc, text = stderr_on_tty([exe, "validate", bad], dict(base, NO_COLOR="1"))
    check(rc == 1 and "\033" not in text and plain in text, "NO_COLOR=1: plain %r" % text)
    rc, text = stderr_on_tty([exe, "validate", bad], dict(base, TERM="dumb"))
    check(rc == 1 and "\033" not in text and plain in text, "TERM=dumb: plain %r" % text)
    p = subprocess.run([exe, "validate", bad], stderr=subprocess.PIPE, env=base)
    err = p.stderr.decode()
    check(p.returncode == 1 and err.strip() == plain, "pipe: plain %r" % err)

p = subprocess.run([exe, "--help"], stdout=subprocess.PIPE)
h = p.stdout.decode()
check(p.returncode == 0, "--help exits 0")
for word in ("validate", "minify", "pretty", "get", "stats", "--kernels", "--version", "NO_COLOR",
             "FASTJSON_KERNEL", "Exit status"):
    check(word in h, "--help mentions %s" % word)
check(all(re.search(r"^\s*%d\s" % c, h, re.M) for c in (0, 1, 2, 3)),
      "--help documents exit codes 0-3")
p = subprocess.run([exe, "--version"], stdout=subprocess.PIPE)
check(p.returncode == 0 and re.match(r"^fastjson \d+\.\d+\.\d+\n$", p.stdout.decode()) is not None,
      "--version: %r" % p.stdout.decode())

if failures:
    sys.exit("%d check(s) failed" % len(failures))
