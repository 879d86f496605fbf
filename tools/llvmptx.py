#!/usr/bin/env python3
"""llvmptx.py: LLVM bitcode to PTX through llvmlite's own LLVM (its NVPTX
back end), for tools/gen-llvmlite.sh: the LLVM releases llvmlite
bundles are newer than this machine's clang.  Bitcode, not text: an old
clang's textual IR has typed pointers, which LLVM 17 on no longer
reads, while bitcode is upgraded on load.

usage: llvmptx.py IN.bc OUT.ptx CPU [OPT]
  CPU  the GPU (sm_80, sm_90a...); OPT the code generator's level
  (0-3, default 2).  llvmlite comes from PYTHONPATH."""
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    import llvmlite.binding as llvm
    src, dst, cpu = sys.argv[1:4]
    opt = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    with open(src, "rb") as f:
        mod = llvm.parse_bitcode(f.read())
    mod.triple = "nvptx64-nvidia-cuda"
    tm = llvm.Target.from_triple(mod.triple).create_target_machine(
        cpu=cpu, features="", opt=opt)
    ptx = tm.emit_assembly(mod)
    with open(dst, "w") as f:
        f.write(ptx)


main()
