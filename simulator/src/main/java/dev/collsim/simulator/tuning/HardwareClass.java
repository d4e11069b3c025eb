package dev.collsim.simulator.tuning;

/**
 * The hardware link class NCCL's tuning model uses to pick a per-step latency (NCCL 2.30
 * {@code src/graph/tuning.cc}: {@code NCCL_HW_NVLINK} 0, {@code NCCL_HW_PCI} 1, {@code NCCL_HW_NET} 2).
 * An intra-host graph counts as NVLINK only when its {@code typeIntra} is exactly NVL; NVB counts as PCI.
 */
public enum HardwareClass {
    /** NVLink (intra-host path type exactly NVL). */
    NVLINK,
    /** PCIe and everything else inside a host. */
    PCI,
    /** The network (more than one host). */
    NET
}
