// ll128read: how fast one GPU's CTA moves NCCL's LL128 protocol through pinned host memory, the FIFO of NCCL's SHM
// transport (NCCL 2.29.2 src/transport/shm.cc: every protocol's buffer in the receiver's host memory by default).
//
// The reader is NCCL 2.29.2 src/device/prims_ll128.h recvReduceSendCopy / GenericOp, restated: a CTA of T threads
// (NCCL_LL128_MAX_NTHREADS = 640, src/include/device.h) walks one step of the FIFO (NCCL_LL128_ELEMS_PER_THREAD 120 x
// 640 threads x 8 B = 614,400 B, src/init.cc DEFAULT_LL128_BUFFSIZE / NCCL_STEPS) in slices of 32 x 8 words per warp;
// per slice each thread issues 4 load128 (ld.volatile.global.v2.u64) 512 B apart, the flag thread of every 8
// ((tid % 8) == 7) compares its second word with the step's flag, the warp votes (__any_sync) and reloads the 4 lines
// before use; a barrier closes each step. The FIFO is filled beforehand with every flag set, so the sender is always
// ahead: this is the reader's own ceiling.
//
// Measures:
//   ll128      - the reader alone (recv), blocks x threads; reload=1 as NCCL, reload=0 without the second load (its cost)
//   ll128send  - the reader also stores each line with its flag to a second host buffer (recvReduceSend, both
//                directions of the link busy, as a ring rank over SHM)
//   simplerw   - plain 16-byte loads from one host buffer and stores to another, 8 per thread in flight (a Simple
//                ring rank over SHM, both directions); simpler = loads only, simplew = stores only
// GB/s = 1e9 B/s: wire_GBps counts 128-byte lines (loads counted once, not the reload), data_GBps the payload (120 of
// every 128 bytes). Output: one key=value line per measurement.
// Build: nvcc -O2 -arch=native -o ll128read ll128read.cu      Run: ./ll128read
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(2); } } while (0)

constexpr int WARP = 32;
constexpr int SHMEM_ELEMS = 8;                       // NCCL_LL128_SHMEM_ELEMS_PER_THREAD
constexpr int WIRE_PER_SLICE = WARP * SHMEM_ELEMS;   // words per warp per slice (2048 B)
constexpr int STEP_WORDS = 120 * 640;                // 614,400 B per step
constexpr int STEPS_PER_BLOCK = 16;
constexpr size_t WORDS_PER_BLOCK = (size_t)STEP_WORDS * STEPS_PER_BLOCK;
constexpr int MAX_BLOCKS = 16;

__device__ __forceinline__ void load128(const uint64_t* p, uint64_t& a, uint64_t& b) {
  asm volatile("ld.volatile.global.v2.u64 {%0,%1}, [%2];" : "=l"(a), "=l"(b) : "l"(p) : "memory");
}
__device__ __forceinline__ void store128(uint64_t* p, uint64_t a, uint64_t b) {
  asm volatile("st.volatile.global.v2.u64 [%0], {%1,%2};" :: "l"(p), "l"(a), "l"(b) : "memory");
}

template <bool RELOAD, bool SEND>
__global__ void ll128(const uint64_t* fifo, uint64_t* out, uint64_t flag, uint64_t* sink) {
  const int tid = threadIdx.x, wid = tid % WARP, warp = tid / WARP, nwarps = blockDim.x / WARP;
  const bool flagThread = (tid % 8) == 7;
  const uint64_t* base = fifo + blockIdx.x * WORDS_PER_BLOCK;
  uint64_t* obase = out + blockIdx.x * WORDS_PER_BLOCK;
  uint64_t acc = 0;
  for (size_t step = 0; step < WORDS_PER_BLOCK; step += STEP_WORDS) {
    __syncthreads();
    for (int off = WIRE_PER_SLICE * warp + 2 * wid; off < STEP_WORDS; off += WIRE_PER_SLICE * nwarps) {
      const uint64_t* ptr = base + step + off;
      uint64_t v[SHMEM_ELEMS];
      bool need;
      do {
        need = false;
#pragma unroll
        for (int u = 0; u < SHMEM_ELEMS; u += 2) {
          load128(ptr + u * WARP, v[u], v[u + 1]);
          need |= flagThread && (v[u + 1] != flag);
        }
      } while (__any_sync(0xffffffffu, need));
      if (RELOAD) {
#pragma unroll
        for (int u = 0; u < SHMEM_ELEMS; u += 2) load128(ptr + u * WARP, v[u], v[u + 1]);
      }
      if (SEND) {
#pragma unroll
        for (int u = 0; u < SHMEM_ELEMS; u += 2)
          store128(obase + step + off + u * WARP, v[u] + 1, flagThread ? flag + 1 : v[u + 1] + 1);
      } else {
#pragma unroll
        for (int u = 0; u < SHMEM_ELEMS; u += 2) acc += v[u] ^ v[u + 1];
      }
    }
  }
  if (acc == 0x1234567) *sink = acc;
}

__global__ void fill(uint64_t* w, size_t n, uint64_t flag) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    w[i] = (i % 16 == 15) ? flag : i;
}

// Simple-like traffic: R = read 8 x 16 B per thread, W = write them to a second buffer
template <bool R, bool W>
__global__ void simple(const uint4* src, uint4* dst, size_t n, uint64_t* sink) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  uint32_t acc = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i + 7 * stride < n; i += 8 * stride) {
    uint4 v[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) v[k] = R ? src[i + k * stride] : make_uint4(k, 1, 2, 3);
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      if (W) dst[i + k * stride] = v[k]; else acc += v[k].x ^ v[k].w;
    }
  }
  if (acc == 0xdeadbeef) *sink = acc;
}

template <typename F>
static float best_ms(F launch, int reps = 3) {
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  launch(); CK(cudaDeviceSynchronize());
  float best = 1e30f;
  for (int r = 0; r < reps; ++r) {
    CK(cudaEventRecord(a)); launch(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
    float ms; CK(cudaEventElapsedTime(&ms, a, b)); best = std::min(best, ms);
  }
  CK(cudaGetLastError());
  return best;
}

int main() {
  const char* where = std::getenv("HOSTREAD_NUMA") ? std::getenv("HOSTREAD_NUMA") : "default";
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  size_t words = WORDS_PER_BLOCK * MAX_BLOCKS, bytes = words * 8;
  std::printf("device=%s sms=%d pci=%04x:%02x:%02x numa=%s step_bytes=%d steps_per_block=%d\n", prop.name,
              prop.multiProcessorCount, prop.pciDomainID, prop.pciBusID, prop.pciDeviceID, where, STEP_WORDS * 8,
              STEPS_PER_BLOCK);
  uint64_t *fifo, *fifoDev, *out, *outDev, *sink;
  CK(cudaHostAlloc(&fifo, bytes, cudaHostAllocMapped | cudaHostAllocPortable));
  CK(cudaHostAlloc(&out, bytes, cudaHostAllocMapped | cudaHostAllocPortable));
  CK(cudaHostGetDevicePointer(&fifoDev, fifo, 0));
  CK(cudaHostGetDevicePointer(&outDev, out, 0));
  CK(cudaMalloc(&sink, 8));
  const uint64_t flag = 0x5a5a0001ull;
  fill<<<prop.multiProcessorCount, 512>>>(fifoDev, words, flag); CK(cudaDeviceSynchronize());
  for (int threads : {640, 320, 160}) {
    for (int blocks : {1, 2, 4, 8, 16}) {
      double b = (double)WORDS_PER_BLOCK * 8 * blocks;
      float r1 = best_ms([&] { ll128<true, false><<<blocks, threads>>>(fifoDev, outDev, flag, sink); });
      float r0 = best_ms([&] { ll128<false, false><<<blocks, threads>>>(fifoDev, outDev, flag, sink); });
      float s1 = best_ms([&] { ll128<true, true><<<blocks, threads>>>(fifoDev, outDev, flag, sink); });
      std::printf("test=ll128 numa=%s blocks=%d threads=%d reload1_wire_GBps=%.3f reload1_data_GBps=%.3f "
                  "reload0_wire_GBps=%.3f send_wire_GBps=%.3f send_data_GBps=%.3f\n", where, blocks, threads,
                  b / (r1 * 1e6), b * 15 / 16 / (r1 * 1e6), b / (r0 * 1e6), b / (s1 * 1e6),
                  b * 15 / 16 / (s1 * 1e6));
    }
  }
  size_t n16 = bytes / 16;
  for (int blocks : {1, 2, 4, 8, 16, 32, 132}) {
    float rw = best_ms([&] { simple<true, true><<<blocks, 512>>>((const uint4*)fifoDev, (uint4*)outDev, n16, sink); });
    float r = best_ms([&] { simple<true, false><<<blocks, 512>>>((const uint4*)fifoDev, (uint4*)outDev, n16, sink); });
    float w = best_ms([&] { simple<false, true><<<blocks, 512>>>((const uint4*)fifoDev, (uint4*)outDev, n16, sink); });
    std::printf("test=simple numa=%s blocks=%d threads=512 rw_GBps_each_way=%.3f r_GBps=%.3f w_GBps=%.3f\n", where,
                blocks, bytes / (rw * 1e6), bytes / (r * 1e6), bytes / (w * 1e6));
  }
  CK(cudaFreeHost(fifo)); CK(cudaFreeHost(out)); CK(cudaFree(sink));
  return 0;
}
