#!/bin/sh
# What a stand-in nvdisasm prints (tests/optguard.sh, optpinloop.sh):
# for each function of CUBIN (its .text.NAME sections), N instructions
# in one loop, the first L of them local memory (STL), closed by a
# branch back to the loop's label, then O local-memory loads (LDL)
# after the loop (default 0).  With E (default 0), the loop starts
# with E global loads each stored to local memory right after (E of
# the L stores: loads spilled in flight).
# usage: mocksass.sh N L CUBIN [O [E]]
n=$1 l=$2 o=${4:-0} e=${5:-0}
for f in $(grep -ao '\.text\.[A-Za-z0-9_]*' "$3" | sort -u); do
	printf '\t.section\t%s,"ax",@progbits\n.L_x_0:\n' "$f"
	i=0 s=0
	while [ $i -lt "$n" ]; do
		if [ $i -lt $((2 * e)) ] && [ $((i % 2)) -eq 0 ]; then
			op="LDG.E R$((10 + i / 2)), desc[UR4][R2.64]"
		elif [ $i -lt $((2 * e)) ]; then
			op="STL [R1], R$((10 + i / 2))" s=$((s + 1))
		elif [ $s -lt "$l" ]; then
			op="STL [R1], R0" s=$((s + 1))
		else
			op="FADD R0, R0, R0"
		fi
		printf '        /*%04x*/                   %s ;\n' $((i * 16)) "$op"
		i=$((i + 1))
	done
	printf '        /*%04x*/              @P0 BRA `(.L_x_0) ;\n' $((n * 16))
	i=0
	while [ $i -lt "$o" ]; do
		printf '        /*%04x*/                   LDL R0, [R1] ;\n' $(((n + 1 + i) * 16))
		i=$((i + 1))
	done
done
