package dev.collsim.topology.edit;

import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.units.Bandwidth;
import java.util.ArrayList;
import java.util.List;

/**
 * What a what-if changes in a cluster built from a {@link dev.collsim.topology.fabric.ClusterSpec}; a null field keeps
 * the base's value. Applied by {@link ClusterEditor}. Immutable.
 *
 * @param hosts            host count, >= 1
 * @param hostType         catalog host type name, e.g. {@code dgx-a100} (checked when applied)
 * @param nicSpeed         speed of every compute NIC (the fabric's cables follow it)
 * @param nicsPerHost      compute NICs (rails) cabled per host: the first N by rail
 * @param fabric           the fabric shape
 * @param oversubscription leaf down-link over up-link bandwidth, >= 1
 * @param nvlinkGBps       NVLink bandwidth per GPU per direction, GB/s (1e9 B/s; an NVLink generation what-if)
 * @param leafRadix        host-facing ports per leaf switch (fewer ports spread hosts over more leaves)
 * @param network          the transport between hosts ({@link NetworkClass}: InfiniBand, RoCE, EFA, TCPXO,
 *                         sockets, Slingshot): which network figures the performance model uses; the graph is unchanged
 * @param traysPerDomain   trays of a rack-scale type (NVL72) per NVLink domain, as {@code --trays-per-domain}
 *                         ({@link dev.collsim.topology.fabric.ClusterSpec#withTraysPerDomain}; checked when applied)
 */
public record ClusterEdits(Integer hosts, String hostType, Bandwidth nicSpeed, Integer nicsPerHost, FabricKind fabric,
        Double oversubscription, Double nvlinkGBps, Integer leafRadix, NetworkClass network, Integer traysPerDomain) {

    /**
     * The edits without a trays-per-domain change.
     *
     * @param hosts            host count
     * @param hostType         catalog host type name
     * @param nicSpeed         speed of every compute NIC
     * @param nicsPerHost      compute NICs per host
     * @param fabric           the fabric shape
     * @param oversubscription leaf oversubscription
     * @param nvlinkGBps       NVLink bandwidth per GPU per direction, GB/s
     * @param leafRadix        host-facing ports per leaf switch
     * @param network          the transport between hosts
     */
    public ClusterEdits(Integer hosts, String hostType, Bandwidth nicSpeed, Integer nicsPerHost, FabricKind fabric,
            Double oversubscription, Double nvlinkGBps, Integer leafRadix, NetworkClass network) {
        this(hosts, hostType, nicSpeed, nicsPerHost, fabric, oversubscription, nvlinkGBps, leafRadix, network, null);
    }

    /**
     * The edits without a network change.
     *
     * @param hosts            host count
     * @param hostType         catalog host type name
     * @param nicSpeed         speed of every compute NIC
     * @param nicsPerHost      compute NICs per host
     * @param fabric           the fabric shape
     * @param oversubscription leaf oversubscription
     * @param nvlinkGBps       NVLink bandwidth per GPU per direction, GB/s
     * @param leafRadix        host-facing ports per leaf switch
     */
    public ClusterEdits(Integer hosts, String hostType, Bandwidth nicSpeed, Integer nicsPerHost, FabricKind fabric,
            Double oversubscription, Double nvlinkGBps, Integer leafRadix) {
        this(hosts, hostType, nicSpeed, nicsPerHost, fabric, oversubscription, nvlinkGBps, leafRadix, null, null);
    }

    /** No change. */
    public static final ClusterEdits NONE = new ClusterEdits(null, null, null, null, null, null, null, null);

    /** The edits, each with the name the what-if report spec gives it (used in messages). */
    public enum Field {
        /** Host count. */
        HOSTS("hosts"),
        /** Catalog host type. */
        HOST_TYPE("host-type"),
        /** Compute NIC speed. */
        NIC_SPEED("nic-speed"),
        /** Compute NICs (rails) per host. */
        NICS_PER_HOST("nics-per-host"),
        /** Fabric shape. */
        FABRIC("fabric"),
        /** Leaf oversubscription. */
        OVERSUBSCRIPTION("oversubscription"),
        /** NVLink bandwidth per GPU. */
        NVLINK("nvlink"),
        /** Host-facing ports per leaf. */
        LEAF_RADIX("leaf-radix"),
        /** Transport between hosts. */
        NETWORK("network"),
        /** Trays of a rack-scale type per NVLink domain. */
        TRAYS_PER_DOMAIN("trays-per-domain");

        private final String key;

        Field(String key) {
            this.key = key;
        }

        /** @return the report spec's key, e.g. {@code nics-per-host} */
        public String key() {
            return key;
        }
    }

    /** @return true when nothing changes */
    public boolean isEmpty() {
        return equals(NONE);
    }

    /** @param n host count; @return a copy with another host count */
    public ClusterEdits withHosts(int n) {
        return new ClusterEdits(n, hostType, nicSpeed, nicsPerHost, fabric, oversubscription, nvlinkGBps, leafRadix,
                network, traysPerDomain);
    }

    /** @return a copy that keeps the base's host count (for a text that says the count in its own words) */
    public ClusterEdits withoutHosts() {
        return new ClusterEdits(null, hostType, nicSpeed, nicsPerHost, fabric, oversubscription, nvlinkGBps, leafRadix,
                network, traysPerDomain);
    }

    /** @param n compute NICs per host; @return a copy cabling only the first {@code n} compute NICs of each host */
    public ClusterEdits withNicsPerHost(int n) {
        return new ClusterEdits(hosts, hostType, nicSpeed, n, fabric, oversubscription, nvlinkGBps, leafRadix, network,
                traysPerDomain);
    }

    /** @return the changes in words, e.g. {@code 4 hosts, NIC 200 Gb/s}; empty when none */
    public String describe() {
        return describe(false);
    }

    /**
     * @param trays true when the hosts are trays of a rack-scale type (NVL72), whose host count is a tray count
     * @return the changes in words, e.g. {@code 4 hosts, NIC 200 Gb/s}, or for trays {@code 8 trays, 2 trays per
     *         NVLink domain}; empty when none
     */
    public String describe(boolean trays) {
        List<String> parts = new ArrayList<>();
        String host = trays ? "tray" : "host";
        if (hostType != null) {
            parts.add(hostType);
        }
        if (hosts != null) {
            parts.add(hosts + " " + host + (hosts == 1 ? "" : "s"));
        }
        if (traysPerDomain != null) {
            parts.add(traysPerDomain + (traysPerDomain == 1 ? " tray" : " trays") + " per NVLink domain");
        }
        if (nicsPerHost != null) {
            parts.add(nicsPerHost + " NICs/" + host);
        }
        if (nicSpeed != null) {
            parts.add("NIC " + Math.round(nicSpeed.gbits()) + " Gb/s");
        }
        if (fabric != null) {
            parts.add(fabric.yamlName());
        }
        if (oversubscription != null) {
            parts.add(ratio(oversubscription));
        }
        if (nvlinkGBps != null) {
            parts.add("NVLink " + nvlinkGBps + " GB/s per GPU");
        }
        if (leafRadix != null) {
            parts.add(leafRadix + " ports per leaf");
        }
        if (network != null) {
            parts.add("over " + network.label());
        }
        return String.join(", ", parts);
    }

    /**
     * @param downPerUp leaf down/up ratio
     * @return the ratio as cluster YAML and {@code --oversubscription} write it: {@code 2:1 oversubscribed},
     *         {@code 1.5:1 oversubscribed}, or {@code 1:1 (non-blocking)}
     */
    static String ratio(double downPerUp) {
        if (downPerUp == 1) {
            return "1:1 (non-blocking)";
        }
        String down = downPerUp == Math.rint(downPerUp) ? String.valueOf((long) downPerUp) : String.valueOf(downPerUp);
        return down + ":1 oversubscribed";
    }
}
