package dev.collsim.reports.spec;

import dev.collsim.units.Bandwidth;
import java.util.ArrayList;
import java.util.List;

/**
 * What a what-if variant changes in the base cluster; a null field keeps the base's value. Immutable.
 *
 * @param hosts            host count
 * @param hostType         catalog host type, e.g. {@code dgx-a100}
 * @param nicSpeed         speed of every compute NIC
 * @param nicsPerHost      compute NICs (rails) per host
 * @param fabric           {@code single-switch}, {@code fat-tree} or {@code rail}
 * @param oversubscription leaf down-link over up-link bandwidth of a fat-tree, >= 1
 * @param nvlinkGBps       NVLink bandwidth per GPU per direction, GB/s (an NVLink generation what-if)
 * @param leafRadix        host-facing ports per leaf switch (fewer ports spread hosts over more leaves)
 */
public record ClusterEdits(Integer hosts, String hostType, Bandwidth nicSpeed, Integer nicsPerHost, String fabric,
        Double oversubscription, Double nvlinkGBps, Integer leafRadix) {

    /** The fabric kinds a variant may name. */
    public static final List<String> FABRICS = List.of("single-switch", "fat-tree", "rail");

    /** No change. */
    public static final ClusterEdits NONE = new ClusterEdits(null, null, null, null, null, null, null, null);

    /** @return true when nothing changes */
    public boolean isEmpty() {
        return equals(NONE);
    }

    /** @return a copy with another host count */
    public ClusterEdits withHosts(int n) {
        return new ClusterEdits(n, hostType, nicSpeed, nicsPerHost, fabric, oversubscription, nvlinkGBps, leafRadix);
    }

    /** @return the changes in words, e.g. {@code hosts=4, NIC 200 Gb/s}; empty when none */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (hostType != null) {
            parts.add(hostType);
        }
        if (hosts != null) {
            parts.add(hosts + (hosts == 1 ? " host" : " hosts"));
        }
        if (nicsPerHost != null) {
            parts.add(nicsPerHost + " NICs/host");
        }
        if (nicSpeed != null) {
            parts.add("NIC " + Math.round(nicSpeed.gbits()) + " Gb/s");
        }
        if (fabric != null) {
            parts.add(fabric);
        }
        if (oversubscription != null) {
            parts.add(oversubscription + ":1 oversubscribed");
        }
        if (nvlinkGBps != null) {
            parts.add("NVLink " + nvlinkGBps + " GB/s per GPU");
        }
        if (leafRadix != null) {
            parts.add(leafRadix + " ports per leaf");
        }
        return String.join(", ", parts);
    }
}
