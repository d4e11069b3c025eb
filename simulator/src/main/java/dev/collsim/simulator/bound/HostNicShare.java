package dev.collsim.simulator.bound;

import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.simulator.channel.TopologyScan;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A lower bound on a collective's time when several groups of the same kind cross the network at once and share
 * each NCCL node's NICs (e.g. the data-parallel groups of a training step, when the predictor times one group
 * alone). NCCL nodes are hosts, or the hosts of one multi-node NVLink domain ({@link TopologyScan}): traffic inside
 * a domain stays on NVLink and never reaches a NIC.
 *
 * <p>Each node sends at most the sum of its cabled NICs' speeds, H (GB/s); a group must send per node at least
 * {@link PhysicalBound#nodeNicBytes} (k = the nodes it spans, or n for NCCL's Ring algorithm); with c groups
 * sharing the node the time is at least {@code c x bytes / H}. AllToAll traffic also crosses the leaf switch's
 * uplinks when the group spans nodes under different leaves, so there H is divided by the leaf's oversubscription
 * (down-link over up-link bandwidth); ring traffic crosses a leaf boundary once per ring and is left unscaled.
 *
 * <p>Why one group alone (c = 1) is not floored here: the prediction already applies its communicator's NIC bound
 * ({@link PhysicalBound#interBusBw}, inside collsim's performance model), so a floor for one group would only make a
 * caller's number differ from {@code collsim predict}'s for the same point (the one-group form of this floor counted
 * hosts instead of NCCL nodes, which put a NIC floor under NVLink traffic on a GB200 NVL72 rack). Callers apply it
 * for {@code sharing > 1} only. Left out: congestion inside the fabric beyond the leaf (ECMP collisions, other
 * jobs), which the flow-level network backend models. This class holds no state.
 */
public final class HostNicShare {

    private HostNicShare() {
    }

    /**
     * @param topology  the cluster
     * @param group     the group's GPUs
     * @param coll      the collective
     * @param sizeBytes nccl-tests size
     * @param sharing   groups sharing each node's NICs (>= 1)
     * @param ring      true when the collective runs as NCCL's Ring algorithm
     * @return the bound in microseconds; 0 when the group stays inside one NCCL node or the node has no cabled NIC
     */
    public static double boundUs(Topology topology, List<Gpu> group, Collective coll, long sizeBytes, int sharing,
            boolean ring) {
        Map<Integer, Integer> nodeOfHost = TopologyScan.of(topology).nodeOfHost();
        Set<Integer> nodes = new HashSet<>();
        Set<Integer> hosts = new HashSet<>();
        group.forEach(g -> {
            nodes.add(nodeOfHost.getOrDefault(g.host(), g.host()));
            hosts.add(g.host());
        });
        if (nodes.size() < 2) {
            return 0;
        }
        int node = nodeOfHost.getOrDefault(group.get(0).host(), group.get(0).host());
        double gbps = 0;
        if (!nodeOfHost.containsKey(group.get(0).host())) {
            gbps = hostNicGBps(topology, group.get(0).host());
        } else {
            for (Map.Entry<Integer, Integer> e : nodeOfHost.entrySet()) {
                if (e.getValue() == node) {
                    gbps += hostNicGBps(topology, e.getKey());
                }
            }
        }
        if (gbps <= 0) {
            return 0;
        }
        int n = group.size();
        long g = group.stream().filter(x -> nodeOfHost.getOrDefault(x.host(), x.host()) == node).count();
        double bytes = PhysicalBound.nodeNicBytes(coll, n, ring ? n : nodes.size(), g, sizeBytes);
        if (coll == Collective.ALL_TO_ALL && spansLeaves(topology, hosts)) {
            gbps /= leafOversubscription(topology, group.get(0).host());
        }
        return BusBandwidth.timeUs(sharing * bytes, gbps);
    }

    /**
     * @return the sum of the speeds of a host's NICs that are cabled to the network (have a NET link), GB/s; NICs
     *         without a cable (storage ports, a single host) do not count
     */
    public static double hostNicGBps(Topology topology, int host) {
        return topology.devices(Nic.class).stream().filter(n -> n.host() == host)
                .filter(n -> topology.outgoing(n).stream().anyMatch(l -> l.type() == LinkType.NET))
                .mapToDouble(n -> n.speed().gbps()).sum();
    }

    /**
     * @return down-link over up-link bandwidth of the leaf switch the host's first NIC is cabled to (1 when it has
     *         no up-links or the host has no leaf)
     */
    public static double leafOversubscription(Topology topology, int host) {
        for (NetSwitch leaf : leavesOf(topology, host)) {
            double down = 0;
            double up = 0;
            for (Link l : topology.outgoing(leaf)) {
                if (l.type() != LinkType.NET) {
                    continue;
                }
                Device to = topology.target(l);
                if (to instanceof NetSwitch) {
                    up += l.bandwidth().gbps();
                } else {
                    down += l.bandwidth().gbps();
                }
            }
            if (up > 0 && down > up) {
                return down / up;
            }
        }
        return 1;
    }

    private static boolean spansLeaves(Topology topology, Set<Integer> hosts) {
        Set<NetSwitch> common = null;
        for (int h : hosts) {
            Set<NetSwitch> leaves = new HashSet<>(leavesOf(topology, h));
            if (common == null) {
                common = leaves;
            } else {
                common.retainAll(leaves);
            }
        }
        return common == null || common.isEmpty();
    }

    private static List<NetSwitch> leavesOf(Topology topology, int host) {
        return topology.devices(Nic.class).stream().filter(n -> n.host() == host)
                .flatMap(n -> topology.outgoing(n).stream().map(topology::target))
                .filter(NetSwitch.class::isInstance).map(NetSwitch.class::cast).distinct().toList();
    }
}
