/* svg.c: the pressure plot.  One panel per function: pressure along the
 * instruction stream (the max per pixel column, so a spike never
 * vanishes in the downsampling), the cap as a step line, the floor,
 * block boundaries, and the top regions shaded and labelled.  Plain SVG
 * with no script or font from outside; the HTML page adds the PTX and
 * links from the regions to its lines. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

enum { W = 1200, H = 300, L = 56, R = 16, T = 34, B = 34 };

static void
esc(Buf *b, const char *s, size_t max)
{
	for (size_t n = 0; s && *s && n < max; s++, n++) {
		switch (*s) {
		case '<': bputs(b, "&lt;"); break;
		case '>': bputs(b, "&gt;"); break;
		case '&': bputs(b, "&amp;"); break;
		case '"': bputs(b, "&quot;"); break;
		default: bput(b, s, 1);
		}
	}
	if (s && *s)
		bputs(b, "\u2026");
}

typedef struct Axis { uint32_t n; uint32_t *idx; double ys; int ymax; }
	Axis;

static double
xat(Axis *a, uint32_t k)
{
	return L + (W - L - R) * (a->n > 1 ? (double)k / (a->n - 1) : 0.5);
}

static double
yat(Axis *a, int v)
{
	return T + (H - T - B) - v * a->ys;
}

/* Instruction ordinal of statement i (the x axis counts instructions). */
static uint32_t
ord(Axis *a, uint32_t i)
{
	uint32_t lo = 0, hi = a->n;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (a->idx[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < a->n ? lo : a->n - 1;
}

static void
curve(Buf *b, Func *f, Axis *a, const uint16_t *v, const char *style)
{
	int cols = W - L - R, prev = -1;

	bprintf(b, "<polyline fill=\"none\" %s points=\"", style);
	for (int c = 0; c < cols; c++) {
		uint32_t k0 = (uint32_t)((double)c * a->n / cols);
		uint32_t k1 = (uint32_t)((double)(c + 1) * a->n / cols);
		int m = -1;
		if (k1 <= k0)
			k1 = k0 + 1;
		for (uint32_t k = k0; k < k1 && k < a->n; k++)
			if (v[a->idx[k]] > m)
				m = v[a->idx[k]];
		if (m < 0)
			continue;
		if (m != prev && prev >= 0)
			bprintf(b, "%d,%.1f ", L + c, yat(a, prev));
		bprintf(b, "%d,%.1f ", L + c, yat(a, m));
		prev = m;
	}
	bputs(b, "\"/>\n");
	UNUSED(f);
}

static void
grid(Buf *b, Func *f, Axis *a)
{
	int step = a->ymax > 256 ? 64 : a->ymax > 96 ? 32 : 16;

	for (int y = 0; y <= a->ymax; y += step) {
		bprintf(b, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/>", L, W - R, yat(a, y), yat(a, y));
		bprintf(b, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" "
			"class=\"t\">%d</text>\n", L - 4, yat(a, y) + 4, y);
	}
	for (int k = 0; k <= 6 && a->n; k++) {
		uint32_t o = (uint32_t)((double)k / 6 * (a->n - 1));
		bprintf(b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
			"class=\"t\">line %u</text>", xat(a, o), H - B + 16,
			f->stmt[a->idx[o]].pos.line);
	}
	bprintf(b, "<text x=\"12\" y=\"%d\" class=\"t\" transform=\"rotate(-90"
		" 12 %d)\" text-anchor=\"middle\">32-bit registers</text>\n",
		(T + H - B) / 2, (T + H - B) / 2);
}

static void
blocks(Buf *b, Func *f, Axis *a)
{
	Ana *A = f->ana;
	double last = -10;

	for (uint32_t k = 1; k < A->nblk; k++) {
		double x = xat(a, ord(a, A->blk[k].first));
		if (x - last < 3)
			continue;   /* too dense to show each */
		bprintf(b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
			"stroke=\"#eee\"/>", x, x, T, H - B);
		last = x;
	}
	bputs(b, "\n");
}

static void
shade(Buf *b, Func *f, Axis *a, const Region *r, uint32_t nr,
	char (*label)[96], int link)
{
	for (uint32_t k = nr; k-- > 0;) {
		double x0 = xat(a, ord(a, r[k].first));
		double x1 = xat(a, ord(a, r[k].last));
		double ty = T + 12 + 12 * (k % 3);
		if (x1 - x0 < 3)
			x0 -= 1.5, x1 += 1.5;
		if (link)
			bprintf(b, "<a href=\"#L%u\">", f->stmt[r[k].at].pos.line);
		bprintf(b, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
			"height=\"%d\" fill=\"#f5a623\" fill-opacity=\"0.22\"/>",
			x0, T, x1 - x0, H - T - B);
		bprintf(b, "<text x=\"%.1f\" y=\"%.1f\" class=\"r\" "
			"text-anchor=\"%s\">#%u ", x0 < W / 2 ? x0 + 2 : x1 - 2, ty,
			x0 < W / 2 ? "start" : "end", k + 1);
		esc(b, label[k], 60);
		bputs(b, "</text>");
		if (link)
			bputs(b, "</a>");
		bputs(b, "\n");
	}
}

/* One panel; label[k] names region k (its source lines). */
void
svgpanel(Buf *b, Func *f, const Region *r, uint32_t nr,
	char (*label)[96], int y0, int link)
{
	Ana *A = f->ana;
	Axis a = {0};
	int top = A->peak;

	a.idx = xmalloc((f->nstmt + 1) * sizeof *a.idx);
	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Sins)
			a.idx[a.n++] = i;
	for (uint32_t k = 0; k < a.n; k++)
		if (A->cap[a.idx[k]] > top)
			top = A->cap[a.idx[k]];
	a.ymax = top + top / 10 + 1;
	a.ys = (double)(H - T - B) / a.ymax;
	bprintf(b, "<g transform=\"translate(0 %d)\">\n", y0);
	bprintf(b, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>", W, H);
	bputs(b, "<text x=\"8\" y=\"16\" class=\"h\">");
	esc(b, f->name, 90);
	bprintf(b, "</text><text x=\"%d\" y=\"16\" class=\"t\" "
		"text-anchor=\"end\">peak %d, floor %d, launch cap %d</text>\n",
		W - R, A->peak, A->floor, A->launch);
	if (a.n) {
		blocks(b, f, &a);
		grid(b, f, &a);
		shade(b, f, &a, r, nr, label, link);
		curve(b, f, &a, A->cap, "stroke=\"#d0021b\" "
			"stroke-width=\"1.5\" stroke-dasharray=\"6 3\"");
		curve(b, f, &a, A->press, "stroke=\"#1f5fbf\" "
			"stroke-width=\"1.2\"");
		bprintf(b, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#7b7b7b\" stroke-dasharray=\"2 3\"/>\n", L,
			W - R, yat(&a, A->floor), yat(&a, A->floor));
		bprintf(b, "<text x=\"%d\" y=\"%d\" class=\"t\">"
			"<tspan fill=\"#1f5fbf\">\u2014 pressure</tspan>  "
			"<tspan fill=\"#d0021b\">- - cap</tspan>  "
			"<tspan fill=\"#7b7b7b\">\u00b7\u00b7 floor</tspan>  "
			"<tspan fill=\"#c07800\">\u25a0 top regions</tspan>"
			"</text>\n", L, H - 6);
	}
	bputs(b, "</g>\n");
	free(a.idx);
}

void
svgbegin(Buf *b, int npanel)
{
	bprintf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">"
		"\n<style>.t{font-size:11px;fill:#444}.h{font-size:13px;"
		"font-weight:bold}.r{font-size:11px;fill:#8a5200}</style>\n",
		W, H * npanel, W, H * npanel);
}

int
svgheight(void)
{
	return H;
}
