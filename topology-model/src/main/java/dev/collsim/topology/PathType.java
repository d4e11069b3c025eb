package dev.collsim.topology;

/**
 * NCCL's path types, ordered from near to far (NCCL 2.30 {@code src/graph/topo.h}); the ordinal is NCCL's
 * number. A path's type is the worst link class along it (NCCL {@code src/graph/paths.cc}).
 */
public enum PathType {
    /** Same device. nvidia-smi {@code X}. */
    LOC("X"),
    /** Direct NVLink, also GPU to NVSwitch to GPU. nvidia-smi {@code NV#}. */
    NVL("NV"),
    /** NVLink through an intermediate GPU. No nvidia-smi label. */
    NVB(""),
    /** GPU to CPU over C2C (Grace). */
    C2C(""),
    /** At most one PCIe bridge. nvidia-smi {@code PIX}. */
    PIX("PIX"),
    /** Several PCIe bridges, no host bridge. nvidia-smi {@code PXB}. */
    PXB("PXB"),
    /** GPU to C2C to CPU to PCIe to NIC. */
    P2C(""),
    /** GPU to NVLink to peer GPU to PCIe to NIC. */
    PXN(""),
    /** Through a PCIe host bridge (CPU). nvidia-smi {@code PHB} or {@code NODE}. */
    PHB("PHB"),
    /** Across the inter-socket link (QPI/UPI/xGMI). nvidia-smi {@code SYS}. */
    SYS("SYS"),
    /** Over the network. */
    NET(""),
    /** Disconnected. */
    DIS("");

    private final String smiLabel;

    PathType(String smiLabel) {
        this.smiLabel = smiLabel;
    }

    /** @return the nvidia-smi {@code topo -m} label family, or empty when nvidia-smi has none */
    public String smiLabel() {
        return smiLabel;
    }

    /** @return true if this path is at least as near as {@code other} */
    public boolean atMost(PathType other) {
        return ordinal() <= other.ordinal();
    }

    /**
     * @return true for a path through a CPU's PCIe host bridge, PHB or SYS: where NCCL's P2P (SHM past the P2P level)
     *         and GPU Direct RDMA (host-memory buffers past the GDR level) rules look beyond the PCIe switches
     */
    public boolean throughCpu() {
        return this == PHB || this == SYS;
    }

    /** @return the farther of two types */
    public PathType max(PathType other) {
        return ordinal() >= other.ordinal() ? this : other;
    }
}
