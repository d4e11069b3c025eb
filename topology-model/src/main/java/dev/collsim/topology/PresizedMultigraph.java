package dev.collsim.topology;

import java.io.Serializable;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jgrapht.Graph;
import org.jgrapht.GraphType;
import org.jgrapht.graph.AbstractBaseGraph;
import org.jgrapht.graph.DefaultGraphType;
import org.jgrapht.graph.GraphSpecificsStrategy;
import org.jgrapht.graph.IntrusiveEdgesSpecifics;
import org.jgrapht.graph.UniformIntrusiveEdgesSpecifics;
import org.jgrapht.graph.specifics.FastLookupDirectedSpecifics;
import org.jgrapht.graph.specifics.Specifics;

/**
 * The topology's JGraphT graph: a directed, unweighted multigraph without self-loops, exactly like JGraphT's
 * {@code DirectedMultigraph} (same graph type, same {@code FastLookupDirectedSpecifics} with its vertex-pair index,
 * same insertion-ordered vertex and edge maps), except that its three hash maps are created at the expected size,
 * so building a 16,384-GPU cluster (about 100,000 vertices and 290,000 edges) does not rehash them again and again.
 * The sizes are hints only: a graph that outgrows them grows as usual.
 */
final class PresizedMultigraph extends AbstractBaseGraph<Device, Link> {

    private static final long serialVersionUID = 1L;

    /**
     * @param vertices expected vertices, >= 0
     * @param edges    expected directed edges, >= 0
     */
    PresizedMultigraph(int vertices, int edges) {
        super(null, null, new DefaultGraphType.Builder().directed().allowMultipleEdges(true).allowSelfLoops(false)
                .weighted(false).build(), new Strategy(vertices, edges));
    }

    /** HashMap capacity holding {@code n} entries at the default load factor 0.75 without a resize. */
    private static int capacity(int n) {
        return (int) Math.min(1 << 30, Math.max(16L, (long) Math.ceil(n / 0.75)));
    }

    /** JGraphT's {@code FastLookupGraphSpecificsStrategy} for a directed graph, with pre-sized maps. */
    private record Strategy(int vertices, int edges) implements GraphSpecificsStrategy<Device, Link> {

        @Override
        public Function<GraphType, IntrusiveEdgesSpecifics<Device, Link>> getIntrusiveEdgesSpecificsFactory() {
            int cap = capacity(edges);
            return (Function<GraphType, IntrusiveEdgesSpecifics<Device, Link>> & Serializable)
                    type -> new UniformIntrusiveEdgesSpecifics<>(new LinkedHashMap<>(cap));
        }

        @Override
        public BiFunction<Graph<Device, Link>, GraphType, Specifics<Device, Link>> getSpecificsFactory() {
            int vcap = capacity(vertices);
            int pcap = capacity(edges);
            return (BiFunction<Graph<Device, Link>, GraphType, Specifics<Device, Link>> & Serializable)
                    (graph, type) -> new FastLookupDirectedSpecifics<>(graph, new LinkedHashMap<>(vcap),
                            new HashMap<>(pcap), getEdgeSetFactory());
        }
    }
}
