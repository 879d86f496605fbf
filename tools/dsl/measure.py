#!/usr/bin/env python3
"""measure.py -- ptxas -v figures and instruction counts for the PTX that
compile_fa4.py produced, as a markdown table.

    python3 tools/dsl/measure.py [--ptxas LABEL=PATH ...] [--tsv FILE] \
        build/dsl/ptx/4.5.1 build/dsl/ptx/4.8.0 ...

Each argument is a compile_fa4.py output directory (its name is taken as
the release label unless cases.tsv says otherwise).  For every PTX file
and every ptxas, the file is cleaned and assembled with
`ptxas -v -arch=sm_100a`:
  - trailing NUL bytes (CuTe DSL writes one) are stripped;
  - when a ptxas refuses the `.version`, saying "current version is
    'X.Y'", the directive is lowered to X.Y and the file tried again (the
    table marks such rows with the clamped version).
Counts are taken on the PTX text: `mov` is every instruction whose
opcode is mov (any type), `ex2` every ex2.approx.

Default ptxas set: 13.0 at /usr/local/cuda/bin/ptxas and, when present,
12.9 and 13.5 unpacked from the nvidia-cuda-nvcc wheels under
build/dsl/ptxas (tools/dsl/getptxas.sh puts them there).
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("PTXPRESS_DSL_BUILD", os.path.join(ROOT, "build/dsl"))

ROLES = [  # substring of the DSL's file name -> short kernel name
    ("FlashAttentionForwardSm100", "fwd"),
    ("FlashAttentionBackwardSm100", "bwd"),
    ("FlashAttentionBackwardPreprocess", "bwd-pre"),
    ("FlashAttentionBackwardPostprocess", "bwd-post"),
]

MOV = re.compile(r"^\s*(?:@!?%\w+\s+)?mov\.", re.M)
EX2 = re.compile(r"\bex2\.approx\b")
VERSION = re.compile(rb"^\.version\s+(\d+\.\d+)", re.M)
CURRENT = re.compile(r"current version is '(\d+\.\d+)'")
REGS = re.compile(r"Used (\d+) registers")
FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, "
                   r"(\d+) bytes spill loads")


def default_ptxas():
    found = [("13.0", "/usr/local/cuda/bin/ptxas")]
    for label, pat in (("12.9", "nvidia_cuda_nvcc_cu12-12.9*/**/bin/ptxas"),
                       ("13.5", "nvidia_cuda_nvcc-13.5*/**/bin/ptxas")):
        hits = glob.glob(os.path.join(BUILD, "ptxas", pat), recursive=True)
        if hits:
            found.append((label, hits[0]))
    return sorted(found)


def role(fname):
    for key, name in ROLES:
        if key in fname:
            return name
    return os.path.splitext(fname)[0][:40]


def ptxas_v(ptxas, data, tmp):
    """Assemble data; returns (clamped-to or None, figures dict or error)."""
    clamp = None
    for _ in range(2):
        src = os.path.join(tmp, "in.ptx")
        with open(src, "wb") as f:
            f.write(data)
        p = subprocess.run([ptxas, "-v", "-arch=sm_100a", src,
                            "-o", os.path.join(tmp, "out.cubin")],
                           capture_output=True, text=True)
        out = p.stdout + p.stderr
        m = CURRENT.search(out)
        if p.returncode != 0 and m and clamp is None:
            clamp = m.group(1)
            data = VERSION.sub(b".version " + clamp.encode(), data, count=1)
            continue
        if p.returncode != 0:
            return clamp, {"error": out.strip().splitlines()[-1]}
        regs = [int(x) for x in REGS.findall(out)]
        frames = [tuple(map(int, x)) for x in FRAME.findall(out)]
        big = max(range(len(regs)), key=lambda i: regs[i]) if regs else 0
        fr = frames[big] if frames else (0, 0, 0)
        return clamp, {"regs": regs[big] if regs else 0, "stack": fr[0],
                       "st": fr[1], "ld": fr[2], "entries": len(regs)}
    return clamp, {"error": "version clamp failed"}


def release_of(d):
    tsv = os.path.join(d, "cases.tsv")
    if os.path.exists(tsv):
        with open(tsv) as f:
            m = re.search(r"nvidia-cutlass-dsl (\S+),", f.readline())
            if m:
                return m.group(1).rstrip(",")
    return os.path.basename(os.path.normpath(d))


def measure(dirs, ptxases):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for d in dirs:
            rel = release_of(d)
            for path in sorted(glob.glob(os.path.join(d, "*", "*.ptx"))):
                case = os.path.basename(os.path.dirname(path))
                with open(path, "rb") as f:
                    data = f.read().rstrip(b"\0")
                text = data.decode("utf-8", "replace")
                v = VERSION.search(data)
                base = dict(release=rel, case=case,
                            kernel=role(os.path.basename(path)),
                            version=v.group(1).decode() if v else "?",
                            mov=len(MOV.findall(text)),
                            ex2=len(EX2.findall(text)), path=path)
                for label, exe in ptxases:
                    clamp, fig = ptxas_v(exe, data, tmp)
                    r = dict(base, ptxas=label, clamp=clamp, **fig)
                    rows.append(r)
                    print("measure: %s %s %s ptxas %s: %s" % (
                        rel, case, r["kernel"], label,
                        fig.get("error") or "%(regs)d regs %(st)d/%(ld)d"
                        % fig), file=sys.stderr)
    return rows


def table(rows):
    head = ("| DSL | case | kernel | ptxas | PTX .version | regs | "
            "spill st (B) | spill ld (B) | stack (B) | #mov | #ex2 |")
    out = [head, "|" + "---|" * 11]
    for r in rows:
        ver = r["version"] + (" → " + r["clamp"] if r["clamp"] else "")
        if "error" in r:
            figs = "| error: %s | | | |" % r["error"].replace("|", "/")
        else:
            figs = "| %d | %d | %d | %d |" % (r["regs"], r["st"], r["ld"],
                                              r["stack"])
        out.append("| %s | %s | %s | %s | %s %s %d | %d |" % (
            r["release"], r["case"], r["kernel"], r["ptxas"], ver, figs,
            r["mov"], r["ex2"]))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+", help="compile_fa4.py output dirs")
    ap.add_argument("--ptxas", action="append", metavar="LABEL=PATH",
                    help="ptxas to use (repeatable; default: see --help)")
    ap.add_argument("--tsv", help="also write the rows as TSV here")
    args = ap.parse_args()
    px = default_ptxas()
    if args.ptxas:
        px = [tuple(s.split("=", 1)) for s in args.ptxas]
    rows = measure(args.dirs, px)
    print(table(rows))
    if args.tsv:
        keys = ["release", "case", "kernel", "ptxas", "version", "clamp",
                "regs", "st", "ld", "stack", "mov", "ex2", "error", "path"]
        with open(args.tsv, "w") as f:
            f.write("\t".join(keys) + "\n")
            for r in rows:
                f.write("\t".join(str(r.get(k, "")) for k in keys) + "\n")
    return 1 if any("error" in r for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
