# Sourced by the test scripts that run ptxas, after they set $top: skips
# (exit 77, which ctest reads as skipped) where there is no ptxas, and
# makes $tmp, a scratch folder removed on exit.
command -v ptxas >/dev/null 2>&1 || { echo "no ptxas; skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
