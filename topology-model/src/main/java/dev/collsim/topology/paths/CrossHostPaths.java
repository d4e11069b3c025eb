package dev.collsim.topology.paths;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PathType;
import dev.collsim.units.Bandwidth;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link PathFinder}'s paths between devices of different hosts, on demand. Two GPUs that share a multi-host NVLink
 * switch (GB200 NVL72) are joined by an NVL path found by the same breadth-first search ({@link NcclPathSearch}) over
 * both hosts and the shared switch; otherwise the path is the source GPU's nearest NIC path ({@link
 * HostPaths#nearestNic}; a CPU's NIC with the fewest hops), then the fabric route (fewest switch hops, then widest,
 * through network switches only), then the destination NIC's path to the destination device, with type NET; DIS
 * with zero bandwidth where a side has no NIC or the fabric joins none. Thread-safe (the fabric's graph is built
 * once, on first use).
 */
final class CrossHostPaths {

    private final PathFinder finder;
    private final Map<Integer, List<Device>> byHost;
    private final List<NvSwitch> sharedSwitches;
    private volatile ScopeGraph fabric;

    /**
     * @param finder         the path finder (its topology, options and per-host paths)
     * @param byHost         the topology's devices per host
     * @param sharedSwitches its multi-host NVLink switches (host -1)
     */
    CrossHostPaths(PathFinder finder, Map<Integer, List<Device>> byHost, List<NvSwitch> sharedSwitches) {
        this.finder = finder;
        this.byHost = byHost;
        this.sharedSwitches = sharedSwitches;
    }

    /**
     * @param from a GPU, NIC or CPU
     * @param to   a GPU, NIC or CPU of another host
     * @return NCCL's path between them (see the class javadoc)
     * @throws IllegalArgumentException when an end with no NIC of its own is not a GPU or CPU
     */
    DevicePath path(Device from, Device to) {
        if (from instanceof Gpu a && to instanceof Gpu b && sharesNvSwitch(a, b)) {
            return nvlinkDomainPath(a, b);
        }
        return networkPath(from, to);
    }

    /**
     * @return whether GPUs a and b, of different hosts, are both linked to one multi-host NVLink switch
     */
    private boolean sharesNvSwitch(Gpu a, Gpu b) {
        for (NvSwitch s : sharedSwitches) {
            if (finder.topology().graph().containsEdge(a, s) && finder.topology().graph().containsEdge(b, s)) {
                return true;
            }
        }
        return false;
    }

    private DevicePath nvlinkDomainPath(Gpu a, Gpu b) {
        Set<Device> scope = new LinkedHashSet<>(byHost.get(a.host()));
        scope.addAll(byHost.get(b.host()));
        scope.addAll(sharedSwitches);
        ScopeGraph g = new ScopeGraph(finder.topology(), scope);
        NcclPathSearch.Tree tree = NcclPathSearch.search(g, g.indexOf(a), finder.options().nvb());
        return PathFinder.fromTree(g, tree, a, b).withLabel(SmiLabels.label(g, a, b));
    }

    private DevicePath networkPath(Device from, Device to) {
        Nic srcNic = from instanceof Nic n ? n : nearestNic(from);
        Nic dstNic = to instanceof Nic n ? n : nearestNic(to);
        if (srcNic == null || dstNic == null) {
            return disconnected(from, to);
        }
        ScopeGraph f = fabricScope();
        if (f.indexOf(srcNic) < 0 || f.indexOf(dstNic) < 0) {
            return disconnected(from, to);
        }
        NcclPathSearch.Tree tree = NcclPathSearch.search(f, f.indexOf(srcNic), false);
        DevicePath route = PathFinder.fromTree(f, tree, srcNic, dstNic);
        if (route.type() == PathType.DIS) {
            return disconnected(from, to);
        }
        DevicePath first = from.equals(srcNic) ? null : finder.host(from.host()).path(from, srcNic);
        DevicePath last = to.equals(dstNic) ? null : finder.host(to.host()).path(dstNic, to);
        DevicePath all = route;
        if (first != null) {
            all = NcclPathRules.compose(first, all, PathType.NET);
        }
        if (last != null) {
            all = NcclPathRules.compose(all, last, PathType.NET);
        }
        return new DevicePath(from, to, PathType.NET, all.hops(), all.physical(), all.nccl(), "");
    }

    private Nic nearestNic(Device d) {
        if (d instanceof Gpu g) {
            return finder.host(g.host()).nearestNic(g).orElse(null);
        }
        if (d instanceof Cpu c) {
            HostPaths hp = finder.host(c.host());
            return hp.nics().stream().min(Comparator.comparingInt(n -> hp.path(c, n).hopCount())).orElse(null);
        }
        throw new IllegalArgumentException("device " + d.id() + " is not a GPU, NIC or CPU");
    }

    private static DevicePath disconnected(Device from, Device to) {
        return new DevicePath(from, to, PathType.DIS, List.of(), Bandwidth.ZERO, Bandwidth.ZERO, "");
    }

    private ScopeGraph fabricScope() {
        ScopeGraph f = fabric;
        if (f == null) {
            synchronized (this) {
                if (fabric == null) {
                    List<Device> scope = finder.topology().graph().vertexSet().stream()
                            .filter(d -> d instanceof NetSwitch || d instanceof Nic && hasNetLink(d)).toList();
                    fabric = new ScopeGraph(finder.topology(), scope);
                }
                f = fabric;
            }
        }
        return f;
    }

    private boolean hasNetLink(Device d) {
        return finder.topology().graph().outgoingEdgesOf(d).stream().anyMatch(l -> l.type() == LinkType.NET);
    }
}
