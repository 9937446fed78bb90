// expect: TRN601 (a blocker: setup.py may compile it too)
__global__ void upfirdn_kernel(float* y, const float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}
