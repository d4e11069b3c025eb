package dev.collsim.topology.fabric;

import dev.collsim.topology.Nic;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which leaf of a plane each compute NIC is cabled to, the one rule that {@link FabricBuilder} builds by and {@link
 * FabricCut#fromSpec} lays a cluster out by without building it. The plane's NICs are taken in host-then-rail order;
 * a host's <i>position</i> is its place among the plane's hosts (0, 1, ...), its NIC's <i>index</i> the NIC's place
 * in that order.
 * <ul>
 * <li>single switch: every NIC on leaf 0;</li>
 * <li>fat-tree of leaf radix R: chunks of R NICs, NIC {@code i} on leaf {@code i / R} (a host straddles two leaves
 *     unless its NIC count divides R);</li>
 * <li>rail-optimized of leaf radix R: scalable units of R hosts (host position {@code p} in unit {@code p / R}), one
 *     leaf per rail in each unit; the last unit may hold fewer hosts.</li>
 * </ul>
 * A <i>unit</i> is the set of leaves that hosts join below the spine: a fat-tree or single-switch leaf itself, a
 * rail-optimized scalable unit (its rail leaves, joined through the hosts whose NICs they share).
 *
 * @param kind  the fabric kind
 * @param radix leaf radix R, NICs per leaf, >= 1
 */
record LeafLayout(FabricKind kind, int radix) {

    /** Leaf keys of one rail-optimized unit lie within this span: a unit's rail r has key unit x span + r. */
    private static final long RAIL_SPAN = 1_000_000L;

    /** @param spec a fabric; @return its layout */
    static LeafLayout of(FabricSpec spec) {
        return new LeafLayout(spec.kind(), spec.leafRadix());
    }

    /**
     * @param nicIndex     the NIC's index in the plane (host-then-rail order)
     * @param hostPosition its host's position among the plane's hosts
     * @return the unit of the NIC's leaf, in order of the units' lowest host
     */
    long unit(long nicIndex, int hostPosition) {
        return switch (kind) {
            case SINGLE_SWITCH -> 0;
            case FAT_TREE -> nicIndex / radix;
            case RAIL_OPTIMIZED -> hostPosition / radix;
        };
    }

    /**
     * @param nicIndex     the NIC's index in the plane (host-then-rail order)
     * @param hostPosition its host's position among the plane's hosts
     * @param rail         its rail, >= 0
     * @return the key of the NIC's leaf; leaves are named in key order
     */
    long leaf(long nicIndex, int hostPosition, int rail) {
        long unit = unit(nicIndex, hostPosition);
        return kind == FabricKind.RAIL_OPTIMIZED ? unit * RAIL_SPAN + rail : unit;
    }

    /**
     * @param nics a plane's compute NICs in host-then-rail order
     * @return the NICs of each leaf, leaves in key order ({@link #leaf}), NICs in the given order
     */
    List<List<Nic>> leaves(List<Nic> nics) {
        Map<Integer, Integer> position = new HashMap<>();
        nics.stream().map(Nic::host).distinct().sorted().forEach(h -> position.put(h, position.size()));
        Map<Long, List<Nic>> byLeaf = new TreeMap<>();
        for (int i = 0; i < nics.size(); i++) {
            Nic n = nics.get(i);
            byLeaf.computeIfAbsent(leaf(i, position.get(n.host()), n.rail()), k -> new ArrayList<>()).add(n);
        }
        return new ArrayList<>(byLeaf.values());
    }

    /** @param nicsPerHost k, >= 1; @return true when every host's NICs lie under one unit (fat-tree: k divides R) */
    boolean wholeHosts(int nicsPerHost) {
        return kind != FabricKind.FAT_TREE || radix % nicsPerHost == 0;
    }

    /**
     * @param nicsPerHost k, >= 1, with {@link #wholeHosts}
     * @param hosts       hosts of the plane, >= 1
     * @return leaves of the plane: 1; fat-tree {@code ceil(k hosts / R)}; rail-optimized {@code k ceil(hosts / R)}
     */
    long leafCount(int nicsPerHost, int hosts) {
        return switch (kind) {
            case SINGLE_SWITCH -> 1;
            case FAT_TREE -> ceilDiv((long) nicsPerHost * hosts, radix);
            case RAIL_OPTIMIZED -> nicsPerHost * ceilDiv(hosts, radix);
        };
    }

    /** @param nicsPerHost k; @return leaves in one unit: k rail leaves for rail-optimized, else 1 */
    int leavesPerUnit(int nicsPerHost) {
        return kind == FabricKind.RAIL_OPTIMIZED ? nicsPerHost : 1;
    }

    /**
     * @param nicsPerHost k, >= 1
     * @param hosts       hosts of the plane, >= 1
     * @return NICs on the fullest leaf: rail-optimized {@code min(R, hosts)}, else {@code min(R, k hosts)}
     */
    long fullestLeaf(int nicsPerHost, int hosts) {
        return kind == FabricKind.RAIL_OPTIMIZED ? Math.min(radix, hosts)
                : Math.min(radix, (long) nicsPerHost * hosts);
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
