package dev.collsim.topology.fabric;

import dev.collsim.topology.Device;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.StructuralKey;
import dev.collsim.topology.Topology;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The cut of a fabric's upper tier seen by a set of hosts: the hosts split into <i>leaf groups</i>, the connected
 * parts of the network once every spine and core switch is taken away (a host with all its NICs under one leaf, the
 * hosts of a rail-optimized scalable unit whose rail leaves they share, hosts whose NICs straddle leaves with both
 * leaves; a single-switch fabric is one group). Traffic between two groups must leave the first through its leaves'
 * uplinks, so {@link Group#uplinkGBps} (the smaller of the group's leaf-to-spine and spine-to-leaf capacity, every
 * uplink of its leaves) is what one group can send or receive across the spine. For the fabrics of {@link
 * FabricBuilder}: a fat-tree leaf of d NICs of speed s has {@code d s / oversubscription} of uplink; rail traffic
 * under one rail leaf never crosses the spine. Only the given hosts are kept (hosts outside do not forward traffic
 * between other hosts), so a group holds member hosts only. This record is immutable.
 *
 * @param groups the leaf groups holding the given hosts, in order of their lowest host
 */
public record FabricCut(List<Group> groups) {

    /**
     * One leaf group.
     *
     * @param hosts      the given hosts in the group, ascending
     * @param uplinkGBps per-direction capacity between the group's leaves and the spines, GB/s; 0 when the group's
     *                   leaves have no spine (the group is the whole fabric, or cut off from the rest)
     */
    public record Group(List<Integer> hosts, double uplinkGBps) {
        /** Copies the list. */
        public Group {
            hosts = List.copyOf(hosts);
        }
    }

    /** Copies the list. */
    public FabricCut {
        groups = List.copyOf(groups);
    }

    /**
     * Most hosts of a cluster described once and not built whose part of the network {@link #of} builds: 512, about
     * 67 MB for 8-GPU hosts (130 KB a DGX H100 host, measured: {@link ClusterLimits}' class comment), so an analytical
     * what-if report of a large cluster does not build it for its bound line.
     */
    public static final int MAX_PARTIAL_HOSTS = 512;

    /**
     * The cut for some hosts, computed once per topology and host set ({@link Topology#derived}). For a cluster
     * described once only those hosts' part of the network is built ({@link Topology#withHostsOnly}).
     *
     * @param topology a cluster
     * @param hosts    host indices in [0, hostCount), at least one
     * @return the leaf groups of those hosts (one group when no spine separates them); for a cluster described once,
     *         not built, and more hosts than {@link #MAX_PARTIAL_HOSTS}, the groups {@link #fromSpec} lays out from
     *         the fabric spec, empty where it cannot
     */
    public static Optional<FabricCut> of(Topology topology, int[] hosts) {
        int[] sorted = Arrays.stream(hosts).distinct().sorted().toArray();
        if (!topology.graphBuilt() && sorted.length > MAX_PARTIAL_HOSTS) {
            return fromSpec(topology, sorted);
        }
        return Optional.of(topology.derived(new Key(Arrays.toString(sorted)),
                t -> compute(t.withHostsOnly(sorted), sorted)));
    }

    private record Key(String hosts) {
    }

    /** Key of the fabric spec a cluster was built from, in its {@link Topology#derived} values. */
    private enum SpecKey implements StructuralKey { FABRIC }

    /**
     * Records the fabric a cluster was built from ({@link ClusterSpec#build}), so that {@link #nonBlocking} answers
     * without building the cluster's graph.
     *
     * @param topology the cluster just built
     * @param spec     its fabric (null: none, nothing recorded)
     * @return the topology
     */
    static Topology remember(Topology topology, FabricSpec spec) {
        if (spec != null) {
            topology.derived(SpecKey.FABRIC, t -> spec);
        }
        return topology;
    }

    /**
     * Whether a cluster was built from a fabric of oversubscription 1 or less ({@link ClusterSpec#build}): every
     * leaf's uplink is then at least its downlinks, so a group's uplink is at least its hosts' NICs and the cut limits
     * no collective more than those NICs do ({@code FabricBound}'s class comment); a caller can skip the cut, which
     * for a cluster described once builds the ranks' hosts (about 0.1 s for 64 DGX H100 hosts, 0.5 s for 256,
     * measured on the project's build machine).
     *
     * @param topology a cluster
     * @return true when built from a non-blocking fabric spec (kept through {@link Topology#withNetworkClass}); false
     *         when oversubscribed or not known (a cluster built device by device)
     */
    public static boolean nonBlocking(Topology topology) {
        FabricSpec spec = topology.derived(SpecKey.FABRIC, t -> null);
        return spec != null && spec.oversubscription() <= 1;
    }

    private static FabricCut compute(Topology t, int[] hosts) {
        Set<Integer> members = new TreeSet<>();
        Arrays.stream(hosts).forEach(members::add);
        Map<Device, Integer> part = new HashMap<>();
        List<Group> groups = new ArrayList<>();
        for (Device start : t.graph().vertexSet()) {
            if (start.host() < 0 || !members.contains(start.host()) || part.containsKey(start)) {
                continue;
            }
            Set<Integer> in = new TreeSet<>();
            double[] up = new double[2];
            Deque<Device> todo = new ArrayDeque<>(List.of(start));
            part.put(start, groups.size());
            while (!todo.isEmpty()) {
                Device d = todo.pop();
                if (d.host() >= 0) {
                    in.add(d.host());
                }
                for (Link l : t.outgoing(d)) {
                    Device e = t.target(l);
                    if (upper(e)) {
                        up[0] += l.type() == LinkType.NET ? l.bandwidth().gbps() : 0;
                    } else if (kept(e, members) && !part.containsKey(e)) {
                        part.put(e, groups.size());
                        todo.push(e);
                    }
                }
                for (Link l : t.graph().incomingEdgesOf(d)) {
                    up[1] += upper(t.source(l)) && l.type() == LinkType.NET ? l.bandwidth().gbps() : 0;
                }
            }
            groups.add(new Group(new ArrayList<>(in), Math.min(up[0], up[1])));
        }
        groups.sort((a, b) -> Integer.compare(a.hosts().get(0), b.hosts().get(0)));
        return new FabricCut(groups);
    }

    /**
     * The cut of a cluster described once, laid out from the fabric spec it was built from as {@link FabricBuilder}
     * lays it out, without building the hosts: one plane; host h's compute NICs (those of the host template, speed
     * capped by the spec's link speed) in host-then-rail order. A fat-tree leaf holds R / k whole hosts (R the leaf
     * radix, k NICs per host; only when k divides R, else a host straddles leaves and empty is returned), a
     * rail-optimized scalable unit R hosts (one leaf per rail); each leaf's uplink is {@code d s / oversubscription}
     * with {@code d = min(R, NICs on the fullest leaf)}, a group's the sum over its leaves; one leaf in all: no spine,
     * uplink 0.
     *
     * @param t      a cluster described once
     * @param sorted member hosts, ascending, distinct
     * @return the groups of the member hosts; empty without a recorded spec or template, with several planes, or
     *         when hosts straddle fat-tree leaves
     */
    static Optional<FabricCut> fromSpec(Topology t, int[] sorted) {
        FabricSpec spec = t.derived(SpecKey.FABRIC, x -> null);
        Topology template = t.hostTemplate().orElse(null);
        if (spec == null || template == null || spec.planes() != 1) {
            return Optional.empty();
        }
        List<Nic> nics = template.devices(Nic.class).stream().filter(n -> n.host() == 0 && n.rail() >= 0)
                .sorted(Comparator.comparingInt(Nic::rail)).toList();
        int k = nics.size();
        LeafLayout layout = LeafLayout.of(spec);
        if (k == 0 || !layout.wholeHosts(k)) {
            return Optional.empty();
        }
        int hosts = t.hostCount();
        double s = FabricBuilder.speed(spec, nics.get(0)).gbps();
        double uplink = layout.leafCount(k, hosts) < 2 ? 0
                : layout.leavesPerUnit(k) * FabricBuilder.leafUplinkGBps(spec, s, layout.fullestLeaf(k, hosts));
        Map<Long, List<Integer>> byGroup = new TreeMap<>();
        for (int h : sorted) {
            byGroup.computeIfAbsent(layout.unit((long) h * k, h), g -> new ArrayList<>()).add(h);
        }
        return Optional.of(new FabricCut(byGroup.values().stream().map(l -> new Group(l, uplink)).toList()));
    }

    /** A spine or core switch: taken away to find the groups. */
    private static boolean upper(Device d) {
        return d instanceof NetSwitch s && s.tier() != NetSwitch.Tier.LEAF;
    }

    /** A device of a given host, or a leaf or other shared device (host -1) that is not a spine or core. */
    private static boolean kept(Device d, Set<Integer> members) {
        return d.host() < 0 ? !upper(d) : members.contains(d.host());
    }
}
