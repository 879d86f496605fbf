# wheel.sh: sourced by tools/gen-nvrtc.sh and tools/gen-llvmlite.sh.
#
#   wheel DIR SPEC TOP
#
# Unless DIR/TOP is there already, fetches the wheel SPEC
# ("llvmlite==0.50.0") from PyPI with this python3's pip and unpacks its
# folder TOP into DIR, through DIR.tmp so that an interrupted fetch
# leaves nothing half made: TOP is renamed into DIR, which may be there
# already (gen-cutlass.sh's output inside the cache is made first; the
# whole DIR.tmp renamed onto it went inside it, and the CUTLASS test
# skipped on every fresh machine).  Silent; whether DIR/TOP exists afterwards
# is the answer (no pip, no network: it does not).
wheel() {
	[ -d "$1/$3" ] && return 0
	python3 -m pip --version >/dev/null 2>&1 || return 1
	rm -rf "$1.tmp" && mkdir -p "$1.tmp" &&
	timeout 300 python3 -m pip download -q --no-deps -d "$1.tmp" "$2" \
		>/dev/null 2>&1 &&
	(cd "$1.tmp" && unzip -q -o ./*.whl "$3/*") &&
	mkdir -p "$1" && mv "$1.tmp/$3" "$1/$3"
	rm -rf "$1.tmp"
	[ -d "$1/$3" ]
}
