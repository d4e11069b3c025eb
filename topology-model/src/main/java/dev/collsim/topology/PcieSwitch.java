package dev.collsim.topology;

import java.util.Objects;

/**
 * A PCIe switch or bridge.
 *
 * @param id    unique id
 * @param host  host index
 * @param busId PCI bus id of the bridge (empty if unknown)
 */
public record PcieSwitch(String id, int host, String busId) implements Device {

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
