package dev.collsim.simulator.channel;

import dev.collsim.topology.GraphPattern;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.topology.PathType;
import java.util.Arrays;
import java.util.List;

/**
 * One result of the channel search at one speed: the channels found and what NCCL keeps of them (NCCL 2.30.7
 * {@code src/graph/search.cc ncclTopoCompareGraphs}: a solution is better when nChannels x bwIntra is larger, then,
 * between searches of the same crossNic, when it has fewer hops). This record is immutable.
 *
 * @param nCh       channels found
 * @param bwIntra   bandwidth per channel inside the node, GB/s
 * @param bwInter   bandwidth per channel through the NICs, GB/s
 * @param typeIntra worst GPU-GPU path type used
 * @param typeInter on several nodes the typeInter of the search that found it ({@link #searchedAs}), which NCCL
 *                  reports and tunes by; worst NIC-GPU path type used until then (PIX on one node)
 * @param hops      links crossed over all channels: GPU-GPU paths, and on several nodes the NIC paths in and out
 *                  (NCCL's {@code nHops}, which {@code ncclTopoFollowPath} adds for every path it follows)
 * @param same      whether every channel has the first channel's GPU order
 * @param orders    the GPU order of every channel (local GPU indices of {@link HostModel#gpus}, first g entries of
 *                  the fill's channel arrays); after duplication the original channels' orders, each standing for
 *                  its copies
 * @param crossNic  NCCL's {@code crossNic} of the search that found it (0 on one node; {@link SearchNets})
 * @param nets      on several nodes, per channel as {@code orders}: {entry NIC, exit NIC} (indices into {@link
 *                  HostModel#nics}, NCCL's {@code graph->inter[2c]} and {@code graph->inter[2c + 1]}); empty on one
 *                  node
 * @param dupFactor how many channels each channel the search found became in NCCL's {@code ncclTopoDupChannels}
 *                  (1 where it did not duplicate them: {@link GraphSearch}'s dup)
 */
record GraphSolution(int nCh, double bwIntra, double bwInter, PathType typeIntra, PathType typeInter, int hops,
        boolean same, List<int[]> orders, int crossNic, List<int[]> nets, int dupFactor) {

    /** Copies the order and NIC lists (the arrays are the search's own and never changed after the fill). */
    GraphSolution {
        orders = List.copyOf(orders);
        nets = List.copyOf(nets);
    }

    /** A solution as the search found it, not duplicated (dupFactor 1). */
    GraphSolution(int nCh, double bwIntra, double bwInter, PathType typeIntra, PathType typeInter, int hops,
            boolean same, List<int[]> orders, int crossNic, List<int[]> nets) {
        this(nCh, bwIntra, bwInter, typeIntra, typeInter, hops, same, orders, crossNic, nets, 1);
    }

    /** A solution without NICs (one node, or where only the figures matter). */
    GraphSolution(int nCh, double bwIntra, double bwInter, PathType typeIntra, PathType typeInter, int hops,
            boolean same, List<int[]> orders, int crossNic) {
        this(nCh, bwIntra, bwInter, typeIntra, typeInter, hops, same, orders, crossNic, List.of());
    }

    private static final double EPS = 1e-6;

    /**
     * The solution of a fill's channels: worst path types (a one-node ring includes its closing hop), links crossed
     * (the g - 1 GPU-GPU paths of each channel's order, on several nodes with its NIC paths), and whether they share
     * one order.
     *
     * @param h         the node
     * @param multiNode whether the channels enter and leave through NICs (entries g and g + 1 of each array)
     * @param pattern   ring or tree
     * @param bwIntra   GB/s per channel inside the node
     * @param bwInter   GB/s per channel through the NICs
     * @param chans     each channel's GPU order, then (multi-node) entry and exit NIC
     * @return the solution
     */
    static GraphSolution of(HostModel h, boolean multiNode, GraphPattern pattern, double bwIntra, double bwInter,
            List<int[]> chans) {
        int g = h.gpus.size();
        PathType ti = PathType.LOC;
        PathType te = multiNode ? PathType.LOC : PathType.PIX;
        int hops = 0;
        boolean same = true;
        for (int[] c : chans) {
            same &= Arrays.equals(Arrays.copyOf(c, g), Arrays.copyOf(chans.get(0), g));
            for (int k = 0; k + 1 < g; k++) {
                ti = ti.max(h.gpuToGpu[c[k]][c[k + 1]].type());
                hops += h.gpuToGpu[c[k]][c[k + 1]].hops();
            }
            if (!multiNode && pattern == GraphPattern.RING && g > 1) {
                ti = ti.max(h.gpuToGpu[c[g - 1]][c[0]].type());
            }
            if (multiNode) {
                int exitGpu = pattern == GraphPattern.RING ? c[g - 1] : c[0];
                te = te.max(h.nicToGpu[c[g]][c[0]].type()).max(h.gpuToNic[exitGpu][c[g + 1]].type());
                hops += h.nicToGpu[c[g]][c[0]].hops() + h.gpuToNic[exitGpu][c[g + 1]].hops();
            }
        }
        if (g == 1) {
            ti = PathType.LOC;
        }
        List<int[]> orders = chans.stream().map(c -> Arrays.copyOf(c, g)).toList();
        List<int[]> nets = multiNode ? chans.stream().map(c -> new int[] {c[g], c[g + 1]}).toList() : List.of();
        return new GraphSolution(chans.size(), bwIntra, bwInter, ti, te, hops, same, orders, SearchNets.SAME_NIC,
                nets);
    }

    /**
     * @param level the typeInter the search ran at (NCCL copies the searched graph, typeInter included)
     * @param cross the search's crossNic
     * @return this solution as NCCL saves it from that search
     */
    GraphSolution searchedAs(PathType level, int cross) {
        return new GraphSolution(nCh, bwIntra, bwInter, typeIntra, level, hops, same, orders, cross, nets);
    }

    /** @param o the best so far, or null; @return {@link #betterThan(GraphSolution, boolean)} without the bonus */
    boolean betterThan(GraphSolution o) {
        return betterThan(o, false);
    }

    /**
     * @param o     the best so far, or null
     * @param bonus NCCL 2.18-2.19's rule ({@code ncclTopoCompareGraphs}, read at v2.18.5-1 and v2.19.4-1): "Give a
     *              15% perf bonus to paths not crossing nics", {@code o}'s nCh x bwIntra scaled by
     *              1 - (o.crossNic - crossNic) x 0.15 before comparing (crossNic 0 or 1 in those releases)
     * @return whether this one is better: larger nCh x bwIntra, then, when both come from searches of one crossNic,
     *         fewer hops
     */
    boolean betterThan(GraphSolution o, boolean bonus) {
        if (o == null) {
            return nCh > 0;
        }
        double a = nCh * bwIntra;
        double b = o.nCh * o.bwIntra * (bonus ? 1 - (o.crossNic - crossNic) * 0.15 : 1);
        return a > b + EPS || Math.abs(a - b) <= EPS && crossNic == o.crossNic && hops < o.hops;
    }

    /** @param p the pattern searched; @return the summary the tuning model reads */
    GraphSummary summary(GraphPattern p) {
        // the factor ncclTopoDupChannels split the search's channels by (not the count of distinct orders: a
        // multi-node ring of NCCL's search pairs its channels on one order without duplicating them)
        return new GraphSummary(p, nCh, bwIntra, bwInter, typeIntra, typeInter, 0, same, dupFactor);
    }
}
