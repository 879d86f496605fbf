/* nvrtcc: compiles one CUDA source to PTX with a given libnvrtc, so that
 * tests meet what CUDA 11 and 12 emit (tools/gen-nvrtc.sh) without
 * their nvcc.  NVRTC is the nvcc front end and NVVM as a library; the
 * wheels on PyPI carry it, nvcc itself they do not.  The library is
 * opened at run time and its few entry points declared here, so no
 * CUDA header is needed to build this.
 *
 *   nvrtcc LIBNVRTC SOURCE OUT [NVRTC OPTIONS...]
 *
 * Exit status: 0 written, 1 the compiler refused the source (its log on
 * standard error), 2 usage, library or output trouble. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*Create)(void **, const char *, const char *, int,
	const char *const *, const char *const *);
typedef int (*Compile)(void *, int, const char *const *);
typedef int (*Size)(void *, size_t *);
typedef int (*Get)(void *, char *);
typedef int (*Destroy)(void **);

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *p = 0;
	long n;

	if (!f)
		return 0;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0
	&& fseek(f, 0, SEEK_SET) == 0 && (p = malloc((size_t)n + 1))) {
		if (fread(p, 1, (size_t)n, f) != (size_t)n) {
			free(p);
			p = 0;
		} else
			p[n] = 0;
	}
	fclose(f);
	return p;
}

/* dlsym returns void *; ISO C has no cast from it to a function
 * pointer, so the bits are copied into slot, as POSIX allows. */
static void
sym(void *lib, void *slot, const char *name)
{
	void *p = dlsym(lib, name);

	if (!p) {
		fprintf(stderr, "nvrtcc: no %s in the library\n", name);
		exit(2);
	}
	memcpy(slot, &p, sizeof p);
}

int
main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: nvrtcc LIBNVRTC SOURCE OUT "
			"[OPTIONS...]\n");
		return 2;
	}
	void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	char *src = slurp(argv[2]);
	if (!lib || !src) {
		fprintf(stderr, "nvrtcc: cannot open %s\n",
			lib ? argv[2] : dlerror());
		return 2;
	}
	Create create;
	Compile compile;
	Size logsize, ptxsize;
	Get getlog, getptx;
	Destroy destroy;
	sym(lib, &create, "nvrtcCreateProgram");
	sym(lib, &compile, "nvrtcCompileProgram");
	sym(lib, &logsize, "nvrtcGetProgramLogSize");
	sym(lib, &getlog, "nvrtcGetProgramLog");
	sym(lib, &ptxsize, "nvrtcGetPTXSize");
	sym(lib, &getptx, "nvrtcGetPTX");
	sym(lib, &destroy, "nvrtcDestroyProgram");
	void *prog = 0;
	size_t n = 0;
	char *text;
	int rc;

	if (create(&prog, src, argv[2], 0, 0, 0)) {
		fprintf(stderr, "nvrtcc: nvrtcCreateProgram failed\n");
		return 2;
	}
	free(src);
	rc = compile(prog, argc - 4, (const char *const *)argv + 4) ? 1 : 0;
	text = 0;
	if (rc) {               /* the compiler's log says why */
		if (!logsize(prog, &n) && (text = malloc(n + 1))
		&& !getlog(prog, text))
			fprintf(stderr, "%s", text);
	} else if (ptxsize(prog, &n) || !(text = malloc(n + 1))
	|| getptx(prog, text)) {
		fprintf(stderr, "nvrtcc: no PTX\n");
		rc = 2;
	} else {
		/* the size counts the final NUL, which is no part of the
		 * text */
		FILE *o = fopen(argv[3], "wb");
		size_t len = strlen(text);
		if (!o || fwrite(text, 1, len, o) != len || fclose(o)) {
			fprintf(stderr, "nvrtcc: cannot write %s\n", argv[3]);
			remove(argv[3]);
			rc = 2;
		}
	}
	free(text);
	destroy(&prog);
	return rc;
}
