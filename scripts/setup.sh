#!/usr/bin/env bash
# The two set-up commands of the README, for a fresh Debian 12 machine.
#   scripts/setup.sh demo   install what is missing, build, run the main job
#   scripts/setup.sh test   install what is missing, build, run every test (plain and ASan+UBSan builds)
# Packages come from Debian (and, for `test`, ajv from npm); nothing is downloaded at build time.
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-}"
case "$mode" in demo|test) ;; *) echo "usage: scripts/setup.sh demo|test" >&2; exit 2;; esac

packages=(g++ cmake ninja-build pkg-config libluajit-5.1-dev luajit libyaml-cpp-dev libyaml-dev catch2
          libcli11-dev nlohmann-json3-dev libgmp-dev libbenchmark-dev
          chromium python3   # chromium renders `umpire draw` SVGs in a test, python3 reads its pixels
                             # (tests/cli/draw_svg_test.sh, tests/cli/svg_pixels.py: standard library only)
          libcpp-httplib-dev # `umpire serve`: the local web server (cpp-httplib, found by pkg-config)
          libseccomp-dev)    # the isolated script worker's system-call filter
# clang builds the libFuzzer harnesses of the test run (tests/libfuzzer/); GNU parallel runs the
# sharded `umpire sweep` test (tests/cli/sweep_shards_test.sh).
[ "$mode" = test ] && packages+=(clang parallel)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "== installing: ${missing[*]}"
  sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
fi

jobs=$(nproc)
configure() { # configure DIR [cmake options...]
  local dir="$1"; shift
  # A build folder copied or moved with the checkout remembers the old source path, and CMake
  # refuses it; nothing in it is worth keeping, so it is made again.
  local home
  home=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$dir/CMakeCache.txt" 2>/dev/null || true)
  if [ -n "$home" ] && [ "$(realpath -m "$home")" != "$(pwd -P)" ]; then
    echo "== $dir was configured for another copy of the checkout; configuring it again"
    rm -rf "$dir"
  fi
  cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
}
build() { # build DIR [cmake options...]
  configure "$@"
  cmake --build "$1" -j "$jobs"
}

if [ "$mode" = demo ]; then
  build build
  exec scripts/demo.sh build/cli/umpire
fi

# A real JSON Schema validator for the schema test (tests/cli/yaml_schemas_ajv_test.sh): ajv 8
# and js-yaml from npm, into .tools/node (git-ignored); only here, never at build time.
if ! command -v npm >/dev/null; then
  echo "== installing: nodejs npm"
  sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq nodejs npm
fi
# playwright-core drives Debian's chromium in the `umpire serve` browser test.
if [ ! -d .tools/node/node_modules/ajv ] || [ ! -d .tools/node/node_modules/js-yaml ] ||
   [ ! -d .tools/node/node_modules/playwright-core ]; then
  echo "== installing ajv@8 js-yaml@4 playwright-core into .tools/node (npm)"
  npm install --prefix .tools/node --no-audit --no-fund --silent ajv@8 js-yaml@4 playwright-core
fi
export UMPIRE_REQUIRE_TOOLS=1  # CI: the ajv test fails instead of skipping if the tools are missing

echo "== plain build"
build build
(cd build && ctest --output-on-failure -j "$jobs")
echo "== ruleset spec tests"
build/cli/umpire test
echo "== ruleset checks (schemas, loading, validate, specs)"
build/cli/umpire check
echo "== ASan + UBSan build"
build build-asan -DUMPIRE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j "$jobs")
echo "== libFuzzer harnesses (clang + ASan): dice, hex, YAML, Lua API, tail-call locator, worker frames, each 15 s on its corpus"
CC=clang CXX=clang++ configure build-fuzz -DUMPIRE_LIBFUZZER=ON -DUMPIRE_FUZZ_SECONDS=15
cmake --build build-fuzz -j "$jobs" --target dice_fuzzer hex_fuzzer yaml_fuzzer lua_api_fuzzer tail_call_fuzzer frames_fuzzer
(cd build-fuzz && ctest --output-on-failure -R libfuzzer)
