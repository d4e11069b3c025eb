package dev.collsim.topology.paths;

import dev.collsim.topology.Device;
import dev.collsim.topology.Link;
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
 * merged into {@link Hop}s, for fast breadth-first searches. Not thread-safe while being built; immutable after.
 */
final class ScopeGraph {

    final Device[] nodes;
    final Map<Device, Integer> index;
    final List<List<Hop>> out;

    ScopeGraph(Topology topology, Collection<? extends Device> scope) {
        this.nodes = scope.toArray(new Device[0]);
        this.index = new IdentityHashMap<>(nodes.length * 2);
        for (int i = 0; i < nodes.length; i++) {
            index.put(nodes[i], i);
        }
        this.out = new ArrayList<>(nodes.length);
        for (Device d : nodes) {
            Map<String, List<Link>> grouped = new LinkedHashMap<>();
            Map<String, Device> targets = new HashMap<>();
            for (Link l : topology.graph().outgoingEdgesOf(d)) {
                Device t = topology.target(l);
                if (!index.containsKey(t)) {
                    continue;
                }
                String key = t.id() + "\u0000" + l.type();
                grouped.computeIfAbsent(key, k -> new ArrayList<>()).add(l);
                targets.put(key, t);
            }
            List<Hop> hops = new ArrayList<>(grouped.size());
            grouped.forEach((k, links) -> hops.add(new Hop(d, targets.get(k), links.get(0).type(), links)));
            out.add(hops);
        }
    }

    int size() {
        return nodes.length;
    }

    int indexOf(Device d) {
        Integer i = index.get(d);
        return i == null ? -1 : i;
    }
}
