#!/bin/sh
# Quick start, command 1: build fastjson and run it on a real JSON document.
# Uses ../shared/data/corpus/twitter.json (or $FJ_DATA_DIR/corpus/...) when
# present, otherwise a sample document that the project generates.
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh gcc make cmake
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFJ_BUILD_TESTS=OFF >/dev/null
cmake --build build -j"${JOBS:-$(nproc)}" >/dev/null
doc=${FJ_DATA_DIR:-../shared/data}/corpus/twitter.json
if [ ! -f "$doc" ]; then
  echo "demo: $doc not found (set FJ_DATA_DIR to the folder holding corpus/);" \
    "using a generated sample document instead" >&2
  doc=build/sample.json
  ./build/fastjson-sample 20000 >"$doc"
fi
./build/fastjson validate "$doc" && echo "$doc: valid JSON"
./build/fastjson stats "$doc"
