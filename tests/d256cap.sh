#!/bin/sh
# Writes to OUT our corpus/fmha_sm90a.ptx with its f16 d256_m64_n128
# kernel held to .maxnreg 192.  That kernel no longer spills once
# mma.sync may swap (0 bytes with remat,sched=bu); held to 192 registers
# it still does after any first round, which optrefine.sh and
# optpinloop.sh need: a kernel the refining round and pin=loop work on.
# usage: d256cap.sh TOPDIR OUT
set -u
awk -v k=fmha_fwd_f16_d256_m64_n128 '{ print }
	index($0, ".entry " k "(") { e = 1 }
	e && /^\.maxntid/ { print ".maxnreg 192"; e = 0 }' \
	"$1/corpus/fmha_sm90a.ptx" >"$2"
