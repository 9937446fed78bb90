// expect: TRN601 (an advisory: compiled only by bias_act.py's plugin)
#include <cuda_runtime.h>

template <typename T>
__global__ void bias_act_kernel(T* y, const T* x, const T* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] + b[i];
}

template <typename T>
void launch_bias_act(T* y, const T* x, const T* b, int n) {
    bias_act_kernel<T><<<(n + 255) / 256, 256>>>(y, x, b, n);
}
