package dev.collsim.simulator.channel;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.GraphPattern;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.topology.PathType;
import java.util.List;
import java.util.TreeSet;

/**
 * NCCL's channel search on one node ({@code ncclTopoCompute}, NCCL 2.30.7 {@code src/graph/search.cc}; fact
 * sheet §5.3, §5.4), for the ring, tree and NVLS patterns:
 * <ol>
 *   <li>{@code maxBw} = best GPU-GPU path bandwidth (or GPU-NET on several nodes); {@code totalBw} = most
 *       NVLink (sum) or PCIe bandwidth of a GPU, scaled by ndev/(ndev-1) for trees.</li>
 *   <li>Start at the first speed <= maxBw with speed x minChannels <= totalBw.</li>
 *   <li>Add channels one at a time by depth-first search over GPU orders (with an NVSwitch only the next, then
 *       the previous index is tried; otherwise nearer GPUs first), subtracting the channel bandwidth from every
 *       link of every path crossed and accepting a step only if every link still has that bandwidth; NIC ports
 *       are charged per channel in each direction. A channel first tries to replay the previous one's order;
 *       on one node a tree channel that cannot start at GPU 0 may start at any other GPU (sameChannels 0).</li>
 *   <li>Keep the solution with the largest nChannels x bw; stop when it reaches totalBw, otherwise lower the
 *       speed while next speed / best > 0.49.</li>
 *   <li>Duplicate channels (halving bw) unless bwIntra < 25, or sm > 80 with bwIntra < 50 and more than 4
 *       channels (never for NVLS); then pass 2 raises the speed at the same channel count (ring: both; tree:
 *       bwIntra up to below 2 x bwInter).</li>
 * </ol>
 * Multi-node rings are NET -> GPUs -> NET (same NIC on the way out unless NCCL_CROSS_NIC allows another);
 * trees enter and leave through one GPU's NIC. Not modelled: the type relaxation order (better path types are
 * tried first within a speed instead), the balanced-tree NIC split, the Intel PCIe overhead factor and the
 * pre-sm80 reverse-link charge. The channels at one speed are found by {@link ChannelFill}, the NVLS graph by
 * {@link NvlsSearch}. This class is not thread-safe; use one per search.
 */
final class GraphSearch {

    private static final double EPS = 1e-6;

    private final HostModel h;
    private final boolean multiNode;
    private final double[] speeds;
    private final int g;
    private final ChannelFill fill;
    private GraphSolution found;

    GraphSearch(HostModel h, boolean multiNode, double[] speeds, NcclSettings settings) {
        this.h = h;
        this.multiNode = multiNode;
        this.speeds = speeds;
        this.g = h.gpus.size();
        this.fill = new ChannelFill(h, multiNode, settings);
    }

    /** Ring or tree graph with min..max channels. */
    GraphSummary search(GraphPattern pattern, int minCh, int maxCh) {
        found = null;
        if (multiNode && h.nics.isEmpty()) {
            return fallback(pattern);
        }
        double totalBw = h.totalBw();
        if (pattern != GraphPattern.RING && g > 1) {
            totalBw *= g / (g - 1.0);
        }
        double maxBw = maxBw();
        int i = 0;
        while (i < speeds.length - 1 && (speeds[i] > maxBw + EPS || speeds[i] * minCh > totalBw + EPS)) {
            i++;
        }
        GraphSolution best = null;
        List<PathType> limits = multiNode ? interTypes() : List.of(PathType.SYS);
        search:
        while (true) {
            for (PathType limit : limits) {
                GraphSolution s = fill.at(pattern, speeds[i], speeds[i], maxCh, limit);
                if (s.nCh() >= minCh && s.betterThan(best)) {
                    best = s;
                }
                if (best != null && best.nCh() * best.bwInter() >= totalBw - EPS) {
                    break search;
                }
            }
            if (fill.budgetLeft() && i + 1 < speeds.length
                    && (best == null || speeds[i + 1] / best.bwInter() > 0.49)) {
                i++;
            } else {
                break;
            }
        }
        if (best == null) {
            return fallback(pattern);
        }
        best = dup(best, maxCh);
        found = pass2(pattern, best, multiNode ? best.typeInter() : PathType.SYS);
        return found.summary(pattern);
    }

    /**
     * @return the GPU orders of the channels the last {@link #search} kept (local GPU indices); empty when it fell
     *         back to NCCL's one-channel default or has not run
     */
    List<int[]> orders() {
        return found == null ? List.of() : found.orders();
    }

    private GraphSummary fallback(GraphPattern pattern) {
        // NCCL falls back to 1 channel at 0.1 GB/s, type SYS (search.cc)
        return new GraphSummary(pattern, 1, 0.1, 0.1, PathType.SYS, PathType.SYS, 0, true);
    }

    /** The distinct NIC-GPU path types present, best first: the typeInter levels worth trying. */
    private List<PathType> interTypes() {
        TreeSet<PathType> t = new TreeSet<>();
        for (HostPath[] row : h.nicToGpu) {
            for (HostPath p : row) {
                if (p != null) {
                    t.add(p.type());
                }
            }
        }
        return t.isEmpty() ? List.of(PathType.SYS) : List.copyOf(t);
    }

    private GraphSolution dup(GraphSolution s, int maxCh) {
        if (s.bwIntra() < 25 || h.minSm > 80 && s.bwIntra() < 50 && s.nCh() > 4) {
            return s;
        }
        int dup = Math.min(s.nCh() * 2, maxCh);
        int factor = (dup + s.nCh() - 1) / s.nCh();
        return new GraphSolution(dup, s.bwIntra() / factor, s.bwInter() / factor, s.typeIntra(), s.typeInter(),
                s.hops(), s.same(), s.orders());
    }

    private GraphSolution pass2(GraphPattern pattern, GraphSolution s, PathType interLimit) {
        int idx = 0;
        while (idx < speeds.length - 1 && speeds[idx] > s.bwInter() + EPS) {
            idx++;
        }
        GraphSolution cur = s;
        for (int j = idx - 1; j >= 0; j--) {
            if (pattern == GraphPattern.RING) {
                GraphSolution t = fill.at(pattern, speeds[j], speeds[j], cur.nCh(), interLimit);
                if (t.nCh() < cur.nCh()) {
                    break;
                }
                cur = t;
            } else {
                if (!(cur.bwIntra() < 2 * cur.bwInter()) || speeds[j] <= cur.bwIntra()) {
                    continue;
                }
                GraphSolution t = fill.at(pattern, speeds[j], cur.bwInter(), cur.nCh(), interLimit);
                if (t.nCh() < cur.nCh()) {
                    break;
                }
                cur = t;
            }
        }
        return cur;
    }

    private double maxBw() {
        double m = 0;
        if (multiNode) {
            for (int n = 0; n < h.nics.size(); n++) {
                for (int j = 0; j < g; j++) {
                    HostPath p = h.nicToGpu[n][j];
                    if (p != null) {
                        m = Math.max(m, Math.min(p.bandwidth(), h.nicSpeed[n]));
                    }
                }
            }
            return m;
        }
        if (g == 1) {
            return Double.MAX_VALUE;
        }
        for (int i = 0; i < g; i++) {
            for (int j = 0; j < g; j++) {
                if (i != j && h.gpuToGpu[i][j] != null) {
                    m = Math.max(m, h.gpuToGpu[i][j].bandwidth());
                }
            }
        }
        return m;
    }
}
