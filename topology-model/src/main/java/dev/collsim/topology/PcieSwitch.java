package dev.collsim.topology;

import java.util.Objects;

/**
 * A PCIe switch or bridge.
 *
 * @param id    unique id
 * @param host  host index
 * @param busId PCI bus id of the bridge (empty if unknown)
 * @param hostBridge index of the CPU's PCIe host bridge (root complex) this switch hangs off, or -1 when unknown
 *              or when the switch is not directly below a CPU. Two devices below different host bridges of one
 *              NUMA node are {@code NODE} apart in {@code nvidia-smi topo -m}, below the same one {@code PHB}.
 */
public record PcieSwitch(String id, int host, String busId, int hostBridge) implements Device {

    /** A switch with an unknown host bridge. */
    public PcieSwitch(String id, int host, String busId) {
        this(id, host, busId, -1);
    }

    /** Validates the id. */
    public PcieSwitch {
        Objects.requireNonNull(id, "id");
        busId = busId == null ? "" : busId;
    }

    @Override
    public String ncclType() {
        return "PCI";
    }
}
