#!/bin/sh
# tools/wheel.sh fetches a wheel into a cache folder DIR that may exist
# already: gen-cutlass.sh makes DIR/ptx before it asks for the wheel.
# Until the thirty-fifth session wheel() renamed DIR.tmp onto DIR, which
# put it inside DIR instead, and ctest cutlass skipped on every fresh
# machine.  A stand-in python3 (pip --version, pip download writing a
# wheel of one file) keeps this off the network.  Needs unzip (77).
# usage: wheel.sh TOPDIR
set -u
top=$1
command -v unzip >/dev/null 2>&1 || { echo "no unzip; skipped"; exit 77; }
py=$(command -v python3) || { echo "no python3; skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
cat >"$tmp/bin/python3" <<EOS
#!/bin/sh
[ "\$3" = --version ] && { echo pip; exit 0; }
while [ \$# -gt 0 ] && [ "\$1" != -d ]; do shift; done
"$py" -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1] + "/top-1.0-py3-none-any.whl", "w")
z.writestr("top/file", "x\n")
z.close()' "\$2"
EOS
chmod +x "$tmp/bin/python3"
fail=0
for case in fresh made; do
	d=$tmp/$case/cache
	rm -rf "$tmp/$case"
	[ $case = made ] && mkdir -p "$d/ptx"
	PATH=$tmp/bin:$PATH sh -c '. "$1/tools/wheel.sh"; wheel "$2" "top==1.0" top' \
		sh "$top" "$d" || { echo "FAIL $case: wheel failed"; fail=1; }
	[ -f "$d/top/file" ] || { echo "FAIL $case: no $d/top/file"; find "$tmp/$case" | sed 's/^/  | /'; fail=1; }
	[ -e "$d.tmp" ] && { echo "FAIL $case: $d.tmp left behind"; fail=1; }
	[ $case = made ] && [ ! -d "$d/ptx" ] && { echo "FAIL made: DIR/ptx lost"; fail=1; }
done
[ $fail -eq 0 ] && echo "wheel: cases passed"
exit $fail
