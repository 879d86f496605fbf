#!/bin/sh
# check's type rules held to ptxas (tools/typeprobe.py): 38,407 one-line
# instructions in fifteen sets (register types in every slot, instruction
# types, special registers, cvt and float rounding, operand counts,
# immediate addresses, .ftz/.sat, modifiers by opcode, vectors, wide
# vectors, setp's comparisons, packed types, constant expressions) and
# 5,000 random ones; any line check refuses that ptxas takes fails the
# test.  Lines ptxas refuses and check takes are misses: check may say
# less than ptxas, never more, but more than a quarter of any set missed
# (the rules at this writing miss at most 3.6 %, addresses; the binary of
# the forty-seventh session's start 75 %) fails too.  Then the linkage
# rules (tools/linkprobe.py: 643 modules of declarations and
# definitions), where any false error fails.
# usage: typeprobe.sh PTXPRESS TOPDIR
set -u
px=$1 top=$2
. "$top/tests/needptxas.sh"
command -v python3 >/dev/null 2>&1 || { echo "no python3; skipped"; exit 77; }
TYPEPROBE_MAXMISS=0.25 python3 "$top/tools/typeprobe.py" "$px" "$(command -v ptxas)" 1 || exit 1
python3 "$top/tools/linkprobe.py" "$px" "$(command -v ptxas)"
