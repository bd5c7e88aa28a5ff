#!/bin/sh
# A/B timing of the cursor's visit walk (or of validation, -t validate): one
# git revision (A, default HEAD) against the working tree with its
# uncommitted changes (B), both built in Release with the distribution's
# default flags, linked into one program and timed in turns (ab.cpp). For changes of a few per cent, which two separate
# benchmark runs on a shared machine cannot tell from noise.
#
#   bench/ab/ab.sh [-r REV] [-n ROUNDS] [-t walk|validate] [FILE...]
#
# FILEs default to the corpus in $FJ_DATA_DIR/corpus (../shared/data by
# default). Builds go to build-ab/ (git-ignored build-* directory). Needs
# cmake, a C and a C++ compiler, git and binutils (ld -r, objcopy). -r HEAD
# against an unchanged tree (A/A) shows the noise floor.
set -eu
rev=HEAD
rounds=15
task=walk
while getopts r:n:t: opt; do
  case $opt in
  r) rev=$OPTARG ;;
  n) rounds=$OPTARG ;;
  t) task=$OPTARG ;;
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
build() {
  cmake -S "$1" -B "$out/$2" -DCMAKE_BUILD_TYPE=Release -DFJ_BUILD_TESTS=OFF -DFJ_BUILD_TOOLS=OFF \
    -DFJ_BUILD_BENCH=OFF >/dev/null
  cmake --build "$out/$2" --target fastjson_static -j "$(nproc)" >/dev/null
  # walk.hpp is this tree's (the walk must not differ between A and B)
  c++ -O3 -DNDEBUG -std=c++17 -Dfjbench="fjbench_$2" -I"$1/include" -I"$1/src" -I"$root/bench" \
    -c "$root/bench/ab/task.cpp" -o "$out/$2-task.o"
  ld -r -o "$out/$2-all.o" "$out/$2-task.o" --whole-archive "$out/$2/libfjson.a" --no-whole-archive
  objcopy --wildcard --localize-symbol='fj_*' --localize-symbol='fj__*' \
    --redefine-sym fjab_walk="fjab_walk_$2" --redefine-sym fjab_validate="fjab_validate_$2" \
    "$out/$2-all.o" "$out/$2.o"
}
build "$out/a-src" a
build "$root" b
git -C "$root" worktree remove --force "$out/a-src"
c++ -O2 -std=c++17 "$root/bench/ab/ab.cpp" "$out/a.o" "$out/b.o" -o "$out/ab"
echo "A: $rev ($(git -C "$root" rev-parse --short "$rev"))   B: working tree"
"$out/ab" "$task" "$rounds" "$@"
