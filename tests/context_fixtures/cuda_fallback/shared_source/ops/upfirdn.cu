// expect: TRN601 (a blocker: fir.py builds it with no other path)
__global__ void upfirdn_kernel(float* y, const float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}
