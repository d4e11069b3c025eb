package dev.collsim.topology.paths;

import dev.collsim.topology.Device;
import dev.collsim.topology.Link;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An indexed view of part of a topology (one host, or two hosts and their shared NVLink switch) with parallel links
 * merged into {@link Hop}s, for fast breadth-first searches. Like NCCL, which keeps one NVS node per NVLink domain
 * (NCCL 2.30 {@code src/graph/topo.cc} {@code ncclTopoAddNvLinks}: every GPU's NVLinks to NVSwitches go to one NVS
 * node), all NVSwitch chips of one (host, domain) in the scope are one node: the chip with the smallest id stands
 * for them, and a hop to it carries the links to all of them. Not thread-safe while being built; immutable after.
 */
final class ScopeGraph {

    final Device[] nodes;
    /** The topology viewed, to find a device's own object by id ({@link #indexOf}). */
    private final Topology topology;
    final Map<Device, Integer> index;
    final List<List<Hop>> out;

    ScopeGraph(Topology topology, Collection<? extends Device> scope) {
        this.topology = topology;
        Map<Device, Device> rep = representatives(scope);
        List<Device> kept = new ArrayList<>();
        for (Device d : scope) {
            if (rep.get(d) == d) {
                kept.add(d);
            }
        }
        this.nodes = kept.toArray(new Device[0]);
        this.index = new IdentityHashMap<>(scope.size() * 2);
        for (int i = 0; i < nodes.length; i++) {
            index.put(nodes[i], i);
        }
        for (Device d : scope) {
            index.put(d, index.get(rep.get(d)));
        }
        List<List<Hop>> hopsOf = new ArrayList<>(nodes.length);
        Map<Device, Map<String, List<Link>>> grouped = new LinkedHashMap<>();
        Map<String, Device> targets = new HashMap<>();
        for (Device d : nodes) {
            grouped.put(d, new LinkedHashMap<>());
        }
        for (Device d : scope) {
            Device from = rep.get(d);
            for (Link l : topology.graph().outgoingEdgesOf(d)) {
                Device t = rep.get(topology.target(l));
                if (t == null || t == from) {
                    continue;
                }
                String key = t.id() + "\u0000" + l.type();
                grouped.get(from).computeIfAbsent(key, k -> new ArrayList<>()).add(l);
                targets.put(key, t);
            }
        }
        for (Device d : nodes) {
            List<Hop> hops = new ArrayList<>();
            grouped.get(d).forEach((k, links) -> hops.add(new Hop(d, targets.get(k), links.get(0).type(), links)));
            hopsOf.add(hops);
        }
        this.out = hopsOf;
    }

    /** Maps every device of the scope to itself, except NVSwitch chips, which map to their domain's first chip. */
    private static Map<Device, Device> representatives(Collection<? extends Device> scope) {
        Map<String, Device> firstChip = new HashMap<>();
        for (Device d : scope) {
            if (d instanceof NvSwitch s) {
                firstChip.merge(s.host() + "/" + s.domain(), s, (a, b) -> a.id().compareTo(b.id()) <= 0 ? a : b);
            }
        }
        Map<Device, Device> rep = new IdentityHashMap<>();
        for (Device d : scope) {
            rep.put(d, d instanceof NvSwitch s ? firstChip.get(s.host() + "/" + s.domain()) : d);
        }
        return rep;
    }

    int size() {
        return nodes.length;
    }

    /**
     * @param d a device of the topology: the graph's own object, or one equal to it by value (devices are records; a
     *          separately built copy of the same cluster has equal, not identical, devices)
     * @return the index of the device's node (an NVSwitch chip gives its domain's node), -1 outside the scope
     */
    int indexOf(Device d) {
        Integer i = index.get(d);
        if (i == null && d != null) {
            // the index is by identity (fast); an equal device of another copy of the cluster maps to the graph's own
            Device own = topology.device(d.id()).orElse(null);
            i = own != null && own != d && own.equals(d) ? index.get(own) : null;
        }
        return i == null ? -1 : i;
    }
}
