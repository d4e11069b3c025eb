// hostread: how fast a GPU reads pinned host memory with the access patterns of NCCL's protocols over the SHM
// transport (FIFO in host memory, receiver GPU loads it over PCIe).
//
// Measures, on one GPU:
//   chase   - latency of one 16-byte volatile load from host memory (single thread, dependent pointer chase over
//             lines 4 KiB apart, random order); the same on device memory for reference.
//   poll    - LL-like reader: every thread spins on one 16-byte line until both flag words match, then moves on
//             (one load in flight per thread). Rate in line bytes and in data bytes (8 of 16).
//   multi   - K independent 16-byte volatile loads per thread in flight before the values are used (K = 1..16).
//   bulk    - plain 16-byte loads, 8 unrolled per thread, many blocks: the bandwidth ceiling (like Simple).
//   write   - 16-byte volatile stores to host memory (posted writes), the sender side.
// Output: one line per measurement, key=value, for collsim's data/device files.
// Build: nvcc -O2 -arch=native -o hostread hostread.cu      Run: ./hostread [MiB]
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <random>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(2); } } while (0)

struct Line { uint32_t d0, f0, d1, f1; };

__device__ __forceinline__ uint4 ldv(const void* p) {
  uint4 v;
  asm volatile("ld.volatile.global.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void stv(void* p, uint4 v) {
  asm volatile("st.volatile.global.v4.u32 [%0], {%1,%2,%3,%4};"
               :: "l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory");
}

// lines[i].d0 holds the index of the next line to visit
__global__ void chase(const Line* lines, int hops, unsigned long long* cycles, uint32_t* sink) {
  uint32_t idx = 0;
  long long t0 = clock64();
  for (int h = 0; h < hops; ++h) { uint4 v = ldv(lines + idx); idx = v.x; }
  long long t1 = clock64();
  *cycles = (unsigned long long)(t1 - t0);
  *sink = idx;
}

__global__ void poll(const Line* lines, size_t n, uint32_t flag, uint32_t* sink) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  uint32_t acc = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    uint4 v;
    do { v = ldv(lines + i); } while (v.y != flag || v.w != flag);
    acc += v.x + v.z;
  }
  if (acc == 0xdeadbeef) *sink = acc;
}

template <int K>
__global__ void multi(const Line* lines, size_t n, uint32_t* sink) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  uint32_t acc = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i + (K - 1) * stride < n; i += K * stride) {
    uint4 v[K];
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = ldv(lines + i + k * stride);
#pragma unroll
    for (int k = 0; k < K; ++k) acc += v[k].x ^ v[k].w;
  }
  if (acc == 0xdeadbeef) *sink = acc;
}

__global__ void bulk(const uint4* src, size_t n, uint32_t* sink) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  uint32_t acc = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i + 7 * stride < n; i += 8 * stride) {
    uint4 v[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) v[k] = src[i + k * stride];
#pragma unroll
    for (int k = 0; k < 8; ++k) acc += v[k].x ^ v[k].w;
  }
  if (acc == 0xdeadbeef) *sink = acc;
}

__global__ void store_lines(Line* lines, size_t n, uint32_t flag) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    stv(lines + i, make_uint4((uint32_t)i, flag, (uint32_t)i, flag));
}

template <typename F>
static float best_ms(F launch, int reps = 3) {
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  launch(); CK(cudaDeviceSynchronize());  // warm-up
  float best = 1e30f;
  for (int r = 0; r < reps; ++r) {
    CK(cudaEventRecord(a)); launch(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
    float ms; CK(cudaEventElapsedTime(&ms, a, b)); best = std::min(best, ms);
  }
  CK(cudaGetLastError());
  return best;
}

static void chase_test(const char* where, Line* host, Line* dev, size_t nLines, uint32_t* sink, int clockKHz) {
  const size_t spacing = 4096 / sizeof(Line);
  const int hops = 4096;
  size_t slots = std::min(nLines / spacing, (size_t)65536);
  std::vector<uint32_t> order(slots);
  for (size_t i = 0; i < slots; ++i) order[i] = (uint32_t)(i * spacing);
  std::mt19937 rng(7); std::shuffle(order.begin() + 1, order.end(), rng);
  std::vector<Line> img(nLines);
  for (size_t i = 0; i < slots; ++i) img[order[i]].d0 = order[(i + 1) % slots];
  unsigned long long* cyc; CK(cudaMalloc(&cyc, sizeof(*cyc)));
  for (int mem = 0; mem < 2; ++mem) {
    Line* target = mem == 0 ? host : dev;
    CK(cudaMemcpy(target, img.data(), nLines * sizeof(Line), cudaMemcpyHostToDevice));
    chase<<<1, 1>>>(target, 64, cyc, sink); CK(cudaDeviceSynchronize());
    chase<<<1, 1>>>(target, hops, cyc, sink); CK(cudaDeviceSynchronize());
    unsigned long long c; CK(cudaMemcpy(&c, cyc, sizeof(c), cudaMemcpyDeviceToHost));
    double ns = (double)c / hops / (clockKHz * 1e-6);
    std::printf("test=chase numa=%s memory=%s hops=%d ns_per_load=%.1f cycles_per_load=%.0f\n", where,
                mem == 0 ? "host" : "device", hops, ns, (double)c / hops);
  }
  CK(cudaFree(cyc));
}

int main(int argc, char** argv) {
  const char* where = std::getenv("HOSTREAD_NUMA") ? std::getenv("HOSTREAD_NUMA") : "default";
  size_t mib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 64;
  size_t bytes = mib << 20, n = bytes / sizeof(Line);
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  int clockKHz = 0; CK(cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, 0));
  std::printf("device=%s sms=%d clock_khz=%d pci=%04x:%02x:%02x bytes=%zu numa=%s\n", prop.name,
              prop.multiProcessorCount, clockKHz, prop.pciDomainID, prop.pciBusID, prop.pciDeviceID, bytes, where);
  Line *host, *hostDev, *dev; uint32_t* sink;
  CK(cudaHostAlloc(&host, bytes, cudaHostAllocMapped | cudaHostAllocPortable));
  CK(cudaHostGetDevicePointer(&hostDev, host, 0));
  CK(cudaMalloc(&dev, bytes)); CK(cudaMalloc(&sink, 4));

  chase_test(where, hostDev, dev, n, sink, clockKHz);

  const uint32_t flag = 0x5a5a0001u;
  store_lines<<<prop.multiProcessorCount, 512>>>(hostDev, n, flag); CK(cudaDeviceSynchronize());
  for (int threads : {256, 512}) {
    for (int blocks : {1, 2, 4, 8, 16, 32}) {
      float ms = best_ms([&] { poll<<<blocks, threads>>>(hostDev, n, flag, sink); });
      std::printf("test=poll numa=%s blocks=%d threads=%d line_GBps=%.3f data_GBps=%.3f\n", where, blocks, threads,
                  bytes / (ms * 1e6), bytes / 2 / (ms * 1e6));
    }
  }
  for (int blocks : {1, 2, 4}) {
    float m1 = best_ms([&] { multi<1><<<blocks, 512>>>(hostDev, n, sink); });
    float m2 = best_ms([&] { multi<2><<<blocks, 512>>>(hostDev, n, sink); });
    float m4 = best_ms([&] { multi<4><<<blocks, 512>>>(hostDev, n, sink); });
    float m8 = best_ms([&] { multi<8><<<blocks, 512>>>(hostDev, n, sink); });
    float m16 = best_ms([&] { multi<16><<<blocks, 512>>>(hostDev, n, sink); });
    std::printf("test=multi numa=%s blocks=%d threads=512 K1_GBps=%.3f K2_GBps=%.3f K4_GBps=%.3f K8_GBps=%.3f "
                "K16_GBps=%.3f\n", where, blocks, bytes / (m1 * 1e6), bytes / (m2 * 1e6), bytes / (m4 * 1e6),
                bytes / (m8 * 1e6), bytes / (m16 * 1e6));
  }
  for (int blocks : {1, 2, 4, 8, 32, 132}) {
    float ms = best_ms([&] { bulk<<<blocks, 512>>>((const uint4*)hostDev, bytes / 16, sink); });
    std::printf("test=bulk numa=%s blocks=%d threads=512 GBps=%.3f\n", where, blocks, bytes / (ms * 1e6));
  }
  for (int blocks : {1, 2, 4, 8}) {
    float ms = best_ms([&] { store_lines<<<blocks, 512>>>(hostDev, n, flag + 1); });
    std::printf("test=write numa=%s blocks=%d threads=512 GBps=%.3f\n", where, blocks, bytes / (ms * 1e6));
  }
  float ms = best_ms([&] { CK(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice)); });
  std::printf("test=memcpyH2D numa=%s GBps=%.3f\n", where, bytes / (ms * 1e6));
  ms = best_ms([&] { CK(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost)); });
  std::printf("test=memcpyD2H numa=%s GBps=%.3f\n", where, bytes / (ms * 1e6));
  CK(cudaFreeHost(host)); CK(cudaFree(dev)); CK(cudaFree(sink));
  return 0;
}
