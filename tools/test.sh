#!/bin/sh
# Builds (installing flex and bison if needed) and runs every test.
# usage: tools/test.sh [BUILD_DIR]
set -eu
cd "$(dirname "$0")/.."
b=${1:-build}
tools/setup.sh "$b"
cd "$b" && ctest --output-on-failure -j"$(nproc)"
