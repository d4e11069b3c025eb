/**
 * Explains why measured collective performance falls short of what the hardware allows: compares achieved bus
 * bandwidth with bounds from the GPU and NIC, and reads the NCCL log and settings for known causes (too few
 * channels, NET/Socket instead of IB, GPUDirect RDMA off, P2P through the CPU, a downgraded PCIe link, NVLS off,
 * LL128 forced, a slow rank, runs that disagree, numbers that cannot be true). Every finding cites its evidence
 * as {@code file:line}.
 */
package dev.collsim.validation.diagnose;
