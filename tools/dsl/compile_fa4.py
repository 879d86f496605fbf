#!/usr/bin/env python3
"""compile_fa4.py -- compile FlashAttention-4's SM100 kernels to PTX
without a GPU, through the CuTe DSL installed in the running Python.

Run it with a venv's python (tools/dsl/mkenv.sh makes one):

    build/dsl/venv-4.5.1-.../bin/python tools/dsl/compile_fa4.py \
        --out build/dsl/ptx/4.5.1 [--case fwd-hd128] ...

Each case runs in a child process of its own with
CUTE_DSL_ARCH=sm_100a CUTE_DSL_KEEP=ptx CUTE_DSL_DUMP_DIR=OUT/CASE, so the
DSL's per-process caches and its once-read environment never leak from one
case to the next.  The PTX lands in OUT/CASE/*.ptx, named by the DSL; a
manifest OUT/cases.tsv lists case, status and files.

How it avoids the GPU (found by reading the installed sources):
  - the DSL takes its target from CUTE_DSL_ARCH and only asks the driver
    when that is unset (base_dsl/env_manager.py, detect_gpu_arch);
  - FA4 picks its kernel family from FLASH_ATTENTION_ARCH and otherwise
    calls torch.cuda (flash_attn/cute/interface.py, _get_device_arch);
  - FA4 is written to compile under torch's FakeTensorMode: tensors keep
    shape, dtype and device "cuda" but own no memory, and it skips the
    launch (interface.py, is_fake_mode);
  - the one remaining driver call is cutlass.utils.HardwareInfo, which the
    persistent tile scheduler asks for the SM count to size the launch
    grid on the host.  It is replaced here by a stand-in for a B200
    (148 SMs).  The count sizes only the host-side grid; --sm-count lets
    one check that the kernel PTX does not change with it.  From FA4
    4.0.0b36 the forward asks for it itself (cute_dsl_utils.py,
    get_num_sms_for_selection) and takes FLASH_ATTENTION_NUM_SMS, set
    to the same count.
  - CUTE_DSL_DUMP_DIR must exist beforehand, or the DSL silently writes no
    PTX at all.
"""
import argparse
import os
import subprocess
import sys
import time

CASES = {
    # name: (kind, causal, varlen)
    "fwd-hd128": ("fwd", False, False),
    "fwd-hd128-causal": ("fwd", True, False),
    "fwd-hd128-varlen": ("fwd", False, True),
    "fwd-hd128-varlen-causal": ("fwd", True, True),
    "bwd-hd128": ("bwd", False, False),
    "bwd-hd128-causal": ("bwd", True, False),
    "bwd-hd128-varlen": ("bwd", False, True),
    "bwd-hd128-varlen-causal": ("bwd", True, True),
}

# bf16, head dim 128, 16 heads, 4 sequences of 4096 tokens: the shape
# of the report.  The kernel's compile key depends on dtype, head dims,
# causality, varlen and q_stage (2 here, since seqlen > 128), not on the
# exact sizes.
BATCH, SEQLEN, HEADS, HDIM = 4, 4096, 16, 128
NO_DRIVER = 4  # child's exit code: compiled, but could not JIT-load


def fake_hardware(sm_count):
    """Replace cutlass.utils.HardwareInfo before FA4 imports it."""
    import cutlass.utils
    import cutlass.utils.hardware_info as hwi

    class FakeHardwareInfo:
        def __init__(self, device_id=0):
            self.device_id = device_id

        def get_device_multiprocessor_count(self):
            return sm_count

        def get_max_active_clusters(self, cluster_size, stream=None):
            return sm_count // cluster_size

    cutlass.utils.HardwareInfo = FakeHardwareInfo
    hwi.HardwareInfo = FakeHardwareInfo


RENAMED = {"make_fragment": "make_rmem_tensor"}


def compat_names():
    """Put back names that later DSL releases moved, so that one FA4 source
    imports under every release.  Only aliases that fill a missing
    attribute; nothing present is touched.  4.8 slimmed cute.core (ThrMma,
    ThrCopy, ... now live only at cute.*), and FA4 4.0.0b15 and
    quack-kernels 0.4.1 name them as cute.core.X in annotations."""
    import builtins
    import cutlass.cute as cute
    for name in dir(cute):
        # types only: a module global named like a builtin (tuple, ...)
        # would shadow that builtin inside cute.core itself
        if (name[:1].isupper() and not hasattr(builtins, name)
                and not hasattr(cute.core, name)):
            setattr(cute.core, name, getattr(cute, name))
    # 4.5.1 defines make_fragment as a bare call of make_rmem_tensor
    # (cute/tensor.py); 4.8 dropped the old name.
    for old, new in RENAMED.items():
        if not hasattr(cute, old) and hasattr(cute, new):
            setattr(cute, old, getattr(cute, new))


def empties(torch, varlen):
    """Fake q, k, v, out, dout (bf16), lse (fp32) and cu_seqlens."""
    if varlen:
        shape = (BATCH * SEQLEN, HEADS, HDIM)
        lse = (HEADS, BATCH * SEQLEN)
    else:
        shape = (BATCH, SEQLEN, HEADS, HDIM)
        lse = (BATCH, HEADS, SEQLEN)
    t = [torch.empty(shape, dtype=torch.bfloat16, device="cuda")
         for _ in range(5)]
    t.append(torch.empty(lse, dtype=torch.float32, device="cuda"))
    cu = None
    if varlen:
        cu = torch.empty(BATCH + 1, dtype=torch.int32, device="cuda")
    return t, cu


def set_cuda_major(major):
    """FA4 turns the 2-CTA forward off when torch.version.cuda is 12.x
    (flash_attn/cute/utils.py, _fa_disable_2cta_cuda12).  The PyPI torch
    used here is a CUDA 12.8 build, but the report ran CUDA 13, where the
    hd128 non-causal forward is the 2-CTA kernel with the 176-register
    softmax budget.  Decide by --cuda-major, not by the torch installed."""
    from flash_attn.cute import utils
    if hasattr(utils, "_fa_disable_2cta_cuda12"):
        utils._fa_disable_2cta_cuda12 = major == 12


def run_case(name, sm_count, cuda_major=13):
    """Child: compile one case; the DSL dumps the PTX.

    The backward is called directly, as FlashAttnFunc.backward does:
    autograd on fake CUDA tensors asks the real driver for a stream."""
    kind, causal, varlen = CASES[name]
    fake_hardware(sm_count)
    compat_names()
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode
    from flash_attn.cute import interface as fa
    set_cuda_major(cuda_major)

    with FakeTensorMode():
        (q, k, v, out, dout, lse), cu = empties(torch, varlen)
        vl = {}
        if varlen:
            vl = dict(cu_seqlens_q=cu, cu_seqlens_k=cu,
                      max_seqlen_q=SEQLEN, max_seqlen_k=SEQLEN)
        if kind == "fwd" and varlen:
            fa.flash_attn_varlen_func(q, k, v, causal=causal, **vl)
        elif kind == "fwd":
            fa.flash_attn_func(q, k, v, causal=causal)
        else:
            fa._flash_attn_bwd(q, k, v, out, dout, lse,
                               HDIM ** -0.5, causal, 0.0, **vl)


def version(pkg):
    from importlib.metadata import version as v
    try:
        return v(pkg)
    except Exception:
        return "?"


def drive(args):
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    names = args.case or list(CASES)
    rows = []
    info = ("nvidia-cutlass-dsl %s, flash-attn-4 %s, quack-kernels %s, "
            "FA4 told CUDA %d") % (
        version("nvidia-cutlass-dsl"), version("flash-attn-4"),
        version("quack-kernels"), args.cuda_major)
    print("compile_fa4: " + info, file=sys.stderr)
    for name in names:
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            if f.endswith(".ptx"):
                os.remove(os.path.join(d, f))
        env = dict(os.environ)
        # CUTE_DSL_KEEP_PTX is the pre-4.5 spelling of CUTE_DSL_KEEP=ptx
        env.update(CUTE_DSL_ARCH="sm_100a", CUTE_DSL_KEEP="ptx",
                   CUTE_DSL_KEEP_PTX="1",
                   CUTE_DSL_DUMP_DIR=d, FLASH_ATTENTION_ARCH="sm_100",
                   FLASH_ATTENTION_NUM_SMS=str(args.sm_count),
                   PYTHONWARNINGS="ignore")
        t0 = time.time()
        with open(os.path.join(d, "compile.log"), "w") as log:
            rc = subprocess.call(
                [sys.executable, os.path.abspath(__file__), "--child", name,
                 "--sm-count", str(args.sm_count),
                 "--cuda-major", str(args.cuda_major)],
                env=env, stdout=log, stderr=subprocess.STDOUT)
        ptx = sorted(f for f in os.listdir(d) if f.endswith(".ptx"))
        status = "ok" if rc == 0 and ptx else "failed(rc=%d)" % rc
        if rc == NO_DRIVER and ptx:
            status = "ok(no-jit)"
        print("compile_fa4: %-26s %-12s %3.0fs %d ptx" %
              (name, status, time.time() - t0, len(ptx)), file=sys.stderr)
        rows.append((name, status, ptx))
    with open(os.path.join(out, "cases.tsv"), "w") as m:
        m.write("# %s\n" % info)
        for name, status, ptx in rows:
            m.write("%s\t%s\t%s\n" % (name, status, " ".join(ptx)))
    return 0 if any(r[2] for r in rows) else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="output directory")
    ap.add_argument("--case", action="append", choices=sorted(CASES),
                    help="case to compile (repeatable; default all)")
    ap.add_argument("--sm-count", type=int, default=148,
                    help="SM count the stand-in HardwareInfo reports")
    ap.add_argument("--cuda-major", type=int, default=13,
                    help="CUDA major FA4 should assume (12 disables its "
                    "2-CTA forward; default 13, as in the report)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        try:
            run_case(args.child, args.sm_count, args.cuda_major)
        except Exception as e:
            # Before 4.5 the DSL loads the module right after compiling,
            # and that needs the driver; the PTX is on disk by then.
            if type(e).__name__ != "CudaDriverDependencyError":
                raise
            print("compile_fa4: PTX written; JIT load needs a driver: %s"
                  % str(e).splitlines()[0], file=sys.stderr)
            return NO_DRIVER
        return 0
    if not args.out:
        ap.error("--out is required")
    return drive(args)


if __name__ == "__main__":
    sys.exit(main())
