// fifofootprint: does a GPU moving Simple-like traffic through pinned host memory (NCCL's SHM FIFO, NCCL 2.29.2
// src/transport/shm.cc: every protocol's buffer in the receiver's host memory) run faster when the FIFO's footprint is
// small, as it would if the host's last-level cache kept the lines the GPU just wrote (Intel Data Direct I/O writes
// inbound PCIe data into a share of the last-level cache)?
//
// Each block of 512 threads owns a ring of S slots of C bytes in one pinned host buffer. Iteration i stores C bytes
// to slot i % S (16-byte stores, 8 in flight per thread), fences (__threadfence_system, as NCCL's postPeer before the
// tail) and then loads slot (i + 1) % S, the one written S - 1 iterations ago (S = 1: the one just written), as a
// ring rank over SHM loads the slice its sender stored a few slices before (NCCL_STEPS 8 / SLICESTEPS 2: up to 4
// slices in flight a connection, src/device/prims_simple.h). Footprint = blocks x S x C. test=lag loads what the block
// wrote; test=cold loads the same offsets from a second buffer of the same footprint that the GPU never writes.
// rw_GBps_each_way = bytes stored (= bytes loaded) / time. Output: one key=value line per measurement.
// Build: nvcc -O2 -arch=native -o fifofootprint fifofootprint.cu      Run: ./fifofootprint
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(2); } } while (0)

constexpr int THREADS = 512;

// a 16-byte volatile load, as NCCL's reduceCopy reads a FIFO that another agent writes
__device__ __forceinline__ uint4 load16(const uint4* p) {
  uint4 v;
  asm volatile("ld.volatile.global.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p) : "memory");
  return v;
}

__global__ void ring(uint4* buf, const uint4* cold, size_t slotWords, int slots, int iters, bool useCold,
                     uint64_t* sink) {
  uint4* mine = buf + (size_t)blockIdx.x * slots * slotWords;
  const uint4* src = (useCold ? cold : buf) + (size_t)blockIdx.x * slots * slotWords;
  uint32_t acc = 0;
  for (int it = 0; it < iters; ++it) {
    uint4* w = mine + (size_t)(it % slots) * slotWords;
    for (size_t i = threadIdx.x; i < slotWords; i += 8 * THREADS) {
#pragma unroll
      for (int k = 0; k < 8; ++k) if (i + k * THREADS < slotWords) w[i + k * THREADS] = make_uint4(it, k, i, 7);
    }
    __threadfence_system();
    __syncthreads();
    const uint4* r = src + (size_t)((it + 1) % slots) * slotWords;
    for (size_t i = threadIdx.x; i < slotWords; i += 8 * THREADS) {
      uint4 v[8];
#pragma unroll
      for (int k = 0; k < 8; ++k) v[k] = i + k * THREADS < slotWords ? load16(r + i + k * THREADS) : make_uint4(0, 0, 0, 0);
#pragma unroll
      for (int k = 0; k < 8; ++k) acc += v[k].x ^ v[k].w;
    }
    __syncthreads();
  }
  if (acc == 0xdeadbeef) *sink = acc;
}

int main() {
  const char* where = std::getenv("HOSTREAD_NUMA") ? std::getenv("HOSTREAD_NUMA") : "default";
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  const size_t maxBytes = (size_t)512 << 20;
  std::printf("device=%s sms=%d pci=%04x:%02x:%02x numa=%s\n", prop.name, prop.multiProcessorCount,
              prop.pciDomainID, prop.pciBusID, prop.pciDeviceID, where);
  uint4 *buf, *bufDev, *cold, *coldDev; uint64_t* sink;
  CK(cudaHostAlloc(&buf, maxBytes, cudaHostAllocMapped | cudaHostAllocPortable));
  CK(cudaHostAlloc(&cold, maxBytes, cudaHostAllocMapped | cudaHostAllocPortable));
  CK(cudaHostGetDevicePointer(&bufDev, buf, 0));
  CK(cudaHostGetDevicePointer(&coldDev, cold, 0));
  CK(cudaMalloc(&sink, 8));
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  for (int blocks : {2, 8}) {
    for (size_t slot : {(size_t)64 << 10, (size_t)256 << 10, (size_t)1 << 20}) {
      for (int slots : {1, 2, 4, 8, 16, 32, 64, 128}) {
        size_t foot = (size_t)blocks * slots * slot;
        if (foot > maxBytes) continue;
        int iters = (int)std::max<size_t>(64, ((size_t)512 << 20) / (blocks * slot));  // 512 MiB stored a run
        for (int useCold = 0; useCold < 2; ++useCold) {
          auto go = [&] { ring<<<blocks, THREADS>>>(bufDev, coldDev, slot / 16, slots, iters, useCold, sink); };
          go(); CK(cudaDeviceSynchronize());
          float best = 1e30f;
          for (int rep = 0; rep < 3; ++rep) {
            CK(cudaEventRecord(a)); go(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
            float ms; CK(cudaEventElapsedTime(&ms, a, b)); best = std::min(best, ms);
          }
          CK(cudaGetLastError());
          double bytes = (double)blocks * iters * slot;
          std::printf("test=%s numa=%s blocks=%d slot_KiB=%zu slots=%d footprint_MiB=%.2f rw_GBps_each_way=%.3f\n",
                      useCold ? "cold" : "lag", where, blocks, slot >> 10, slots, foot / 1048576.0,
                      bytes / (best * 1e6));
          std::fflush(stdout);
        }
      }
    }
  }
  CK(cudaFreeHost(buf)); CK(cudaFreeHost(cold)); CK(cudaFree(sink));
  return 0;
}
