#!/usr/bin/env python3
"""linkprobe.py: holds check's linkage rules (src/names.c, funclink and
modgroup) to ptxas.  Writes a module for every order of up to three
declarations and a definition of one function (.func and .entry) and of
up to three declarations of one variable, each with every linkage (none,
.extern, .visible, .weak; .common too for variables), has ptxas and
`ptxpress check` read each, and compares: a module check refuses and
ptxas takes is a false error (exit status 1), one ptxas refuses and
check takes a miss (counted).  ptxas's "Unresolved extern function",
a link-time matter, counts as taking the module.

usage: tools/linkprobe.py PTXPRESS [PTXAS]
No false error and no miss with ptxas 13.0 (bench/RESULTS-trust.md,
forty-ninth session)."""
import itertools
import os
import subprocess
import sys
import tempfile

HEAD = ".version 8.0\n.target sm_90a\n.address_size 64\n"
FUNC = ["", ".extern", ".visible", ".weak"]
VAR = FUNC + [".common"]


def func(link, body, entry):
    head = "%s .entry f()" % link if entry else \
        "%s .func f(.param .b32 x)" % link
    return head + ("\n{\n\tret;\n}\n" if body else ";\n")


def modules():
    """(name, text) of every module"""
    for entry in (0, 1):
        call = "" if entry else "\tcall f, (1);\n"
        for kinds in ("D", "dD", "Dd", "dd", "ddD", "ddd", "dDd"):
            for links in itertools.product(FUNC, repeat=len(kinds)):
                yield ("%s %s %s" % ("entry" if entry else "func", kinds,
                                     [l or "-" for l in links]),
                       HEAD + "".join(func(l, k == "D", entry)
                                      for k, l in zip(kinds, links))
                       + ".visible .entry k()\n{\n" + call + "\tret;\n}\n")
    for n in (1, 2, 3):
        for links in itertools.product(VAR, repeat=n):
            yield ("var %s" % [l or "-" for l in links],
                   HEAD + "".join("%s .global .u32 g;\n" % l for l in links)
                   + ".visible .entry k()\n{\n\t.reg .b32 %r1;\n"
                   "\tld.global.u32 %r1, [g];\n\tret;\n}\n")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    px = sys.argv[1]
    ptxas = sys.argv[2] if len(sys.argv) > 2 else "ptxas"
    false, miss, n = 0, 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.ptx")
        for name, text in modules():
            with open(path, "w") as f:
                f.write(text)
            r = subprocess.run([ptxas, "-arch=sm_90a", "-o", os.devnull,
                                path], capture_output=True, text=True)
            takes = r.returncode == 0 or "Unresolved extern" in r.stderr
            c = subprocess.run([px, "check", path], capture_output=True,
                               text=True)
            ours = "error:" in c.stderr
            n += 1
            if ours and takes:
                false += 1
                print("false error:", name, c.stderr.split("\n")[0])
            elif not ours and not takes:
                miss += 1
    print("%d modules, %d misses, %d false errors" % (n, miss, false))
    sys.exit(1 if false else 0)


main()
