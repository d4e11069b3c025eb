package dev.collsim.simulator.tuning;

import dev.collsim.nccl.Algorithm;
import java.util.Objects;

/**
 * The five search graphs of a communicator (NCCL 2.30.7 {@code src/init.cc}, fact sheet §5.4) and which graph
 * each algorithm uses (§2.1): Tree and PAT the tree graph, Ring the ring graph, NVLS and NVLSTree the NVLS
 * graph, CollNetDirect and CollNetChain their own. Use {@link GraphSummary#none} for a graph that was not found.
 * This record is immutable.
 *
 * @param ring          ring graph
 * @param tree          tree graph
 * @param nvls          NVLS graph
 * @param collnetDirect CollNetDirect graph
 * @param collnetChain  CollNetChain graph
 */
public record GraphSet(GraphSummary ring, GraphSummary tree, GraphSummary nvls, GraphSummary collnetDirect,
        GraphSummary collnetChain) {

    /** Requires every graph (use {@link GraphSummary#none} for absent ones). */
    public GraphSet {
        Objects.requireNonNull(ring, "ring");
        Objects.requireNonNull(tree, "tree");
        Objects.requireNonNull(nvls, "nvls");
        Objects.requireNonNull(collnetDirect, "collnetDirect");
        Objects.requireNonNull(collnetChain, "collnetChain");
    }

    /**
     * @param us the net plugin's reported latency, microseconds ({@link GraphSummary#withLatencyInter})
     * @return every graph with that {@code latencyInter}
     */
    public GraphSet withLatencyInter(double us) {
        return new GraphSet(ring.withLatencyInter(us), tree.withLatencyInter(us), nvls.withLatencyInter(us),
                collnetDirect.withLatencyInter(us), collnetChain.withLatencyInter(us));
    }

    /**
     * @param other another NVLS graph
     * @return these graphs with that NVLS graph
     */
    public GraphSet withNvls(GraphSummary other) {
        return new GraphSet(ring, tree, other, collnetDirect, collnetChain);
    }

    /**
     * @param a an algorithm
     * @return the graph NCCL's tuning reads for it
     */
    public GraphSummary graphFor(Algorithm a) {
        return switch (a) {
            case TREE, PAT -> tree;
            case RING -> ring;
            case NVLS, NVLS_TREE -> nvls;
            case COLLNET_DIRECT -> collnetDirect;
            case COLLNET_CHAIN -> collnetChain;
        };
    }
}
