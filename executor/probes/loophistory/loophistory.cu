// Does a timed loop's speed depend on the loop that ran before it and the pause between them? nccl-tests times
// every size as one loop of back-to-back calls (2.19.6 src/common.cu BenchTime), out of place then in place, with a
// data check and re-initialisation between loops (TimeTest); under -g 8 one host thread does that for 8 GPUs in
// turn, so each GPU idles longer between loops than under one process per GPU. The A100 -g 8 files run slow after
// loops of <= 54 ms and at full speed after loops of >= 85 ms (docs/single-host-guesses.md section 4). This probe
// reproduces the pattern on one GPU with a CTA-bound copy (24 CTAs x 512 threads, 16-byte loads and stores, as an
// NCCL ring's 24 channels): a "before" loop of B ms, a host pause of P ms with the GPU idle, then a timed loop of
// 20 calls (CUDA events). It prints the timed loop's time per call and the SM clock the kernels saw (clock64 over
// %globaltimer, read by thread 0 of block 0 in the first and the last call of the timed loop).
#include <chrono>
#include <cstdio>
#include <thread>
#include <cuda_runtime.h>

__device__ unsigned long long gtime() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void copy(const int4* __restrict__ src, int4* __restrict__ dst, size_t n, unsigned long long* stamp) {
    unsigned long long c0 = 0, t0 = 0;
    if (stamp && blockIdx.x == 0 && threadIdx.x == 0) { c0 = clock64(); t0 = gtime(); }
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        dst[i] = src[i];
    }
    if (stamp && blockIdx.x == 0 && threadIdx.x == 0) {
        stamp[0] = clock64() - c0;
        stamp[1] = gtime() - t0;
    }
}

static int4 *src, *dst;
static unsigned long long* stamp;
static cudaStream_t st;
static const int CTAS = 24, THREADS = 512;

// Runs calls back to back until about ms milliseconds of GPU time are queued (from the measured per-call time).
static void busy(double ms, double callUs, size_t n) {
    int calls = (int)(ms * 1000.0 / callUs) + 1;
    for (int i = 0; i < calls; i++) copy<<<CTAS, THREADS, 0, st>>>(src, dst, n, nullptr);
    cudaStreamSynchronize(st);
}

static double clockMhz() {
    unsigned long long h[2];
    cudaMemcpy(h, stamp, sizeof(h), cudaMemcpyDeviceToHost);
    return h[1] ? (double)h[0] * 1000.0 / (double)h[1] : 0.0;
}

// One timed loop of 20 calls; returns us per call and the SM clock of its first and last call.
static double timed(size_t n, double* mhzFirst, double* mhzLast) {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a, st);
    copy<<<CTAS, THREADS, 0, st>>>(src, dst, n, stamp);
    cudaEventRecord(b, st);
    cudaEventSynchronize(b);
    *mhzFirst = clockMhz();
    float first;
    cudaEventElapsedTime(&first, a, b);
    cudaEventRecord(a, st);
    for (int i = 0; i < 19; i++) copy<<<CTAS, THREADS, 0, st>>>(src, dst, n, i == 18 ? stamp : nullptr);
    cudaEventRecord(b, st);
    cudaEventSynchronize(b);
    *mhzLast = clockMhz();
    float rest;
    cudaEventElapsedTime(&rest, a, b);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return (first + rest) * 1000.0 / 20.0;
}

int main() {
    size_t maxBytes = (size_t)1 << 30;
    cudaStreamCreate(&st);
    cudaMalloc(&src, maxBytes);
    cudaMalloc(&dst, maxBytes);
    cudaMalloc(&stamp, 2 * sizeof(unsigned long long));
    cudaMemset(src, 1, maxBytes);
    size_t small = ((size_t)16 << 20) / 16;  // 16 MiB per call, for the "before" loops
    double m1, m2;
    timed(small, &m1, &m2);
    double smallUs = timed(small, &m1, &m2);
    printf("# per-call time of the 16 MiB filler copy: %.2f us; SM clock %.0f / %.0f MHz\n", smallUs, m1, m2);
    const double befores[] = {2, 25, 50, 100, 300};
    const double pauses[] = {0.2, 5, 20, 100};
    const size_t sizesMiB[] = {8, 64, 256, 1024};
    printf("size_MiB before_ms pause_ms us_per_call sm_mhz_first sm_mhz_last\n");
    for (int rep = 0; rep < 2; rep++) {
        for (size_t mib : sizesMiB) {
            size_t n = (mib << 20) / 16;
            for (double bms : befores) {
                for (double pms : pauses) {
                    busy(bms, smallUs, small);
                    std::this_thread::sleep_for(std::chrono::microseconds((long)(pms * 1000)));
                    double us = timed(n, &m1, &m2);
                    printf("%zu %.0f %.1f %.2f %.0f %.0f\n", mib, bms, pms, us, m1, m2);
                    fflush(stdout);
                }
            }
        }
    }
    return 0;
}
