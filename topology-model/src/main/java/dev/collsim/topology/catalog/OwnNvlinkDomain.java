package dev.collsim.topology.catalog;

import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.NicVendor;
import java.util.Objects;
import java.util.Optional;

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

    /**
     * @return the tray's description with the NVLink domains of this cluster in place of the rack's: a catalog system
     *         ({@link SystemHost}) names its domain of {@code trays} trays where the data file names the rack's 72-GPU
     *         domain; another tray type adds the trays per domain
     */
    @Override
    public String description() {
        if (tray instanceof SystemHost s) {
            return s.description(trays);
        }
        return tray.description() + (trays == 1 ? "; each tray in an NVLink domain of its own"
                : "; " + trays + " trays per NVLink domain");
    }

    /**
     * The one check of a trays-per-domain value, shared by {@code --trays-per-domain}, a YAML cluster's
     * {@code traysPerDomain} and a what-if variant's {@code trays-per-domain}: the hosts must be trays of a multi-host
     * NVLink domain, the value 1 to the rack's trays, and a divisor of the tray count (domains of equal size: NCCL
     * makes one node per NVLink domain, and collsim's node model assumes nodes of equal size).
     *
     * @param type  the hosts' type (a type already split into domains is read as its tray)
     * @param count trays in the cluster
     * @param n     the trays per NVLink domain asked for
     * @return empty when {@code n} is allowed, else what was found and what is allowed
     */
    public static Optional<String> problem(HostType type, int count, int n) {
        HostType t = trayOf(type);
        if (t.hostsPerNvlinkDomain() < 2) {
            return Optional.of("found " + n + " for hosts " + t.name() + ", whose NVLink stays inside the"
                    + " host; allowed only for a tray of a multi-host NVLink domain (an NVL72 type such as"
                    + " gb300-nvl72, a4x-maxgpu-4g-metal)");
        }
        if (n < 1 || n > t.hostsPerNvlinkDomain()) {
            return Optional.of("found " + n + "; allowed: 1 to " + t.hostsPerNvlinkDomain()
                    + " (the trays of one " + t.name() + " rack)");
        }
        if (count % n != 0) {
            return Optional.of("found " + n + " for " + count + " trays; allowed: a divisor of the tray"
                    + " count (" + divisors(count) + "), so every NVLink domain holds as many trays");
        }
        return Optional.empty();
    }

    /** @return the tray type of {@code type}: its {@link #tray()} when split into domains, else itself */
    public static HostType trayOf(HostType type) {
        return type instanceof OwnNvlinkDomain o ? o.tray() : type;
    }

    private static String divisors(int n) {
        StringBuilder b = new StringBuilder();
        for (int d = 1; d <= n; d++) {
            if (n % d == 0) {
                b.append(b.length() == 0 ? "" : ", ").append(d);
            }
        }
        return b.toString();
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
