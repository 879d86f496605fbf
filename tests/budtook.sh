# Sourced by the budget round's tests (optbudround.sh, optbudpairs.sh,
# optbudrunner.sh), after needptxas.sh: budtook LOG OUT IN PATTERN DEC
# INC checks that opt's report LOG has PATTERN (the kernel's figures and
# pipeline), that OUT's producer and consumer counts are DEC and INC,
# and that OUT is proven against IN; sets bad=1 and says what failed,
# where not.
budtook() {
	grep -q "$4" "$1" || { echo "FAIL: no '$4' in the report"; bad=1; }
	grep -q "setmaxnreg.dec.sync.aligned.u32 $5;" "$2" \
		&& grep -q "setmaxnreg.inc.sync.aligned.u32 $6;" "$2" \
		|| { echo "FAIL: the output's counts are not $5 and $6"; bad=1; }
	"$px" validate "$3" "$2" >"$tmp/budtook.v" 2>&1 || {
		echo "FAIL: the output is not proven"
		cat "$tmp/budtook.v"
		bad=1
	}
}
