package dev.collsim.topology.catalog;

import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.NicVendor;
import java.util.Objects;

/**
 * Hosts of a multi-host NVLink-domain type (a GB200/GB300 NVL72 compute tray) in NVLink domains smaller than the
 * type's rack: {@code trays} trays per domain, e.g. trays of different racks whose rack mates are not in the cluster
 * (1 per domain), or racks cut into NVLink partitions. The trays of one domain meet on its NVLink switch node
 * ({@code nvl{d}/nvs0}; a tray alone in its domain on its own {@code h{h}/nvs0}) and domains are joined only by the
 * trays' compute NICs, so NCCL (which makes one node of the GPUs sharing an NVLink fabric clique, {@code
 * src/graph/topo.cc} in NCCL 2.28) sees one node per domain. Everything else is the tray's. Immutable.
 *
 * @param tray  the host type whose hosts share NVLink domains of {@link HostType#hostsPerNvlinkDomain()} when built
 *              as it is
 * @param trays trays per NVLink domain in this cluster, 1 to the tray type's domain size
 */
public record OwnNvlinkDomain(HostType tray, int trays) implements HostType {

    /**
     * Validates the fields.
     *
     * @throws IllegalArgumentException when trays is below 1 or above the tray type's domain
     */
    public OwnNvlinkDomain {
        Objects.requireNonNull(tray, "tray");
        if (trays < 1 || trays > Math.max(1, tray.hostsPerNvlinkDomain())) {
            throw new IllegalArgumentException("trays per NVLink domain must be 1 to "
                    + Math.max(1, tray.hostsPerNvlinkDomain()) + " for " + tray.name() + ", got " + trays);
        }
    }

    /**
     * Each tray in an NVLink domain of its own.
     *
     * @param tray the host type
     */
    public OwnNvlinkDomain(HostType tray) {
        this(tray, 1);
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
        return tray.description() + (trays == 1 ? "; each host in an NVLink domain of its own"
                : "; " + trays + " hosts per NVLink domain");
    }

    @Override
    public int gpusPerHost() {
        return tray.gpusPerHost();
    }

    /** @return {@link #trays}: the hosts that share one NVLink domain in this cluster */
    @Override
    public int hostsPerNvlinkDomain() {
        return trays;
    }

    /** @return the tray type's domain size (18 for NVL72), for what the cluster's text says of a full rack */
    public int rackTrays() {
        return tray.hostsPerNvlinkDomain();
    }

    @Override
    public NetworkClass networkClass() {
        return tray.networkClass();
    }

    @Override
    public NicVendor nicVendor() {
        return tray.nicVendor();
    }

    @Override
    public void addHost(HostContext ctx) {
        tray.addHost(ctx);
    }
}
