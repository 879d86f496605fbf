#!/bin/sh
# Speed and memory of the tool on the largest corpus files, on one core:
# parse + lossless emit ('ptxpress emit'), 'ptxpress check', 'pressure
# --no-ptxas' and 'opt --no-search -p sched=bu' (the rewrite and its
# proof, no ptxas).
# Each is run RUNS times; the median CPU time (user + sys) gives MB/s,
# /usr/bin/time -v the peak RSS.  ptxas (-O3 default) on the same file
# for its target, its .version lowered to what ptxas takes, gives the
# tool's share of an assembly.  Prints a Markdown table.
# usage: bench/speed.sh [PTXPRESS] [RUNS] [FILE...]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
px=${1:-$top/build/ptxpress}; [ $# -gt 0 ] && shift
runs=${1:-7}; [ $# -gt 0 ] && shift
c=$top/../shared/corpus
[ $# -gt 0 ] || set -- "$c/legacy/ocelot_thrust_Sort.ptx" \
	"$c/legacy/ocelot_thrust_histogram.ptx" \
	"$c"/nvcc-llvm/ptx-90-parser_matrix_free_*.ptx \
	"$c"/nvcc-llvm/cutlass_*.ptx "$c/cute-dsl/fa4_fwd_sm100a.ptx"
ptxas=${PTXPRESS_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
core=$(($(nproc) - 1))
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
med() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# Small files are run rep times per measurement (about 20 MB of input),
# /usr/bin/time having 10 ms resolution.
measure() { # cmd...: median CPU seconds per run, max RSS (KB)
	i=0
	while [ $i -lt "$runs" ]; do
		taskset -c "$core" /usr/bin/time -v sh -c \
			'n=$1; shift; while [ $n -gt 0 ]; do "$@" || exit 1
			n=$((n - 1)); done' sh "$rep" "$@" >/dev/null \
			2>"$tmp/t" || echo "failed: $*" >&2
		u=$(sed -n 's/.*User time (seconds): //p' "$tmp/t")
		s=$(sed -n 's/.*System time (seconds): //p' "$tmp/t")
		echo "$u $s $rep" | awk '{ print ($1 + $2) / $3 }' >>"$tmp/cpu"
		sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/t" \
			>>"$tmp/rss"
		i=$((i + 1))
	done
	cpu=$(med <"$tmp/cpu"); rss=$(sort -n "$tmp/rss" | tail -1)
	rm -f "$tmp/cpu" "$tmp/rss"
}
echo "| file | MB | emit s | emit MB/s | check s | check MB/s |" \
	"peak RSS MB | RSS/input | ptxas s | emit/ptxas |" \
	"pressure s | opt s | opt RSS MB | opt/ptxas |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for f in "$@"; do
	[ -f "$f" ] || continue
	b=$(wc -c <"$f")
	mb=$(echo "$b" | awk '{ printf "%.2f", $1 / 1e6 }')
	rep=$(( 20000000 / b + 1 ))
	measure "$px" emit "$f" -o -
	ecpu=$cpu erss=$rss
	measure "$px" check "$f"
	ccpu=$cpu crss=$rss
	[ "$crss" -gt "$erss" ] && erss=$crss
	rep=1   # these take long enough to time one at a time
	measure "$px" pressure --no-ptxas "$f"
	pcpu=$cpu
	measure "$px" opt --no-search -p sched=bu "$f" -o -
	ocpu=$cpu orss=$rss
	t=$(sed -n 's/^[[:space:]]*\.target[[:space:]]*\([a-z0-9_]*\).*/\1/p' \
		"$f" | head -1)
	pt="-" share="-" oshare="-"
	if [ -x "$ptxas" ] && "$px" emit --strip-nul --ptx-version auto "$f" \
		-o "$tmp/a.ptx" 2>/dev/null; then
		for a in "$t" sm_75; do
			/usr/bin/time -f "%U %S" -o "$tmp/pt" timeout 900 \
				taskset -c "$core" "$ptxas" -arch="$a" "$tmp/a.ptx" \
				-o "$tmp/a.cubin" >/dev/null 2>&1 || continue
			pt=$(awk '{ printf "%.2f", $1 + $2 }' "$tmp/pt")
			[ "$a" = "$t" ] || pt="$pt ($a)"
			share=$(echo "$ecpu ${pt%% *}" |
				awk '{ printf "%.2f%%", 100 * $1 / $2 }')
			oshare=$(echo "$ocpu ${pt%% *}" |
				awk '{ printf "%.2f%%", 100 * $1 / $2 }')
			break
		done
	fi
	echo "$b $ecpu $ccpu $erss $pcpu $ocpu $orss" | awk \
		-v f="$(echo "$f" | sed 's|.*/corpus/||')" -v mb="$mb" \
		-v pt="$pt" -v sh="$share" -v osh="$oshare" '{
		em = $2 > 0 ? sprintf("%.0f", $1 / 1e6 / $2) : "inf"
		cm = $3 > 0 ? sprintf("%.0f", $1 / 1e6 / $3) : "inf"
		printf "| %s | %s | %.4f | %s | %.4f | %s | %.1f | %.1f | %s | %s | %.3f | %.3f | %.1f | %s |\n",
			f, mb, $2, em, $3, cm, $4 / 1024, $4 * 1024 / $1, pt, sh,
			$5, $6, $7 / 1024, osh }'
done
