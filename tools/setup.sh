#!/bin/sh
# Installs what the build needs on a fresh Debian machine (flex, bison,
# cmake, a C compiler) when missing, then configures and builds.
# usage: tools/setup.sh [BUILD_DIR] [extra cmake args...]
set -eu
b=${1:-build}; [ $# -gt 0 ] && shift
need=""
for t in flex bison cmake cc; do command -v $t >/dev/null 2>&1 || need="$need $t"; done
if [ -n "$need" ]; then
	pk=$(echo "$need" | sed 's/\bcc\b/gcc/')
	echo "setup: installing$pk" >&2
	sudo= ; [ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pk >/dev/null
fi
cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$b" -j"$(nproc)"
