#!/usr/bin/env python3
"""Runs an example program of examples/ and checks its output against
Python's json module.

usage: test_examples.py read_statuses EXE DATA_DIR
       test_examples.py write_json EXE
       test_examples.py ndjson_get EXE DATA_DIR
"""
import json
import subprocess
import sys


def run(cmd, stdin=None):
    r = subprocess.run(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return r.returncode, r.stdout.decode("utf-8"), r.stderr.decode("utf-8")


def fail(msg):
    sys.exit("FAIL: " + msg)


def read_statuses(exe, data):
    path = data + "/corpus/twitter.json"
    rc, out, err = run([exe, path])
    if rc != 0:
        fail("exit %d: %s" % (rc, err))
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    want = []
    for s in doc["statuses"]:
        want.append("\t".join(str(x) for x in (
            s["id"], s["user"]["screen_name"], s["user"]["followers_count"], s["retweet_count"],
            s["favorite_count"], len(s["entities"]["hashtags"]), s["lang"],
            len(s["text"].encode("utf-8")))))
    got = out.rstrip("\n").split("\n")
    if got != want:
        for i, (g, w) in enumerate(zip(got, want)):
            if g != w:
                fail("status %d: got %r, want %r" % (i, g, w))
        fail("got %d lines, want %d" % (len(got), len(want)))
    # a broken document: an error with line and column, exit 1
    rc, out, err = run([exe, "/dev/stdin"], stdin=open("/dev/null"))
    if rc != 1 or "FJ_ERR_EMPTY" not in err:
        fail("empty input: exit %d, %r" % (rc, err))
    print("ok: %d statuses match Python's json" % len(want))


def write_json(exe):
    rc, out, err = run([exe])
    if rc != 0:
        fail("exit %d: %s" % (rc, err))
    compact, pretty = out.split("\n", 1)
    want = {"count": 3, "cities": [
        {"name": "Z\u00fcrich", "location": [47.3769, 8.5417], "population": 421878,
         "capital": False, "tags": ["lake", "banks"]},
        {"name": "Reykjav\u00edk", "location": [64.1466, -21.9426], "population": 139875,
         "capital": False, "tags": ["geysers"]},
        {"name": "\"Quoted\" \\ Town\n", "location": [0.1, -0.5], "population": 0,
         "capital": False, "tags": []}],
        "source": None}
    if json.loads(compact) != want:
        fail("compact output %r" % compact)
    # same text as Python writes it (shortest doubles, same escapes)
    py = json.dumps(want, separators=(",", ":"), ensure_ascii=False)
    if compact != py:
        fail("compact text differs from Python's:\n%s\n%s" % (compact, py))
    if json.loads(pretty) != want:
        fail("pretty output %r" % pretty)
    if pretty != json.dumps(want, indent=2, ensure_ascii=False).replace("[]", "[]") + "\n":
        # Python writes empty arrays as [] too; only the final newline differs
        fail("pretty text differs from Python's indent=2:\n%s" % pretty)
    print("ok: compact and pretty output equal Python's")


def ndjson_get(exe, data):
    path = data + "/corpus/amazon_cellphones.ndjson"
    for ptr, key in (("/1", 1), ("/0", 0), ("/7", 7)):
        with open(path, "rb") as f:
            rc, out, err = run([exe, ptr], stdin=f)
        if rc != 0:
            fail("%s: exit %d: %s" % (ptr, rc, err))
        with open(path, encoding="utf-8") as f:
            want = [json.loads(line)[key] for line in f if line.strip()]
        got = [json.loads(line) for line in out.rstrip("\n").split("\n")]
        if got != want:
            fail("%s: values differ from Python's" % ptr)
    # bad lines are reported with their line numbers and the stream goes on
    bad = b'{"a": 1}\n{"a": [1,,2]}\n\n{"a": "x"}\n{"b": 2}\n'
    p = subprocess.run([exe, "/a"], input=bad, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 1 or p.stdout.decode() != '1\n"x"\n':
        fail("bad lines: exit %d, %r" % (p.returncode, p.stdout))
    lines = [l.split(":")[1] for l in p.stderr.decode().strip().split("\n")]
    if lines != ["2", "5"]:
        fail("bad lines reported at %r, want lines 2 and 5: %r" % (lines, p.stderr))
    print("ok: %d documents match Python's json" % len(want))


def generated_codec(exe):
    """A good order: the printed total and the re-written JSON (its values
    equal Python's reading of the input, keys in schema order); bad orders:
    exit 1 and the JSON Pointer and byte offset of the fault."""
    order = {"note": None, "lines": [{"sku": "A-1", "qty": 2, "price": 9.5},
                                     {"price": 0.25, "qty": 10, "sku": "B\u00e9"}],
             "status": "paid", "customer": "Zo\u00eb", "id": 18446744073709551615}
    text = json.dumps(order).encode()
    p = subprocess.run([exe], input=text, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        fail("good order: exit %d, %r" % (p.returncode, p.stderr))
    head, written = p.stdout.decode().rstrip("\n").split("\n")
    total = sum(l["qty"] * l["price"] for l in order["lines"])
    want_head = "order %d for %s: %d lines, total %.2f" % (order["id"], order["customer"],
                                                         len(order["lines"]), total)
    if head != want_head:
        fail("summary %r, want %r" % (head, want_head))
    back = json.loads(written)
    expect = dict(order)
    del expect["note"]  # null: written as absent
    if back != expect:
        fail("re-written order %r differs from %r" % (back, expect))
    too_big = (b'{"id": 1, "customer": "x", "status": "paid", "lines": [{"sku": "a", "qty": 1, '
               b'"price": 1}, {"sku": "b", "qty": 2147483648, "price": 1}]}')
    bad = [(too_big, "/lines/1/qty at byte %d:" % too_big.index(b"2147483648")),
           (b'{"id": 1, "customer": "x", "status": "lost", "lines": []}', "/status at byte"),
           (b'{"id": 1, "customer": "x", "lines": []}', "missing required field \"status\"")]
    for doc, want in bad:
        p = subprocess.run([exe], input=doc, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 1 or want not in p.stderr.decode() or p.stdout:
            fail("bad order %r: exit %d, %r (want %r)" % (doc, p.returncode, p.stderr, want))
    print("ok: generated codec matches Python's json; %d bad orders located" % len(bad))


what = sys.argv[1]
if what == "read_statuses":
    read_statuses(sys.argv[2], sys.argv[3])
elif what == "write_json":
    write_json(sys.argv[2])
elif what == "ndjson_get":
    ndjson_get(sys.argv[2], sys.argv[3])
elif what == "generated_codec":
    generated_codec(sys.argv[2])
else:
    sys.exit(__doc__)
