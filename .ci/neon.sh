#!/usr/bin/env bash
# Builds libfastjson for AArch64 with Debian's cross compiler and runs the
# test suite under qemu-aarch64 with the NEON stage-1 kernel selected.
# Installs what it needs from Debian: gcc-aarch64-linux-gnu, qemu-user, and
# libcmocka-dev:arm64 (multiarch). Usage: .ci/neon.sh [build-dir]; JOBS
# (default: the number of cores) is the number of parallel jobs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-neon}
jobs=${JOBS:-$(nproc)} # as .ci/run

export DEBIAN_FRONTEND=noninteractive
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  dpkg --add-architecture arm64
fi
missing=()
# libc6-dev-arm64-cross by name: the cross compiler only recommends it, and
# without it (--no-install-recommends, a fresh machine) nothing links (no crt1.o)
for p in gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user libcmocka-dev:arm64 cmake ninja-build; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$root/.ci/aarch64.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DFJ_WERROR=ON -DFJ_BUILD_BENCH=OFF
cmake --build "$build" -j"$jobs"

# The kernel list of the build must be neon, scalar.
qemu-aarch64 "$build/fastjson" --kernels || true

# Tests whose command is not a test program (a script that runs the
# aarch64 binaries itself) cannot go through the emulator: left out here.
# So is the plain run of a test that also has a .neon run: on AArch64 both
# select the NEON kernel, and the emulator makes every run count.
cd "$build"
twins=$(ctest -N | sed -n 's/^ *Test *#[0-9]*: \(.*\)\.neon$/\1/p' | paste -sd '|' -)
FASTJSON_KERNEL=neon ctest --output-on-failure -j"$jobs" \
  -E "^(cli|cli_colour|example_.*|install|amalgamation${twins:+|$twins})\$"
