// proxyscan: what NCCL's network proxy pays, per LL line, before it posts an LL send (NCCL 2.26.2 and 2.30.7
// src/transport/net.cc sendProxyProgress, the LL branch: the send FIFO of LL is in pinned host memory even with
// GPUDirect RDMA (sendProxyConnect: p != NCCL_PROTO_LL && useGdr), and the proxy reads flag1 and flag2 of every
// 16-byte line of the step, from line 0, breaking at the first line not yet written, before calling isend).
//
// One persistent block of T threads on the GPU waits for a go word that the CPU writes into host memory, then
// stores N LL lines {data, flag, data, flag} to pinned host memory with NCCL's 16-byte volatile store (storeLL),
// thread t writing lines t, t+T, ... The CPU thread times, per round:
//   scan - from writing go until NCCL's scan loop (restart at line 0, break at the first line whose flags do not
//          match) has seen all N lines ready: GPU notice + GPU stores + the proxy's scan;
//   last - the same round with the CPU polling only line N-1 (written in the GPU's last wave), then scanning all
//          lines once: the scan's cost over lines already written is scan - last at large N.
// Output: key=value lines, median and 10th percentile of ROUNDS rounds per N, for collsim's data/device files.
// Build: nvcc -O2 -arch=native -o proxyscan proxyscan.cu     Run: ./proxyscan [threads]
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <chrono>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(2); } } while (0)

struct Line { uint32_t d0, f1, d1, f2; };

__device__ __forceinline__ void stv(void* p, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  asm volatile("st.volatile.global.v4.u32 [%0], {%1,%2,%3,%4};" :: "l"(p), "r"(a), "r"(b), "r"(c), "r"(d) : "memory");
}

__global__ void writer(Line* lines, volatile uint32_t* go, volatile uint32_t* quit, int n) {
  __shared__ uint32_t round;
  if (threadIdx.x == 0) round = 0;
  __syncthreads();
  for (;;) {
    if (threadIdx.x == 0) {
      uint32_t g;
      do { g = *go; } while (g == round && !*quit);
      round = *quit ? 0 : g;
    }
    __syncthreads();
    uint32_t r = round;
    if (r == 0) return;
    int len = (int)(r >> 16) ? (int)(r >> 16) : n;
    for (int i = threadIdx.x; i < len; i += blockDim.x) stv(lines + i, i, r, ~i, r);
    __syncthreads();
  }
}

static double nowUs() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char** argv) {
  int threads = argc > 1 ? std::atoi(argv[1]) : 512;
  const int maxLines = 8192, rounds = 2000;
  Line* lines; uint32_t* ctl;
  CK(cudaHostAlloc(&lines, maxLines * sizeof(Line), cudaHostAllocMapped));
  CK(cudaHostAlloc(&ctl, 2 * sizeof(uint32_t), cudaHostAllocMapped));
  std::fill((char*)lines, (char*)(lines + maxLines), 0);
  ctl[0] = 0; ctl[1] = 0;
  Line* dl; uint32_t* dc;
  CK(cudaHostGetDevicePointer(&dl, lines, 0));
  CK(cudaHostGetDevicePointer(&dc, ctl, 0));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device=%s threads=%d rounds=%d\n", prop.name, threads, rounds);
  writer<<<1, threads>>>(dl, dc, dc + 1, maxLines);
  CK(cudaGetLastError());
  volatile Line* vl = lines; volatile uint32_t* go = ctl;
  uint32_t seq = 0;
  int sizes[] = {16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
  for (int n : sizes) {
    for (int mode = 0; mode < 2; mode++) {
      std::vector<double> t;
      for (int k = 0; k < rounds + 100; k++) {
        seq = (seq + 1) & 0xffff; if (seq == 0) seq = 1;
        uint32_t r = ((uint32_t)n << 16) | seq;
        double t0 = nowUs();
        __sync_synchronize();
        *go = r;
        __sync_synchronize();
        if (mode == 1) { while (vl[n - 1].f1 != r || vl[n - 1].f2 != r) { } }
        for (;;) {  // NCCL sendProxyProgress, LL: every line's two flags, from line 0, break at the first not ready
          int ready = 1;
          for (int i = 0; i < n; i++) { if (vl[i].f1 != r || vl[i].f2 != r) { ready = 0; break; } }
          if (ready) break;
        }
        double t1 = nowUs();
        if (k >= 100) t.push_back(t1 - t0);
      }
      std::sort(t.begin(), t.end());
      std::printf("test=%s lines=%d line_bytes=%d median_us=%.3f p10_us=%.3f\n", mode ? "last" : "scan", n, n * 16,
                  t[t.size() / 2], t[t.size() / 10]);
      std::fflush(stdout);
    }
  }
  ctl[1] = 1; __sync_synchronize();
  CK(cudaDeviceSynchronize());
  return 0;
}
