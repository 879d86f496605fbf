#!/usr/bin/env python3
"""typeprobe.py: holds check's type rules (src/check.c, types; src/ops.h's
types and typeset columns) to ptxas.  Writes kernels of one-line
instructions whose registers are of every scalar type in turn, of each
opcode with every instruction type, of special registers in each kind
of use, of cvt between every two types with every rounding, of float
instructions with each rounding, with an operand too few or too many,
of numbers as addresses in each state space, with .ftz and .sat, of 60
opcode forms with 13 types and 25 lists of rounding, .ftz and .sat, of ld
and st of vectors of one register type and of mixes, of vectors past 128
bits, of setp with each
comparison and type, of 40 opcode forms with .f16x2, .bf16x2 and .bf16,
of 33 constant expressions in 7 instructions, and of random such lines, has ptxas and `ptxpress check` read each file, and
compares them line by line: a line check refuses and ptxas takes is a
false error, the one thing this rule must never give; a line ptxas
refuses and check takes is a miss (allowed: check says less than
ptxas, never more).

usage: tools/typeprobe.py PTXPRESS [PTXAS] [SEEDS] [TARGET [VERSION]]
prints the counts and every false error; exit status 1 if any, or if a
set's misses pass the fraction TYPEPROBE_MAXMISS names (default 1: no
bound), which a check that refuses nothing would.
SEEDS: how many random sets of 5,000 lines (default 5); TARGET and
VERSION: the kernels' .target and .version (default sm_90a, 8.7).
No false error with ptxas 12.8, 13.0 and 13.5 for sm_75, sm_80, sm_90a,
sm_100a and sm_120a (bench/RESULTS-trust.md, forty-seventh session)."""
import random
import re
import subprocess
import sys
import tempfile
import os

TYPES = ["b8", "u8", "s8", "b16", "u16", "s16", "f16", "b32", "u32", "s32",
         "f32", "b64", "u64", "s64", "f64", "pred", "f16x2"]
TARGET, VERSION = "sm_90a", "8.7"


def reg(t, i):
    return "%%q%s_%d" % (t, i)      # no digit before the number: %q32_1


def head():
    return [".version " + VERSION, ".target " + TARGET, ".address_size 64",
            ".visible .entry k(.param .u64 p)", "{"] + [
        "\t.reg .%s %%q%s_<8>;" % (t, t) for t in TYPES]


def errors(cmd, path, pat):
    r = subprocess.run(cmd + [path], capture_output=True, text=True)
    return {int(m.group(1)) for m in re.finditer(pat, r.stderr)}


def compare(lines, px, ptxas, tmp, per=400):
    """(false errors, misses, agreed) over lines, per to a file"""
    fp, fn, ok = [], [], 0
    h = head()
    for s in range(0, len(lines), per):
        part = lines[s:s + per]
        path = os.path.join(tmp, "p.ptx")
        with open(path, "w") as f:
            f.write("\n".join(h + ["\t" + l for l in part]
                              + ["\tret;", "}"]) + "\n")
        theirs = errors([ptxas, "-arch=" + TARGET, "-o", os.devnull], path,
                        r"line (\d+); (?:error|fatal)")
        ours = errors([px, "check"], path, r"p\.ptx:(\d+):\d+: error")
        for k, l in enumerate(part):
            n = len(h) + 1 + k
            if n in ours and n not in theirs:
                fp.append(l)
            elif n in theirs and n not in ours:
                fn.append(l)
            else:
                ok += 1
    return fp, fn, ok


# instruction forms, each slot's type: T the instruction's, p a
# predicate, a a 64-bit address register; one slot at a time takes
# every register type
FORMS = [
    "add.%s T, T, T" % t for t in ["u32", "s32", "f32", "u64", "s64",
                                   "f64", "u16", "s16", "f16"]] + [
    "sub.u32 T, T, T", "sub.f32 T, T, T", "mul.lo.u16 T, T, T",
    "mul.lo.u64 T, T, T", "mul.rn.f64 T, T, T", "mad.lo.s32 T, T, T, T",
    "fma.rn.f32 T, T, T, T", "fma.rn.f16 T, T, T, T", "min.u32 T, T, T",
    "max.f64 T, T, T", "abs.s32 T, T", "neg.f32 T, T", "and.b32 T, T, T",
    "and.b64 T, T, T", "and.pred T, T, T", "not.b16 T, T",
    "div.rn.f32 T, T, T", "rem.u32 T, T, T", "rcp.rn.f64 T, T",
    "ex2.approx.f32 T, T", "mov.b32 T, T", "mov.u64 T, T", "mov.f32 T, T",
    "mov.pred T, T", "copysign.f32 T, T, T", "brev.b64 T, T",
    "setp.lt.u32 p, T, T", "setp.lt.and.f32 p, T, T, p",
    "selp.b64 T, T, T, p", "shl.b32 T, T, u32", "shr.s16 T, T, u32",
    "mul.wide.u32 u64, T, T", "mul.wide.s16 s32, T, T",
    "mad.wide.s32 s64, T, T, s64", "mul.hi.u32 T, T, T",
    "ld.global.u32 T, [a]", "ld.global.f32 T, [a]", "ld.global.b16 T, [a]",
    "ld.global.s8 s16, [a]", "st.global.u8 [a], u16", "st.global.f64 [a], T",
    "st.global.b32 [a], T", "cvt.u32.u16 u32, u16", "cvt.rn.f16.f32 f16, f32",
    "cvt.rzi.s32.f32 s32, f32", "cvt.u64.u32 u64, u32",
    "popc.b32 u32, T", "clz.b64 u32, T", "bfe.u32 T, T, u32, u32",
    "bfi.b32 T, T, T, u32, u32", "prmt.b32 T, T, T, T",
    "testp.finite.f32 p, T", "cnot.b32 T, T", "cvta.to.global.u64 T, T",
    "atom.global.add.u32 T, [a], T", "red.global.add.f32 [a], T",
    "vote.sync.ballot.b32 T, p, u32", "lop3.b32 T, T, T, T, 0xff",
    "selp.f32 T, T, T, 1", "setp.lt.and.f32 p, T, T, 0",
]


# opcodes whose every instruction type is tried (typeset in ops.h)
OPS = ["add T, T, T", "sub T, T, T", "mul.lo T, T, T", "mul.hi T, T, T",
       "mul.rn T, T, T", "mad.lo T, T, T, T", "mad.rn T, T, T, T",
       "mul24.lo T, T, T", "sad T, T, T, T", "div T, T, T", "div.rn T, T, T",
       "rem T, T, T", "abs T, T", "neg T, T", "min T, T, T", "max T, T, T",
       "popc u32, T", "clz u32, T", "bfind u32, T", "brev T, T",
       "bfe T, T, u32, u32", "bfi T, T, T, u32, u32", "fns T, T, T, T",
       "addc T, T, T", "testp.finite p, T", "copysign T, T, T",
       "fma.rn T, T, T, T", "rcp.rn T, T", "sqrt.rn T, T", "sin.approx T, T",
       "ex2.approx T, T", "tanh.approx T, T", "setp.lt p, T, T",
       "setp.eq p, T, T", "selp T, T, T, p", "and T, T, T", "xor T, T, T",
       "not T, T", "cnot T, T", "shl T, T, u32", "shr T, T, u32", "mov T, T",
       "prmt T, T, T, T", "lop3 T, T, T, T, 0xff", "shf.l.wrap T, T, T, u32",
       "cvta.to.global T, T", "ld.global T, [a]", "st.global [a], T"]


def typesets():
    out = []
    for form in OPS:
        op, rest = form.split(" ", 1)
        for t in TYPES:
            out.append(fill("%s.%s %s" % (op, t, rest), lambda k, own: own))
    return out


# special registers: ptxas takes them in mov and a cvt between integers
SPECIAL32 = ["%tid.x", "%ntid.y", "%laneid", "%warpid", "%ctaid.x",
             "%nctaid.z", "%smid", "%lanemask_lt", "%clock", "%pm0",
             "%envreg3", "%globaltimer_lo", "%dynamic_smem_size",
             "%cluster_ctarank", "%reserved_smem_offset_begin"]
SPECIAL64 = ["%clock64", "%globaltimer", "%gridid", "%current_graph_exec"]
USES32 = ["add.u32 %qu32_1, S, 1", "setp.lt.u32 %qpred_1, S, 1",
          "cvt.u64.u32 %qu64_1, S", "cvt.rn.f32.u32 %qf32_1, S",
          "mov.u32 %qu32_1, S", "mov.b32 %qb32_1, S",
          "st.global.u32 [%qu64_1], S", "shl.b32 %qb32_1, S, 1",
          "mul.wide.u32 %qu64_1, S, 4", "selp.u32 %qu32_1, S, 1, %qpred_1",
          "cvt.u16.u32 %qu16_1, S", "mad.lo.u32 %qu32_1, S, 2, %qu32_2",
          "popc.b32 %qu32_1, S", "bfe.u32 %qu32_1, %qu32_2, S, 1"]
USES64 = ["add.u64 %qu64_1, S, 1", "cvt.u32.u64 %qu32_1, S",
          "mov.u64 %qu64_1, S", "and.b64 %qb64_1, S, 1",
          "cvta.to.global.u64 %qu64_1, S", "cvt.rn.f32.u64 %qf32_1, S"]


def specials():
    return [u.replace("S", r) + ";" for regs, uses in
            ((SPECIAL32, USES32), (SPECIAL64, USES64))
            for r in regs for u in uses]


# cvt's rounding: every pair of scalar types with every rounding
CVT = ["u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64", "f16", "f32",
       "f64"]
ROUND = ["", ".rn", ".rz", ".rm", ".rp", ".rni", ".rzi", ".rmi", ".rpi",
         ".rna", ".sat"]


def cvts():
    wide = {"u8": "u16", "s8": "s16"}   # no 8-bit registers
    return ["cvt%s.%s.%s %s, %s;" % (r, d, t, reg(wide.get(d, d), 1),
                                     reg(wide.get(t, t), 2))
            for d in CVT for t in CVT for r in ROUND]


# the rounding or approximation float instructions need
RNDOPS = ["add T, T, T", "mul T, T, T", "mad T, T, T, T", "fma T, T, T, T",
          "div T, T, T", "rcp T, T", "sqrt T, T", "rsqrt T, T", "ex2 T, T",
          "lg2 T, T", "sin T, T", "tanh T, T", "min T, T, T", "abs T, T"]
RNDTYPES = ["f16", "f32", "f64", "u32", "s32"]
RNDMODS = ["", ".rn", ".rz", ".rm", ".rp", ".approx", ".full", ".rni",
           ".approx.ftz", ".rn.ftz", ".ftz", ".sat", ".lo", ".hi"]


def grid(forms, types, mods):
    """each form with each type, and each modifier list before it"""
    out = []
    for form in forms:
        op, rest = form.split(" ", 1)
        for t in types:
            for m in mods:
                out.append(fill("%s%s.%s %s" % (op, m, t, rest),
                                lambda k, own: own))
    return out


def roundings():
    return grid(RNDOPS, RNDTYPES, RNDMODS)


def addresses():
    """numbers as addresses, in each state space"""
    out = []
    for sp in ["", ".global", ".shared", ".shared::cta", ".local", ".const",
               ".param"]:
        for a in ["0", "16"]:
            out += ["ld%s.u32 %%qu32_1, [%s];" % (sp, a),
                    "st%s.u32 [%s], %%qu32_1;" % (sp, a),
                    "atom%s.add.u32 %%qu32_1, [%s], 1;" % (sp, a),
                    "ld%s.u32 %%qu32_1, [%%qu64_1+%s];" % (sp, a)]
    return out


def counts():
    """each form with its last operand left out, and with one more"""
    out = []
    for form in FORMS:
        line = fill(form, lambda k, own: own)[:-1]
        word, ops = line.split(" ", 1)
        ops = ops.split(", ")
        out.append("%s %s;" % (word, ", ".join(ops[:-1])))
        out.append("%s %s;" % (word, ", ".join(ops + [ops[-1]])))
    return out


def flushes():
    """.ftz and .sat on each opcode with each type"""
    return grid(OPS, TYPES, [".ftz", ".sat"])


# the modifiers of rounding's kind, .ftz and .sat, on each opcode with
# each type (typecheck.c, takes)
MODOPS = [f for f in OPS if f.split(".")[0].split(" ")[0] not in
          ("cvta", "testp")] + [
    "mul T, T, T", "mad T, T, T, T", "cos T, T", "lg2 T, T", "rsqrt T, T",
    "testp.finite p, T", "shf.l.clamp T, T, T, u32", "subc T, T, T",
    "setp p, T, T",
    "mul24.hi T, T, T", "mad24.hi T, T, T, T", "or T, T, T",
    "ld.global T, [a]", "st.global [a], T"]
MODTYPES = ["u16", "s16", "u32", "s32", "u64", "s64", "b16", "b32", "b64",
            "f16", "f32", "f64", "pred"]
MODLISTS = ["", ".rn", ".rz", ".rm", ".rp", ".rni", ".rzi", ".approx",
            ".full", ".ftz", ".sat", ".lo", ".hi", ".wide", ".rn.ftz",
            ".rn.sat", ".ftz.sat", ".approx.ftz", ".rz.ftz.sat", ".cc",
            ".relu", ".NaN", ".lo.sat", ".hi.sat", ".full.ftz"]


def modifiers():
    return grid(MODOPS, MODTYPES, MODLISTS)


def vectors(mixed):
    """ld and st .v2 and .v4 of registers of one type; or (mixed) .v2 of
    every two register types and .v4 of random mixes, which ptxas takes
    as bits of their size where they join (typecheck.c, vecjoin)"""
    out = []
    rnd = random.Random(4)
    for t in [x for x in TYPES if x not in ("pred", "f16x2")]:
        for r1 in TYPES:
            for r2 in TYPES:
                if (r1 != r2) != mixed:
                    continue
                v = "{%s, %s}" % (reg(r1, 1), reg(r2, 2))
                out += ["ld.global.v2.%s %s, [%%qu64_1];" % (t, v),
                        "st.global.v2.%s [%%qu64_1], %s;" % (t, v)]
            rs = [rnd.choice(TYPES) for _ in range(4)] if mixed else [r1] * 4
            v = "{%s}" % ", ".join(reg(r, i + 1) for i, r in enumerate(rs))
            out += ["ld.global.v4.%s %s, [%%qu64_1];" % (t, v),
                    "st.global.v4.%s [%%qu64_1], %s;" % (t, v)]
    return out


def wide():
    """vectors past 128 bits: 256 in ld/st of global or generic memory
    on sm_100 and later at PTX 8.8 (check.c, checkwide)"""
    v4 = "{%s}" % ", ".join(reg("b64", i) for i in range(1, 5))
    v8 = "{%s}" % ", ".join(reg("b32", i % 4 + 1) for i in range(8))
    h8 = "{%s}" % ", ".join(reg("b16", i % 4 + 1) for i in range(8))
    out = []
    for sp in ["", ".global", ".global.nc", ".shared", ".local", ".const"]:
        out += ["ld%s.v4.u64 %s, [%%qu64_1];" % (sp, v4),
                "ld%s.v8.b32 %s, [%%qu64_1];" % (sp, v8),
                "ld%s.v8.b16 %s, [%%qu64_1];" % (sp, h8),
                "ldu%s.v4.b64 %s, [%%qu64_1];" % (sp, v4)]
        out += ["st%s.v4.b64 [%%qu64_1], %s;" % (sp, v4),
                "st%s.v8.f32 [%%qu64_1], %s;" % (sp, v8.replace("b32", "f32"))]
    return out


def compares():
    """setp with each comparison and type"""
    return ["setp.%s%s.%s %%qpred_1, %%q%s_2, %%q%s_3%s;"
            % (c, b, t, t, t, ", %qpred_2" if b else "")
            for c in ("eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu "
                      "geu num nan").split()
            for t in ("b16 b32 b64 u16 u32 s32 u64 s64 f16 f32 f64").split()
            for b in ("", ".and")]


# opcodes with a packed or brain-float type, in .b32 (.b16) registers
PACKED = ["add T, T, T", "sub T, T, T", "mul T, T, T", "add.rn T, T, T",
          "fma.rn T, T, T, T", "fma.rn.relu T, T, T, T", "neg T, T",
          "abs T, T", "min T, T, T", "max T, T, T", "min.NaN T, T, T",
          "max.xorsign.abs T, T, T", "ex2.approx T, T",
          "ex2.approx.ftz T, T", "tanh.approx T, T", "mov T, T",
          "ld.global T, [a]", "st.global [a], T", "selp T, T, T, p",
          "setp.lt p, T, T", "and T, T, T", "div.rn T, T, T", "rcp.rn T, T",
          "sqrt.rn T, T", "copysign T, T, T", "mad.rn T, T, T, T",
          "testp.finite p, T", "sin.approx T, T", "lg2.approx T, T",
          "rsqrt.approx T, T", "mul.ftz T, T, T", "add.ftz T, T, T",
          "add.sat T, T, T", "fma.rn.sat T, T, T, T",
          "fma.rn.ftz T, T, T, T", "neg.ftz T, T", "min.ftz T, T, T",
          "abs.ftz T, T", "tanh.approx.ftz T, T", "max.ftz.NaN T, T, T"]


def packed():
    """PACKED with .f16x2, .bf16x2 and .bf16"""
    out = []
    for t, r in (("f16x2", "b32"), ("bf16x2", "b32"), ("bf16", "b16")):
        for form in PACKED:
            op, rest = form.split(" ", 1)
            out.append(fill("%s.%s %s" % (op, t, rest),
                            lambda k, own: r if own in (t,) else own))
    return out


# constant expressions (src/constkind.c) in instructions of each kind;
# one line a file, since ptxas stops at a syntax error such as 0f's
EXPRS = ["(1+2)", "(1)", "(1.0)", "(1.0+2.0)", "(1.0+2)", "(1.5*2)",
         "-(2)", "-(1.0)", "(0f3F800000)", "-(0f3F800000)",
         "((0f3F800000)+1.0)", "(1?2:3)", "(1?2.0:3.0)", "(1.0?2:3)",
         "(1 < 2)", "(1.0 < 2.0)", "(1 < 2.0)", "(1 == 1.0)", "!1", "!1.0",
         "~1", "~1.0", "(1.0 % 2.0)", "(1 % 2)", "(1.0 << 1)", "(1 && 2)",
         "(1.0 && 2.0)", "(1.0 > 2.0 && 1)", "(0x10 + 010 + 0b1 + 1U)",
         "(1e3 * 2.5e-1)", "(1 << 2 | 1 ^ 3 & 7)", "+(1.0)", "(1 - -2)"]
EXPRCTX = ["add.u32 %qu32_1, %qu32_2, E;", "add.f32 %qf32_1, %qf32_2, E;",
           "add.f64 %qf64_1, %qf64_2, E;", "mov.b32 %qb32_1, E;",
           "mov.b64 %qb64_1, E;", "selp.f32 %qf32_1, %qf32_2, %qf32_3, E;",
           "setp.lt.s64 %qpred_1, %qs64_2, E;"]


def expressions():
    return [c.replace("E", e) for e in EXPRS for c in EXPRCTX]


def slots(form):
    op, rest = form.split(" ", 1)
    t = op.split(".")[-1]
    return op, t, re.split(r"(T|p|a|[bsuf]\d+)", rest)


def fill(form, pick):
    """form's line, slot k's register of type pick(k, its own type)"""
    op, t, parts = slots(form)
    k, s = 0, ""
    for i, x in enumerate(parts):
        if i % 2 == 0:
            s += x
            continue
        s += reg(pick(k, {"T": t, "p": "pred", "a": "u64"}.get(x, x)), k + 1)
        k += 1
    return "%s %s;" % (op, s)


def systematic():
    out = []
    for form in FORMS:
        n = len(slots(form)[2]) // 2
        for pos in range(n):
            for r in TYPES:
                out.append(fill(form, lambda k, own: r if k == pos else own))
    return out


def randomlines(seed, n=5000):
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        line = fill(rnd.choice(FORMS), lambda k, own: rnd.choice(TYPES)
                    if rnd.random() < 0.35 else own)
        if rnd.random() < 0.05:
            line = "@%s %s" % (reg(rnd.choice(["pred", "b32"]), 5), line)
        out.append(line)
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    px = sys.argv[1]
    ptxas = sys.argv[2] if len(sys.argv) > 2 else "ptxas"
    seeds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    global TARGET, VERSION
    TARGET = sys.argv[4] if len(sys.argv) > 4 else TARGET
    VERSION = sys.argv[5] if len(sys.argv) > 5 else VERSION
    maxmiss = float(os.environ.get("TYPEPROBE_MAXMISS", "1"))
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        sets = [("systematic", systematic()), ("typesets", typesets()),
                ("specials", specials()), ("cvt", cvts()),
                ("roundings", roundings()), ("counts", counts()),
                ("addresses", addresses()), ("flushes", flushes()),
                ("modifiers", modifiers()), ("vectors", vectors(False)),
                ("mixed vectors", vectors(True)), ("wide", wide()),
                ("compares", compares()), ("packed", packed()),
                ("expressions", expressions())] + [
            ("random seed %d" % s, randomlines(s)) for s in range(1, seeds + 1)]
        for name, lines in sets:
            fp, fn, ok = compare(lines, px, ptxas, tmp,
                                 1 if name == "expressions" else 400)
            print("%s: %d lines, %d agree, %d misses, %d false errors"
                  % (name, len(lines), ok, len(fn), len(fp)))
            for l in fp:
                print("  false error:", l)
            if os.environ.get("TYPEPROBE_SHOWMISS"):
                for l in fn:
                    print("  miss:", l)
            bad += len(fp)
            if len(fn) > maxmiss * len(lines):
                print("  more misses than %.0f %%: are the rules off?"
                      % (100 * maxmiss))
                bad += 1
    sys.exit(1 if bad else 0)


main()
