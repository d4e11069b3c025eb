package dev.collsim.topology.fabric;

import dev.collsim.topology.Device;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.units.Bandwidth;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jgrapht.Graph;
import org.jgrapht.alg.flow.PushRelabelMFImpl;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleDirectedWeightedGraph;

/**
 * Bisection bandwidth of a cluster's network fabric: the maximum flow, per direction, from the first half of the
 * hosts (by index) to the second half through the network (NICs, network switches and their cables only; NVLink and
 * PCIe inside hosts are not part of it), computed with JGraphT's push-relabel maximum flow, which by max-flow/min-cut
 * equals the capacity of the smallest cut between the two halves.
 *
 * <p>For the fabrics of {@link FabricBuilder} with NICs of speed s filling leaves in host order, the closed form is
 * $B = \min(N_A s, L_A U, \ldots)$: the flow must leave half A's N_A NICs (at most N_A s), and traffic that cannot
 * stay inside a leaf shared by both halves must cross the L_A source leaves' uplinks of U each. For a two-tier
 * fat-tree of L full leaves split evenly, B = min(N s / 2, L U / 2) with U = d s / oversubscription; for a
 * non-blocking fabric B = N s / 2. The tests check these by hand against this class.
 *
 * <p>Cost: O(V^2 sqrt(E)) for push-relabel on the fabric's V switches and NICs; fine for thousands of NICs.
 */
public final class Bisection {

    private Bisection() {
    }

    /**
     * @param topology a cluster
     * @return bisection bandwidth per direction, GB/s; zero with fewer than 2 hosts or no fabric
     */
    public static Bandwidth of(Topology topology) {
        int hosts = topology.hostCount();
        if (hosts < 2) {
            return Bandwidth.ZERO;
        }
        Graph<String, DefaultWeightedEdge> g = new SimpleDirectedWeightedGraph<>(DefaultWeightedEdge.class);
        g.addVertex("A");
        g.addVertex("B");
        Graph<Device, Link> t = topology.graph();
        List<Device> fabric = t.vertexSet().stream()
                .filter(d -> d instanceof NetSwitch || d instanceof Nic && onFabric(t, d)).toList();
        if (fabric.stream().noneMatch(NetSwitch.class::isInstance)) {
            return Bandwidth.ZERO;
        }
        fabric.forEach(d -> g.addVertex(d.id()));
        Map<String, Double> capacity = fabric.stream().flatMap(d -> t.outgoingEdgesOf(d).stream())
                .filter(l -> l.type() == LinkType.NET)
                .collect(Collectors.toMap(l -> t.getEdgeSource(l).id() + "\u0000" + t.getEdgeTarget(l).id(),
                        l -> l.bandwidth().gbps(), Double::sum));
        capacity.forEach((key, cap) -> {
            String[] ends = key.split("\u0000");
            DefaultWeightedEdge e = g.addEdge(ends[0], ends[1]);
            g.setEdgeWeight(e, cap);
        });
        int half = hosts / 2;
        for (Device d : fabric) {
            if (d instanceof Nic n) {
                boolean inA = n.host() < half;
                DefaultWeightedEdge e = inA ? g.addEdge("A", n.id()) : g.addEdge(n.id(), "B");
                double nicCapacity = t.outgoingEdgesOf(n).stream().filter(l -> l.type() == LinkType.NET)
                        .mapToDouble(l -> l.bandwidth().gbps()).sum();
                g.setEdgeWeight(e, nicCapacity);
            }
        }
        double flow = new PushRelabelMFImpl<>(g).getMaximumFlowValue("A", "B");
        return Bandwidth.ofGBps(flow);
    }

    private static boolean onFabric(Graph<Device, Link> t, Device d) {
        return t.outgoingEdgesOf(d).stream().anyMatch(l -> l.type() == LinkType.NET);
    }
}
