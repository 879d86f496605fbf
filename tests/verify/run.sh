#!/bin/sh
# run.sh: run one tests/verify/*.launch test.
#
#   run.sh PTXVERIFY MOCKLIB TOPDIR TEST.launch
#
# A test is a launch description whose comments say what to do:
#   # RUN: ARGS      ptxverify's arguments (default: --check %s); %s is
#                    the test file, %ptx corpus/fmha_sm90a.ptx
#   # ENV: VAR=VAL   environment for the run (more than one allowed)
#   # EXIT: N        expected exit status (default 0)
#   # EXPECT: TEXT   TEXT must occur in stdout+stderr (any number)
#   # ROUNDTRIP      --check output read back must print the same
# The mock driver (mockcuda.c) stands in for libcuda unless the test
# sets PTXPRESS_LIBCUDA itself.
set -u
bin=$1 mock=$2 top=$3 t=$4
out=$(mktemp) || exit 1
trap 'rm -f "$out" "$out.2" "$out.3"' EXIT

field() { sed -n "s/^# $1: //p" "$t"; }
args=$(field RUN)
[ -n "$args" ] || args='--check %s'
ptx=$top/corpus/fmha_sm90a.ptx
args=$(printf '%s\n' "$args" | sed "s|%ptx|$ptx|g; s|%s|$t|g")
want=$(field EXIT)
[ -n "$want" ] || want=0

# shellcheck disable=SC2046,SC2086
env PTXPRESS_LIBCUDA="$mock" $(field ENV) "$bin" $args >"$out" 2>&1
got=$?
fail=0
if [ "$got" != "$want" ]; then
	echo "FAIL: exit $got, expected $want"
	fail=1
fi
field EXPECT >"$out.2"
while IFS= read -r line; do
	if ! grep -qF -- "$line" "$out"; then
		echo "FAIL: output lacks: $line"
		fail=1
	fi
done <"$out.2"
if grep -q '^# ROUNDTRIP' "$t"; then
	"$bin" --check "$out" >"$out.3" 2>&1
	if ! cmp -s "$out" "$out.3"; then
		echo "FAIL: --check output does not read back the same"
		diff "$out" "$out.3"
		fail=1
	fi
fi
if [ $fail != 0 ]; then
	echo "--- output of: $bin $args"
	cat "$out"
fi
exit $fail
