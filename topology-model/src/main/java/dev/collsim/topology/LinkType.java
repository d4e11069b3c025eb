package dev.collsim.topology;

/**
 * Link types, mapped to NCCL's (NCCL 2.30 {@code src/graph/topo.h}: LOC 0, NVL 1, C2C 3, PCI 4, SYS 9, NET 10).
 */
public enum LinkType {
    /** Local or virtual link (NCCL LOC). */
    LOC("LOC"),
    /** NVLink, GPU-GPU or GPU-NVSwitch (NCCL NVL). */
    NVLINK("NVL"),
    /** Chip-to-chip, e.g. Grace-Hopper NVLink-C2C (NCCL C2C). */
    C2C("C2C"),
    /** PCIe (NCCL PCI). */
    PCIE("PCI"),
    /** Inter-CPU SMP link: QPI, UPI, xGMI (NCCL SYS). */
    SMP("SYS"),
    /** Network cable: NIC-switch or switch-switch (NCCL NET). */
    NET("NET");

    private final String ncclName;

    LinkType(String ncclName) {
        this.ncclName = ncclName;
    }

    /** @return NCCL's link type name */
    public String ncclName() {
        return ncclName;
    }
}
