package dev.collsim.simulator.channel;

import dev.collsim.topology.GraphPattern;
import dev.collsim.topology.PathType;
import java.util.ArrayList;
import java.util.List;

/**
 * NCCL's depth-first channel search on one node as NCCL runs it, backtracking across channels
 * ({@code ncclTopoSearchRec}, {@code ncclTopoSearchTryGpu}, {@code ncclTopoSearchRecGpu}: NCCL v2.8.4-1 and v2.28.9-1
 * {@code src/graph/search.cc}, the same recursion in both): the first channel tries the PCI order (GPU 0, 1, ...,
 * g-1) first, every later one the previous channel's order first ({@code FORCED_ORDER_REPLAY}), then every GPU order
 * from every first GPU, the next GPUs in {@link NextGpus}' order with NCCL's {@code startIndex} tie-break; each completed channel is compared with the best
 * graph ({@code ncclTopoCompareGraphs}: more channels x bandwidth, then fewer hops) and the search goes on to the next
 * channel; on return it takes the channel back and tries the next alternative, so a channel order that leaves the
 * later channels no room is undone. It stops when a graph reaches the most channels ({@code *time = -1}) or its step
 * budget is spent: one step per {@code ncclTopoSearchRecGpu} call, NCCL 2.28.9's {@code NCCL_SEARCH_TIMEOUT} and
 * {@code NCCL_SEARCH_TIMEOUT_TREE} of 2^14 for the whole search (2.8.4 gives 2^18 and 2^17).
 *
 * <p>Why it matters: adding channels one at a time, each on the first order that fits, can strand link capacity. On 4
 * GPUs with 2 NVLinks between every pair (ABCI Compute Node (V)) at 20 GB/s per channel, two channels on the PCI
 * order 0-1-2-3 and two on its reverse use up the four edges of that cycle and leave the two diagonals, which no ring
 * through all 4 GPUs can use alone: 4 channels (80 GB/s). NCCL's backtracking finds the 6 rings that use every link
 * twice (0-1-2-3, 0-3-2-1, 0-2-1-3, 0-3-1-2, 0-2-3-1, 0-1-3-2), 120 GB/s, the GPU's total NVLink bandwidth.
 *
 * <p>Used for one node outside NCCL's AMD sameChannels rule ({@link ChannelFill#sameChannels} covers that). Not
 * thread-safe; one per {@link GraphSearch}.
 */
final class OneNodeSearchRec {

    /** NCCL 2.28.9's {@code NCCL_SEARCH_TIMEOUT} and {@code NCCL_SEARCH_TIMEOUT_TREE}, steps per search. */
    private static final int TIMEOUT = 1 << 14;

    private final HostModel h;
    private final int g;
    private final FillCapacity cap;
    private final List<int[]> chans = new ArrayList<>();
    private GraphPattern pattern;
    private double bw;
    private double bwInter;
    private int maxCh;
    private PathType intraLimit;
    private int time;
    private GraphSolution best;

    OneNodeSearchRec(HostModel h) {
        this.h = h;
        this.g = h.gpus.size();
        this.cap = new FillCapacity(h);
    }

    /**
     * @param pattern    ring or tree
     * @param bw         bandwidth per channel inside the node, GB/s (what every GPU-GPU hop is charged)
     * @param bwInter    the graph's bwInter, GB/s (a tree's pass 2 keeps it below bw)
     * @param maxCh      most channels
     * @param intraLimit worst GPU-GPU path type allowed (NCCL's typeIntra)
     * @return the best graph the search found (0 channels when none)
     */
    GraphSolution search(GraphPattern pattern, double bw, double bwInter, int maxCh, PathType intraLimit) {
        this.pattern = pattern;
        this.bw = bw;
        this.bwInter = bwInter;
        this.maxCh = maxCh;
        this.intraLimit = intraLimit;
        this.time = TIMEOUT;
        this.best = null;
        cap.reset();
        chans.clear();
        searchRec();
        return best != null ? best : GraphSolution.of(h, false, pattern, bw, bwInter, List.of());
    }

    /** {@code ncclTopoSearchRec} on one node: PCI order or replay first, then every first GPU. */
    private void searchRec() {
        int[] order = new int[g + 2];
        if (chans.isEmpty()) {
            tryGpu(order, 0, -1, 0, Forced.PCI);
        } else {
            tryGpu(order, 0, -1, chans.get(chans.size() - 1)[0], Forced.REPLAY);
        }
        for (int first = 0; first < g; first++) {
            tryGpu(order, 0, -1, first, Forced.NONE);
        }
    }

    /** {@code ncclTopoSearchTryGpu}: follow the path from {@code from} (none at step 0) to {@code to}, then go on. */
    private void tryGpu(int[] order, int step, int from, int to, Forced forced) {
        HostPath p = from < 0 ? null : h.gpuToGpu[from][to];
        if (from >= 0 && (p == null || p.type().ordinal() > intraLimit.ordinal() || !cap.charge(p, bw))) {
            return;
        }
        order[step] = to;
        recGpu(order, step, forced);
        if (p != null) {
            cap.uncharge(p, bw);
        }
    }

    /** {@code ncclTopoSearchRecGpu}: one step of the budget per call. */
    private void recGpu(int[] order, int step, Forced forced) {
        if (time <= 0) {
            return;
        }
        time--;
        if (step == g) {
            chans.add(order.clone());
            GraphSolution s = GraphSolution.of(h, false, pattern, bw, bwInter, chans);
            if (s.betterThan(best)) {
                best = s;
                if (chans.size() == maxCh) {
                    time = -1;
                }
            }
            if (chans.size() < maxCh) {
                searchRec();
            }
            chans.remove(chans.size() - 1);
            return;
        }
        int cur = order[step];
        if (step < g - 1) {
            for (int next : next(order, step, forced)) {
                tryGpu(order, step + 1, cur, next, forced);
            }
        } else if (pattern == GraphPattern.RING && g > 1) {
            HostPath back = h.gpuToGpu[cur][order[0]];
            if (back != null && back.type().ordinal() <= intraLimit.ordinal() && cap.charge(back, bw)) {
                recGpu(order, g, forced);
                cap.uncharge(back, bw);
            }
        } else {
            recGpu(order, g, forced);
        }
    }

    private int[] next(int[] order, int step, Forced forced) {
        if (forced == Forced.PCI) {
            return new int[] {step + 1};
        }
        if (forced == Forced.REPLAY) {
            return new int[] {chans.get(chans.size() - 1)[step + 1]};
        }
        boolean[] seen = new boolean[g];
        for (int k = 0; k <= step; k++) {
            seen[order[k]] = true;
        }
        return NextGpus.of(h, order[step], seen, true);
    }

    /** NCCL's {@code forcedOrder}: none, {@code FORCED_ORDER_PCI}, {@code FORCED_ORDER_REPLAY}. */
    private enum Forced { NONE, PCI, REPLAY }
}
