/* Loads CUBIN, launches its kernel 'pool' on GRID CTAs of 384 threads,
 * and waits at most 5 s: prints "done N/M" (threads that wrote 1) or
 * "HANG" and leaves at once (exit 3), the kernel still running. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define CK(x) do { CUresult e_ = (x); if (e_) { const char *s_; \
	cuGetErrorString(e_, &s_); printf("error %s: %s\n", #x, s_); \
	_exit(2); } } while (0)

int
main(int argc, char **argv)
{
	CUdevice d;
	CUcontext ctx;
	CUmodule m;
	CUfunction f;
	CUdeviceptr out;
	int grid = argc > 2 ? atoi(argv[2]) : 1;
	size_t n = (size_t)grid * 384;

	CK(cuInit(0));
	CK(cuDeviceGet(&d, 0));
	CK(cuDevicePrimaryCtxRetain(&ctx, d));
	CK(cuCtxSetCurrent(ctx));
	CK(cuModuleLoad(&m, argv[1]));
	CK(cuModuleGetFunction(&f, m, "pool"));
	CK(cuMemAlloc(&out, n * 4));
	CK(cuMemsetD32(out, 0, n));
	void *args[] = {&out};
	CK(cuLaunchKernel(f, grid, 1, 1, 384, 1, 1, 0, 0, args, 0));
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		CUresult r = cuStreamQuery(0);
		if (r == CUDA_SUCCESS)
			break;
		if (r != CUDA_ERROR_NOT_READY)
			CK(r);
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec >= 5) {
			printf("HANG\n");
			fflush(stdout);
			_exit(3);
		}
		usleep(1000);
	}
	unsigned *h = malloc(n * 4);
	size_t ones = 0;
	CK(cuMemcpyDtoH(h, out, n * 4));
	for (size_t i = 0; i < n; i++)
		ones += h[i] == 1;
	printf("done %zu/%zu\n", ones, n);
	return 0;
}
