#!/usr/bin/env python3
"""Writes BENCHMARKS.md and bench/charts/*.png from the results of
bench/run_all.sh (google-benchmark JSON with aggregates, the peak-memory JSON
lines, fastjson-mem-peak --info). Run by run_all.sh; by hand:

  python3 bench/report.py --results build-bench/bench-results --build build-bench \
      --out BENCHMARKS.md --charts bench/charts

Throughput is the median over the repetitions of bytes per second of JSON
(google-benchmark divides by the benchmark thread's CPU time), in GB/s
(10^9 bytes). A task whose benchmarks report only items per second is shown
in millions of items per second.
"""
import argparse
import datetime
import glob
import json
import math
import os
import re
import statistics
import subprocess
import sys

# The tasks of issue 8, in the order of the report, with what each measures.
# The authoritative definitions are the header comments of bench/bench_*.cpp,
# which the report quotes in full at the end.
TASKS = [
    ("stage1", "Stage 1 alone: building the structural index of the whole document. "
     "`fastjson-<kernel>` is each stage-1 kernel this CPU runs, on the caller's unpadded bytes; "
     "`simdjson` is On-Demand `parser.iterate()`, which runs simdjson's stage 1 "
     "(`simdjson-haswell`/`-westmere`: its AVX2 and SSE4.2 kernels forced)."),
    ("validate", "Is the whole document valid JSON? fastjson `fj_parser_validate()`; simdjson "
     "DOM `parse()` (builds its tape); RapidJSON SAX `Reader` with UTF-8 validation; cJSON "
     "builds and frees its tree (it has no validate-only mode and does not check UTF-8); yajl "
     "`yajl_parse()` without callbacks; jansson `json_loadb()` and json-c "
     "`json_tokener_parse_ex()` (strict, UTF-8 checked) build and free their trees. Each must "
     "also reject a copy with one bracket broken, and the trees of jansson and json-c must hold "
     "what fastjson reads (values of each kind, string bytes, the sum of the numbers)."),
    ("visit", "Parse and walk the whole document, reading every value: keys and strings "
     "unescaped, numbers converted, literals read (fastjson cursor vs simdjson On-Demand). "
     "Before timing, both libraries' reads must agree exactly: every number's bits and every "
     "string's bytes, in order."),
    ("visit_double", "The same walk over the number-heavy files, every number read as a "
     "double (fastjson `fj_value_get_double()`, simdjson `get_double()`)."),
    ("query", "Parse and read a few fields by key: four fields of each of twitter.json's "
     "statuses, and `abc`: 26 fields looked up in the reverse of their document order."),
    ("parse_double", "Only the number texts of canada.json converted to doubles (bytes are the "
     "texts' length); every result must equal glibc `strtod`'s bits."),
    ("read_struct", "A model payload (bench/models, and twitter.json's statuses) into C structs: "
     "fastjson's generated reader (`fastjson-gen`) and its descriptor tables (`fastjson-desc`) "
     "vs hand-written readers over simdjson On-Demand, a RapidJSON DOM and a cJSON tree; the "
     "struct's hash must match fastjson-gen's."),
    ("write_struct", "The decoded structs back to compact JSON: fastjson-gen's writer, "
     "fastjson-desc, RapidJSON `Writer` and a cJSON tree printed; the output is read back and "
     "checked. Bytes are fastjson-gen's output size."),
    ("write", "Re-emitting a whole corpus document from recorded events: fastjson `fj_writer` "
     "into a reused buffer, RapidJSON `Writer<StringBuffer>`; the DOM libraries write a tree "
     "built from the same events: `jansson` (`json_dumpb`) and `json-c` "
     "(`json_object_to_json_string_length`) a tree built before timing, `jansson-build` and "
     "`json-c-build` build, write and free it in every iteration; `simdjson` serialises its DOM, "
     "parsed before timing (`string_builder`, what `simdjson::to_string` runs). Every output "
     "must read back as the recorded events; bytes are the input document's size. "
     "`replay-only` is the replay loop with no writer (each event stores its kind's byte, "
     "or the first 16 bytes of its string or its 8-byte number, unformatted): the part of the `fastjson` and `rapidjson` rows that is the loop itself, "
     "mostly the switch on each event's kind; it bounds the ratio any writer can reach here."),
    ("minify", "Removing whitespace outside strings from a whole document: fastjson "
     "`fj_minify` (validates the document fully first) and `fastjson-unvalidated` "
     "(`fj_minify_unvalidated_into`: no validation, into a reused buffer, the like-for-like "
     "row) vs `simdjson::minify` (no validation) with the kernel simdjson picks, and with its "
     "AVX2 and SSE4.2 kernels forced (`simdjson-haswell`, `-westmere`): on AMD Zen 4 and later "
     "the AVX-512 kernel it picks minifies several times slower than its AVX2 one (simdjson "
     "issue #2334, fixed after the 3.x release Debian 12 ships), so there the forced rows are "
     "its best; on Intel CPUs the kernel it picks is. Every output must equal `simdjson::minify`'s byte for byte. Bytes are the "
     "input document's size."),
    ("format_double", "Every double of canada.json to text: fastjson's shortest round trip "
     "(Schubfach) vs `std::to_chars` (shortest round trip, Ryu in libstdc++) and "
     "`snprintf(\"%.17g\")` (17 digits, not shortest). Every text must read back (`strtod`) "
     "as its double. Reported in millions of numbers per second."),
    ("ndjson", "A stream of NDJSON documents, each walked whole (fastjson stream API vs "
     "simdjson `iterate_many`, 1 MB batches)."),
]
TASK_NAMES = [t for t, _ in TASKS]
PEER_ORDER = ["simdjson", "rapidjson", "cjson", "yajl", "jansson", "json-c"]
ALL_PEERS = ["simdjson", "rapidjson", "cjson", "yajl", "jansson", "json-c"]
DEB = {"simdjson": "libsimdjson-dev", "rapidjson": "rapidjson-dev", "cjson": "libcjson-dev",
       "yajl": "libyajl-dev", "jansson": "libjansson-dev", "json-c": "libjson-c-dev",
       "google-benchmark": "libbenchmark-dev", "gcc": "gcc", "g++": "g++",
       "matplotlib": "python3-matplotlib"}


def peer_of(lib):
    """The peer a library column belongs to (`json-c-build` is json-c's), or None."""
    return max((p for p in PEER_ORDER if lib == p or lib.startswith(p + "-")), key=len,
               default=None)


def run(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def human_bytes(n):
    if n is None:
        return ""
    for unit, div in (("MB", 1e6), ("KB", 1e3)):
        if n >= div:
            v = n / div
            return f"{v:.0f} {unit}" if v >= 100 else f"{v:.1f} {unit}" if v >= 10 else \
                f"{v:.2f} {unit}"
    return f"{n:.0f} B"


def kib(n):
    return f"{n // 1048576} MiB" if n >= 1048576 and n % 1048576 == 0 else f"{n // 1024} KiB"


def fmt_rate(v):
    if v is None:
        return "—"
    if v >= 10:
        return f"{v:.1f}"
    if v >= 1:
        return f"{v:.2f}"
    if v >= 0.1:
        return f"{v:.3f}"
    return f"{v:.4f}"


def lib_sort_key(lib, fj_main):
    if lib == fj_main:
        return (0, "")
    if lib.startswith("fastjson"):
        kernels = ["avx512", "avx2", "sse42", "neon", "scalar"]
        k = lib[len("fastjson-"):]
        return (1, f"{kernels.index(k):02d}" if k in kernels else f"99{lib}")
    if lib in HARNESS_ROWS:
        return (3, lib)
    base = peer_of(lib)
    rank = PEER_ORDER.index(base) if base else len(PEER_ORDER)
    return (2, f"{rank:02d}{lib}")


class Results:
    """Median throughput per (task, library, input) from google-benchmark JSON."""

    def __init__(self):
        self.rows = {}  # (task, lib, input) -> dict(value, cv, unit, bytes)
        self.contexts = []

    def load(self, path):
        if not os.path.exists(path):
            return
        with open(path) as f:
            data = json.load(f)
        self.contexts.append(data.get("context", {}))
        agg = {}
        for b in data.get("benchmarks", []):
            name = b.get("run_name", b["name"])
            kind = b.get("aggregate_name", "single" if b.get("run_type") != "aggregate" else "")
            agg.setdefault(name, {})[kind] = b
        for name, a in agg.items():
            parts = name.split("/")
            if len(parts) < 3:
                continue
            task, lib, inp = parts[0], parts[1], "/".join(parts[2:])
            med = a.get("median") or a.get("single") or a.get("mean")
            if not med:
                continue
            if "bytes_per_second" in med:
                key, unit, scale = "bytes_per_second", "GB/s", 1e9
            elif "items_per_second" in med:
                key, unit, scale = "items_per_second", "M items/s", 1e6
            else:
                continue
            value = med[key] / scale
            cv = None
            if "cv" in a and key in a["cv"]:
                cv = a["cv"][key]
            elif "stddev" in a and "mean" in a and a["mean"].get(key):
                cv = a["stddev"][key] / a["mean"][key]
            # bytes per iteration: rate x time per iteration (CPU time)
            nbytes = None
            if key == "bytes_per_second" and med.get("time_unit") == "ns":
                nbytes = med[key] * med["cpu_time"] / 1e9
            if "doc_bytes" in med:
                nbytes = med["doc_bytes"]
            self.rows[(task, lib, inp)] = dict(value=value, cv=cv, unit=unit, bytes=nbytes)

    def tasks(self):
        return sorted({t for t, _, _ in self.rows})

    def task(self, task):
        return {(lib, inp): r for (t, lib, inp), r in self.rows.items() if t == task}


# Tasks whose ratio is taken from another fastjson row than the default: the
# one that does what the peers do (simdjson::minify does not validate).
LIKE_FOR_LIKE = {"minify": "fastjson-unvalidated"}
# Tasks whose inputs measure different things (query: twitter.json's
# in-order lookups, abc's reversed ones, built as simdjson's worst case):
# a summary row per input, never a mean over them.
SUMMARY_PER_INPUT = {"query"}
# Rows that measure the harness, not a library (write/replay-only: the replay
# loop with no writer): shown last, never the row's best, a peer or a bar.
HARNESS_ROWS = {"replay-only"}


def dispatch_medians(results, side):
    """Median value per row over the rounds dispatch-SIDE-N.json (run_all.sh)."""
    values = {}
    for path in glob.glob(os.path.join(results, f"dispatch-{side}-*.json")):
        r = Results()
        r.load(path)
        for k, v in r.rows.items():
            values.setdefault(k, []).append(v)
    return {k: dict(value=statistics.median(x["value"] for x in v), unit=v[0]["unit"])
            for k, v in values.items()}


def fastjson_main(libs, kernel, task=None):
    if LIKE_FOR_LIKE.get(task) in libs:
        return LIKE_FOR_LIKE[task]
    if "fastjson" in libs:
        return "fastjson"
    if kernel and f"fastjson-{kernel}" in libs:
        return f"fastjson-{kernel}"
    if "fastjson-gen" in libs:
        return "fastjson-gen"
    cands = sorted(l for l in libs if l.startswith("fastjson"))
    return cands[0] if cands else None


def input_order(inputs, sizes):
    def key(i):
        return (0 if i in sizes else 1, i)
    return sorted(inputs, key=key)


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def task_table(rows, corpus_sizes, kernel, sort_by_size=False, task=None):
    """Markdown lines of one task's table, plus the data for its chart and summary."""
    libs = sorted({l for l, _ in rows})
    fj = fastjson_main(libs, kernel, task)
    libs.sort(key=lambda l: lib_sort_key(l, fj))
    inputs = {i for _, i in rows}
    if sort_by_size:
        inputs = sorted(inputs, key=lambda i: max((rows[(l, i)]["bytes"] or 0) for l in libs
                                                   if (l, i) in rows))
    else:
        inputs = input_order(inputs, corpus_sizes)
    unit = next(iter(rows.values()))["unit"]
    peers = [l for l in libs if not l.startswith("fastjson") and l not in HARNESS_ROWS]
    head = ["input", "size"] + [f"`{l}`" for l in libs]
    if fj and peers:
        head.append(f"`{fj}` / best peer")
    lines = ["| " + " | ".join(head) + " |", "|---|" + "--:|" * (len(head) - 1)]
    ratios, wins, best_peers, cvs, per_input = [], 0, {}, [], []
    for inp in inputs:
        vals = {l: rows[(l, inp)]["value"] for l in libs if (l, inp) in rows}
        for l in libs:
            if (l, inp) in rows and rows[(l, inp)]["cv"] is not None:
                cvs.append(rows[(l, inp)]["cv"])
        size = corpus_sizes.get(inp)
        if size is None:
            size = max((rows[(l, inp)]["bytes"] or 0 for l in libs if (l, inp) in rows),
                       default=None)
        best = max((v for l, v in vals.items() if l not in HARNESS_ROWS), default=None)
        cells = [f"`{inp}`", human_bytes(size)]
        for l in libs:
            v = vals.get(l)
            s = fmt_rate(v)
            cells.append(f"**{s}**" if v is not None and v == best else s)
        if fj and peers:
            pv = {l: vals[l] for l in peers if l in vals}
            if fj in vals and pv:
                bp = max(pv, key=pv.get)
                r = vals[fj] / pv[bp]
                ratios.append(r)
                wins += r > 1
                best_peers[bp] = best_peers.get(bp, 0) + 1
                per_input.append((inp, r, bp))
                cells.append(f"{r:.2f}× ({bp})")
            else:
                cells.append("—")
        lines.append("| " + " | ".join(cells) + " |")
    return dict(lines=lines, libs=libs, fj=fj, inputs=inputs, unit=unit, ratios=ratios,
                wins=wins, best_peers=best_peers, cvs=cvs, peers=peers, per_input=per_input)


# ---- charts ----------------------------------------------------------------------------

def plt_or_none():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        return None


COLORS = {"simdjson": "#1f77b4", "rapidjson": "#d62728", "cjson": "#2ca02c", "yajl": "#9467bd",
          "jansson": "#8c564b", "json-c": "#e377c2", "jansson-build": "#c49c94",
          "json-c-build": "#f7b6d2", "strtod": "#7f7f7f", "snprintf": "#7f7f7f",
          "fastjson": "#ff7f0e"}


def color(lib, i):
    if lib in COLORS:
        return COLORS[lib]
    palette = ["#17becf", "#bcbd22", "#9edae5", "#ffbb78", "#98df8a", "#c5b0d5", "#c49c94",
               "#aec7e8"]
    return palette[i % len(palette)]


def save(plt, fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=80, pil_kwargs={"optimize": True})
    plt.close(fig)


def relative_chart(plt, task, t, rows, path):
    """Horizontal bars: each library's throughput divided by fastjson's, per input."""
    others = [l for l in t["libs"] if l != t["fj"] and l not in HARNESS_ROWS]
    if not t["fj"] or not others:
        return False
    inputs = [i for i in t["inputs"] if (t["fj"], i) in rows]
    if not inputs:
        return False
    n = len(others)
    bar = 0.8 / n
    fig, ax = plt.subplots(figsize=(8.5, 1.1 + len(inputs) * (0.08 * n + 0.16)))
    lo, hi = 1.0, 1.0
    for k, lib in enumerate(others):
        ys, xs = [], []
        for j, inp in enumerate(inputs):
            if (lib, inp) in rows:
                r = rows[(lib, inp)]["value"] / rows[(t["fj"], inp)]["value"]
                ys.append(len(inputs) - 1 - j + 0.4 - (k + 0.5) * bar)
                xs.append(r)
                lo, hi = min(lo, r), max(hi, r)
        ax.barh(ys, xs, height=bar * 0.9, left=0, color=color(lib, k), label=lib)
    ax.set_xscale("log")
    ax.set_xlim(min(lo / 1.5, 0.5), max(hi * 1.5, 2))
    ax.axvline(1.0, color="#ff7f0e", lw=2)
    ax.set_ylim(-0.55, len(inputs) - 0.45)
    ax.set_yticks(range(len(inputs)))
    ax.set_yticklabels(list(reversed(inputs)), fontsize=8)
    ax.set_xlabel(f"throughput relative to {t['fj']} (log scale; < 1: slower than {t['fj']})")
    ax.set_title(f"{task}: each library / {t['fj']} (median {t['unit']})", fontsize=10)
    ax.grid(axis="x", which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    save(plt, fig, path)
    return True


def scaling_chart(plt, t, rows, path):
    fig, ax = plt.subplots(figsize=(7.5, 4))
    for k, lib in enumerate(t["libs"]):
        pts = sorted((rows[(lib, i)]["bytes"], rows[(lib, i)]["value"]) for i in t["inputs"]
                     if (lib, i) in rows and rows[(lib, i)]["bytes"])
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=lib,
                    color=color(lib, k), lw=2.5 if lib == t["fj"] else 1.5)
    ax.set_xscale("log")
    ax.set_xlabel("document size (bytes, log scale)")
    ax.set_ylabel("validate, median GB/s")
    ax.set_ylim(bottom=0)
    ax.set_title("scaling: validate throughput by document size", fontsize=10)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    save(plt, fig, path)


def memory_chart(plt, mem, files, libs, path):
    fig, ax = plt.subplots(figsize=(8.5, 1.1 + len(files) * (0.08 * len(libs) + 0.16)))
    bar = 0.8 / len(libs)
    for k, lib in enumerate(libs):
        ys, xs = [], []
        for j, f in enumerate(files):
            m = mem.get((lib, f))
            if m and m.get("delta_kb") is not None and m["bytes"]:
                ys.append(len(files) - 1 - j + 0.4 - (k + 0.5) * bar)
                xs.append(max(m["delta_kb"] * 1024 / m["bytes"], 0.01))
        ax.barh(ys, xs, height=bar * 0.9, color=color(lib, k), label=lib)
    ax.set_xscale("log")
    ax.set_ylim(-0.55, len(files) - 0.45)
    ax.set_yticks(range(len(files)))
    ax.set_yticklabels(list(reversed(files)), fontsize=8)
    ax.set_xlabel("peak resident memory of one parse / document size (log scale; lower is better)")
    ax.set_title("memory: bytes of memory per byte of JSON", fontsize=10)
    ax.grid(axis="x", which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    save(plt, fig, path)


# ---- environment -----------------------------------------------------------------------

def environment(args, contexts, info):
    lines = []
    lscpu = run(["lscpu"])
    model = re.search(r"^Model name:\s*(.+)$", lscpu, re.M)
    flags = re.search(r"^Flags:\s*(.+)$", lscpu, re.M)
    hyper = re.search(r"^Hypervisor vendor:\s*(.+)$", lscpu, re.M)
    wanted = ["sse4_2", "pclmulqdq", "avx", "avx2", "bmi1", "bmi2", "avx512f", "avx512bw",
              "avx512vl", "avx512vbmi", "avx512_vbmi2", "vpclmulqdq", "neon", "asimd"]
    have = [f for f in wanted if flags and f in flags.group(1).split()]
    ncpu = os.cpu_count()
    lines.append(f"- **CPU**: {model.group(1) if model else 'unknown'}, {ncpu} logical CPUs"
                 + (f", virtual machine ({hyper.group(1)})" if hyper else ""))
    if contexts:
        c = contexts[0]
        caches = ", ".join(f"L{x['level']} {x['type'].lower()} {kib(x['size'])}"
                           for x in c.get("caches", []))
        lines.append(f"- **Clock / caches** (as google-benchmark sees them): "
                     f"{c.get('mhz_per_cpu', '?')} MHz; {caches}")
    lines.append(f"- **Relevant CPU flags**: {' '.join(have) if have else 'none of ' + ' '.join(wanted)}")
    kern = run([os.path.join(args.build, "fastjson"), "--kernels"])
    if kern:
        lines.append("- **fastjson stage-1 kernels** (`fastjson --kernels`; `*` = the one in use):")
        lines.append("")
        lines.append("  ```")
        lines += ["  " + l for l in kern.splitlines()]
        lines.append("  ```")
        lines.append("")
    if info.get("simdjson_kernel"):
        lines.append(f"- **simdjson implementation in use**: `{info['simdjson_kernel']}` "
                     "(its runtime dispatch; On-Demand stage 2 is compiled into the benchmark "
                     "with the benchmark's own flags)")
    lines.append(f"- **OS**: {run(['uname', '-sr'])}, "
                 f"{open('/etc/debian_version').read().strip() if os.path.exists('/etc/debian_version') else ''}"
                 .rstrip(", ") + (" (Debian)" if os.path.exists("/etc/debian_version") else ""))
    cache = {}
    cpath = os.path.join(args.build, "CMakeCache.txt")
    if os.path.exists(cpath):
        for line in open(cpath):
            m = re.match(r"^([A-Za-z_]+):[A-Z]+=(.*)$", line.strip())
            if m:
                cache[m.group(1)] = m.group(2)
    cc = cache.get("CMAKE_C_COMPILER", "cc")
    cxx = cache.get("CMAKE_CXX_COMPILER", "c++")
    lines.append(f"- **Compilers**: {run([cc, '--version']).splitlines()[0] if run([cc, '--version']) else cc}"
                 f" / {run([cxx, '--version']).splitlines()[0] if run([cxx, '--version']) else cxx}")
    bt = cache.get("CMAKE_BUILD_TYPE", "Release")
    cflags = (cache.get("CMAKE_C_FLAGS", "") + " " + cache.get(f"CMAKE_C_FLAGS_{bt.upper()}", "")).strip()
    cxxflags = (cache.get("CMAKE_CXX_FLAGS", "") + " " +
                cache.get(f"CMAKE_CXX_FLAGS_{bt.upper()}", "")).strip()
    lines.append(f"- **Build**: CMake `{bt}`; C flags `{cflags}`, C++ flags `{cxxflags}`; no "
                 "`-march`: the distribution's default target (x86-64 baseline). fastjson's SIMD "
                 "kernels get their own target flags per file (`src/scan/kernels.cmake`) and are "
                 "chosen at run time, like simdjson's.")
    vers = []
    for name in ALL_PEERS + ["google-benchmark"]:
        v = run(["dpkg-query", "-W", "-f=${Version}", DEB[name]])
        vers.append(f"{name} {v} (`{DEB[name]}`)" if v else f"{name}: not installed")
    lines.append("- **Peers** (Debian packages): " + "; ".join(vers))
    commit = run(["git", "-C", args.root, "rev-parse", "--short", "HEAD"])
    # changes to what this run writes itself (this file, the charts) do not
    # make the measured code differ from the commit
    dirty = run(["git", "-C", args.root, "status", "--porcelain", "--untracked-files=no", "--",
                 ".", ":!BENCHMARKS.md", ":!bench/charts"])
    lines.append(f"- **fastjson**: commit `{commit or 'unknown'}`"
                 + (" plus uncommitted changes in the working tree" if dirty else ""))
    loads = [c.get("load_avg") for c in contexts if c.get("load_avg")]
    if loads:
        lines.append("- **Load average** when each run started (1/5/15 min): "
                     + "; ".join("/".join(f"{x:.1f}" for x in l) for l in loads)
                     + f" on {ncpu} CPUs")
    date = contexts[0].get("date") if contexts else None
    lines.append(f"- **Date**: {date or datetime.datetime.now().isoformat(timespec='seconds')}")
    return lines


def source_definitions(root):
    """The header comment of each bench/bench_*.cpp: what each benchmark measures."""
    out = []
    for path in sorted(glob.glob(os.path.join(root, "bench", "bench_*.cpp"))):
        text = []
        for line in open(path, encoding="utf-8", errors="replace"):
            if line.startswith("//"):
                text.append(line[2:].rstrip()[1:] if line[2:3] == " " else line[2:].rstrip())
            elif line.strip() == "" and not text:
                continue
            else:
                break
        if text:
            out.append(f"**`bench/{os.path.basename(path)}`**")
            out.append("")
            out.append("```")
            out += text
            out.append("```")
            out.append("")
    return out


# ---- main ------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--out", default="BENCHMARKS.md")
    ap.add_argument("--charts", default="bench/charts")
    ap.add_argument("--mode", default="full")
    ap.add_argument("--repetitions", default="?")
    ap.add_argument("--min-time", default="?")
    ap.add_argument("--elapsed", type=int, default=None)
    ap.add_argument("--data", default=os.environ.get("FJ_DATA_DIR"))
    args = ap.parse_args()
    data = args.data or os.path.join(args.root, "..", "shared", "data")

    res = Results()
    for path in sorted(glob.glob(os.path.join(args.results, "matrix*.json"))):
        res.load(path)
    failures = {}
    fpath = os.path.join(args.results, "failures.txt")
    if os.path.exists(fpath):
        for line in open(fpath):
            if "\t" in line:
                task, msg = line.rstrip("\n").split("\t", 1)
                failures[task] = msg
    res.load(os.path.join(args.results, "scaling.json"))
    info = {}
    ipath = os.path.join(args.results, "info.json")
    if os.path.exists(ipath):
        info = json.load(open(ipath))
    kernel = info.get("fastjson_kernel")
    corpus_sizes = {os.path.basename(p): os.path.getsize(p)
                    for p in glob.glob(os.path.join(data, "corpus", "*"))
                    if os.path.isfile(p)}
    mem = {}
    mpath = os.path.join(args.results, "memory.jsonl")
    if os.path.exists(mpath):
        for line in open(mpath):
            line = line.strip()
            if line:
                m = json.loads(line)
                mem[(m["library"], m["file"])] = m

    os.makedirs(args.charts, exist_ok=True)
    for old in glob.glob(os.path.join(args.charts, "*.png")):
        os.remove(old)
    plt = plt_or_none()
    chart_rel = os.path.relpath(args.charts, os.path.dirname(os.path.abspath(args.out)))

    body, summary = [], []
    found = res.tasks()
    extra = [t for t in sorted(set(found) | set(failures))
             if t not in TASK_NAMES and t != "scaling"]
    missing, failed = [], []
    for task in TASK_NAMES + extra:
        desc = dict(TASKS).get(task, "")
        body.append(f"### {task}")
        body.append("")
        rows = res.task(task)
        if task in failures:
            failed.append(task)
            body.append(f"*Failed in this run*: a `{task}/…` benchmark's own check of its "
                        "result failed, so the task reports no speeds. fastjson_bench said: "
                        f"`{failures[task] or 'nothing'}`. " + desc)
            body.append("")
            continue
        if not rows:
            missing.append(task)
            body.append(f"*Not measured yet*: fastjson_bench has no `{task}/…` benchmarks in this "
                        "build. " + desc)
            body.append("")
            continue
        if desc:
            body.append(desc)
            body.append("")
        t = task_table(rows, corpus_sizes, kernel, task=task)
        body.append(f"Median {t['unit']} (higher is better; the row's best in bold).")
        body.append("")
        body += t["lines"]
        body.append("")
        if t["cvs"]:
            cvs = sorted(t["cvs"])
            body.append(f"Spread across repetitions (coefficient of variation): median "
                        f"{100 * cvs[len(cvs) // 2]:.1f}%, worst {100 * cvs[-1]:.1f}%.")
            body.append("")
        if plt and relative_chart(plt, task, t, rows, os.path.join(args.charts, f"{task}.png")):
            body.append(f"![{task}: throughput relative to {t['fj']}]({chart_rel}/{task}.png)")
            body.append("")
        g = geomean(t["ratios"])
        if g is not None and task in SUMMARY_PER_INPUT:
            for inp, r, bp in t["per_input"]:
                summary.append(f"| [{task}](#{task}) `{inp}` | 1 | {r:.2f}× | "
                               f"{int(r > 1)} of 1 | {bp} |")
        elif g is not None:
            bp = max(t["best_peers"], key=t["best_peers"].get)
            summary.append(f"| [{task}](#{task}) | {len(t['ratios'])} | {g:.2f}× | "
                           f"{t['wins']} of {len(t['ratios'])} | {bp} |")
        elif t["fj"]:
            summary.append(f"| [{task}](#{task}) | {len(t['inputs'])} | no peer measured | — | — |")
        else:
            summary.append(f"| [{task}](#{task}) | {len(t['inputs'])} | fastjson not measured | — | — |")
    for task in failed:
        summary.append(f"| [{task}](#{task}) | — | failed its self-check | — | — |")
    for task in missing:
        summary.append(f"| {task} | — | not measured yet | — | — |")

    # ---- scaling
    scal = []
    rows = res.task("scaling")
    if rows:
        t = task_table(rows, {}, kernel, sort_by_size=True)
        scal.append("Validation (every library of `validate`, with its settings and checks: "
                    "fastjson `fj_parser_validate`, simdjson DOM, RapidJSON SAX with UTF-8 "
                    "validation, yajl, the trees of cJSON, jansson and json-c) of one generated "
                    "document per size: `fastjson-sample N`, twitter-like records (ids above "
                    "2^53, floats, escapes, non-ASCII text), N chosen for the size. Median GB/s.")
        scal.append("")
        scal += t["lines"]
        scal.append("")
        if plt:
            scaling_chart(plt, t, rows, os.path.join(args.charts, "scaling.png"))
            scal.append(f"![scaling: validate GB/s by size]({chart_rel}/scaling.png)")
            scal.append("")
        if args.mode == "quick":
            scal.append("(A `--quick` run stops at 10 MB; the full run adds 100 MB.)")
            scal.append("")
    else:
        scal.append("*Not measured*: no `scaling/…` results.")
        scal.append("")

    # ---- memory
    memo = []
    if mem:
        libs = sorted({l for l, _ in mem}, key=lambda l: lib_sort_key(l, "fastjson"))
        files = [f for f in sorted({f for _, f in mem}) if f in corpus_sizes]
        gen = sorted({f for _, f in mem} - set(files),
                     key=lambda f: max(m["bytes"] for (l, g), m in mem.items()
                                       if g == f and "bytes" in m))

        def mem_table(fs):
            out = ["| input | size | " + " | ".join(f"`{l}`" for l in libs) +
                   " | fastjson index bytes / input byte |",
                   "|---|--:|" + "--:|" * (len(libs) + 1)]
            for f in fs:
                size = next((m["bytes"] for (l, g), m in mem.items() if g == f and "bytes" in m),
                            None)
                cells = [f"`{f}`", human_bytes(size)]
                vals = {l: mem[(l, f)].get("delta_kb") for l in libs if (l, f) in mem}
                low = min((v for v in vals.values() if v is not None), default=None)
                for l in libs:
                    m = mem.get((l, f))
                    if not m:
                        cells.append("—")
                    elif m.get("error"):
                        cells.append("rejected")
                    else:
                        s = f"{human_bytes(m['delta_kb'] * 1024)} ({m['delta_kb'] * 1024 / m['bytes']:.2f}×)"
                        cells.append(f"**{s}**" if m["delta_kb"] == low else s)
                st = next((m.get("structurals") for (l, g), m in mem.items()
                           if g == f and m.get("structurals")), None)
                cells.append(f"{st * 4 / size:.3f}" if st and size else "—")
                out.append("| " + " | ".join(cells) + " |")
            return out

        memo.append("Peak resident memory that one parse adds, measured in a fresh process per "
                    "library and file (`fastjson-mem-peak`): the file is read into a padded "
                    "buffer shared by all libraries, the library parses a tiny warm-up document "
                    "(paging in its code), the high-water mark is reset "
                    "(`/proc/self/clear_refs`), then one parse with a fresh parser; the table "
                    "shows the new high-water mark (`VmHWM`) minus the resident size before the "
                    "parse. In parentheses: bytes of memory per byte of input. Lowest "
                    "in bold. `fastjson` parses and walks every value (strings unescaped into "
                    "its scratch memory), `fastjson-validate` only validates; `simdjson` is its "
                    "DOM (tape + string buffer), `simdjson-ondemand` iterates and walks every "
                    "value; `rapidjson` is a `Document` (tree, `MemoryPoolAllocator`); `cjson`, "
                    "`jansson`, `json-c` build their trees. The last column is fastjson's "
                    "structural index: 4 bytes per structural character, divided by the "
                    "input size.")
        memo.append("")
        memo += mem_table(files)
        memo.append("")
        if gen:
            memo.append("How memory grows with the input size, on the generated scaling "
                        "documents:")
            memo.append("")
            memo += mem_table(gen)
            memo.append("")
        if plt and files:
            memory_chart(plt, mem, files, libs, os.path.join(args.charts, "memory.png"))
            memo.append(f"![memory per byte of JSON]({chart_rel}/memory.png)")
            memo.append("")
    else:
        memo.append("*Not measured*: no memory results.")
        memo.append("")

    # ---- dispatch: distribution flags vs -march=native, the builds in turns
    disp = []
    default_rows, native_rows = dispatch_medians(args.results, "default"), \
        dispatch_medians(args.results, "native")
    pairs = [(k, v, native_rows[k]) for k, v in sorted(default_rows.items()) if k in native_rows]
    if pairs:
        rounds = len(glob.glob(os.path.join(args.results, "dispatch-native-*.json")))
        disp.append("fastjson's stage-2 tasks (string unescaping, key matching, number "
                    "parsing) from the run's build with the distribution's default flags and "
                    "from a second build with `-march=native` (same sources), the two taking "
                    f"turns: {rounds} rounds of one repetition each, medians. fastjson picks its "
                    "SIMD code at run time, so the two should match; a ratio below 1 is what "
                    "the default build loses.")
        disp.append("")
        disp.append("| benchmark | default flags | `-march=native` | default / native |")
        disp.append("|---|--:|--:|--:|")
        ratios = []
        for (task, lib, inp), d, n in pairs:
            r = d["value"] / n["value"]
            ratios.append(r)
            disp.append(f"| `{task}/{lib}/{inp}` | {fmt_rate(d['value'])} {d['unit']} | "
                        f"{fmt_rate(n['value'])} {n['unit']} | {r:.2f}× |")
        disp.append("")
        disp.append(f"Geometric mean of default / native: {geomean(ratios):.2f}× "
                    f"(range {min(ratios):.2f}–{max(ratios):.2f}×).")
        disp.append("")
    else:
        disp = ["*Not measured*: no `-march=native` results (the run was filtered, or that "
                "build failed: see `native-build.log` in the results).", ""]

    # ---- compile cost of generated codecs
    comp = []
    cpath = os.path.join(args.results, "compile_cost.txt")
    if os.path.exists(cpath):
        rows = [line.split() for line in open(cpath) if line.strip()]
        if len(rows) > 1:
            comp.append("`bench/codec_compile_cost.py`: a schema of N record types of 8 to 14 "
                        "fields and N/4 tagged unions of 6 cases, given to `fastjson-gen`, then "
                        "the generated file compiled alone with `cc -O2`. Code bytes are the "
                        "object's text + data; the object file also holds symbols and "
                        "relocations. Wall times on a shared machine; the CPU time is steadier.")
            comp.append("")
            comp.append("| N | generator ms | compile ms (wall) | compile ms (CPU) | code bytes "
                        "| object file bytes | lines of C |")
            comp.append("|--:|--:|--:|--:|--:|--:|--:|")
            for r in rows[1:]:
                comp.append("| " + " | ".join(r) + " |")
            comp.append("")
    if not comp:
        comp = ["*Not measured*: no compile-cost results.", ""]

    # ---- the document
    when = res.contexts[0].get("date", "")[:10] if res.contexts else ""
    mode = ("`bench/run_all.sh --quick` (3 short repetitions: indicative only)"
            if args.mode == "quick" else "`bench/run_all.sh` (full run)")
    md = ["# libfastjson benchmarks", ""]
    md.append(f"Generated by {mode} on {when}; {args.repetitions} repetitions of at least "
              f"{args.min_time} s each per benchmark, in random interleaved order"
              + (f"; the whole run took {args.elapsed // 60} min {args.elapsed % 60} s" if
                 args.elapsed is not None else "") + ". Everything below, tables and charts, "
              "comes from that one command; see [Reproducing](#reproducing) and read the "
              "[Caveats](#caveats) before quoting a number.")
    md.append("")
    md.append("Benchmarks are named `TASK/LIBRARY/INPUT`. Inputs are the files of the standard "
              "JSON corpus (`../shared/data/corpus/`: twitter, canada, citm_catalog, …) and a "
              "few generated documents. Every benchmark checks its own result before it is "
              "timed (libraries must agree on what they read, accept valid and reject broken "
              "documents), so a library cannot win by doing less.")
    md.append("")
    md.append("## Summary")
    md.append("")
    md.append("fastjson's throughput divided by the best peer's on each input (geometric mean "
              "over the task's inputs; above 1 means fastjson is faster):")
    md.append("")
    md.append("| task | inputs | fastjson / best peer | fastjson fastest | best peer most often |")
    md.append("|---|--:|--:|--:|---|")
    md += summary
    md.append("")
    md.append("Contents: [Throughput by task](#throughput-by-task) · [Scaling](#scaling) · "
              "[Memory](#memory) · [Default build vs native build]"
              "(#default-build-vs-native-build) · [Codec compile cost](#codec-compile-cost) · "
              "[Environment](#environment) · [Caveats](#caveats) · "
              "[Reproducing](#reproducing) · [What each benchmark measures]"
              "(#what-each-benchmark-measures)")
    md.append("")
    md.append("## Throughput by task")
    md.append("")
    md.append("For each task: median throughput per library and input, then fastjson divided "
              "by the fastest peer on that input. `fastjson-<kernel>` columns are one stage-1 "
              "kernel forced; the plain `fastjson` (or the kernel in use) is the one compared. "
              "Charts show every other library's throughput divided by fastjson's, on a log "
              "scale: a bar left of the orange line is slower than fastjson.")
    md.append("")
    md += body
    md.append("## Scaling")
    md.append("")
    md += scal
    md.append("## Memory")
    md.append("")
    md += memo
    md.append("## Default build vs native build")
    md.append("")
    md += disp
    md.append("## Codec compile cost")
    md.append("")
    md += comp
    md.append("## Environment")
    md.append("")
    md += environment(args, res.contexts, info)
    md.append("")
    md.append("## Caveats")
    md.append("")
    cav = [
        "**A small shared virtual machine.** This machine has "
        f"{os.cpu_count()} virtual CPUs shared with other work (see the load averages under "
        "Environment): other processes take turns on the same cores and caches, so single "
        "numbers move by several percent between runs, and more on the smallest inputs. Each "
        "cell is the **median** of the repetitions and the spread is printed under every "
        "table; treat differences below ~10% as noise, and rerun on a quiet machine before "
        "concluding anything from them.",
        "**CPU time.** google-benchmark divides bytes by the benchmark thread's CPU time, which "
        "leaves out time the thread was not running but not the cache and memory-bandwidth "
        "interference of neighbours.",
        "**Warm and repeated.** Every iteration parses the same document again from memory "
        "with a reused parser (as a server does): the input is in cache when it fits, "
        "allocations are amortized. Cold single parses of large files are slower for every "
        "library; the Scaling section shows the effect of size.",
        "**Each library as its users call it**, with its defaults, except where stated in the "
        "task text: RapidJSON validates UTF-8 (`kParseValidateEncodingFlag`) in validate; "
        "cJSON does not check UTF-8 and has no validate-only mode; jansson reads with "
        "`JSON_DECODE_ANY | JSON_ALLOW_NUL` (otherwise it rejects scalar documents and "
        "`\\u0000`) and refuses integers outside `long long`; json-c reads with "
        "`JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8` and a depth limit of 1024 (by default "
        "it accepts comments, single quotes and trailing commas, skips the UTF-8 check and stops "
        "at depth 32; it accepts `NaN` even when strict); simdjson needs padded input, "
        "and the padded copy is made once, outside the timing; simdjson's On-Demand stage 2 is "
        "header code compiled into the benchmark with the distribution's default flags (its "
        "stage 1 still dispatches at run time).",
        "**Distribution flags.** Everything is compiled for the distribution's baseline target "
        "(no `-march=native`), as packages are: libraries that select SIMD code at run time "
        "(fastjson, simdjson) use the CPU's vector units, others (RapidJSON, cJSON, yajl, "
        "jansson, json-c) stay at SSE2. With `-march=native` some peers would be faster.",
        "**Different amounts of work.** `validate` for simdjson builds its DOM tape and for "
        "cJSON, jansson and json-c a whole tree, because none has a validate-only mode: the "
        "comparison is “the cheapest way each library answers *is this valid?*”, not identical "
        "work. In `write`, the `jansson` and `json-c` rows only serialise a tree that already "
        "exists (as an application that keeps its data in their trees does), while fastjson and "
        "RapidJSON turn events into text; the `-build` rows add building the tree from the "
        "events (and freeing it), the whole job. jansson and json-c escape differently (json-c "
        "writes `/` as `\\/`) and print doubles with 17 significant digits, so their output "
        "is larger on some inputs; bytes per second are always the input document's size. "
        "`stage1` compares scanners only. In `format_double`, `std::to_chars` is the "
        "like-for-like peer (shortest round trip); `snprintf` prints 17 digits and does more "
        "work. In `minify`, the `simdjson` row is the kernel simdjson picks on this CPU; on AMD "
        "Zen 4 and later that kernel is slowed by a bug fixed upstream after Debian's version "
        "(see the task), and `simdjson-haswell` is its best there. `query`'s `abc` input is built to be "
        "simdjson's worst case (every lookup wraps around), so its ratio is shown alone, "
        "never averaged with twitter.json's.",
        "**Memory** is resident memory as the kernel counts it: pages of 4 KB, and counters "
        "that are updated in batches, so values are uncertain by roughly 100 KB; below "
        "~100 KB of input the memory table mostly shows that uncertainty and allocator "
        "granularity, not the library. fastjson reserves its "
        "index for the worst case (one 4-byte entry per input byte) but only the entries "
        "written are ever touched, so only those count; a program that pins memory "
        "(`mlockall`) would see the reservation.",
        "The google-benchmark library from Debian reports itself as a debug build "
        "(`library_build_type`); that concerns the harness's own bookkeeping, not the code "
        "measured, which is built in Release.",
    ]
    if args.mode == "quick":
        cav.insert(0, "**This is a `--quick` run**: 3 repetitions of at least "
                   f"{args.min_time} s each, scaling up to 10 MB. It is meant to check that "
                   "everything works; the committed numbers should come from a full run.")
    if missing:
        cav.append("**Not measured yet**: " + ", ".join(f"`{t}`" for t in missing) +
                   ": fastjson_bench has no benchmarks for these tasks yet.")
    if failed:
        cav.append("**Failed in this run**: " + ", ".join(f"`{t}`" for t in failed) +
                   ": the benchmark found a wrong result and stopped (see the task's section); "
                   "no speed is reported for a result that is wrong.")
    per_peer = {p: sorted({t for (t, l, _) in res.rows if peer_of(l) == p}) for p in ALL_PEERS}
    if any(per_peer.values()):
        cav.append("**Not every peer in every task.** `visit`, `query` and `ndjson` compare "
                   "cursor and streaming APIs (fastjson and simdjson On-Demand); `read_struct` "
                   "and `write_struct` need code written by hand per model (there for "
                   "simdjson, RapidJSON and cJSON; not for jansson, json-c or yajl); `minify`, "
                   "`parse_double`, `format_double` and `stage1` have no counterpart in the "
                   "DOM libraries. Tasks per peer in this run: " +
                   "; ".join(f"{p}: {', '.join(ts)}" for p, ts in per_peer.items() if ts) + ".")
    unmeasured = [p for p in ALL_PEERS if not per_peer[p]]
    if unmeasured:
        cav.append("**Peers without throughput benchmarks yet**: " +
                   ", ".join(unmeasured) + (" (they appear in the memory table)." if mem
                                            else "."))
    if not plt:
        cav.append("matplotlib was not available (Debian: `python3-matplotlib`): no charts.")
    md += [f"- {c}" for c in cav]
    md.append("")
    md.append("## Reproducing")
    md.append("")
    md.append("```sh")
    md.append("bench/run_all.sh           # full run (what this file should come from)")
    md.append("bench/run_all.sh --quick   # a few minutes: fewer, shorter repetitions")
    md.append("```")
    md.append("")
    md.append("It installs the missing Debian packages (toolchain, `libbenchmark-dev`, the "
              "peers, `python3-matplotlib`), builds `build-bench/` in Release with "
              "`-DFJ_BUILD_BENCH=ON`, runs `fastjson_bench` with `--benchmark_repetitions`, "
              "`--benchmark_report_aggregates_only` and random interleaving, the scaling "
              "documents and `fastjson-mem-peak`, fastjson's visit, query and parse_double "
              "from that build and a second one with `-march=native` (`build-bench-native/`) "
              "in turns, then "
              "`bench/report.py`, which writes this file "
              "and `bench/charts/*.png`. Raw results (google-benchmark JSON, memory JSON lines) "
              "stay in `build-bench/bench-results/`. A missing peer is left out with a message, "
              "not a build failure. One task or input: "
              "`build-bench/bench/fastjson_bench --benchmark_filter='^validate/.*/twitter'`.")
    md.append("")
    md.append("## What each benchmark measures")
    md.append("")
    md.append("The header comments of the benchmark sources, verbatim:")
    md.append("")
    md += source_definitions(args.root)
    with open(args.out, "w") as f:
        f.write("\n".join(md).rstrip() + "\n")
    print(f"report.py: wrote {args.out} and {len(glob.glob(os.path.join(args.charts, '*.png')))} "
          f"charts in {args.charts}", file=sys.stderr)


if __name__ == "__main__":
    main()
