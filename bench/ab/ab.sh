#!/bin/sh
# A/B timing of the cursor's visit walk (or of validation, -t validate): one
# git revision (A, default HEAD) against the working tree with its
# uncommitted changes (B), both built in Release with the distribution's
# default flags, linked into one program and timed in turns (ab.cpp). For changes of a few per cent, which two separate
# benchmark runs on a shared machine cannot tell from noise.
#
#   bench/ab/ab.sh [-r REV] [-n ROUNDS] [-t walk|validate] [-l] [FILE...]
#
# -l: the comparison under several code layouts, and the geometric mean of
# B/A over them per file. The inline fast paths are compiled into the
# caller's function, where the placement of its blocks against the 64-byte
# fetch windows moves fastjson's time on a file by up to +-4 % (8 bytes of
# padding in one inline function: 25-30 % on a synthetic array of empty
# arrays) while simdjson's stays put. One layout's B/A then mixes the change
# with a new placement; the mean over layouts is what a user can expect.
# The layouts: the walk (task.cpp, both builds alike) compiled with default
# alignment and with GCC's -falign-jumps, -falign-loops, -falign-labels and
# -falign-functions options, which move its blocks.
#
# FILEs default to the corpus in $FJ_DATA_DIR/corpus (../shared/data by
# default). Builds go to build-ab/ (git-ignored build-* directory). Needs
# cmake, a C and a C++ compiler, git and binutils (ld -r, objcopy). -r HEAD
# against an unchanged tree (A/A) shows the noise floor.
set -eu
rev=HEAD
rounds=15
task=walk
layouts=0
while getopts r:n:t:l opt; do
  case $opt in
  r) rev=$OPTARG ;;
  n) rounds=$OPTARG ;;
  t) task=$OPTARG ;;
  l) layouts=1 ;;
  *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
out=$root/build-ab
data=${FJ_DATA_DIR:-$root/../shared/data}
[ $# -gt 0 ] || set -- "$data"/corpus/*.json
mkdir -p "$out"
rm -rf "$out/a-src"
git -C "$root" worktree prune
git -C "$root" worktree add --detach -f "$out/a-src" "$rev" >/dev/null

# build TREE NAME: the tree's library and task.cpp against the tree's headers
# as one object, $out/NAME.o, whose library symbols (all fj_*, fj__*) are
# local and whose entry points are fjab_walk_NAME and fjab_validate_NAME:
# two builds of the same library in one program. (Local library symbols,
# not only two global ones: the C++ runtime's shared template code must stay
# global for the linker to keep one copy.)
# FLAGS: extra compiler options for task.cpp (a layout, for -l).
build() {
  flags=${3:-}
  cmake -S "$1" -B "$out/$2" -DCMAKE_BUILD_TYPE=Release -DFJ_BUILD_TESTS=OFF -DFJ_BUILD_TOOLS=OFF \
    -DFJ_BUILD_BENCH=OFF >/dev/null
  cmake --build "$out/$2" --target fastjson_static -j "$(nproc)" >/dev/null
  # walk.hpp is this tree's (the walk must not differ between A and B)
  # shellcheck disable=SC2086 # FLAGS is a list of options
  c++ -O3 -DNDEBUG -std=c++17 $flags -Dfjbench="fjbench_$2" -I"$1/include" -I"$1/src" -I"$root/bench" \
    -c "$root/bench/ab/task.cpp" -o "$out/$2-task.o"
  ld -r -o "$out/$2-all.o" "$out/$2-task.o" --whole-archive "$out/$2/libfjson.a" --no-whole-archive
  objcopy --wildcard --localize-symbol='fj_*' --localize-symbol='fj__*' \
    --redefine-sym fjab_walk="fjab_walk_$2" --redefine-sym fjab_validate="fjab_validate_$2" \
    "$out/$2-all.o" "$out/$2.o"
}
# run FLAGS: both builds with the walk compiled with FLAGS, timed
run() {
  build "$out/a-src" a "$1"
  build "$root" b "$1"
  shift
  c++ -O2 -std=c++17 "$root/bench/ab/ab.cpp" "$out/a.o" "$out/b.o" -o "$out/ab"
  "$out/ab" "$task" "$rounds" "$@"
}
echo "A: $rev ($(git -C "$root" rev-parse --short "$rev"))   B: working tree"
if [ "$layouts" = 0 ]; then
  run "" "$@"
else
  : >"$out/layouts.txt"
  for flags in "" -falign-jumps=1 -falign-jumps=32 -falign-loops=32 -falign-labels=8 \
    -falign-functions=64; do
    echo "layout: ${flags:-default}" >&2
    run "$flags" "$@" >"$out/layout.txt" # not in a pipe: a failure stops the script
    cat "$out/layout.txt" >&2
    awk 'NR > 1 { print $1, $4 }' "$out/layout.txt" >>"$out/layouts.txt"
  done
  awk '{ n[$1]++; s[$1] += log($2); if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
    END { printf "%-24s %7s  (geometric mean of B/A over %d layouts)\n", "file", "B/A", n[order[1]]
          for (i = 1; i <= k; i++) printf "%-24s %7.3f\n", order[i], exp(s[order[i]] / n[order[i]]) }' \
    "$out/layouts.txt"
fi
git -C "$root" worktree remove --force "$out/a-src"
