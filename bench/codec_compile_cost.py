#!/usr/bin/env python3
"""Compile cost of generated struct codecs: for N record types, the time
fastjson-gen takes, the time the C compiler takes on the generated file, and
the object size.

    codec_compile_cost.py FASTJSON_GEN [CC] [CFLAGS...]

Record type i has 8 + i % 7 fields (8 to 14) of mixed types: integers of
each format, a double, a bool, a string, an enum, an array of strings, a
nullable string, a reference to the previous type, and further integers and
strings. N / 4 tagged unions of 6 cases follow (a "kind" const field picks
the case; each case holds a number, a string and a reference to a record),
so the work grows with N the way a real schema's does.
"cc ms" is wall time; "cc cpu ms" the compiler's user + system CPU time,
which a busy machine disturbs less; "code B" the object's text + data
(size(1)), "object B" the whole object file."""
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

# No N = 0: fastjson-gen refuses a schema that gives it nothing to generate.
NS = (1, 10, 25, 50, 100)
HERE = os.path.dirname(os.path.abspath(__file__))


def record(i):
    props = {
        "id": {"type": "integer", "format": "uint64"},
        "count": {"type": "integer", "format": "int32"},
        "total": {"type": "integer"},
        "ratio": {"type": "number"},
        "active": {"type": "boolean"},
        "name": {"type": "string"},
        "level": {"enum": ["low", "mid", "high"]},
        "tags": {"type": "array", "items": {"type": "string"}},
    }
    extra = [
        ("note", {"type": ["string", "null"]}),
        ("prev", {"$ref": "#/$defs/T%d" % (i - 1)} if i else {"type": "integer"}),
        ("size", {"type": "integer", "format": "int64"}),
        ("label", {"type": "string"}),
        ("weight", {"type": "number"}),
        ("flags", {"type": "integer", "format": "int32"}),
    ]
    for key, spec in extra[: i % 7]:  # 8 to 14 fields
        props[key] = spec
    return {"type": "object", "properties": props, "required": ["id", "name"]}


def union(j, n):
    """Union U<j> of 6 cases told apart by a "kind" const field."""
    defs = {}
    cases = []
    for k in range(6):
        name = "U%dC%d" % (j, k)
        defs[name] = {
            "type": "object",
            "properties": {
                "kind": {"const": "c%d" % k},
                "value": {"type": "number"},
                "text": {"type": "string"},
                "item": {"$ref": "#/$defs/T%d" % ((j * 6 + k) % n)},
            },
            "required": ["kind"],
        }
        cases.append({"$ref": "#/$defs/" + name})
    defs["U%d" % j] = {"oneOf": cases}
    return defs


def schema(n):
    defs = {"T%d" % i: record(i) for i in range(n)}
    for j in range(n // 4):
        defs.update(union(j, n))
    return {"$defs": defs}


def code_bytes(obj):
    """Object code: text + data as binutils' size counts them (the object
    file also holds symbols and relocations); -1 without size(1)."""
    try:
        out = subprocess.run(["size", obj], check=True, capture_output=True, text=True).stdout
        text, data = out.splitlines()[1].split()[:2]
        return int(text) + int(data)
    except (OSError, subprocess.CalledProcessError, ValueError, IndexError):
        return -1


def main():
    gen = sys.argv[1]
    cc = sys.argv[2] if len(sys.argv) > 2 else "cc"
    cflags = sys.argv[3:] or ["-O2"]
    include = os.path.join(HERE, "..", "include")
    print("%5s %10s %10s %10s %12s %12s %10s" % ("N", "gen ms", "cc ms", "cc cpu ms", "code B",
                                                "object B", "lines"))
    with tempfile.TemporaryDirectory() as tmp:
        for n in NS:
            path = os.path.join(tmp, "s%d.json" % n)
            with open(path, "w") as f:
                json.dump(schema(n), f)
            base = os.path.join(tmp, "s%d" % n)
            t0 = time.perf_counter()
            subprocess.run([gen, path, base], check=True)
            t1 = time.perf_counter()
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            obj = base + ".o"
            subprocess.run([cc, "-std=c11", *cflags, "-I", include, "-c", base + ".c", "-o", obj],
                           check=True)
            t2 = time.perf_counter()
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) * 1e3
            with open(base + ".c") as f:
                lines = sum(1 for _ in f)
            print("%5d %10.1f %10.1f %10.1f %12d %12d %10d" % (
                n, (t1 - t0) * 1e3, (t2 - t1) * 1e3, cpu, code_bytes(obj),
                os.path.getsize(obj), lines))


if __name__ == "__main__":
    main()
