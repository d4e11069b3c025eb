package dev.collsim.hardware;

import java.util.Objects;

/**
 * One network adapter family of the NIC database ({@link NicModels}): the PCIe generation and lanes of its host
 * interface and its network port speed, with their source. NCCL reads the NIC's own PCI link ({@code link_speed}, {@code link_width} of its
 * {@code <pci>} element, NCCL 2.30.7 {@code src/graph/xml.cc ncclTopoGetXmlFromSys}; bandwidth {@code width x speed
 * code / 80} in {@code src/graph/topo.cc ncclTopoAddPci}), so a GPU-NIC path is at most the NIC's link, whatever the
 * GPU's or the switch's generation. Immutable.
 *
 * @param family  the adapter family, e.g. {@code NVIDIA ConnectX-7}
 * @param pcieGen PCIe generation of its host interface
 * @param lanes     lanes of its host interface (x16 for the single-host cards collsim models), >= 1
 * @param portGbits speed of one network port, Gb/s (1e9 bit/s), > 0
 * @param source    datasheet the figures come from
 */
public record NicModel(String family, PcieGen pcieGen, int lanes, double portGbits, String source) {

    /** Validates the fields. */
    public NicModel {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(pcieGen, "pcieGen");
        Objects.requireNonNull(source, "source");
        if (lanes < 1) {
            throw new IllegalArgumentException(family + ": lanes must be >= 1, got " + lanes);
        }
        if (!(portGbits > 0)) {
            throw new IllegalArgumentException(family + ": portGbits must be > 0, got " + portGbits);
        }
    }

    /**
     * The generation the NIC's link to a port of generation {@code port} runs at: the lower of the two, as PCIe link
     * training settles on the highest rate both ends support (PCI Express Base Specification, LTSSM Recovery.Speed;
     * as {@link CpuModel#rootPort}).
     *
     * @param port the generation of the switch or root port the NIC sits on
     * @return the link's generation
     */
    public PcieGen link(PcieGen port) {
        return port.compareTo(pcieGen) <= 0 ? port : pcieGen;
    }

    /**
     * @param port lanes of the port the NIC sits on
     * @return the link's width: the fewer of the two
     */
    public int linkWidth(int port) {
        return Math.min(port, lanes);
    }
}
