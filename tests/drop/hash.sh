#!/bin/sh
# The cache's SHA-256 against sha256sum, on lengths around the 55, 56
# and 64-byte padding edges and on something large.
# usage: hash.sh HASHTEST
set -u
command -v sha256sum >/dev/null || { echo "skip: no sha256sum"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
for n in 0 1 3 55 56 57 63 64 65 119 120 128 1000 100000; do
	head -c $n /dev/urandom >f$n
done
"$1" f* >got && sha256sum f* >want && cmp got want && echo ok
