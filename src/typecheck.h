/* typecheck.h: check's rules of types (typecheck.c), as ptxas holds
 * them: what each operand of an instruction takes, the types an opcode
 * takes, its operand count, rounding, .ftz and .sat, special registers
 * and immediate addresses.  check.c asks of each instruction once
 * (types, typereport) and of each operand in its own walk (typeslot). */
#ifndef TYPECHECK_H
#define TYPECHECK_H

/* What each operand of an instruction takes, worked out once for each
 * opcode and list of modifiers (instructions spelled alike share one
 * list: Known below) from the opcode table's letters (ops.h, types). */
enum { Maxslot = 6, Waddr = 0xff };
typedef struct Mtypes {
	Str *mod;           /* the list read, or 0 */
	uint16_t op;
	uint8_t known;      /* every modifier known (modknown) */
	uint8_t nospecial;  /* no special register as an operand */
	uint8_t n;          /* slots to check; 0: none */
	uint8_t least, most;    /* operands it has; 0: not counted */
	uint8_t local;      /* .local: an address may be a number */
	uint8_t wider;      /* a bit a slot: it takes wider registers */
	uint8_t fixed;      /* a bit a slot: .u32 or .pred whatever the type */
	uint8_t want[Maxslot];  /* typecode, or Waddr, or 0: anything */
	Str bad;            /* a type the opcode does not take (typeset) */
	const char *round;  /* what is wrong with a cvt's rounding, or 0 */
	const char *need;   /* the rounding it needs one of (needs[]), */
	Str extra;          /* and one of the kind that is not of them */
	Str flush;          /* a .ftz or .sat the type does not take */
	Str cmp;            /* a setp comparison the type does not take */
	const char *wide;   /* what is wrong with a vector past 128 bits, */
	uint16_t widebits;  /* of these bits */
	uint8_t wrong;      /* any of the six above: typereport has to say */
} Mtypes;

/* Mtypes by modifier array: the statements of one opcode word share
 * theirs (parse.c, splitword), so a large function asks once a word,
 * not once a statement.  One check() keeps it: the arrays live as long
 * as the module. */
typedef struct Known {
	Mtypes ty[256], spare;
	int old;            /* .target sm_1x: mad.f32, div.f32 need no rounding */
	int sm, ptx88;      /* .target sm_NN (-1: none), .version 8.8 or later */
} Known;

const Mtypes *typesfill(Known *, Mtypes *, const Stmt *);

/* What s's operands want, by its modifier list, which is its word's own
 * (a file has a hundred words or so), probing: slots shared by turns
 * had been refilled ten thousand times over ocelot's Sort.  Inline: it
 * is asked of every instruction. */
static inline const Mtypes *
types(Known *kn, const Stmt *s)
{
	uint32_t h = (uint32_t)((uintptr_t)s->mod >> 3) * 0x9E3779B1u >> 24;

	for (uint32_t i = 0; s->mod && i < 8; i++) {
		Mtypes *e = &kn->ty[(h + i) % countof(kn->ty)];
		if (e->mod == s->mod && e->op == s->op)
			return e;
		if (!e->mod)
			return typesfill(kn, e, s);
	}
	return typesfill(kn, &kn->spare, s);
}
void typereport(Diag *, const Stmt *, const Mtypes *);

/* Has typereport anything to say? (Most instructions: no, asked inline) */
static inline int
typewrong(const Stmt *s, const Mtypes *y)
{
	return y->wrong || (y->most && (s->nop < y->least || s->nop > y->most));
}
void typeop(Diag *, const Func *, const Stmt *, const Opnd *, int, int);
void typeaddr(Diag *, const Func *, const Stmt *, const Opnd *);

/* Does a register of typecode r go where type t is wanted?  Of t's
 * size: of its kind, or either is .b (.u and .s are one kind); a
 * predicate only with a predicate.  wider (ld, st, cvt's scalars): a
 * .b, .u or .s type takes a larger .b, .u or .s register too, a .b
 * type a larger one of any kind, a float type a larger .b one.  Each
 * pair of 15 register types and the types of 90 instruction forms
 * tried with ptxas 13.0 (bench/RESULTS-trust.md, forty-seventh
 * session).  An .f16x2 register (Tkh) ptxas 13.0 takes as a 32-bit
 * integer, but not in a slot whose type the opcode fixes (fixed: shl's
 * amount, bfe's position, setp's and selp's predicates; as an address
 * neither), and, stranger, in a .pred slot of the instruction's type
 * (and.pred, mov.pred) as well. */
static inline int
fits(int t, int r, int wider, int fixed)
{
	int kt = tkind(t), kr = tkind(r);

	if (kr == Tkh)
		return !fixed && (kt == Tkp || ((kt == Tkb || kt == Tki)
			&& (tsize(t) == 3 || (wider && tsize(t) < 3))));
	if (kt == Tkp || kr == Tkp)
		return kt == kr;
	if (tsize(r) == tsize(t))
		return kt == Tkb || kr == Tkb || kt == kr;
	return wider && tsize(r) > tsize(t)
		&& (kt == Tkb || kr == Tkb || (kt == Tki && kr == Tki));
}

void typevecslot(Diag *, const Func *, const Stmt *, const Opnd *, int);
int typebits(Str);      /* .b32: 32, .f16x2: 32, .b128: 128; else 0 */

/* Registers of the wrong type, as ptxas's "Arguments mismatch": add.f32
 * with a .u32 register, add.u32 writing a .u64 one, shl's amount not 32
 * bits, ld.f32 into a .u32, setp writing a .b32.  An instruction with a
 * type this rule does not read (.f16x2, .bf16) and a register of one
 * (.v2, .f16x2: ptxas lets those by) are not checked, a vector's registers
 * by typevecslot (typecheck.c).  checkins asks of each operand k
 * below y's n as it walks them: most are registers of just the type
 * wanted, one compare each. */
static inline void
typeslot(Diag *d, const Func *f, const Stmt *s, const Mtypes *y, uint32_t k,
	const Opnd *o)
{
	int w = y->want[k];

	if (o->kind == Preg) {
		int r = o->reg >= 0 ? f->reg[o->reg].tcode : 0;
		if (r != w && r && w && w != Waddr
		&& !fits(w, r, y->wider >> k & 1, y->fixed >> k & 1))
			typeop(d, f, s, o, w, y->wider >> k & 1);
	} else if (o->kind == Pvec && w && w != Waddr && y->wider >> k & 1) {
		typevecslot(d, f, s, o, w);
	} else if (w == Waddr) {
		const Opnd *b = o->kind == Paddr && o->nsub ? o->sub : 0;
		int r = b && b->kind == Preg && b->reg >= 0
			? tkind(f->reg[b->reg].tcode) : 0;
		if (r == Tkf || r == Tkp || r == Tkh)
			typeaddr(d, f, s, b);
		else if (b && b->kind == Pint && !y->local)
			diag(d, "error", s->pos, s->text.off, s->text.len, "[%s] "
				"is an immediate address, which only .local "
				"takes (ptxas: immediate addresses allowed only "
				"for .local state space)", b->s);
	} else if (o->kind == Ppair && w == Tkp << 3)    /* setp's p|q */
		for (uint32_t i = 0; i < o->nsub; i++)
			if (o->sub[i].kind == Preg && o->sub[i].reg >= 0
			&& f->reg[o->sub[i].reg].tcode
			&& f->reg[o->sub[i].reg].tcode != w)
				typeop(d, f, s, &o->sub[i], w, 0);
}


#endif
