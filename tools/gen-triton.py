#!/usr/bin/env python3
"""gen-triton.py: PTX of a Triton FMHA kernel in configurations the
corpus does not hold, compiled on this machine without a GPU, to see how
opt does on kernels it was not tuned on (bench/heldout.sh).  The kernel
is ../shared/triton/fa_kernel.py, read where it lies; the PTX is not
kept in corpus/ (that holds only PTX of our own sources).

Each configuration twice: as Triton's JIT specializes a launch whose
pointers and N_CTX are multiples of 16 (`al`: the usual case; the
corpus's probe_fa_* are such, byte for byte), and with no such
knowledge (`un`: a misaligned view, say), where Triton loads and stores
element by element through one address each.

usage: gen-triton.py [--fresh | --configs LIST] OUTDIR
(triton from PYTHONPATH)
--fresh: a second set (hf_ files), made after opt's tuning on the first
had ended (fourteenth session), so that a set exists that no change to
opt was measured on before it was made.
--configs D,M,N,W,S,DTYPE,full|causal,SM[;...]: these (hx_ files).
Writes OUTDIR/ho_d<D>_m<M>_n<N>_w<W>_s<S>_<dtype>_<full|causal>_<al|un>_<sm>.ptx
and beside each its launch description for `ptxpress verify` (.launch:
16 heads of 4096 rows, the shared memory Triton says it uses)."""
import os
import sys

# (head dim, BLOCK_M, BLOCK_N, warps, stages, dtype, causal, sm):
# each differs from the corpus's probe_fa_* (fp16, full, stages 2: d128
# n64 w4 and n128 w4, d256 n64 w4, d64 n64 w8) in one thing or more,
# but the one marked below
CONFIGS = [
    (128, 128, 64, 4, 2, "bf16", False, 90),
    (128, 128, 64, 4, 2, "fp16", True, 90),
    (128, 128, 64, 4, 2, "bf16", True, 90),
    (128, 128, 64, 4, 3, "fp16", False, 90),
    (128, 128, 32, 4, 2, "fp16", False, 90),
    (128, 64, 64, 4, 2, "fp16", False, 90),
    (128, 128, 64, 8, 2, "fp16", False, 90),
    (128, 128, 128, 8, 2, "bf16", False, 90),
    (64, 128, 128, 4, 2, "fp16", False, 90),
    (64, 64, 64, 4, 2, "bf16", True, 90),
    (256, 64, 64, 4, 2, "fp16", False, 90),
    (256, 128, 64, 8, 2, "bf16", False, 90),
    (128, 128, 64, 4, 2, "bf16", False, 100),
    (128, 128, 64, 4, 2, "fp16", True, 100),
    (64, 128, 128, 4, 2, "fp16", False, 100),
    (256, 128, 64, 8, 2, "fp16", False, 100),
    # the corpus's probe_fa_d128_m128_n128_w4_fp16_full_sm100a is this
    # one's un file (debug paths aside): the al one is what a launch
    # compiles (tenth session)
    (128, 128, 128, 4, 2, "fp16", False, 100),
    (128, 128, 128, 4, 2, "bf16", True, 100),
    (128, 128, 128, 4, 2, "fp16", False, 120),
    (64, 128, 64, 4, 2, "fp16", False, 120),
    (128, 128, 64, 4, 2, "bf16", True, 120),
    (128, 128, 64, 4, 2, "fp16", False, 80),
    (64, 128, 64, 4, 2, "bf16", False, 80),
]

# the second set (--fresh): none in the corpus or the first set
FRESH = [
    (64, 64, 64, 4, 3, "fp16", False, 90),
    (128, 64, 128, 4, 2, "bf16", False, 90),
    (128, 128, 128, 4, 2, "bf16", True, 90),
    (256, 64, 32, 4, 2, "bf16", True, 90),
    (64, 128, 64, 4, 3, "bf16", True, 90),
    (128, 128, 64, 8, 3, "bf16", True, 90),
    (128, 128, 64, 4, 3, "bf16", False, 100),
    (64, 128, 64, 4, 2, "bf16", True, 100),
    (128, 64, 64, 4, 2, "fp16", False, 100),
    (256, 128, 32, 8, 2, "bf16", True, 100),
    (128, 128, 32, 4, 2, "fp16", True, 120),
    (64, 64, 64, 4, 2, "bf16", False, 120),
    (256, 64, 64, 4, 2, "fp16", False, 120),
    (128, 128, 128, 8, 2, "fp16", True, 120),
    (128, 64, 64, 4, 2, "bf16", True, 80),
    (128, 128, 128, 8, 2, "fp16", False, 80),
    (256, 64, 64, 4, 2, "fp16", True, 80),
]


LAUNCH = """\
# gen-triton.py: attn_fwd, D %(d)d, BLOCK_M %(bm)d, %(w)d warps, causal
# %(causal)s; 16 heads of 4096 rows.  No reference line: the kernel's
# scale is the natural one times log2(e); ORIG and NEW are compared bit
# for bit.  The last two parameters are Triton's scratch pointers.
kernel attn_fwd
grid %(grid)d 16 1
block %(block)d 1 1
shared %(smem)d
buffer q %(ty)s 16x4096x%(d)d randn in
buffer k %(ty)s 16x4096x%(d)d randn in
buffer v %(ty)s 16x4096x%(d)d randn in
buffer o %(ty)s 16x4096x%(d)d nan out
scalar sm_scale f32 %(scale).10f
scalar n_ctx i32 4096
buffer scratch0 u8 256 zeros in
buffer scratch1 u8 256 zeros in
"""


def main():
    args = sys.argv[1:]
    fresh = args[:1] == ["--fresh"]
    args = args[1:] if fresh else args
    configs, prefix = (FRESH, "hf") if fresh else (CONFIGS, "ho")
    if args[:1] == ["--configs"] and len(args) == 3:
        configs, prefix = [], "hx"
        for c in args[1].split(";"):
            d, bm, bn, w, st, ty, kind, sm = c.split(",")
            configs.append((int(d), int(bm), int(bn), int(w), int(st), ty,
                            kind == "causal", int(sm)))
        args = args[2:]
    if len(args) != 1:
        sys.exit(__doc__)
    out = args[0]
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "..", "shared", "triton"))
    import triton
    from triton.backends.compiler import GPUTarget
    import fa_kernel
    os.makedirs(out, exist_ok=True)
    for (d, bm, bn, w, st, ty, causal, sm), al in (
            (c, a) for c in configs for a in (True, False)):
        ptr = "*" + ty
        sig = {"Q": ptr, "K": ptr, "V": ptr, "O": ptr, "sm_scale": "fp32",
               "N_CTX": "i32", "HEAD_DIM": "constexpr",
               "BLOCK_M": "constexpr", "BLOCK_N": "constexpr",
               "CAUSAL": "constexpr"}
        # the JIT's specialization: Q, K, V, O and N_CTX (parameters 0-3
        # and 5) divisible by 16
        attrs = {(i,): [["tt.divisibility", 16]] for i in (0, 1, 2, 3, 5)}
        src = triton.compiler.ASTSource(
            fn=fa_kernel.attn_fwd, signature=sig,
            constexprs={"HEAD_DIM": d, "BLOCK_M": bm, "BLOCK_N": bn,
                        "CAUSAL": causal}, attrs=attrs if al else None)
        k = triton.compile(src, target=GPUTarget("cuda", sm, 32),
                           options={"num_warps": w, "num_stages": st})
        name = "%s_d%d_m%d_n%d_w%d_s%d_%s_%s_%s_sm%d%s.ptx" % (
            prefix, d, bm, bn, w, st, ty, "causal" if causal else "full",
            "al" if al else "un", sm, "a" if sm >= 90 else "")
        with open(os.path.join(out, name), "w") as f:
            f.write(k.asm["ptx"])
        with open(os.path.join(out, name[:-4] + ".launch"), "w") as f:
            f.write(LAUNCH % dict(d=d, w=w, bm=bm, grid=4096 // bm,
                                  block=32 * w, smem=k.metadata.shared,
                                  ty="f16" if ty == "fp16" else ty,
                                  scale=d ** -0.5, causal=causal))
        print(name)


main()
