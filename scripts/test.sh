#!/bin/sh
# Quick start, command 2: build everything warning-free and run the whole
# test suite (ctest). Tests read ../shared/data (or $FJ_DATA_DIR); the
# configuration stops with a message when it is missing.
set -eu
cd "$(dirname "$0")/.."
# libsimde-dev (optional): the avx512 kernel and string primitives are tested through SIMDe
# on CPUs without AVX-512
sh scripts/install-deps.sh gcc make cmake libcmocka-dev python3 pkg-config libsimde-dev
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFJ_WERROR=ON -DFJ_BUILD_TESTS=ON >/dev/null
cmake --build build -j"${JOBS:-$(nproc)}"
ctest --test-dir build --output-on-failure --no-tests=error -j"${JOBS:-$(nproc)}"
