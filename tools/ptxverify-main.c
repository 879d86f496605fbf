/* ptxverify-main.c: a stand-alone driver for `ptxpress verify`, for use
 * (and tests) until the ptxpress dispatcher carries the command.
 *
 *   ptxverify ORIG.ptx NEW.ptx LAUNCH [options]   as ptxpress verify
 */
#include "verify.h"

int
main(int argc, char **argv)
{
	return cmdverify(argc, argv);
}
