package dev.collsim.simulator.channel;

import dev.collsim.simulator.tuning.GraphPattern;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.topology.PathType;
import java.util.List;

/**
 * One result of the channel search at one speed: the channels found and what NCCL keeps of them (NCCL 2.30.7
 * {@code src/graph/search.cc}: a solution is better when nChannels x bwIntra is larger, then when it has fewer
 * hops). This record is immutable.
 *
 * @param nCh       channels found
 * @param bwIntra   bandwidth per channel inside the node, GB/s
 * @param bwInter   bandwidth per channel through the NICs, GB/s
 * @param typeIntra worst GPU-GPU path type used
 * @param typeInter worst NIC-GPU path type used (PIX on one node)
 * @param hops      GPU-GPU hops over all channels
 * @param same      whether every channel has the first channel's GPU order
 * @param orders    the GPU order of every channel (local GPU indices of {@link HostModel#gpus}, first g entries of
 *                  the fill's channel arrays); after duplication the original channels' orders, each standing for
 *                  its copies
 */
record GraphSolution(int nCh, double bwIntra, double bwInter, PathType typeIntra, PathType typeInter, int hops,
        boolean same, List<int[]> orders) {

    /** Copies the order list (the arrays are the search's own and never changed after the fill). */
    GraphSolution {
        orders = List.copyOf(orders);
    }

    private static final double EPS = 1e-6;

    /** @param o the best so far, or null; @return whether this one is better (larger nCh x bwIntra, then fewer hops) */
    boolean betterThan(GraphSolution o) {
        if (o == null) {
            return nCh > 0;
        }
        double a = nCh * bwIntra;
        double b = o.nCh * o.bwIntra;
        return a > b + EPS || Math.abs(a - b) <= EPS && hops < o.hops;
    }

    /** @param p the pattern searched; @return the summary the tuning model reads */
    GraphSummary summary(GraphPattern p) {
        return new GraphSummary(p, nCh, bwIntra, bwInter, typeIntra, typeInter, 0, same);
    }
}
