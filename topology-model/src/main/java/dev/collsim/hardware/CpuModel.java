package dev.collsim.hardware;

import dev.collsim.units.Bandwidth;
import java.util.Objects;
import java.util.Optional;

/**
 * A server CPU family's I/O facts from its vendor's datasheet or product page: the PCIe generation and lanes of its
 * root ports, and the links that join two sockets. One record of the CPU database ({@link CpuModels}). Immutable.
 *
 * @param family      family name, e.g. {@code AMD EPYC 7003 (Milan)}
 * @param vendor      vendor string as NCCL's topology names it: {@code GenuineIntel}, {@code AuthenticAMD},
 *                    {@code NVIDIA}
 * @param pcieGen     PCIe generation of the CPU's root ports
 * @param pcieLanes   PCIe lanes per socket (one socket of a two-socket system)
 * @param socketLink  the socket-to-socket link's name: {@code QPI}, {@code UPI}, {@code xGMI}; empty when the
 *                    database gives none
 * @param socketLinks socket-to-socket links between two sockets, 0 when none is given
 * @param linkGtps    transfer rate per lane of one socket link, GT/s (0 when none is given)
 * @param linkGBps    one socket link's bandwidth per direction, GB/s (1e9 B/s; 0 when none is given)
 * @param source      where the figures are read, and how the link bandwidth is worked out
 */
public record CpuModel(String family, String vendor, PcieGen pcieGen, int pcieLanes, String socketLink,
        int socketLinks, double linkGtps, double linkGBps, String source) {

    /** Validates the fields. */
    public CpuModel {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(vendor, "vendor");
        Objects.requireNonNull(pcieGen, "pcieGen");
        Objects.requireNonNull(socketLink, "socketLink");
        Objects.requireNonNull(source, "source");
        if (pcieLanes < 1 || socketLinks < 0 || linkGBps < 0 || socketLinks > 0 != linkGBps > 0) {
            throw new IllegalArgumentException(family + ": PCIe lanes must be positive, and socket links and their"
                    + " bandwidth both given or both 0");
        }
    }

    /**
     * @return the socket-to-socket bandwidth per direction, all links together ({@code socketLinks x linkGBps}), empty
     *         when the database gives no socket link for the family
     */
    public Optional<Bandwidth> interSocket() {
        return socketLinks == 0 ? Optional.empty() : Optional.of(Bandwidth.ofGBps(socketLinks * linkGBps));
    }

    /**
     * The generation a link between this CPU's root port and a device runs at: the lower of the two, as PCIe link
     * training settles on the highest rate both ends support (PCI Express Base Specification, LTSSM Recovery.Speed).
     *
     * @param device the generation of the device on the root port (a GPU, a NIC or a PCIe switch)
     * @return the link's generation
     */
    public PcieGen rootPort(PcieGen device) {
        return device.compareTo(pcieGen) <= 0 ? device : pcieGen;
    }
}
