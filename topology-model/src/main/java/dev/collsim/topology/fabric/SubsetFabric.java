package dev.collsim.topology.fabric;

import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.TopologyBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The part of a fabric that some hosts of a cluster of identical hosts reach: the leaves their compute NICs are
 * cabled to and every spine, with the same switch ids, cable speeds and latencies as {@link FabricBuilder} gives the
 * whole cluster. Leaf numbers and spine sizing are worked out from the host count and one host's NICs, without the
 * other hosts: NIC {@code k} (by rail) of host {@code h} in a plane of {@code n} NICs per host is NIC
 * {@code h n + k} of the plane, on fat-tree leaf {@code (h n + k) / leafRadix}; on a rail-optimized plane it is on
 * leaf {@code (h / leafRadix) x rails + (its rail's rank)}. Every route between two built hosts (NIC, leaf, spine,
 * leaf, NIC) is therefore in the part, link for link. The flow backend builds only the hosts a schedule touches this
 * way ({@link ClusterSpec#materializeHosts}).
 */
final class SubsetFabric {

    private SubsetFabric() {
    }

    /**
     * @param b     the topology being built, with some hosts of the cluster already added (host indices as in the
     *              whole cluster; every host has the same NICs)
     * @param spec  the fabric
     * @param hosts hosts of the whole cluster, {@code >=} every host index in {@code b} plus 1
     * @throws IllegalArgumentException if no NIC has a rail (nothing to connect)
     */
    static void build(TopologyBuilder b, FabricSpec spec, int hosts) {
        List<List<Nic>> planes = FabricBuilder.nicsByPlane(b, spec);
        for (int plane = 0; plane < planes.size(); plane++) {
            if (!planes.get(plane).isEmpty()) {
                buildPlane(b, spec, plane, planes.get(plane), hosts);
            }
        }
    }

    private static void buildPlane(TopologyBuilder b, FabricSpec spec, int plane, List<Nic> nics, int hosts) {
        int firstHost = nics.get(0).host();
        List<Nic> one = nics.stream().filter(n -> n.host() == firstHost).toList();
        Map<String, Integer> position = new HashMap<>();
        for (Nic n : one) {
            position.put(local(n), position.size());
        }
        List<Integer> rails = new ArrayList<>(new TreeSet<>(one.stream().map(Nic::rail).toList()));
        int perHost = one.size();
        int radix = spec.leafRadix();
        long planeNics = (long) hosts * perHost;
        long leafCount;
        long maxDown;
        TreeMap<Long, List<Nic>> byLeaf = new TreeMap<>();
        switch (spec.kind()) {
            case SINGLE_SWITCH -> {
                leafCount = 1;
                maxDown = planeNics;
                byLeaf.put(0L, nics);
            }
            case FAT_TREE -> {
                leafCount = (planeNics + radix - 1) / radix;
                maxDown = Math.min(radix, planeNics);
                for (Nic n : nics) {
                    long leaf = ((long) n.host() * perHost + position.get(local(n))) / radix;
                    byLeaf.computeIfAbsent(leaf, k -> new ArrayList<>()).add(n);
                }
            }
            case RAIL_OPTIMIZED -> {
                leafCount = (long) ((hosts + radix - 1) / radix) * rails.size();
                long perRail = 0;
                for (int r : rails) {
                    perRail = Math.max(perRail, one.stream().filter(n -> n.rail() == r).count());
                }
                maxDown = perRail * Math.min(radix, hosts);
                for (Nic n : nics) {
                    long leaf = (long) (n.host() / radix) * rails.size() + rails.indexOf(n.rail());
                    byLeaf.computeIfAbsent(leaf, k -> new ArrayList<>()).add(n);
                }
            }
            default -> throw new IllegalStateException("fabric kind " + spec.kind());
        }
        String pre = FabricBuilder.prefix(spec, plane);
        List<NetSwitch> leaves = new ArrayList<>();
        for (Map.Entry<Long, List<Nic>> e : byLeaf.entrySet()) {
            NetSwitch leaf = b.add(new NetSwitch(pre + "leaf" + e.getKey(), NetSwitch.Tier.LEAF, plane));
            leaves.add(leaf);
            for (Nic n : e.getValue()) {
                FabricBuilder.cable(b, n, leaf, FabricBuilder.speed(spec, n), spec.switchLatency(), "NIC-leaf");
            }
        }
        if (spec.kind() == FabricKind.SINGLE_SWITCH || leafCount <= 1) {
            return;
        }
        FabricBuilder.addSpines(b, spec, nics.get(0), maxDown, leaves, pre, plane);
    }

    /** @return the NIC's id without its host prefix ({@code h12/nic3} -> {@code nic3}) */
    private static String local(Nic n) {
        return n.id().substring(n.id().indexOf('/') + 1);
    }
}
