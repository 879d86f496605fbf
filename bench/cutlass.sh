#!/bin/sh
# opt over CUTLASS's own C++ FMHA kernels (tools/gen-cutlass.sh: the
# Blackwell forward of example 77 for sm_100a, the Hopper FMHA of
# example 88 for sm_90a; with PTXPRESS_CUTLASS_MORE=1 example 77's
# backward, decode and MLA kernels too, held out from pin=base, which
# was built on the Blackwell forward): per file, opt's report (--report json) is kept in OUT/NAME.json
# and summed up: kernels, those that spill, their spill bytes (stores
# plus loads, ptxas -v on the file's target) before and after, how
# many reach zero; then one line per spilling kernel, labelled from its
# mangled name (its place among the file's cutlass kernels, the kernel
# or mainloop class, mask, tile scheduler, fixed or variable length, the
# first two numbers of its tile shape: a rough label, back-references of
# the mangling left undecoded).
# $OPTARGS: more options for opt (--tries 8, say).
# usage: bench/cutlass.sh [BUILD_DIR] [OUT] > table.md
set -u
b=${1:-build} out=${2:-/tmp/ptxpress-cutlass}
top=$(cd "$(dirname "$0")/.." && pwd)
px=$b/ptxpress
mkdir -p "$out" || exit 1
sh "$top/tools/gen-cutlass.sh" "$out" >&2 || exit $?
# PTXPRESS_CUTLASS_MORE=1: example 77's other kernels too (gen-cutlass.sh)
more=
[ "${PTXPRESS_CUTLASS_MORE:-0}" = 1 ] && more="fmha77bwd fmha77gen mla77fwd mla77"
for n in fmha77 fmha88 $more; do
	case $n in fmha88) f=$out/${n}_fp16_sm90a.ptx ;; *) f=$out/${n}_fp16_sm100a.ptx ;; esac
	n=$(basename "$f" .ptx)
	s=$(date +%s)
	# shellcheck disable=SC2086
	"$px" opt "$f" -o "$out/$n.opt.ptx" --report json ${OPTARGS:-} \
		2>"$out/$n.json" >&2 || { echo "opt failed on $f" >&2; exit 1; }
	echo "### $n ($(($(date +%s) - s)) s)"
	echo
	python3 - "$out/$n.json" <<'EOF'
import json, re, sys
t = open(sys.argv[1]).read()
j = json.JSONDecoder().raw_decode(t[t.index('{'):])[0]

def label(name):
    k = (re.search(r'\d([A-Z][A-Za-z0-9]*?Mainloop)', name)
         or re.search(r'kernel\d+([A-Za-z0-9]+?)I', name))
    m = (re.search(r'(NoMask|ResidualMask|CausalMaskILb([01])E)', name)
         or re.search(r'\d([A-Z][a-z]+Fusion)()E', name))
    sc = re.search(r'(Individual|Persistent)TileScheduler', name)
    mask = m.group(1) if m else '-'
    if m and m.group(2):
        mask = 'Causal<%s>' % ('true' if m.group(2) == '1' else 'false')
    hd = re.findall(r'C?ILi(\d+)EE', name)
    return ' '.join(x for x in [k.group(1) if k else name[:40], mask,
        sc.group(1) if sc else '', 'varlen' if 'VariableLength' in name
        else 'fixed', 'tile ' + 'x'.join(hd[:2]) if hd else ''] if x)

rows, n, sp, ti, to, z = [], 0, 0, 0, 0, 0
for k in j['kernels']:
    if not k['name'].startswith('_ZN7cutlass'):
        continue
    b, a = k['before'], k['after']
    n += 1
    if b['spill_bytes'] == 0:
        continue
    sp += 1; ti += b['spill_bytes']; to += a['spill_bytes']
    z += a['spill_bytes'] == 0
    rows.append('| %d | %s | %d -> %d | %d -> %d | %d -> %d | %s |' % (
        n, label(k['name']), b['registers'], a['registers'],
        b['spill_bytes'], a['spill_bytes'], b['stack'], a['stack'],
        k['pipeline']))
print('%d cutlass kernels, %d spill: %d -> %d bytes, %d at zero '
      '(%d variants assembled)' % (n, sp, ti, to, z, j['variants']))
print()
print('| # | kernel | regs | spill B | stack B | pipeline |')
print('|--:|---|--:|--:|--:|---|')
print('\n'.join(rows))
print()
EOF
done
