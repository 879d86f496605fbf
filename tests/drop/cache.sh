#!/bin/sh
# The result cache: a miss then a hit, a key that changes with the
# pipeline and the ptxas arguments, a damaged entry read as a miss,
# and many jobs (plus a --clear) sharing one folder at once.
# usage: cache.sh BUILD_DIR
BIN=$1
. "$(dirname "$0")/lib.sh"
cd "$tmp"
stat_() { "$px" cache --stats | sed -n "s/^$1: //p"; }

# NUL-terminated inputs are rewritten (their NULs dropped), so their
# entries hold text, not just "same as the input"
for k in a b c d; do kernel k$k sm_90a >$k.ptx; printf '\000' >>$k.ptx; done
"$px" cache --clear >/dev/null
"$wrap" -arch sm_90a a.ptx -o a1.o && "$wrap" -arch sm_90a a.ptx -o a2.o
[ "$(stat_ misses)" = 1 ] && [ "$(stat_ hits)" = 1 ] &&
	[ "$(stat_ entries)" = 1 ] && ok "miss, then hit" ||
	fail "miss/hit: $("$px" cache --stats | tr '\n' ' ')"
cmp -s a1.o a2.o && ok "a hit gives the same cubin" || fail "hit cubin"

PTXPRESS_PIPELINE=other "$wrap" -arch sm_90a a.ptx -o a3.o
"$wrap" -arch sm_90a -O2 a.ptx -o a4.o
"$wrap" -arch sm_90a a.ptx -o elsewhere.o   # the output is not in the key
[ "$(stat_ entries)" = 3 ] && ok "pipeline and arguments are in the key" ||
	fail "key: $(stat_ entries) entries"

# a damaged entry is a miss, and is replaced
e=$(find cache/v1 -type f | head -1)
printf 'junk' >"$e"
"$wrap" -arch sm_90a a.ptx -o a5.o && [ -s a5.o ] &&
	ok "damaged entry survived" || fail "damaged entry"

# the cache may be read-only or missing: builds go on
PTXPRESS_CACHE_DIR=/proc/ptxpress-no "$wrap" -arch sm_90a a.ptx -o a6.o &&
	cmp -s a1.o a6.o && ok "unwritable cache folder" || fail "unwritable"
PTXPRESS_CACHE_DIR=off "$wrap" -arch sm_90a a.ptx -o a7.o &&
	ok "cache off" || fail "cache off"

# 32 jobs on 4 inputs at once, with a --clear in the middle
"$px" cache --clear >/dev/null
for k in a b c d; do
	tr -d '\000' <$k.ptx >$k.clean.ptx
	"$real" -arch sm_90a -o ref$k.o $k.clean.ptx
done
i=0
while [ $i -lt 32 ]; do
	for k in a b c d; do
		"$wrap" -arch sm_90a $k.ptx -o par$i$k.o 2>err$i$k &
	done
	[ $i = 12 ] && "$px" cache --clear >/dev/null &
	i=$((i + 4))
done
wait
bad=0
for f in par*.o; do k=$(echo "$f" | sed 's/.*\(.\)\.o$/\1/')
	cmp -s "$f" ref$k.o || bad=$((bad + 1)); done
[ "$bad" = 0 ] && [ "$(ls par*.o | wc -l)" = 32 ] && ! grep -q . err* &&
	ok "32 concurrent jobs, same cubins" || fail "concurrent: $bad differ"
[ -z "$(find cache -name '*.tmp.*')" ] && ok "no temporary files left" ||
	fail "temporary files left"
n=$(stat_ entries)
[ "$n" -le 4 ] && ok "at most one entry per input ($n)" || fail "$n entries"
"$px" cache --clear >/dev/null && [ "$(stat_ entries)" = 0 ] &&
	ok "--clear" || fail "--clear"
finish
