# Sourced by defuse.sh and memorder.sh after they set $px: makes $tmp (a
# scratch folder removed on exit), kernel(), and judge(), which holds
# one swap to the validator, counting swaps in $n and wrong verdicts in
# $bad.
#   kernel TARGET BODY        a kernel around BODY whose registers hold
#                              known values (%rd5 a generic address of
#                              shared memory, %rd6 a shared one), %r8 and
#                              %r9 stored at its end
#   judge WANT TARGET LABEL   ($tmp/a.ptx the original, $tmp/b.ptx the
#                              swap; WANT OK: must be proven, anything
#                              else: must be refused)
# With ptxas on PATH, the original must also assemble for TARGET (the
# forms are real).
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
hasptxas=0
command -v ptxas >/dev/null 2>&1 && hasptxas=1
n=0 bad=0

kernel() {
	cat <<K
.version 8.7
.target $1
.address_size 64
.visible .entry k(.param .u64 p)
.reqntid 128, 1, 1
{
	.reg .pred %p<10>;
	.reg .b16 %rs<10>;
	.reg .b32 %r<10>;
	.reg .f32 %f<10>;
	.reg .b64 %rd<10>;
	.reg .b128 %rq<2>;
	.shared .align 16 .b8 sm[256];
	ld.param.u64 %rd1, [p];
	mov.u32 %r2, sm;
	mov.u32 %r3, 1;
	mov.u32 %r4, 2;
	mov.u32 %r5, 3;
	mov.u32 %r6, 4;
	mov.u32 %r8, 0;
	mov.u32 %r9, 6;
	mov.u64 %rd2, 7;
	mov.u64 %rd3, 8;
	mov.u64 %rd9, 9;
	cvta.shared.u64 %rd5, %rd2;
	mov.u64 %rd6, sm;
	mov.u16 %rs9, 1;
	mov.f32 %f1, 0f3F800000;
	mov.f32 %f2, 0f3F800000;
	mov.f32 %f9, 0f3F800000;
	setp.ne.s32 %p1, %r3, 0;
	setp.ne.s32 %p9, %r4, 0;
	ld.param.b64 %rq1, [p];
$2
	st.global.u32 [%rd1+64], %r8;
	st.global.u32 [%rd1+68], %r9;
	ret;
}
K
}

judge() {
	n=$((n + 1))
	if [ $hasptxas = 1 ] && ! ptxas -arch="$2" "$tmp/a.ptx" \
	    -o /dev/null 2>"$tmp/err"; then
		echo "FAIL (ptxas rejects it) $3: $(head -1 "$tmp/err")"
		bad=$((bad + 1))
		return
	fi
	"$px" validate "$tmp/a.ptx" "$tmp/b.ptx" >/dev/null 2>"$tmp/v"
	rc=$?
	if [ "$1" = OK ] && [ $rc -ne 0 ]; then
		echo "FAIL (a harmless swap refused) $3: $(tail -1 "$tmp/v")"
		bad=$((bad + 1))
	elif [ "$1" != OK ] && [ $rc -ne 1 ]; then
		echo "FAIL (proven, exit $rc) $3"
		bad=$((bad + 1))
	fi
}
