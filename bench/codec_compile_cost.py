#!/usr/bin/env python3
"""Compile cost of generated struct codecs: for N record types, the time
fastjson-gen takes, the time the C compiler takes on the generated file, and
the object size.

    codec_compile_cost.py FASTJSON_GEN [CC] [CFLAGS...]

Each record type has 10 fields of mixed types (integers of each format, a
double, a bool, a string, an enum, an array of strings, and a reference to
the previous type), so the work grows with N the way a real schema's does.
"cc ms" is wall time; "cc cpu ms" the compiler's user + system CPU time,
which a busy machine disturbs less."""
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

NS = (0, 1, 10, 25, 50, 100)
HERE = os.path.dirname(os.path.abspath(__file__))


def schema(n):
    defs = {}
    for i in range(n):
        props = {
            "id": {"type": "integer", "format": "uint64"},
            "count": {"type": "integer", "format": "int32"},
            "total": {"type": "integer"},
            "ratio": {"type": "number"},
            "active": {"type": "boolean"},
            "name": {"type": "string"},
            "level": {"enum": ["low", "mid", "high"]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "note": {"type": ["string", "null"]},
        }
        if i:
            props["prev"] = {"$ref": "#/$defs/T%d" % (i - 1)}
        defs["T%d" % i] = {"type": "object", "properties": props, "required": ["id", "name"]}
    return {"$defs": defs}


def main():
    gen = sys.argv[1]
    cc = sys.argv[2] if len(sys.argv) > 2 else "cc"
    cflags = sys.argv[3:] or ["-O2"]
    include = os.path.join(HERE, "..", "include")
    print("%5s %10s %10s %10s %12s %10s" % ("N", "gen ms", "cc ms", "cc cpu ms", "object B", "lines"))
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
            print("%5d %10.1f %10.1f %10.1f %12d %10d" % (n, (t1 - t0) * 1e3, (t2 - t1) * 1e3,
                                                          cpu, os.path.getsize(obj), lines))


if __name__ == "__main__":
    main()
