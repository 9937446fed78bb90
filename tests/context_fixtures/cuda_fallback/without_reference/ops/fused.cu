// expect: TRN601 (a blocker: the only build of it has no other path)
__global__ void fused_kernel(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.f;
}
