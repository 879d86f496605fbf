// saxpy.cu: the smallest CUDA program worth assembling.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void
ptxpress_saxpy(int n, float a, const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

int
main()
{
	const int n = 1 << 20;
	float *x, *y;
	if (cudaMallocManaged(&x, n * sizeof *x) != cudaSuccess
	|| cudaMallocManaged(&y, n * sizeof *y) != cudaSuccess) {
		std::printf("no GPU: built, not run\n");
		return 0;
	}
	for (int i = 0; i < n; i++) {
		x[i] = 1.0f;
		y[i] = 2.0f;
	}
	ptxpress_saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
	cudaDeviceSynchronize();
	std::printf("y[0] = %g (want 4)\n", y[0]);
	cudaFree(x);
	cudaFree(y);
	return y[0] == 4.0f ? 0 : 1;
}
