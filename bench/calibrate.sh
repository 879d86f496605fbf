#!/bin/sh
# Calibrates the pressure model against ptxas over the shared corpus:
# runs `ptxpress pressure --json` (which runs ptxas -v on a fixed-up
# copy) on every file, then reports the Spearman rank correlation
# between the estimated peak and ptxas's registers, and which spilling
# kernels (bench/RESULTS-baseline.md) the model flags.
# usage: bench/calibrate.sh [PTXPRESS] [CORPUS]   (writes TSV to stdout
# and the summary to stderr)
set -u
here=$(cd "$(dirname "$0")" && pwd)
px=${1:-$here/../build/ptxpress}
corpus=${2:-$here/../../shared/corpus}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
find "$corpus" -name '*.ptx' | sort | while read -r f; do
	rel=${f#"$corpus"/}
	"$px" pressure --json --top 1 "$f" 2>/dev/null >"$tmp/j" || continue
	jq -r --arg file "$rel" '.kernels[] | select(.entry) |
	  [$file, .name, .peak, .floor, .cap, .launch_cap,
	   (if .spill_predicted then 1 else 0 end),
	   (.ptxas.registers // -1), (.ptxas.spill_stores // -1),
	   .predicates, .setmaxnreg, (.lint | length)] | @tsv' "$tmp/j"
done >"$tmp/all.tsv"
printf 'file\tkernel\tpeak\tfloor\tcap\tlaunch\tflag\tregs\t'
printf 'spill\tpreds\tsetmax\tlint\n'
cat "$tmp/all.tsv"
# the spilling kernels of the baseline, debug builds left out
sed -n '/^## Kernels that spill/,/^## /p' "$here/RESULTS-baseline.md" |
	grep '^| ' | grep -v '(debug)' | grep -v '^| file' |
	awk -F'|' '{gsub(/[ `]/, "", $2); gsub(/[ `]/, "", $3);
	  print $2 "\t" $3}' >"$tmp/spill.tsv"
python3 - "$tmp/all.tsv" "$tmp/spill.tsv" >&2 <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
spill = {tuple(l.rstrip("\n").split("\t")) for l in open(sys.argv[2])}
def rank(v):
    o = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(o):
        j = i
        while j + 1 < len(o) and v[o[j + 1]] == v[o[i]]:
            j += 1
        for k in range(i, j + 1):
            r[o[k]] = (i + j) / 2 + 1
        i = j + 1
    return r
def spearman(a, b):
    ra, rb = rank(a), rank(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** .5
    vb = sum((y - mb) ** 2 for y in rb) ** .5
    return cov / (va * vb) if va and vb else float("nan")
k = [r for r in rows if int(r[7]) > 0]
peak = [int(r[2]) for r in k]
regs = [int(r[7]) for r in k]
capped = [min(int(r[2]), int(r[4])) for r in k]
print("kernels with ptxas registers: %d" % len(k))
print("spearman(peak, regs)          = %.3f" % spearman(peak, regs))
print("spearman(min(peak,cap), regs) = %.3f" % spearman(capped, regs))
print("spearman(floor, regs)         = %.3f" %
      spearman([int(r[3]) for r in k], regs))
flag = {(r[0], r[1]): r for r in rows}
hit = miss = 0
for s in sorted(spill):
    r = flag.get(s)
    if r and r[6] == "1":
        hit += 1
    else:
        miss += 1
        print("MISSED spill: %s %s (peak %s cap %s)" %
              (s[0], s[1][:40], r[2] if r else "?", r[4] if r else "?"))
fp = [r for r in rows if r[6] == "1" and (r[0], r[1]) not in spill]
print("spilling kernels flagged: %d of %d" % (hit, hit + miss))
print("flagged without a spill: %d" % len(fp))
for r in fp:
    print("  %s %s peak %s cap %s regs %s" % (r[0], r[1][:40], r[2],
          r[4], r[7]))
lint = [r for r in rows if r[11] != "0"]
print("kernels with lint findings: %d" % len(lint))
for r in lint:
    print("  %s %s" % (r[0], r[1][:50]))
PY
