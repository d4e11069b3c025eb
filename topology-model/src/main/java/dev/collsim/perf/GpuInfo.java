package dev.collsim.perf;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One GPU a rank ran on, as CUDA reported it.
 *
 * @param rank            NCCL rank
 * @param hostname        host name of the process
 * @param pid             process id
 * @param device          CUDA device index
 * @param busId           PCI bus id, {@code dddd:bb:dd.f} (cudaDeviceGetPCIBusId)
 * @param name            device name, e.g. {@code NVIDIA H200}
 * @param smClockMhz      maximum SM clock, MHz (cudaDevAttrClockRate / 1000); 0 when unknown
 * @param memClockMhz     maximum memory clock, MHz (cudaDevAttrMemoryClockRate / 1000); 0 when unknown
 * @param memoryBytes     total device memory, bytes
 * @param multiprocessors number of SMs
 * @param computeCapability e.g. {@code 9.0}
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record GpuInfo(
        @JsonProperty("rank") int rank,
        @JsonProperty("hostname") String hostname,
        @JsonProperty("pid") long pid,
        @JsonProperty("device") int device,
        @JsonProperty("bus_id") String busId,
        @JsonProperty("name") String name,
        @JsonProperty("sm_clock_mhz") int smClockMhz,
        @JsonProperty("mem_clock_mhz") int memClockMhz,
        @JsonProperty("memory_bytes") long memoryBytes,
        @JsonProperty("multiprocessors") int multiprocessors,
        @JsonProperty("compute_capability") String computeCapability) {
}
