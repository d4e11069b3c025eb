package dev.collsim.topology.catalog;

import dev.collsim.topology.NetworkClass;
import java.util.Objects;

/**
 * Hosts of a multi-host NVLink-domain type (a GB200/GB300 NVL72 compute tray) that each sit in an NVLink domain of
 * their own: trays of different racks, whose rack mates are not in the cluster. Each tray's GPUs meet on its own
 * NVLink switch node and the trays are joined only by their compute NICs, so NCCL (which makes one node of the GPUs
 * sharing an NVLink fabric clique, {@code src/graph/topo.cc} in NCCL 2.28) sees one node per tray. Everything else is
 * the tray's. Immutable.
 *
 * @param tray the host type whose hosts share NVLink domains when built as it is
 */
public record OwnNvlinkDomain(HostType tray) implements HostType {

    /** Validates the field. */
    public OwnNvlinkDomain {
        Objects.requireNonNull(tray, "tray");
    }

    @Override
    public String name() {
        return tray.name();
    }

    @Override
    public String displayName() {
        return tray.displayName();
    }

    @Override
    public String description() {
        return tray.description() + "; each host in an NVLink domain of its own";
    }

    @Override
    public int gpusPerHost() {
        return tray.gpusPerHost();
    }

    /** @return 1: no two hosts share an NVLink domain */
    @Override
    public int hostsPerNvlinkDomain() {
        return 1;
    }

    @Override
    public NetworkClass networkClass() {
        return tray.networkClass();
    }

    @Override
    public void addHost(HostContext ctx) {
        tray.addHost(ctx);
    }
}
