package dev.collsim.simulator.channel;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.GraphPattern;
import dev.collsim.topology.PathType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Adds channels one at a time at one speed, as NCCL's {@code ncclTopoSearchRec} does (NCCL 2.30.7
 * {@code src/graph/search.cc}; fact sheet §5.3): a depth-first search over GPU orders (with an NVSwitch only the next,
 * then the previous index; otherwise nearer GPUs first) that subtracts the channel bandwidth from every hop of every
 * path crossed ({@link HostModel#capacity}) and accepts a step only if every hop still has it; NIC ports are charged
 * per channel in each direction. A channel first tries to replay the previous one's order. The step budget is
 * NCCL's: 2^14 per channel, 2^18 over the whole search (NCCL's global timeout is 2^19 steps). Not thread-safe; one
 * per {@link GraphSearch}.
 */
final class ChannelFill {

    private static final int BUDGET = 1 << 14;
    private static final int GLOBAL_BUDGET = 1 << 18;
    private static final double EPS = 1e-6;

    private final HostModel h;
    private final boolean multiNode;
    private final NcclSettings settings;
    private final int g;
    private final List<int[]> channels = new ArrayList<>();
    private double[] rem;
    private double[] nicIn;
    private double[] nicOut;
    private int budget;
    private int globalBudget = GLOBAL_BUDGET;
    private PathType interLimit = PathType.SYS;

    ChannelFill(HostModel h, boolean multiNode, NcclSettings settings) {
        this.h = h;
        this.multiNode = multiNode;
        this.settings = settings;
        this.g = h.gpus.size();
    }

    /** @return whether the global step budget is not spent */
    boolean budgetLeft() {
        return globalBudget > 0;
    }

    /**
     * Finds as many channels as fit at one speed, at most {@code maxCh}, charging every link of every path.
     *
     * @param pattern    ring or tree
     * @param bwIntra    bandwidth per channel inside the node, GB/s
     * @param bwInter    bandwidth per channel through the NICs, GB/s
     * @param maxCh      most channels
     * @param interLimit worst NIC-GPU path type allowed (multi-node)
     * @return the solution (0 channels when none fits)
     */
    GraphSolution at(GraphPattern pattern, double bwIntra, double bwInter, int maxCh, PathType interLimit) {
        this.interLimit = interLimit;
        rem = h.capacity.clone();
        nicIn = h.nicSpeed.clone();
        nicOut = h.nicSpeed.clone();
        channels.clear();
        while (channels.size() < maxCh && addChannel(pattern, bwIntra, bwInter)) {
            // keep adding
        }
        PathType ti = PathType.LOC;
        PathType te = multiNode ? PathType.LOC : PathType.PIX;
        int hops = 0;
        boolean same = true;
        for (int[] c : channels) {
            same &= Arrays.equals(Arrays.copyOf(c, g), Arrays.copyOf(channels.get(0), g));
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
            }
        }
        if (g == 1) {
            ti = PathType.LOC;
        }
        List<int[]> orders = channels.stream().map(c -> Arrays.copyOf(c, g)).toList();
        return new GraphSolution(channels.size(), bwIntra, bwInter, ti, te, hops, same, orders);
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
        int nn = h.nics.size();
        for (int k = 0; k < nn; k++) {
            int n = (channels.size() + k) % nn;
            if (nicIn[n] + EPS < bwInter) {
                continue;
            }
            Integer[] entries = new Integer[g];
            for (int j = 0; j < g; j++) {
                entries[j] = j;
            }
            final int nic = n;
            Arrays.sort(entries, (a, b) -> compare(h.nicToGpu[nic][a], h.nicToGpu[nic][b]));
            for (int e : entries) {
                HostPath in = h.nicToGpu[n][e];
                if (in == null || in.type().ordinal() > interLimit.ordinal() || !charge(in, bwInter)) {
                    continue;
                }
                nicIn[n] -= bwInter;
                order[0] = e;
                order[g] = n;
                boolean[] seen = new boolean[g];
                seen[e] = true;
                if (dfs(pattern, order, 1, seen, bwIntra, bwInter)) {
                    channels.add(order);
                    return true;
                }
                nicIn[n] += bwInter;
                uncharge(in, bwInter);
                if (budget <= 0) {
                    return false;
                }
            }
        }
        return false;
    }

    private static int compare(HostPath a, HostPath b) {
        return a == null ? b == null ? 0 : 1 : b == null ? -1 : a.compareTo(b);
    }

    private boolean replay(GraphPattern pattern, int[] prev, double bwIntra, double bwInter) {
        int[] order = prev.clone();
        if (multiNode) {
            HostPath in = h.nicToGpu[order[g]][order[0]];
            if (nicIn[order[g]] + EPS < bwInter || in == null || !charge(in, bwInter)) {
                return false;
            }
            nicIn[order[g]] -= bwInter;
            boolean[] seen = new boolean[g];
            seen[order[0]] = true;
            budget = g + 2;
            if (follow(pattern, order, 1, bwIntra, bwInter)) {
                channels.add(order);
                return true;
            }
            nicIn[order[g]] += bwInter;
            uncharge(in, bwInter);
            budget = BUDGET;
            return false;
        }
        if (follow(pattern, order, 1, bwIntra, bwInter)) {
            channels.add(order);
            return true;
        }
        return false;
    }

    /** Follows a fixed order (replay), charging as the DFS would. */
    private boolean follow(GraphPattern pattern, int[] order, int depth, double bwIntra, double bwInter) {
        if (depth == g) {
            return finish(pattern, order, bwIntra, bwInter, true);
        }
        HostPath p = h.gpuToGpu[order[depth - 1]][order[depth]];
        if (p == null || !charge(p, bwIntra)) {
            return false;
        }
        if (follow(pattern, order, depth + 1, bwIntra, bwInter)) {
            return true;
        }
        uncharge(p, bwIntra);
        return false;
    }

    private boolean dfs(GraphPattern pattern, int[] order, int depth, boolean[] seen, double bwIntra,
            double bwInter) {
        if (--budget < 0 || --globalBudget < 0) {
            return false;
        }
        if (depth == g) {
            return finish(pattern, order, bwIntra, bwInter, false);
        }
        int cur = order[depth - 1];
        for (int next : candidates(cur, seen)) {
            HostPath p = h.gpuToGpu[cur][next];
            if (p == null || !charge(p, bwIntra)) {
                continue;
            }
            seen[next] = true;
            order[depth] = next;
            if (dfs(pattern, order, depth + 1, seen, bwIntra, bwInter)) {
                return true;
            }
            seen[next] = false;
            uncharge(p, bwIntra);
            if (budget < 0) {
                return false;
            }
        }
        return false;
    }

    private int[] candidates(int cur, boolean[] seen) {
        if (h.hasNvSwitch) {
            int a = (cur + 1) % g;
            int b = (cur - 1 + g) % g;
            List<Integer> c = new ArrayList<>(2);
            if (!seen[a]) {
                c.add(a);
            }
            if (!seen[b] && b != a) {
                c.add(b);
            }
            return c.stream().mapToInt(Integer::intValue).toArray();
        }
        Integer[] all = new Integer[g];
        int n = 0;
        for (int j = 0; j < g; j++) {
            if (!seen[j]) {
                all[n++] = j;
            }
        }
        Integer[] c = Arrays.copyOf(all, n);
        Arrays.sort(c, (x, y) -> compare(h.gpuToGpu[cur][x], h.gpuToGpu[cur][y]));
        return Arrays.stream(c).mapToInt(Integer::intValue).toArray();
    }

    /** Closes the channel: ring back to the first GPU, or (multi-node) out to a NIC; trees leave by the entry. */
    private boolean finish(GraphPattern pattern, int[] order, double bwIntra, double bwInter, boolean replay) {
        int last = order[g - 1];
        if (!multiNode) {
            if (pattern != GraphPattern.RING || g == 1) {
                return true;
            }
            HostPath back = h.gpuToGpu[last][order[0]];
            return back != null && charge(back, bwIntra);
        }
        int entryNic = order[g];
        int from = pattern == GraphPattern.RING ? last : order[0];
        int nn = h.nics.size();
        boolean cross = pattern == GraphPattern.RING && settings.crossNic() != 0;
        for (int k = 0; k < (cross && !replay ? nn : 1); k++) {
            int m = (entryNic + k) % nn;
            if (replay && m != order[g + 1] && channels.size() > 0) {
                m = order[g + 1];
            }
            HostPath out = h.gpuToNic[from][m];
            if (nicOut[m] + EPS < bwInter || out == null || out.type().ordinal() > interLimit.ordinal()
                    || !charge(out, bwInter)) {
                continue;
            }
            nicOut[m] -= bwInter;
            order[g + 1] = m;
            return true;
        }
        return false;
    }

    private boolean charge(HostPath p, double bw) {
        for (int l : p.links()) {
            if (rem[l] + EPS < bw) {
                return false;
            }
        }
        for (int l : p.links()) {
            rem[l] -= bw;
        }
        return true;
    }

    private void uncharge(HostPath p, double bw) {
        for (int l : p.links()) {
            rem[l] += bw;
        }
    }
}
