package dev.collsim.simulator.channel;

import dev.collsim.topology.GraphPattern;
import dev.collsim.topology.PathType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Adds channels one at a time at one speed, as NCCL's {@code ncclTopoSearchRec} does (NCCL 2.30.7
 * {@code src/graph/search.cc}; fact sheet §5.3): a depth-first search over GPU orders (with an NVSwitch only the next,
 * then the previous index; otherwise nearer GPUs first: {@link NextGpus}) that subtracts the channel bandwidth from
 * every hop of every path crossed and accepts a step only if every hop still has it; NIC ports are charged per channel
 * in each direction ({@link FillCapacity}). A channel first tries to replay the previous one's order; on several
 * nodes it enters and leaves by the NICs {@link SearchNets} allows for the fill's typeInter and crossNic. Step budget
 * NCCL's: 2^14 per channel, 2^18 in all (NCCL's global timeout 2^19). {@link #sameChannels} and the last
 * {@code at} are NCCL's search with sameChannels 1 (every channel on the first one's GPU order). Not thread-safe.
 */
final class ChannelFill {

    private static final int BUDGET = 1 << 14;
    private static final int GLOBAL_BUDGET = 1 << 18;
    /** NCCL's {@code NCCL_SEARCH_TIMEOUT_SAMECHANNELS} (NCCL 2.30.7 {@code src/graph/search.cc}), steps. */
    private static final int SAME_CHANNELS_BUDGET = 1 << 8;

    private final HostModel h;
    private final boolean multiNode;
    private final SearchNets nets;
    private final int g;
    private final List<int[]> channels = new ArrayList<>();
    /** What the fill under way has left of every link and NIC port. */
    private final FillCapacity cap;
    private int budget;
    private int globalBudget = GLOBAL_BUDGET;
    private PathType interLimit = PathType.SYS;
    private PathType intraLimit = PathType.SYS;
    /** NCCL's {@code crossNic} of the fill under way ({@link SearchNets#SAME_NIC} ...). */
    private int crossNic = SearchNets.SAME_NIC;
    /** Most channels of the sameChannels search under way; 0 in the ordinary fill. */
    private int sameMax;
    /** Several nodes, sameChannels 1: later channels only replay the one before ({@link #replayOnNics}). */
    private boolean replayOnly;
    private GraphSolution sameBest;

    ChannelFill(HostModel h, boolean multiNode, SearchNets nets) {
        this.h = h;
        this.multiNode = multiNode;
        this.nets = nets;
        this.g = h.gpus.size();
        this.cap = new FillCapacity(h);
    }

    /** @return the last fill's channels (copies): GPU order, then (several nodes) entry and exit NIC */
    List<int[]> channels() {
        return channels.stream().map(int[]::clone).toList();
    }

    /** @return whether the global step budget is not spent */
    boolean budgetLeft() {
        return globalBudget > 0;
    }

    /**
     * Finds as many channels as fit at one speed, at most {@code maxCh}, charging every link of every path, with
     * GPU-GPU paths no worse than {@code intraLimit} (NCCL's {@code typeIntra} of one search).
     *
     * @param pattern    ring or tree
     * @param bwIntra    bandwidth per channel inside the node, GB/s
     * @param bwInter    bandwidth per channel through the NICs, GB/s
     * @param maxCh      most channels
     * @param interLimit worst NIC-GPU path type allowed (multi-node)
     * @param intraLimit worst GPU-GPU path type allowed
     * @param cross      NCCL's {@code crossNic} of this search (multi-node rings; {@link SearchNets})
     * @return the solution (0 channels when none fits); on several nodes its typeInter is {@code interLimit}, the
     *         search's own as NCCL reports it
     */
    GraphSolution at(GraphPattern pattern, double bwIntra, double bwInter, int maxCh, PathType interLimit,
            PathType intraLimit, int cross) {
        return at(pattern, bwIntra, bwInter, maxCh, interLimit, intraLimit, cross, false);
    }

    /**
     * As {@link #at(GraphPattern, double, double, int, PathType, PathType, int)}; {@code sameChannels} on several nodes
     * is NCCL's search with sameChannels 1 ({@code ncclTopoSearchRecNet}, NCCL 2.30.7 {@code src/graph/search.cc}
     * lines 775-780, "Try to replay the last channel", the only try once a channel exists: its first GPU and order,
     * entry NIC {@code nets[(nChannels + i) % netCount]} in turn, exit as in any channel). The first channel is the
     * first found (NCCL looks on for 256 steps for one that takes more replays; not modelled).
     *
     * @param sameChannels whether NCCL searches with sameChannels 1 only (its AMD rule, {@link GraphSearch})
     * @return the solution (0 channels when none fits)
     */
    GraphSolution at(GraphPattern pattern, double bwIntra, double bwInter, int maxCh, PathType interLimit,
            PathType intraLimit, int cross, boolean sameChannels) {
        reset(interLimit, intraLimit, 0);
        this.crossNic = cross;
        this.replayOnly = sameChannels && multiNode;
        while (channels.size() < maxCh && addChannel(pattern, bwIntra, bwInter)) {
            // keep adding
        }
        GraphSolution s = GraphSolution.of(h, multiNode, pattern, bwIntra, bwInter, channels);
        return multiNode ? s.searchedAs(interLimit, cross) : s;
    }

    /**
     * NCCL's search with sameChannels 1 on one node ({@code ncclTopoSearchRec}, NCCL 2.30.7
     * {@code src/graph/search.cc}): the first channel tries the PCI order (GPU 0, 1, ..., g-1), then every GPU order
     * from every first GPU; each later channel only replays the previous one, so all channels share one order. Every
     * first order is kept with as many replays as fit (at most {@code maxCh} channels) and the best (most channels,
     * then fewest hops) wins, within NCCL's {@code NCCL_SEARCH_TIMEOUT_SAMECHANNELS} of 256 steps (a step per GPU
     * visited, g + 1 per replayed channel); the search stops at {@code maxCh} channels, as NCCL's does.
     *
     * @param pattern ring or tree
     * @param bwIntra bandwidth per channel, GB/s
     * @param bwInter bandwidth per channel through the NICs, GB/s (unused on one node)
     * @param maxCh   most channels
     * @return the best solution (0 channels when no order fits once)
     */
    GraphSolution sameChannels(GraphPattern pattern, double bwIntra, double bwInter, int maxCh) {
        reset(PathType.SYS, PathType.SYS, maxCh);
        budget = SAME_CHANNELS_BUDGET;
        sameBest = null;
        int[] pci = new int[g + 2];
        for (int k = 0; k < g; k++) {
            pci[k] = k;
        }
        budget -= g + 1;
        if (follow(pattern, pci, 1, bwIntra, bwInter)) {
            keepReplays(pattern, pci, bwIntra, bwInter);
            unchargeChannel(pattern, pci, bwIntra);
        }
        for (int first = 0; first < g && budget > 0; first++) {
            int[] order = new int[g + 2];
            order[0] = first;
            boolean[] seen = new boolean[g];
            seen[first] = true;
            dfs(pattern, order, 1, seen, bwIntra, bwInter);
        }
        sameMax = 0;
        return sameBest != null ? sameBest : GraphSolution.of(h, false, pattern, bwIntra, bwInter, List.of());
    }

    private void reset(PathType inter, PathType intra, int same) {
        this.interLimit = inter;
        this.intraLimit = intra;
        this.sameMax = same;
        cap.reset();
        channels.clear();
    }

    /** Replays a complete first channel as often as it fits, keeps the result if best, and takes the replays off. */
    private void keepReplays(GraphPattern pattern, int[] order, double bwIntra, double bwInter) {
        int[] first = order.clone();
        int n = 1;
        while (n < sameMax && budget > 0) {
            budget -= g + 1;
            if (!follow(pattern, first, 1, bwIntra, bwInter)) {
                break;
            }
            n++;
        }
        GraphSolution s = GraphSolution.of(h, false, pattern, bwIntra, bwInter, Collections.nCopies(n, first));
        if (s.betterThan(sameBest)) {
            sameBest = s;
        }
        for (int k = 1; k < n; k++) {
            unchargeChannel(pattern, first, bwIntra);
        }
        if (n >= sameMax) {
            budget = -1;
        }
    }

    /** Takes off one complete single-node channel charged by {@link #follow}. */
    private void unchargeChannel(GraphPattern pattern, int[] order, double bwIntra) {
        for (int k = 0; k + 1 < g; k++) {
            cap.uncharge(h.gpuToGpu[order[k]][order[k + 1]], bwIntra);
        }
        if (pattern == GraphPattern.RING && g > 1) {
            cap.uncharge(h.gpuToGpu[order[g - 1]][order[0]], bwIntra);
        }
    }

    /** Adds one channel: c[0..g-1] GPU order, then (multi-node) entry NIC and exit NIC. */
    private boolean addChannel(GraphPattern pattern, double bwIntra, double bwInter) {
        budget = BUDGET;
        if (!channels.isEmpty() && replay(pattern, channels.get(channels.size() - 1), bwIntra, bwInter)) {
            return true;
        }
        int[] order = new int[g + 2];
        if (!multiNode) {
            // GPU 0 first; trees then try every other first GPU, as NCCL does once it relaxes sameChannels to 0
            // (search.cc ncclTopoSearchRec, "try all other possibilities"). A ring is a cycle, so another first GPU
            // only rotates it.
            int starts = pattern == GraphPattern.RING ? 1 : g;
            for (int first = 0; first < starts; first++) {
                order[0] = first;
                boolean[] seen = new boolean[g];
                seen[first] = true;
                if (dfs(pattern, order, 1, seen, bwIntra, bwInter)) {
                    channels.add(order);
                    return true;
                }
                if (budget <= 0) {
                    return false;
                }
            }
            return false;
        }
        if (replayOnly && !channels.isEmpty()) {
            return replayOnNics(pattern, channels.get(channels.size() - 1), bwIntra, bwInter);
        }
        int nn = h.nics.size();
        boolean odd = channels.size() % 2 == 1;
        int prevOut = channels.isEmpty() ? -1 : channels.get(channels.size() - 1)[g + 1];
        for (int k = 0; k < nn; k++) {
            int n = (channels.size() + k) % nn;
            if (!cap.nicInFits(n, bwInter) || !SearchNets.entryAllowed(pattern, crossNic, odd, n, prevOut)) {
                continue;
            }
            for (int e : nets.entryGpus(n)) {
                HostPath in = h.nicToGpu[n][e];
                if (in == null || in.type().ordinal() > interLimit.ordinal() || !nets.backAllowed(pattern, e, n, interLimit)
                        || !cap.charge(in, bwInter)) {
                    continue;
                }
                cap.addNicIn(n, -bwInter);
                order[0] = e;
                order[g] = n;
                boolean[] seen = new boolean[g];
                seen[e] = true;
                if (dfs(pattern, order, 1, seen, bwIntra, bwInter)) {
                    channels.add(order);
                    return true;
                }
                cap.addNicIn(n, bwInter);
                cap.uncharge(in, bwInter);
                if (budget <= 0) {
                    return false;
                }
            }
        }
        return false;
    }

    private boolean replay(GraphPattern pattern, int[] prev, double bwIntra, double bwInter) {
        int[] order = prev.clone();
        if (multiNode && crossNic == SearchNets.PAIRED) {
            return false;
        }
        if (multiNode) {
            HostPath in = h.nicToGpu[order[g]][order[0]];
            if (!cap.nicInFits(order[g], bwInter) || in == null || !cap.charge(in, bwInter)) {
                return false;
            }
            cap.addNicIn(order[g], -bwInter);
            boolean[] seen = new boolean[g];
            seen[order[0]] = true;
            budget = g + 2;
            if (follow(pattern, order, 1, bwIntra, bwInter)) {
                channels.add(order);
                return true;
            }
            cap.addNicIn(order[g], bwInter);
            cap.uncharge(in, bwInter);
            budget = BUDGET;
            return false;
        }
        if (follow(pattern, order, 1, bwIntra, bwInter)) {
            channels.add(order);
            return true;
        }
        return false;
    }

    /** NCCL's replay under sameChannels 1, several nodes: entry NICs in NCCL's rotation, the order kept, any exit. */
    private boolean replayOnNics(GraphPattern pattern, int[] prev, double bwIntra, double bwInter) {
        int nn = h.nics.size();
        boolean odd = channels.size() % 2 == 1;
        for (int k = 0; k < nn; k++) {
            int n = (channels.size() + k) % nn;
            HostPath in = h.nicToGpu[n][prev[0]];
            if (!cap.nicInFits(n, bwInter) || !SearchNets.entryAllowed(pattern, crossNic, odd, n, prev[g + 1])
                    || in == null || in.type().ordinal() > interLimit.ordinal() || !cap.charge(in, bwInter)) {
                continue;
            }
            cap.addNicIn(n, -bwInter);
            int[] order = prev.clone();
            order[g] = n;
            budget = g + 2;
            if (follow(pattern, order, 1, bwIntra, bwInter, false)) {
                channels.add(order);
                return true;
            }
            cap.addNicIn(n, bwInter);
            cap.uncharge(in, bwInter);
        }
        return false;
    }

    private boolean follow(GraphPattern pattern, int[] order, int depth, double bwIntra, double bwInter) {
        return follow(pattern, order, depth, bwIntra, bwInter, true);
    }

    /** Follows a fixed order (replay), charging as the DFS would; {@code fixedExit}: leave by order[g + 1]. */
    private boolean follow(GraphPattern pattern, int[] order, int depth, double bwIntra, double bwInter,
            boolean fixedExit) {
        if (depth == g) {
            return finish(pattern, order, bwIntra, bwInter, fixedExit);
        }
        HostPath p = h.gpuToGpu[order[depth - 1]][order[depth]];
        if (!intraAllowed(p) || !cap.charge(p, bwIntra)) {
            return false;
        }
        if (follow(pattern, order, depth + 1, bwIntra, bwInter, fixedExit)) {
            return true;
        }
        cap.uncharge(p, bwIntra);
        return false;
    }

    private boolean dfs(GraphPattern pattern, int[] order, int depth, boolean[] seen, double bwIntra,
            double bwInter) {
        if (--budget < 0 || --globalBudget < 0) {
            return false;
        }
        if (depth == g) {
            if (!finish(pattern, order, bwIntra, bwInter, false)) {
                return false;
            }
            if (sameMax == 0) {
                return true;
            }
            // sameChannels: keep this first order with its replays, then look on (NCCL's search backtracks)
            keepReplays(pattern, order, bwIntra, bwInter);
            if (pattern == GraphPattern.RING && g > 1) {
                cap.uncharge(h.gpuToGpu[order[g - 1]][order[0]], bwIntra);
            }
            return false;
        }
        int cur = order[depth - 1];
        for (int next : NextGpus.of(h, cur, seen)) {
            HostPath p = h.gpuToGpu[cur][next];
            if (!intraAllowed(p) || !cap.charge(p, bwIntra)) {
                continue;
            }
            seen[next] = true;
            order[depth] = next;
            if (dfs(pattern, order, depth + 1, seen, bwIntra, bwInter)) {
                return true;
            }
            seen[next] = false;
            cap.uncharge(p, bwIntra);
            if (budget < 0) {
                return false;
            }
        }
        return false;
    }

    /** Closes the channel: ring back to the first GPU, or (multi-node) out to a NIC; trees leave by the entry. */
    private boolean finish(GraphPattern pattern, int[] order, double bwIntra, double bwInter, boolean replay) {
        int last = order[g - 1];
        if (!multiNode) {
            if (pattern != GraphPattern.RING || g == 1) {
                return true;
            }
            HostPath back = h.gpuToGpu[last][order[0]];
            return intraAllowed(back) && cap.charge(back, bwIntra);
        }
        int entryNic = order[g];
        int from = pattern == GraphPattern.RING ? last : order[0];
        int[] exits = replay ? new int[] {order[g + 1]}
                : nets.exits(pattern, crossNic, channels.size() % 2 == 1, from, entryNic,
                        channels.isEmpty() ? -1 : channels.get(channels.size() - 1)[g]);
        for (int m : exits) {
            HostPath out = h.gpuToNic[from][m];
            if (!cap.nicOutFits(m, bwInter) || out == null || out.type().ordinal() > interLimit.ordinal()
                    || !cap.charge(out, bwInter)) {
                continue;
            }
            cap.takeNicOut(m, bwInter);
            order[g + 1] = m;
            return true;
        }
        return false;
    }

    /** @return whether a GPU-GPU path exists and is no worse than this fill's typeIntra */
    private boolean intraAllowed(HostPath p) {
        return p != null && p.type().ordinal() <= intraLimit.ordinal();
    }
}
