#!/usr/bin/env python3
"""The fastjson command colours its error messages only on a terminal:
standard error on a pseudo-terminal gets SGR sequences (bold location, red
message), unless NO_COLOR is set or TERM=dumb; a pipe never does. A long
NDJSON run draws a progress bar on a terminal and none into a pipe. Also
checks --help (commands, exit status) and --version.

usage: test_cli_colour.py FASTJSON
"""
import os
import pty
import re
import subprocess
import sys
import tempfile
import threading
import time

exe = sys.argv[1]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def trickle(pipe, seconds):
    """Writes NDJSON lines into pipe for about `seconds`, then closes it: a
    run that lasts, without a large file."""
    end = time.time() + seconds
    while time.time() < end:
        pipe.write(b'{"id": 1, "tags": ["a", "b"]}\n' * 200)
        pipe.flush()
        time.sleep(0.02)
    pipe.close()


def stderr_on_tty(args, env, feed=None):
    """Runs with standard error on a pseudo-terminal; returns (exit, text).
    feed: seconds of NDJSON lines to trickle into standard input."""
    master, slave = pty.openpty()
    p = subprocess.Popen(args, stdin=subprocess.PIPE if feed else subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    if feed:
        threading.Thread(target=trickle, args=(p.stdin, feed)).start()
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

# the progress bar: drawn (after half a second, with \r) on a terminal and
# cleared at the end; never into a pipe
env = dict(os.environ, TERM="xterm")
rc, text = stderr_on_tty([exe, "validate", "--ndjson", "-"], env, feed=1.5)
check(rc == 0 and "\r" in text and "MB/s" in text and text.endswith("\r\033[K"),
      "terminal: progress bar drawn and cleared %r" % text[-200:])
p = subprocess.Popen([exe, "validate", "--ndjson", "-"], stdin=subprocess.PIPE,
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
threading.Thread(target=trickle, args=(p.stdin, 1.5)).start()
err = p.stderr.read().decode()
check(p.wait() == 0 and err == "", "pipe: no progress bar %r" % err[-200:])

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
# like every command, it refuses what it does not take (it printed the version)
p = subprocess.run([exe, "--version", "extra"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
check(p.returncode == 2 and p.stdout == b"" and b"extra" in p.stderr,
      "--version extra: %d %r %r" % (p.returncode, p.stdout, p.stderr))

if failures:
    sys.exit("%d check(s) failed" % len(failures))
