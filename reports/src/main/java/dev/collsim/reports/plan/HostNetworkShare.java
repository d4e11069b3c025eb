package dev.collsim.reports.plan;

import dev.collsim.nccl.Collective;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A lower bound on a collective's time when several groups of the same kind cross the network at once and share
 * each host's NICs: a prediction for one group in isolation does not see the others.
 *
 * <p>Each host sends at most the sum of its cabled NICs' speeds, H (GB/s). A group with g members on a host, n ranks
 * over k hosts in all, must send per host at least what a host-level reduce-scatter plus all-gather sends (the
 * least any algorithm can: each host's share of the result leaves every other host once; a ring over one GPU per
 * host meets it, NCCL's trees meet it on 2 hosts): AllReduce {@code 2 (k-1)/k S}, AllGather and ReduceScatter
 * {@code (k-1)/k S}; AllToAll {@code g S (n-g)/n} (each member sends the share of its buffer addressed off-host),
 * SendRecv (a ring of sends crosses each host boundary once) and the rooted collectives {@code S}. With c groups sharing the host, the time is at least {@code c x bytes / H}. AllToAll
 * traffic also crosses the leaf switch's uplinks when the group spans hosts under different leaves, so there H is
 * divided by the leaf's oversubscription (down-link over up-link bandwidth); ring traffic crosses a leaf boundary
 * once per ring and is left unscaled. Left out: congestion inside the fabric beyond this (ECMP collisions, other
 * jobs), which the flow-level network backend models. This class holds no state.
 */
public final class HostNetworkShare {

    private HostNetworkShare() {
    }

    /**
     * @param topology  the cluster
     * @param group     the group's GPUs
     * @param coll      the collective
     * @param sizeBytes nccl-tests size
     * @param sharing   groups sharing each host's NICs (>= 1)
     * @return the bound in microseconds; 0 when the group stays inside one host or the host has no NIC
     */
    public static double boundUs(Topology topology, List<Gpu> group, Collective coll, long sizeBytes, int sharing) {
        return boundUs(topology, group, coll, sizeBytes, sharing, false);
    }

    /**
     * As {@link #boundUs(Topology, List, Collective, long, int)}, for a known algorithm: NCCL's rings enter and leave
     * every host once per channel, so a ring's host sends {@code 2 (n-1)/n S} for AllReduce and {@code (n-1)/n S}
     * for AllGather/ReduceScatter (nccl-tests {@code doc/PERFORMANCE.md}), more than the host-level minimum.
     *
     * @param ring true when the collective runs as NCCL's Ring algorithm
     */
    public static double boundUs(Topology topology, List<Gpu> group, Collective coll, long sizeBytes, int sharing,
            boolean ring) {
        Set<Integer> hosts = new HashSet<>();
        group.forEach(g -> hosts.add(g.host()));
        if (hosts.size() < 2) {
            return 0;
        }
        int host = group.get(0).host();
        double gbps = hostNicGBps(topology, host);
        if (gbps <= 0) {
            return 0;
        }
        int n = group.size();
        int k = ring ? n : hosts.size();
        long g = group.stream().filter(x -> x.host() == host).count();
        double s = sizeBytes;
        double bytes = switch (coll) {
            case ALL_REDUCE -> 2.0 * (k - 1) / k * s;
            case ALL_GATHER, REDUCE_SCATTER -> (double) (k - 1) / k * s;
            case ALL_TO_ALL -> g * s * (n - g) / n;
            default -> s; // SendRecv ring, Broadcast, Reduce, Gather, Scatter: at least S leaves some host
        };
        if (coll == Collective.ALL_TO_ALL && spansLeaves(topology, hosts)) {
            gbps /= leafOversubscription(topology, host);
        }
        return sharing * bytes / (gbps * 1000.0);
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
