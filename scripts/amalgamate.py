#!/usr/bin/env python3
"""Writes the single-file distribution of libfastjson: fastjson.h (every
public header) and fastjson.c (every library source, with all stage-1
kernels and run-time dispatch), so that

    cc -O2 -c fastjson.c

is all a project needs. No -march flag: each SIMD kernel is compiled for its
instruction set with a target pragma region (GCC: `#pragma GCC target`,
clang: `#pragma clang attribute`), the flags being those kernels.cmake gives
the kernel's file, and dispatch picks the best kernel at run time as in the
CMake build.

The sources are read from the tree, so the output follows it as files are
added: the library sources are the FJ_SOURCES list of CMakeLists.txt, the
kernels those kernels.cmake names. Putting many files into one translation
unit needs three kinds of care, all done here:

  - A kernel file includes the shared block algorithm (simd_block.h,
    utf8_simd.h, stage1_impl.h), which defines the same static functions,
    types, enum constants and macros for every kernel. Inside a kernel's
    region every `fj_`/`FJ_` identifier that the rest of the library does not
    use is renamed with the kernel's name (`fj_v_load` -> `fj_avx2_v_load`);
    `fj__` names (private, extern) are left alone.
  - Other static functions, variables, types and enum constants that two
    files both define are renamed in each file with the file's name
    (`find` -> `find__dispatch`); the script prints them (--verbose).
  - Macros a source file defines are #undef-ined at its end.

usage: scripts/amalgamate.py [--out DIR] [--verbose]
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
DEFINE_RE = re.compile(r'^\s*#\s*define\s+(\w+)')
IDENT_RE = re.compile(r'\b[A-Za-z_]\w*\b')
FEATURE_MACROS = re.compile(r'^_(POSIX_C|XOPEN|GNU|DEFAULT|BSD)_SOURCE$')


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def strip_comments_and_strings(text):
    """Text with comments, string and character literals blanked (same lines)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def file_scope_names(text):
    """Names a source defines at file scope with internal linkage or none:
    static functions and variables, typedef names, enum constants."""
    code = strip_comments_and_strings(text).replace("\\\n", "  ")
    code = "\n".join("" if l.lstrip().startswith("#") else l for l in code.split("\n"))
    names, depth, stmt = set(), 0, []
    enum_body = None  # text of an enum body being read, at depth 1
    i = 0
    while i < len(code):
        c = code[i]
        if c == "{":
            s = "".join(stmt)
            if depth == 0 and re.search(r"\benum\b[^;]*$", s):
                enum_body = []
            depth += 1
            if depth == 1:
                stmt.append("{")
        elif c == "}":
            depth -= 1
            if depth == 0 and enum_body is not None:
                for item in "".join(enum_body).split(","):
                    m = re.match(r"\s*([A-Za-z_]\w*)", item)
                    if m:
                        names.add(m.group(1))
                enum_body = None
            if depth == 0:
                s = "".join(stmt)
                # a function body ends the statement
                if re.search(r"\)\s*$", s.strip()) or "(" in s and "=" not in s:
                    _statement(s, names)
                    stmt = []
        elif depth == 0 and c == ";":
            _statement("".join(stmt), names)
            stmt = []
        elif depth == 0:
            stmt.append(c)
        elif enum_body is not None and depth == 1:
            enum_body.append(c)
        i += 1
    return names


def _statement(s, names):
    s = " ".join(s.split())
    s = re.sub(r"_Atomic\s*\(([^()]*)\)", r"_Atomic \1", s)
    for m in re.finditer(r"\b(?:struct|union|enum)\s+([A-Za-z_]\w*)\s*\{", s):
        names.add(m.group(1))  # tags of types defined here
    if s.startswith("typedef"):
        m = re.search(r"([A-Za-z_]\w*)\s*(\[[^\]]*\]\s*)*$", s)
        if m:
            names.add(m.group(1))
        m = re.search(r"\(\s*\*\s*([A-Za-z_]\w*)\s*\)", s)  # function pointer type
        if m:
            names.add(m.group(1))
    elif re.match(r"(static|_Thread_local static|static _Thread_local)\b", s):
        head = re.split(r"[=(\[]", s, 1)[0]
        m = re.search(r"([A-Za-z_]\w*)\s*$", head)
        if m:
            names.add(m.group(1))


# comments, strings, character constants and member names (after . or ->)
# are matched whole so that only other identifiers are renamed
TOKEN_RE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
                      r'|(?:\.|->)\s*[A-Za-z_]\w*|[A-Za-z_]\w*',
                      re.S)


def rename(text, mapping):
    """Renames identifiers outside comments, strings and character constants,
    except struct and union members."""
    if not mapping:
        return text
    return TOKEN_RE.sub(lambda m: mapping.get(m.group(0), m.group(0)), text)


def cmake_list(text, var):
    m = re.search(r"set\(\s*%s\b(.*?)\)" % var, text, re.S)
    items = re.sub(r"#[^\n]*", "", m.group(1)).split()
    return [i for i in items if not i.startswith("$")]


def kernel_flags():
    """{kernel file name: [target features]} from kernels.cmake (the stage-1
    kernels and number_avx2.c, number.c built for the avx2 kernels)."""
    text = read("src/scan/kernels.cmake")
    flags = {}
    for m in re.finditer(r"set_source_files_properties\(\s*\S*/((?:kernel|number)_\w+\.c)\s+PROPERTIES\s+"
                         r"COMPILE_OPTIONS\s+\"([^\"]*)\"", text, re.S):
        flags[m.group(1)] = [f[2:] for f in m.group(2).split(";") if f.startswith("-m")]
    return flags


class Amalgamation:
    def __init__(self, verbose):
        self.verbose = verbose
        self.seen = set()  # quoted headers already expanded in the global part
        self.system = []  # hoisted system includes (global part)
        self.features = []  # feature-test macro lines

    def resolve(self, name, base):
        for d in (os.path.dirname(base), "src", "include"):
            rel = os.path.normpath(os.path.join(d, name))
            if os.path.exists(os.path.join(ROOT, rel)):
                return rel
        sys.exit("amalgamate: cannot find %s (included from %s)" % (name, base))

    def expand(self, rel, seen, system, out, public):
        """Appends `rel` to out with its quoted includes expanded once (per
        `seen`); system includes go to `system` (None: keep them in place)."""
        for line in read(rel).split("\n"):
            m = INCLUDE_RE.match(line)
            d = DEFINE_RE.match(line)
            if m and m.group(1) == '"':
                inc = self.resolve(m.group(2), rel)
                if inc.startswith("include/") and not public:
                    continue  # in fastjson.h, included at the top
                if inc in seen:
                    continue
                seen.add(inc)
                out.append("/* ---- %s ---- */" % inc)
                self.expand(inc, seen, system, out, public)
                out.append("/* ---- end of %s ---- */" % inc)
            elif m and system is not None:
                if line.strip() not in system:
                    system.append(line.strip())
            elif d and FEATURE_MACROS.match(d.group(1)):
                if line.strip() not in self.features:
                    self.features.append(line.strip())
            else:
                out.append(line)

    def header(self):
        """include/fastjson.h expanded, then any public header it does not
        include yet (so fastjson.h declares everything fastjson.c defines)."""
        out = []
        self.seen.add("include/fastjson.h")
        self.expand("include/fastjson.h", self.seen, None, out, public=True)
        rest = []
        for name in sorted(os.listdir(os.path.join(ROOT, "include", "fastjson"))):
            rel = "include/fastjson/" + name
            if name.endswith(".h") and rel not in self.seen:
                self.seen.add(rel)
                rest.append("/* ---- %s ---- */" % rel)
                self.expand(rel, self.seen, None, rest, public=True)
        if rest:
            out.insert(out.index("#endif", len(out) - 3) if "#endif" in out[-3:] else len(out),
                       "\n".join(rest))
        return "\n".join(out)

    def unit(self, rel, seen, system):
        """One source file as a unit of text, with the headers it brings."""
        out = ["/* ==== %s ==== */" % rel]
        self.expand(rel, seen, system, out, public=False)
        return "\n".join(out)

    def source(self):
        cm = read("CMakeLists.txt")
        common = cmake_list(cm, "FJ_SOURCES")
        scan = "src/scan/"
        kernels_cmake = read("src/scan/kernels.cmake")
        flags = kernel_flags()
        x86 = [k for k in ("kernel_sse42.c", "kernel_avx2.c", "kernel_avx512.c")
               if k in kernels_cmake and os.path.exists(os.path.join(ROOT, scan + k))]

        # global units: the library sources, dispatch, scalar kernel; then the
        # architecture-specific ones (cpu.c and the SIMD kernels)
        units = []  # (key, text, arch guard or None, kind)
        for rel in common + [scan + "dispatch.c"]:
            units.append((rel, self.unit(rel, self.seen, self.system), None, "common"))
        arch_units = [(scan + "cpu.c", "x86", None)]
        arch_units += [(scan + k, "x86", flags.get(k, [])) for k in x86]
        # number.c again for the avx2 and avx512 kernels (number.c's own unit
        # above has FJ_KERNEL_X86, so its entry points dispatch)
        num = "src/ondemand/number_avx2.c"
        if "number_avx2.c" in kernels_cmake and os.path.exists(os.path.join(ROOT, num)):
            arch_units += [(num, "x86", flags.get("number_avx2.c", []))]
        arch_units += [(scan + "kernel_neon.c", "neon", [])]

        global_text = strip_comments_and_strings(
            self.header() + "\n" + "\n".join(u[1] for u in units))
        global_idents = set(IDENT_RE.findall(global_text))

        kernel_maps = {}

        def kernel_unit(rel, arch, target):
            seen = set(self.seen)  # headers new here are this kernel's own copy
            system = []
            text = self.unit(rel, seen, system)
            name = re.sub(r"^kernel_|\.c$", "", os.path.basename(rel))
            if target is not None:  # a kernel: its own names
                mapping = {}
                for ident in set(IDENT_RE.findall(strip_comments_and_strings(text))):
                    if ident in global_idents or ident.startswith(("fj__", "FJ__")):
                        continue
                    if ident.startswith("fj_"):
                        mapping[ident] = "fj_%s_%s" % (name, ident[3:])
                    elif ident.startswith("FJ_"):
                        mapping[ident] = "FJ_%s_%s" % (name.upper(), ident[3:])
                text = rename(text, mapping)
                kernel_maps[rel] = mapping
            return (rel, text, arch, target, system)

        scalar = kernel_unit(scan + "kernel_scalar.c", None, [])
        units.append((scalar[0], scalar[1], None, "kernel"))
        arch_parts = [kernel_unit(*a) for a in arch_units
                      if os.path.exists(os.path.join(ROOT, a[0]))]

        # other clashes: names defined at file scope by more than one unit
        all_units = [(u[0], u[1]) for u in units] + [(a[0], a[1]) for a in arch_parts]
        owners = {}
        for key, text in all_units:
            for name in file_scope_names(text):
                owners.setdefault(name, []).append(key)
        clashes = {n: ks for n, ks in owners.items() if len(ks) > 1}
        renamed, mappings = {}, {}
        for key, text in all_units:
            stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(key))[0])
            mapping = {n: "%s__%s" % (n, stem) for n, ks in clashes.items() if key in ks}
            renamed[key] = rename(text, mapping)
            mappings[key] = dict(kernel_maps.get(key, {}), **mapping)
            for n in sorted(mapping):
                if self.verbose:
                    print("amalgamate: %s: static %s renamed %s" % (key, n, mapping[n]),
                          file=sys.stderr)

        def undefs(key):
            """#undef for the macros the file itself defines (not its headers)."""
            names = []
            for line in rename(read(key), mappings[key]).split("\n"):
                d = DEFINE_RE.match(line)
                if d and not FEATURE_MACROS.match(d.group(1)) and d.group(1) not in names:
                    names.append(d.group(1))
            return "\n".join("#undef %s" % n for n in names)

        out = []
        out.append(BANNER_C)
        out.extend(self.features)
        out.append("")
        out.append(ARCH_PRELUDE)
        out.append('#include "fastjson.h"')
        out.extend(self.system)
        out.append("")
        for key, _, _, _ in units:
            out.append(renamed[key])
            out.append(undefs(key))
        for rel, _, arch, target, system in arch_parts:
            guard = "FJ_KERNEL_X86" if arch == "x86" else "FJ_KERNEL_NEON"
            out.append("#if defined(%s)" % guard)
            out.extend(system)
            if target:
                t = ",".join(target)
                out.append(PUSH_TARGET % (t, t))
            out.append(renamed[rel])
            out.append(undefs(rel))
            if target:
                out.append(POP_TARGET)
            out.append("#endif /* %s */" % guard)
        return "\n".join(out) + "\n"


BANNER_H = """/* fastjson.h — libfastjson %s, single-file distribution (public API).
 * Generated by scripts/amalgamate.py from include/; do not edit.
 * Use with fastjson.c: `cc -O2 -c fastjson.c` needs no other file or flag. */
"""

BANNER_C = """/* fastjson.c — libfastjson %s, single-file distribution (implementation).
 * Generated by scripts/amalgamate.py from src/; do not edit. Compile it with
 * any C11 compiler (GCC or clang for the SIMD kernels); keep fastjson.h next
 * to it. All stage-1 kernels of the target architecture are compiled in and
 * the best one this CPU runs is chosen at run time; define
 * FJ_AMALGAMATION_SCALAR_ONLY to leave the SIMD kernels out. */"""

ARCH_PRELUDE = """/* The kernels of the target architecture (the CMake build decides this in
 * src/scan/kernels.cmake). */
#if !defined(FJ_AMALGAMATION_SCALAR_ONLY) && (defined(__GNUC__) || defined(__clang__))
#if defined(__x86_64__) || defined(__amd64__)
#define FJ_KERNEL_X86 1
#elif defined(__aarch64__)
#define FJ_KERNEL_NEON 1
#endif
#endif
"""

PUSH_TARGET = """#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("%s"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("%s")
#endif"""

POP_TARGET = """#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif"""


def project_version():
    m = re.search(r"project\(\s*\w+\s+VERSION\s+([\d.]+)", read("CMakeLists.txt"))
    return m.group(1) if m else "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "amalgamation"),
                    help="output folder (default build/amalgamation)")
    ap.add_argument("--verbose", action="store_true", help="list renamed names")
    args = ap.parse_args()
    a = Amalgamation(args.verbose)
    c = a.source()  # reads the header too
    h = BANNER_H % project_version() + Amalgamation(False).header() + "\n"
    c = c.replace("%s", project_version(), 1)
    os.makedirs(args.out, exist_ok=True)
    for name, text in (("fastjson.h", h), ("fastjson.c", c)):
        with open(os.path.join(args.out, name), "w", encoding="utf-8") as f:
            f.write(text)
    print("amalgamate: wrote %s (%d lines) and %s (%d lines)" % (
        os.path.join(args.out, "fastjson.h"), h.count("\n"),
        os.path.join(args.out, "fastjson.c"), c.count("\n")))


if __name__ == "__main__":
    main()
