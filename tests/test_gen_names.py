#!/usr/bin/env python3
"""fastjson-gen's C names against the compiler's own headers.

Every identifier of the standard headers a generated file sees (stdbool.h,
stddef.h, stdint.h, string.h, stdlib.h, stdio.h, limits.h and the
library's), as the compiler preprocesses them in C11, gnu11 and C++11,
and every macro they define, is made a type (a title), a member (a
property), an enum value and, split at its first '_', an enum constant
(title "div", value "t": div_t). The generated .c must then compile as C11
and gnu11, and its header as C++11, with those headers included first:
the compiler is the oracle, not the generator's own table of names.

usage: test_gen_names.py FASTJSON_GEN INCLUDE_DIR CC [CXX]
"""
import json
import os
import re
import resource
import subprocess
import sys
import tempfile

HEADERS = ["stdbool.h", "stddef.h", "stdint.h", "string.h", "stdlib.h", "stdio.h", "limits.h"]
IDENT = re.compile(r"\b[A-Za-z][A-Za-z0-9_]*\b")
ASAN = False
BATCH = 200  # names per schema: at most 2 types each, under the generator's 1024


def names(cc, lang, std, inc):
    """Identifiers of the preprocessed headers (strings left out) and the macros' names."""
    src = "".join("#include <%s>\n" % h for h in HEADERS) + "#include <fastjson/codec.h>\n"
    opts = [std, "-I" + inc, "-x", lang, "-"]
    pre = subprocess.run([cc, "-E", "-P"] + opts, input=src, capture_output=True, text=True,
                         check=True).stdout
    found = set(IDENT.findall(re.sub(r'"(\\.|[^"\\\n])*"', "", pre)))
    dm = subprocess.run([cc, "-E", "-dM"] + opts, input=src, capture_output=True, text=True,
                        check=True).stdout
    return found | set(re.findall(r"^#define ([A-Za-z][A-Za-z0-9_]*)", dm, re.M))


def schema(batch):
    props = {"e-values": {"$ref": "#/$defs/E"}}  # no identifier: no name meets it
    for i, name in enumerate(batch):
        props["t%d" % i] = {"title": name, "type": "object"}
        props[name] = {"title": name, "type": "object", "properties": {"x": {"type": "integer"}}}
        head, _, tail = name.partition("_")
        if len(head) > 1 and tail:
            props["c%d" % i] = {"title": head, "enum": [tail]}
    return {"title": "Root", "type": "object", "properties": props, "$defs": {"E": {"enum": batch}}}


def limit_memory():
    # a generator that loops (it did) must not take the machine's memory
    # (not under AddressSanitizer, whose shadow memory is terabytes of address space)
    if not ASAN:
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def run(cmd, what):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60,
                           preexec_fn=limit_memory)
    except subprocess.TimeoutExpired:
        sys.exit("%s did not end in 60 s (%s)" % (what, " ".join(cmd)))
    if r.returncode:
        sys.exit("%s failed (%s):\n%s" % (what, " ".join(cmd), (r.stdout + r.stderr)[:4000]))


def main():
    global ASAN
    gen, inc, cc = sys.argv[1:4]
    with open(gen.split()[-1], "rb") as f:
        ASAN = b"__asan_init" in f.read()
    cxx = sys.argv[4] if len(sys.argv) > 4 else None
    found = names(cc, "c", "-std=c11", inc) | names(cc, "c", "-std=gnu11", inc)
    if cxx:
        found |= names(cxx, "c++", "-std=c++11", inc)
    # '_' first is reserved to the implementation; the generator has its own rule for it
    found = sorted(n for n in found if not n.startswith("_"))
    # titles that a number after would put in the library's prefixes (fj_2,
    # read_2): two of each name hung the generator
    twice = ["fj", "FJ", "read", "write", "equal"]
    found = sorted(set(found + twice + [t.upper() for t in twice[2:]]))
    first = ["-include" + h for h in HEADERS]
    with tempfile.TemporaryDirectory() as d:
        for n, k in enumerate(range(0, len(found), BATCH)):
            batch = found[k:k + BATCH]
            what = "names %s .. %s" % (batch[0], batch[-1])
            path = os.path.join(d, "s%d" % n)
            with open(path + ".json", "w") as f:
                json.dump(schema(batch), f)
            run(gen.split() + [path + ".json", path], "fastjson-gen on " + what)
            for std in ("-std=c11", "-std=gnu11"):
                run([cc, std, "-Wall", "-Werror", "-fsyntax-only", "-I" + inc] + first +
                    [path + ".c"], "the C (%s) of %s" % (std, what))
            if cxx:
                # included, as a caller does (a header compiled alone has
                # "unused" inline functions for clang)
                with open(path + ".cc", "w") as f:
                    f.write('#include "s%d.h"\nint main() { return 0; }\n' % n)
                run([cxx, "-std=c++11", "-Wall", "-Werror", "-fsyntax-only", "-I" + inc] + first +
                    [path + ".cc"], "the header as C++ of " + what)
    print("%d names compile as types, members, enum values and constants" % len(found))


if __name__ == "__main__":
    main()
