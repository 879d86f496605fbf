/* ops.c: the opcode table expanded, opcode and modifier lookup, and the
 * per-instruction ordering class that passes read. */
#include <string.h>
#include <ctype.h>
#include "all.h"

const Opinfo opinfo[Onum] = {
#define O(id, name, defs, klass, lat, types, typeset) \
	[O##id] = {name, defs, klass, lat, types, typeset},
#include "ops.h"
#undef O
	[Ounknown] = {"?", D0, Kfull, Lalu},
};

/* Modifiers PTX 9.0 defines, beyond the families modfamily() accepts.
 * A modifier not known here is a warning in check, never an error: the
 * front end must keep up with PTX releases it has not seen. */
static const char *const modnames[] = {
	/* types */
	".b1", ".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32",
	".u64", ".s4", ".u4", ".s8", ".s16", ".s32", ".s64", ".f16", ".f16x2",
	".f32", ".f64", ".bf16", ".bf16x2", ".tf32", ".e4m3", ".e5m2",
	".e4m3x2", ".e5m2x2", ".e2m1", ".e2m1x2", ".e2m3", ".e3m2", ".e2m3x2",
	".e3m2x2", ".ue8m0", ".ue8m0x2", ".ue4m3", ".pred", ".f32x2",
	".s16x2", ".u16x2", ".e4m3x4", ".e5m2x4", ".e2m1x4", ".e2m3x4",
	".e3m2x4", ".s2f6x2", ".v2", ".v4", ".v8", ".b4x16", ".b6x16",
	".b8x16", ".b4x16_p64", ".b6x16_p32",
	/* state spaces */
	".global", ".shared", ".shared::cta", ".shared::cluster", ".local",
	".param", ".param::entry", ".param::func", ".const", ".tex",
	".generic",
	/* rounding, saturation, precision */
	".rn", ".rz", ".rm", ".rp", ".rni", ".rzi", ".rmi", ".rpi", ".rna",
	".rs", ".ftz", ".sat", ".approx", ".full", ".relu", ".satfinite",
	".NaN", ".xorsign", ".abs", ".oob", ".finite", ".infinite",
	".number", ".notanumber", ".normal", ".subnormal",
	/* comparisons and boolean ops */
	".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs",
	".equ", ".neu", ".ltu", ".leu", ".gtu", ".geu", ".num", ".nan",
	".and", ".or", ".xor", ".popc", ".not",
	/* integer forms */
	".wide", ".cc", ".shiftamt", ".clamp", ".wrap", ".l", ".r",
	".b0", ".b1", ".b2", ".b3", ".h0", ".h1", ".mode", ".sext", ".uni",
	/* movement, shuffles, permutes */
	".up", ".down", ".bfly", ".idx", ".f4e", ".b4e", ".rc8", ".ecl",
	".ecr", ".rc16", ".pack", ".to", ".trans", ".m8n8", ".m16n16",
	".m16n8", ".m8n16", ".x1", ".x2", ".x4", ".num", ".bulk",
	/* caching and eviction */
	".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt", ".nc",
	".L1::evict_normal", ".L1::evict_unchanged", ".L1::evict_first",
	".L1::evict_last", ".L1::no_allocate", ".L2::evict_first",
	".L2::evict_last", ".L2::evict_normal", ".L2::evict_unchanged",
	".L2::cache_hint", ".L2::64B", ".L2::128B", ".L2::256B", ".L1",
	".L2", ".fractional", ".range", ".tensormap", ".level::eviction_priority",
	/* memory model */
	".volatile", ".relaxed", ".acquire", ".release", ".acq_rel", ".weak",
	".mmio", ".sc", ".cta", ".cluster", ".gpu", ".sys", ".gl",
	/* atomics and reductions */
	".add", ".inc", ".dec", ".exch", ".cas", ".min", ".max",
	".noftz", ".acc::f32", ".acc::f16",
	/* synchronisation */
	".sync", ".aligned", ".arrive", ".red", ".all", ".any", ".ballot",
	".wait", ".proxy", ".async", ".alias", ".mbarrier_init",
	".op_restrict", ".sync_restrict::shared::cta",
	".sync_restrict::shared::cluster", ".async::generic",
	".tensormap::generic", ".expect_tx", ".complete_tx", ".noComplete",
	".parity", ".launch_dependents", ".inc", ".dec", ".try_cancel",
	".query_cancel", ".is_canceled", ".get_first_ctaid", ".x", ".y",
	".z", ".multicast::cluster::all", ".bulk_group",
	".mbarrier::complete_tx::bytes", ".mbarrier::arrive::one",
	".mbarrier::expect_tx", ".noinc",
	/* async copies and tensor maps */
	".tile", ".im2col", ".im2col::w", ".im2col::w::128",
	".im2col_no_offs", ".tile::gather4", ".tile::scatter4",
	".multicast::cluster", ".cta_group::1", ".cta_group::2", ".read",
	".global_address", ".rank", ".box_dim", ".global_dim",
	".global_stride", ".element_stride", ".elemtype",
	".interleave_layout", ".swizzle_mode", ".swizzle_atomicity",
	".fill_mode", ".b1024", ".prefetch",
	/* matrix ops */
	".row", ".col", ".a", ".b", ".c", ".d", ".load", ".store", ".sp",
	".sp::ordered_metadata", ".block_scale", ".scale_vec::1X",
	".scale_vec::2X", ".scale_vec::4X", ".kind::f16", ".kind::tf32",
	".kind::f8f6f4", ".kind::i8", ".kind::mxf8f6f4", ".kind::mxf4",
	".kind::mxf4nvf4", ".ws", ".pack::16b", ".unpack::16b", ".wait::ld",
	".wait::st", ".collector::a::fill", ".collector::a::use",
	".collector::a::lastuse", ".collector::a::discard",
	".collector::b0::fill", ".collector::b0::use",
	".collector::b0::lastuse", ".collector::b0::discard",
	".collector::b1::fill", ".collector::b1::use",
	".collector::b1::lastuse", ".collector::b1::discard",
	".collector::b2::fill", ".collector::b2::use",
	".collector::b2::lastuse", ".collector::b2::discard",
	".collector::b3::fill", ".collector::b3::use",
	".collector::b3::lastuse", ".collector::b3::discard", ".block16",
	".block32",
	".before_thread_sync", ".after_thread_sync", ".warpx2::02_13",
	".warpx2::01_23", ".warpx4", ".ld", ".st", ".mma", ".fence", ".ashift",
	".commit_group", ".wait_group", ".mma_async",
	/* textures and surfaces */
	".1d", ".2d", ".3d", ".4d", ".5d", ".a1d", ".a2d", ".cube", ".acube",
	".2dms", ".a2dms", ".base", ".level", ".grad", ".g", ".p", ".trap",
	".zero", ".width", ".height", ".depth", ".channel_data_type",
	".channel_order", ".normalized_coords", ".filter_mode",
	".addr_mode_0", ".addr_mode_1", ".addr_mode_2", ".array_size",
	".num_mipmap_levels", ".num_samples", ".samplerref", ".texref",
	".surfref", ".force_unnormalized_coords", ".memory_layout",
	/* video instructions (vmad) and the rest */
	".po", ".shr7", ".shr15", ".mask", ".s2", ".u2", ".cp_mask",
	".get_first_ctaid::x", ".get_first_ctaid::y", ".get_first_ctaid::z",
	/* setmaxnreg */
	".dec", ".inc",
};

static Str *modtab;
static size_t nmodtab;

static void
modinit(void)
{
	size_t i, j, cap = 1;

	while (cap < 2 * countof(modnames))
		cap *= 2;
	modtab = xmalloc(cap * sizeof *modtab);
	memset(modtab, 0, cap * sizeof *modtab);
	nmodtab = cap;
	for (i = 0; i < countof(modnames); i++) {
		Str s = interns(modnames[i]);
		j = ((uintptr_t)s >> 4) & (cap - 1);
		while (modtab[j] && modtab[j] != s)
			j = (j + 1) & (cap - 1);
		modtab[j] = s;
	}
}

static int
digits(const char *s)
{
	const char *p = s;

	while (isdigit((unsigned char)*p))
		p++;
	return (int)(p - s);
}

/* Families too large to list: shapes .m16n8k16, .m64n256k16; tcgen05
 * shapes .32x32b, .16x256b, .16x32bx2, .128x256b; repeats .x128. */
static int
modfamily(const char *s)
{
	int n;

	s++;
	if (s[0] == 'm' && (n = digits(s + 1)) && s[1 + n] == 'n') {
		s += 2 + n;
		if (!(n = digits(s)) || s[n] != 'k')
			return 0;
		s += n + 1;
		return (n = digits(s)) && !s[n];
	}
	if (s[0] == 'x' && (n = digits(s + 1)) && !s[1 + n])
		return 1;
	if ((n = digits(s)) && s[n] == 'x' && (s += n + 1, n = digits(s))
	&& s[n] == 'b')
		return !s[n + 1] || !strcmp(s + n + 1, "x2");
	return 0;
}

int
modknown(Str s)
{
	size_t j;

	if (!modtab)
		modinit();
	j = ((uintptr_t)s >> 4) & (nmodtab - 1);
	for (; modtab[j]; j = (j + 1) & (nmodtab - 1))
		if (modtab[j] == s)
			return 1;
	return modfamily(s);
}

/* Longest dotted prefix of the opcode text that the table names.  The
 * table is small and lookups happen once per instruction, so a linear
 * probe per candidate prefix, from the longest, is enough. */
static int optabidx[512];
static int optabn;

static uint32_t
ophash(const char *s, size_t n)
{
	uint32_t h = 5381;

	while (n--)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static void
opinit(void)
{
	int i;
	uint32_t j;

	for (j = 0; j < countof(optabidx); j++)
		optabidx[j] = -1;
	for (i = 0; i < Ounknown; i++) {
		const char *s = opinfo[i].name;
		j = ophash(s, strlen(s)) & (countof(optabidx) - 1);
		while (optabidx[j] >= 0)
			j = (j + 1) & (countof(optabidx) - 1);
		optabidx[j] = i;
	}
	optabn = 1;
}

static int
opfind(const char *s, size_t n)
{
	uint32_t j = ophash(s, n) & (countof(optabidx) - 1);

	for (; optabidx[j] >= 0; j = (j + 1) & (countof(optabidx) - 1)) {
		const char *t = opinfo[optabidx[j]].name;
		if (!strncmp(t, s, n) && !t[n])
			return optabidx[j];
	}
	return -1;
}

int
oplookup(const char *s, size_t n, size_t *baselen)
{
	size_t k = n;
	int op;

	if (!optabn)
		opinit();
	for (;;) {
		if ((op = opfind(s, k)) >= 0) {
			*baselen = k;
			return op;
		}
		while (k > 0 && s[k - 1] != '.')
			k--;
		if (k == 0)
			break;
		k--;
	}
	for (k = 0; k < n && s[k] != '.'; k++)
		;
	*baselen = k;
	return Ounknown;
}

int
hasmod(const Stmt *s, const char *m)
{
	/* the byte after the '.' first: the passes ask this of every
	 * statement, and most modifiers differ from m there */
	for (uint32_t i = 0; i < s->nmod; i++)
		if (s->mod[i][1] == m[1] && !strcmp(s->mod[i], m))
			return 1;
	return 0;
}

/* Special registers whose value changes by itself: reading them is an
 * event that must keep its place. */
int
specialreg(Str s)
{
	/* what reads a clock or a counter: %clock, %clock_hi, %clock64,
	 * %globaltimer*, %pm0..%pm7 and %pm0_64..%pm7_64 (any %pm name:
	 * check accepts them all, and the validator fixes them all) */
	static const char *const v[] = {"%clock", "%globaltimer", "%pm"};

	for (size_t i = 0; i < countof(v); i++)
		if (!strncmp(s, v[i], strlen(v[i])))
			return 1;
	return 0;
}

/* An operand that reads a clock or counter, inside vectors too. */
static int
readsclock(const Opnd *o)
{
	for (uint32_t i = 0; i < o->nsub; i++)
		if (readsclock(&o->sub[i]))
			return 1;
	return o->kind == Preg && o->reg < 0 && specialreg(o->s);
}

/* The table's class, sharpened by modifiers and operands: carry-flag
 * arithmetic, strong or volatile memory operations, timers. */
Klass
opklass(const Stmt *s)
{
	Klass k = opinfo[s->op].klass;

	if (s->op == Ounknown)
		return Kfull;
	/* a timer read stays where it is, whatever else the instruction
	 * does (the validator fixes every one too) */
	if (k != Kctl)
		for (uint32_t i = 0; i < s->nop; i++)
			if (readsclock(&s->opd[i]))
				return Kfull;
	if (k == Kpure && hasmod(s, ".cc"))
		return Kcc;
	if ((k == Kld || k == Kst) && (hasmod(s, ".volatile")
	|| hasmod(s, ".acquire") || hasmod(s, ".release")
	|| hasmod(s, ".relaxed") || hasmod(s, ".mmio")))
		return Kord;
	return k;
}

/* Whether a wgmma.mma_async adds D: its scale-d operand (after d, a
 * and b, and after the sparsity metadata and selector with .sp) is a
 * predicate, and a literal 0 means D = A*B.  Triton and CUTLASS start
 * every accumulation so; counting D as read there keeps a whole
 * accumulator live around the loop that ptxas knows is dead. */
static int
wgmmaacc(const Stmt *s)
{
	uint32_t k = hasmod(s, ".sp") ? 5 : 3;
	const Opnd *o;

	if (k >= s->nop)
		return 1;
	o = &s->opd[k];
	return !(o->kind == Pint && !strcmp(o->s, "0"));
}

/* Does s write operand 0?  The table's answer, sharpened for forms a
 * row cannot spell: bar.red and barrier.red write a register; a call
 * writes its parenthesised return list; an address in first place is a
 * store, whatever the opcode; a wgmma that starts an accumulation
 * does not read D. */
Defs
opdefs(const Stmt *s)
{
	Defs d = opinfo[s->op].defs;

	if ((s->op == Obar || s->op == Obarrier) && s->nop
	&& s->opd[0].kind == Preg && hasmod(s, ".red"))
		return D0;
	if (d == DCALL)
		return s->nop && s->opd[0].kind == Plist ? D0 : DNO;
	if (s->nop && s->opd[0].kind == Paddr)
		return DNO;
	if (s->op == Owgmma_mma_async && !wgmmaacc(s))
		return D0;
	return d;
}
