#!/bin/sh
# Runs a fuzzer for a while: fuzzfront (the front end, the default) or,
# with -n fuzzopt, opt's passes with the validator as the oracle.
# Seeds: corpus/, the test files, findings/ (what a run found once,
# replayed by every run), and ../shared/corpus when it is there
# (read, never copied); with -s tests/opt too, whose small kernels reach
# every pass (the long runs; in CI only the front end's minute: the opt
# fuzzer still finds old disagreements on them, bench/RESULTS-trust.md).
# New inputs go to WORK/corpus; a crash leaves WORK/crash-* and exits
# non-zero.
# Without a built fuzzer (-e) it builds one with clang (-c) from the
# sources and the generated scanner and parser (-g); with neither it
# skips (exit 77).
# usage: run.sh [-s] [-n NAME] [-t SECONDS] [-j JOBS] [-e FUZZER]
#               [-c CLANG] [-g GEN] [-w WORK] [-- libFuzzer flags...]
set -u
t=60 j=1 exe="" cc="" gen="" work=${TMPDIR:-/tmp}/ptxfuzz name=fuzzfront opt=""
while getopts sn:t:j:e:c:g:w: o; do
	case $o in
	s) opt=tests/opt ;;
	n) name=$OPTARG ;;
	t) t=$OPTARG ;; j) j=$OPTARG ;; e) exe=$OPTARG ;; c) cc=$OPTARG ;;
	g) gen=$OPTARG ;; w) work=$OPTARG ;; *) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$work/corpus" || exit 2
if [ -z "$exe" ] || [ ! -x "$exe" ]; then
	if [ -z "$cc" ] || ! command -v "$cc" >/dev/null 2>&1; then
		echo "fuzz: no fuzzer and no clang; skipped"; exit 77
	fi
	if [ ! -f "$gen/ptx.tab.c" ] || [ ! -f "$gen/ptx.lex.c" ]; then
		echo "fuzz: no generated parser in '$gen'; skipped"; exit 77
	fi
	exe=$work/$name
	src=$(ls "$top"/src/*.c "$top"/passes/*.c 2>/dev/null |
		grep -v '/src/main\.c$')
	new=$(find "$top/src" "$top/passes" "$top/tools/fuzz" "$gen" \
		-newer "$exe" -name '*.[ch]' 2>/dev/null | head -1)
	if [ ! -x "$exe" ] || [ -n "$new" ]; then
		echo "fuzz: building $exe with $cc"
		# shellcheck disable=SC2086
		"$cc" -std=c11 -O1 -g -fsanitize=fuzzer,address,undefined \
			-fno-sanitize-recover=all -fno-omit-frame-pointer \
			-D_POSIX_C_SOURCE=200809L -DPTXPRESS_VERSION='"fuzz"' \
			-DPTXPRESS_DEBUG -I"$top/src" -I"$gen" -w \
			"$top/tools/fuzz/$name.c" $src "$gen/ptx.tab.c" \
			"$gen/ptx.lex.c" -lm -o "$exe" || exit 1
	fi
fi
seeds=""
for d in "$top/corpus" "$top/tests/front" "$top/tests/front/ok" \
	"$top/tests/fuzz" "$top/tests/malformed" "$top/tools/fuzz/findings" \
	${opt:+"$top/$opt"} \
	"$top/../shared/corpus"; do
	[ -d "$d" ] && seeds="$seeds $d"
done
fork=""
[ "$j" -gt 1 ] && fork="-fork=$j"
# Big seeds are cut to -max_len; a 4 MB file would make every run slow.
# shellcheck disable=SC2086
"$exe" -max_total_time="$t" $fork -error_exitcode=99 \
	-dict="$top/tools/fuzz/ptx.dict" -max_len=65536 -timeout=10 \
	-rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$work/" "$@" "$work/corpus" $seeds \
	>"$work/log" 2>&1
rc=$?
tail -20 "$work/log"
if [ $rc -ne 0 ]; then
	echo "fuzz: FAILED (exit $rc); artifacts:"
	ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* \
		2>/dev/null
	exit 1
fi
echo "fuzz: no findings in ${t}s"
