#!/bin/sh
# Determinism of opt: the same input, options and seed give the same
# bytes whatever -j, and on every run.  A kernel for sm_90a (ptxas 13.0
# is not deterministic on some sm_100a inputs, see README).
# usage: optdet.sh PTXPRESS FILE KERNEL     exit 77 without ptxas
set -u
px=$1 f=$2 k=$3
ptxas=${PTXPRESS_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
[ -x "$ptxas" ] || { echo "optdet: no ptxas; skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for j in 1 2 2; do
	"$px" opt "$f" --kernel "$k" --tries 6 --seed 3 -j $j \
		-o "$tmp/o$j.$$.$(date +%N).ptx" 2>/dev/null || { echo "FAIL opt -j $j"; exit 1; }
done
n=$(ls "$tmp" | wc -l)
first=$(ls "$tmp" | head -1)
bad=0
for o in "$tmp"/*; do cmp -s "$tmp/$first" "$o" || bad=$((bad + 1)); done
echo "optdet: $n runs (-j 1, 2, 2), $bad differ from the first"
echo "$((n - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
