#!/bin/sh
# Regenerates BENCHMARKS.md and bench/charts/*.png: builds fastjson_bench and
# fastjson-mem-peak in Release (the distribution's default flags: no
# -march=native), runs the TASK/LIBRARY/INPUT matrix over the corpus with
# repetitions, fastjson's visit, query and parse_double from the default
# build and from a second one with -march=native (BUILD-native) in turns,
# the scaling documents (1 KB .. 100 MB), the peak-memory program, the codec
# compile cost
# (bench/codec_compile_cost.py), then bench/report.py.
#
#   bench/run_all.sh            full run: 10 repetitions, all scaling sizes
#                               (roughly half an hour on 2 cores)
#   bench/run_all.sh --quick    3 short repetitions, scaling up to 10 MB
#                               (a few minutes on 2 cores)
#
# Options: --quick, --no-install (do not apt-get missing packages),
# --build DIR (default build-bench), --out FILE (default BENCHMARKS.md).
# Environment: FJ_DATA_DIR (the folder holding corpus/; default ../shared/data
# next to the repository), FJ_BENCH_FILTER (a google-benchmark regex that
# restricts the matrix, e.g. '^validate/'), CC, CXX, CFLAGS, CXXFLAGS.
# Raw results (google-benchmark JSON, memory JSON lines, logs) stay in
# BUILD/bench-results/.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
mode=full
install=1
build="$root/build-bench"
out="$root/BENCHMARKS.md"
while [ $# -gt 0 ]; do
  case "$1" in
  --quick) mode=quick ;;
  --no-install) install=0 ;;
  --build) build=$2; shift ;;
  --out) out=$2; shift ;;
  -h | --help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "run_all.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac

start=$(date +%s)
say() { printf '\n== %s (%ss)\n' "$*" "$(($(date +%s) - start))" >&2; }

if [ "$mode" = quick ]; then
  reps=3
  min_time=0.05
  sizes="1000:1KB 10000:10KB 100000:100KB 1000000:1MB 10000000:10MB"
else
  reps=10
  min_time=0.25
  sizes="1000:1KB 10000:10KB 100000:100KB 1000000:1MB 10000000:10MB 100000000:100MB"
fi

# ---- packages: the toolchain, google-benchmark, the peers, matplotlib ---------
if [ "$install" = 1 ]; then
  say "Debian packages"
  if ! sh "$root/scripts/install-deps.sh" cmake g++ libbenchmark-dev libsimdjson-dev \
    rapidjson-dev libcjson-dev libyajl-dev libjansson-dev libjson-c-dev python3 \
    python3-matplotlib; then
    echo "run_all.sh: could not install every package; missing peers are skipped" >&2
  fi
fi

# ---- build ------------------------------------------------------------------------
data="${FJ_DATA_DIR:-$root/../shared/data}"
if [ ! -d "$data/corpus" ]; then
  echo "run_all.sh: no corpus at $data/corpus (set FJ_DATA_DIR to the folder holding corpus/)" >&2
  exit 1
fi
data=$(cd "$data" && pwd)
say "configure and build (Release, $build)"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DFJ_BUILD_BENCH=ON \
  -DFJ_BUILD_TESTS=OFF -DFJ_BUILD_TOOLS=ON -DFJ_DATA_DIR="$data" >"$build.configure.log" 2>&1 || {
  cat "$build.configure.log" >&2
  exit 1
}
grep 'bench:' "$build.configure.log" >&2 || true
jobs=$(nproc 2>/dev/null || echo 2)
cmake --build "$build" -j "$jobs" --target fastjson_bench fastjson_mem_peak fastjson_cli \
  fastjson_sample >"$build.build.log" 2>&1 || {
  tail -40 "$build.build.log" >&2
  echo "run_all.sh: build failed (log: $build.build.log)" >&2
  exit 1
}
mv "$build.configure.log" "$build.build.log" "$build/" 2>/dev/null || true

res="$build/bench-results"
rm -rf "$res"
mkdir -p "$res/scaling"
bench="$build/bench/fastjson_bench"
mem="$build/bench/fastjson-mem-peak"
export FJ_DATA_DIR="$data"

# ---- scaling documents: fastjson-sample N, N chosen for each target size -----------
say "scaling documents"
one=$("$build/fastjson-sample" 1 | wc -c)
many=$("$build/fastjson-sample" 1001 | wc -c)
per=$(((many - one) / 1000))
for s in $sizes; do
  target=${s%%:*}
  name=${s#*:}
  n=$(((target - (one - per) + per / 2) / per))
  [ "$n" -ge 1 ] || n=1
  "$build/fastjson-sample" "$n" >"$res/scaling/$name.json"
done
ls -l "$res/scaling" >&2

# ---- the matrix -------------------------------------------------------------------------
common="--benchmark_format=json --benchmark_repetitions=$reps
  --benchmark_report_aggregates_only=true --benchmark_min_time=$min_time
  --benchmark_enable_random_interleaving=true"
say "matrix: $reps repetitions, min time ${min_time}s each"
# One run per task, so that a task whose self-check fails (a benchmark that
# reads a wrong result stops the program instead of reporting a speed) loses
# only its own results: the report lists it as failed, with the message.
tasks=$(env -u FJ_SCALING_DIR "$bench" --benchmark_list_tests \
  --benchmark_filter="${FJ_BENCH_FILTER:-.}" 2>/dev/null | cut -d/ -f1 | sort -u)
: >"$res/failures.txt"
for task in $tasks; do
  printf '  %s\n' "$task" >&2
  filter="^$task/"
  if [ -n "${FJ_BENCH_FILTER:-}" ]; then # the task's names that match, spelled out
    # shellcheck disable=SC2016
    filter="^($("$bench" --benchmark_list_tests --benchmark_filter="$FJ_BENCH_FILTER" |
      grep "^$task/" | sed 's/[].[\*^$()+?{}|]/\\&/g' | paste -sd'|'))\$"
  fi
  # shellcheck disable=SC2086
  if ! env -u FJ_SCALING_DIR "$bench" $common --benchmark_filter="$filter" \
    --benchmark_out="$res/matrix-$task.json" --benchmark_out_format=json \
    >/dev/null 2>"$res/matrix-$task.log"; then
    msg=$(grep -v '^\*\*\*' "$res/matrix-$task.log" | grep . | tail -1)
    printf '%s\t%s\n' "$task" "$msg" >>"$res/failures.txt"
    printf '  %s FAILED: %s\n' "$task" "$msg" >&2
    rm -f "$res/matrix-$task.json"
  fi
done

# ---- dispatch: the stage-2 tasks again from a -march=native build ------------------------
# Issue 4: string unescaping, key matching and number parsing follow the
# run-time kernel, so the distribution-flags build should match one built for
# this CPU. Only fastjson's rows of visit, query and parse_double; skipped
# when FJ_BENCH_FILTER narrows the run. The two builds take turns, one
# repetition each per round ($reps rounds): run one after the other, the
# comparison measured the machine's load as much as the flags (on a shared
# host the same binary ran 10-30 % apart from one minute to the next).
if [ -z "${FJ_BENCH_FILTER:-}" ]; then
  say "dispatch: visit, query, parse_double, default and -march=native builds in turns"
  nbuild="$build-native"
  if cmake -S "$root" -B "$nbuild" -DCMAKE_BUILD_TYPE=Release -DFJ_BUILD_BENCH=ON \
    -DFJ_BUILD_TESTS=OFF -DFJ_DATA_DIR="$data" -DCMAKE_C_FLAGS="${CFLAGS:-} -march=native" \
    -DCMAKE_CXX_FLAGS="${CXXFLAGS:-} -march=native" >"$res/native-build.log" 2>&1 &&
    cmake --build "$nbuild" -j "$jobs" --target fastjson_bench >>"$res/native-build.log" 2>&1; then
    rm -f "$res"/dispatch-*.json
    round=1
    while [ "$round" -le "$reps" ]; do
      for side in default native; do
        bin="$bench"
        [ "$side" = native ] && bin="$nbuild/bench/fastjson_bench"
        env -u FJ_SCALING_DIR "$bin" --benchmark_format=json --benchmark_repetitions=1 \
          --benchmark_min_time="$min_time" \
          --benchmark_filter='^(visit|query|parse_double)/fastjson/' \
          --benchmark_out="$res/dispatch-$side-$round.json" --benchmark_out_format=json \
          >/dev/null 2>>"$res/dispatch.log" || rm -f "$res/dispatch-$side-$round.json"
      done
      round=$((round + 1))
    done
  else
    echo "run_all.sh: the -march=native build failed (log: $res/native-build.log)" >&2
  fi
fi

say "scaling: validate on $(echo "$sizes" | wc -w) sizes"
# shellcheck disable=SC2086
FJ_SCALING_DIR="$res/scaling" "$bench" $common --benchmark_filter='^scaling/' \
  --benchmark_out="$res/scaling.json" --benchmark_out_format=json \
  >/dev/null 2>"$res/scaling.log" || {
  tail -20 "$res/scaling.log" >&2
  echo "run_all.sh: scaling benchmarks failed (log: $res/scaling.log)" >&2
  exit 1
}

# ---- peak memory: one fresh process per library and file --------------------------------
say "peak memory"
: >"$res/memory.jsonl"
for f in "$data"/corpus/*.json "$res"/scaling/*.json; do
  for lib in $("$mem" --list); do
    "$mem" "$lib" "$f" >>"$res/memory.jsonl" 2>>"$res/memory.log" ||
      printf '{"library":"%s","file":"%s","error":true}\n' "$lib" "${f##*/}" >>"$res/memory.jsonl"
  done
done
"$mem" --info >"$res/info.json"

# ---- compile cost of generated codecs (N record types and N/4 unions) -------------------
say "codec compile cost"
python3 "$root/bench/codec_compile_cost.py" "$build/fastjson-gen" "${CC:-cc}" -O2 \
  >"$res/compile_cost.txt" 2>"$res/compile_cost.log" || {
  tail -5 "$res/compile_cost.log" >&2
  rm -f "$res/compile_cost.txt"
}

# ---- the report --------------------------------------------------------------------------
say "report"
elapsed=$(($(date +%s) - start))
# Debian's python3-matplotlib serves /usr/bin/python3, which a python3 earlier
# in PATH (pyenv, a virtualenv) may not see
py=python3
if ! python3 -c 'import matplotlib' 2>/dev/null && /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  py=/usr/bin/python3
fi
"$py" "$root/bench/report.py" --results "$res" --build "$build" --root "$root" \
  --out "$out" --charts "$root/bench/charts" --mode "$mode" --repetitions "$reps" \
  --min-time "$min_time" --elapsed "$elapsed"
say "done: $out, $root/bench/charts/ (raw results: $res)"
