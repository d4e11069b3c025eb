/**
 * Hardware facts from datasheets and specifications, in one place: the GPU-model database ({@link
 * dev.collsim.hardware.GpuModels}: SM, NVLink, PCIe, memory, peak FLOP/s, each with its source), the CPU database
 * ({@link dev.collsim.hardware.CpuModels}: root-port PCIe generation and lanes, socket-to-socket links) and the physical
 * (datasheet) rates of NVLink ({@link dev.collsim.hardware.NvlinkGen}) and PCIe ({@link dev.collsim.hardware.PcieGen})
 * links. These are what the hardware can do; the bandwidths NCCL's own model assigns to the same links are NCCL's
 * constants and live in {@code dev.collsim.topology.NcclBandwidths}.
 *
 * <p>This package depends on {@code dev.collsim.units} only.
 */
package dev.collsim.hardware;
