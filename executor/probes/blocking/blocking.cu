// What a blocking call costs beyond its host issue time and its GPU time (nccl-tests -z: each call waits for its
// stream before the next is issued). Three timings per call, each the mean over N calls on one stream, 5 repeats:
//   async    = N calls issued back to back, one wait at the end: the host's issue time per call when the GPU keeps up
//   blocking = each call issued, then cudaStreamQuery polled until the stream is idle (nccl-tests 2.19.6
//              src/common.cu testStreamSynchronize), then the next call
//   gpu      = N calls queued behind a 20 ms spin kernel, timed with two CUDA events: the GPU's own time per call
// for an empty kernel and for NCCL's one-rank ncclAllReduce of 8 bytes (a local copy kernel). The blocking round
// trip left over, blocking - async - gpu, is the launch-to-start and completion-to-detection latency.
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>
#include <nccl.h>

__global__ void empty() {}
__global__ void spin(long long cycles) {
    long long s = clock64();
    while (clock64() - s < cycles) {
    }
}

typedef std::chrono::steady_clock Clock;
static cudaStream_t stream;
static ncclComm_t comm;
static float *x, *y;

static void poll() {
    while (cudaStreamQuery(stream) == cudaErrorNotReady) {
    }
}
static void call(int which) {
    if (which == 0) {
        empty<<<1, 1, 0, stream>>>();
    } else {
        ncclAllReduce(x, y, 2, ncclFloat, ncclSum, comm, stream);
    }
}
static double hostUs(int which, int n, bool blocking) {
    Clock::time_point t0 = Clock::now();
    for (int i = 0; i < n; i++) {
        call(which);
        if (blocking) poll();
    }
    poll();
    return std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / n;
}
static double gpuUs(int which, int n) {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    spin<<<1, 1, 0, stream>>>(40000000LL);
    cudaEventRecord(a, stream);
    for (int i = 0; i < n; i++) call(which);
    cudaEventRecord(b, stream);
    cudaStreamSynchronize(stream);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    return 1000.0 * ms / n;
}

int main() {
    int dev = 0;
    cudaSetDevice(dev);
    cudaStreamCreate(&stream);
    ncclCommInitAll(&comm, 1, &dev);
    cudaMalloc(&x, 1 << 20);
    cudaMalloc(&y, 1 << 20);
    for (int w = 0; w < 100; w++) { call(0); call(1); }
    poll();
    const char* names[] = {"empty_kernel", "nccl_1rank_allreduce_8B"};
    for (int r = 0; r < 5; r++) {
        for (int which = 0; which < 2; which++) {
            double async = hostUs(which, 20000, false), blocking = hostUs(which, 20000, true);
            double gpu = gpuUs(which, 2000);
            printf("rep=%d call=%s async_us=%.3f blocking_us=%.3f gpu_us=%.3f round_trip_us=%.3f\n", r,
                   names[which], async, blocking, gpu, blocking - async - gpu);
        }
    }
    ncclCommDestroy(comm);
    return 0;
}
