#!/bin/sh
# pressure's "SASS peak" (src/sasspeak.c) with a stand-in nvdisasm:
# for every function of the cubin it prints the listing below in the
# form of `nvdisasm -c -plr -lrm narrow` (a register column each,
# ' ' dead, ':' live, '^' written, 'v' read), and nothing for the
# plain `-c` of the loop figures.  Six registers, a loop from 0010 to
# the branch at 0050; the most live (5) at the HMMA of 0030.  There R0
# was written before the loop (invariant), R1 and R2 in it before the
# peak (LDG, LDS), R3 only after it in the loop (its value comes
# round the back edge: carried FADD), R4 by the HMMA itself; R5 is
# dead.  A second loop after it holds a spill store (nvdisasm marks it
# SpillRefill) of R5, a copy of R3, which the first loop's FADD wrote:
# the spilled value is an invariant FADD's (the other STL, unmarked, is
# not a spill); that loop's own peak (3 live at its branch back) is
# shown too, since the function's peak is not in it.  Text and --json
# must say so, and --compare for both sides.
# Needs ptxas (77).
# usage: sasspeak.sh PTXPRESS TOPDIR
set -u
px=$1 top=$2
command -v ptxas >/dev/null 2>&1 || { echo "no ptxas; skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL $1"; shift; for f; do sed 's/^/  | /' "$f"; done; fail=1; }
cat >"$tmp/nvdisasm" <<'MOCK'
#!/bin/sh
[ "$2" = -plr ] || exit 0
for a; do cubin=$a; done
w='                                                            '
for f in $(grep -ao '\.text\.[A-Za-z0-9_]*' "$cubin" | sort -u); do
	printf '\t.section\t%s,"ax",@progbits\n' "$f"
	printf '%s// +--------+\n%s// |   # 012345  |\n%s// +--------+\n' "$w" "$w" "$w"
	r() { printf '        /*%s*/  %-42s// | %3s %s |\n' "$1" "$2" "$3" "$4"; }
	r 0000 'MOV R0, c[0x0][0x0] ;' 1 '^     '
	printf '.L_x_0:%s  // |\n' "${w%???????}"
	r 0010 'LDG.E R1, [R0] ;' 3 'v^  : '
	r 0020 'LDS R2, [R0] ;' 4 ':v^ : '
	r 0030 'HMMA.16816 R4, R2 ;' 5 '::v:^ '
	r 0040 'FADD R3, R4, R1 ;' 3 ':v ^v '
	r 0050 '@P0 BRA `(.L_x_0) ;' 2 ':  :  '
	printf '.L_x_1:\n'
	r 0060 'MOV R5, R3 ;' 2 '   v ^'
	r 0070 'STL [R1+0x4], R5  (*"SpillRefill"*) ;' 2 ' v   v'
	r 0080 'STL [R1+0x8], R0 ;' 2 'vv    '
	r 0090 '@P1 BRA `(.L_x_1) ;' 3 '::   :'
	r 00a0 'EXIT ;' 0 '      '
done
MOCK
chmod +x "$tmp/nvdisasm"
in=$top/tests/ana/live-basic.ptx
PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" pressure "$in" >"$tmp/text" 2>&1 || no "pressure" "$tmp/text"
want='  SASS peak (nvdisasm -plr): 5 registers live at /*0030*/ HMMA.16816 R4, R2, in the loop /*0010*/-/*0050*/: 1 HMMA, 1 LDG, 1 LDS, 1 carried FADD, 1 invariant MOV'
grep -qxF "$want" "$tmp/text" || no "text: want: $want" "$tmp/text"
want='    its spill stores save: 1 invariant FADD'
grep -qxF "$want" "$tmp/text" || no "text: want: $want" "$tmp/text"
want='    in the loop that spills most: 3 registers live at /*0090*/ BRA `(.L_x_1), in the loop /*0060*/-/*0090*/: 1 MOV, 1 invariant LDG, 1 invariant MOV'
grep -qxF "$want" "$tmp/text" || no "text: want: $want" "$tmp/text"
PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" pressure --json "$in" >"$tmp/json" 2>&1 || no "pressure --json" "$tmp/json"
want='"sass_peak": {"live": 5, "address": 48, "loop": [16, 80], "instruction": "HMMA.16816 R4, R2", "held": [{"what": "HMMA", "registers": 1}, {"what": "LDG", "registers": 1}, {"what": "LDS", "registers": 1}, {"what": "carried FADD", "registers": 1}, {"what": "invariant MOV", "registers": 1}], "spilled": [{"what": "invariant FADD", "registers": 1}], "near": {"live": 3, "address": 144, "loop": [96, 144], "instruction": "BRA `(.L_x_1)", "held": [{"what": "MOV", "registers": 1}, {"what": "invariant LDG", "registers": 1}, {"what": "invariant MOV", "registers": 1}], "spilled": [], "near": null}}'
grep -qF "$want" "$tmp/json" || no "json: want: $want" "$tmp/json"
# --compare: both peaks, and their classes row by row (the same file
# on both sides: every difference 0)
PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" pressure "$in" --compare "$in" >"$tmp/cmp" 2>&1 || no "pressure --compare" "$tmp/cmp"
grep -q "^    B: 5 registers live at /\*0030\*/ HMMA.16816 R4, R2, in the loop" "$tmp/cmp" || no "compare: no B peak" "$tmp/cmp"
grep -qE '^    carried FADD +1 +1 +\+0$' "$tmp/cmp" || no "compare: no class row" "$tmp/cmp"
PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" pressure "$in" --compare "$in" --json >"$tmp/cmpj" 2>&1 || no "pressure --compare --json" "$tmp/cmpj"
grep -qF '"sass_peak": {"a": {"live": 5,' "$tmp/cmpj" || no "compare --json: no sass_peak" "$tmp/cmpj"
# without an nvdisasm, no such line
PTXPRESS_NVDISASM=/nonexistent PATH=/usr/bin:/bin:$(dirname "$(command -v ptxas)") \
	"$px" pressure "$in" >"$tmp/none" 2>&1
grep -q 'SASS peak' "$tmp/none" && no "a peak without nvdisasm" "$tmp/none"
exit $fail
