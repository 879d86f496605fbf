# One call of the device tool (nvidia-h200), 2026-12-01 19:05 UTC, 4.4 s:
# the pin's shuffle of a value to itself where lanes diverge and a warp
# is partial, against the kernel without it (pin.txt is its output).
gcc -std=c11 -O2 -Wall -Wextra -Wpedantic -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm
for s in 1 2 3; do
	/tmp/ptxverify tests/opt/pinchk.ptx tests/opt/ok-pin-diverge.ptx \
		tests/opt/pinchk.launch --runs 5 --warmup 1 --seed $s
	echo "rc=$?"
done
for t in racecheck synccheck; do
	compute-sanitizer --tool $t /tmp/ptxverify tests/opt/pinchk.ptx \
		tests/opt/ok-pin-diverge.ptx tests/opt/pinchk.launch --runs 1 --warmup 0
done
# racecheck: 0 hazards displayed (0 errors, 0 warnings);
# synccheck: ERROR SUMMARY: 0 errors; both runs bit-identical, PASS
