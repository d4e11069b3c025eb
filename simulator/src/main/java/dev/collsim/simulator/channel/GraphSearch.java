package dev.collsim.simulator.channel;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.GraphPattern;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.topology.PathType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
 * pre-sm80 reverse-link charge. This class is not thread-safe; use one per search.
 */
final class GraphSearch {

    private static final int BUDGET = 1 << 14;
    /** Global step budget of one search (NCCL's global timeout is 2^19 steps, search.cc). */
    private static final int GLOBAL_BUDGET = 1 << 18;
    private static final double EPS = 1e-6;

    private final HostModel h;
    private final boolean multiNode;
    private final double[] speeds;
    private final NcclSettings settings;
    private final int g;
    private double[] rem;
    private double[] nicIn;
    private double[] nicOut;
    private int budget;
    private int globalBudget = GLOBAL_BUDGET;
    private PathType interLimit = PathType.SYS;
    private final List<int[]> channels = new ArrayList<>();

    GraphSearch(HostModel h, boolean multiNode, double[] speeds, NcclSettings settings) {
        this.h = h;
        this.multiNode = multiNode;
        this.speeds = speeds;
        this.settings = settings;
        this.g = h.gpus.size();
    }

    private record Solution(int nCh, double bwIntra, double bwInter, PathType typeIntra, PathType typeInter,
            int hops, boolean same) {
        boolean betterThan(Solution o) {
            if (o == null) {
                return nCh > 0;
            }
            double a = nCh * bwIntra;
            double b = o.nCh * o.bwIntra;
            return a > b + EPS || Math.abs(a - b) <= EPS && hops < o.hops;
        }

        GraphSummary summary(GraphPattern p) {
            return new GraphSummary(p, nCh, bwIntra, bwInter, typeIntra, typeInter, 0, same);
        }
    }

    /** Ring or tree graph with min..max channels. */
    GraphSummary search(GraphPattern pattern, int minCh, int maxCh) {
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
        Solution best = null;
        List<PathType> limits = multiNode ? interTypes() : List.of(PathType.SYS);
        search:
        while (true) {
            for (PathType limit : limits) {
                interLimit = limit;
                Solution s = channelsAt(pattern, speeds[i], speeds[i], maxCh);
                if (s.nCh >= minCh && s.betterThan(best)) {
                    best = s;
                }
                if (best != null && best.nCh * best.bwInter >= totalBw - EPS) {
                    break search;
                }
            }
            if (globalBudget > 0 && i + 1 < speeds.length
                    && (best == null || speeds[i + 1] / best.bwInter > 0.49)) {
                i++;
            } else {
                break;
            }
        }
        if (best == null) {
            return fallback(pattern);
        }
        best = dup(best, maxCh);
        interLimit = multiNode ? best.typeInter : PathType.SYS;
        return pass2(pattern, best).summary(pattern);
    }

    private GraphSummary fallback(GraphPattern pattern) {
        // NCCL falls back to 1 channel at 0.1 GB/s, type SYS (search.cc)
        return new GraphSummary(pattern, 1, 0.1, 0.1, PathType.SYS, PathType.SYS, 0, true);
    }

    /** The distinct NIC-GPU path types present, best first: the typeInter levels worth trying. */
    private List<PathType> interTypes() {
        java.util.TreeSet<PathType> t = new java.util.TreeSet<>();
        for (HostPath[] row : h.nicToGpu) {
            for (HostPath p : row) {
                if (p != null) {
                    t.add(p.type());
                }
            }
        }
        return t.isEmpty() ? List.of(PathType.SYS) : List.copyOf(t);
    }

    private Solution dup(Solution s, int maxCh) {
        if (s.bwIntra < 25 || h.minSm > 80 && s.bwIntra < 50 && s.nCh > 4) {
            return s;
        }
        int dup = Math.min(s.nCh * 2, maxCh);
        int factor = (dup + s.nCh - 1) / s.nCh;
        return new Solution(dup, s.bwIntra / factor, s.bwInter / factor, s.typeIntra, s.typeInter, s.hops, s.same);
    }

    private Solution pass2(GraphPattern pattern, Solution s) {
        int idx = 0;
        while (idx < speeds.length - 1 && speeds[idx] > s.bwInter + EPS) {
            idx++;
        }
        Solution cur = s;
        for (int j = idx - 1; j >= 0; j--) {
            if (pattern == GraphPattern.RING) {
                Solution t = channelsAt(pattern, speeds[j], speeds[j], cur.nCh);
                if (t.nCh < cur.nCh) {
                    break;
                }
                cur = t;
            } else {
                if (!(cur.bwIntra < 2 * cur.bwInter) || speeds[j] <= cur.bwIntra) {
                    continue;
                }
                Solution t = channelsAt(pattern, speeds[j], cur.bwInter, cur.nCh);
                if (t.nCh < cur.nCh) {
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

    private Solution channelsAt(GraphPattern pattern, double bwIntra, double bwInter, int maxCh) {
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
        return new Solution(channels.size(), bwIntra, bwInter, ti, te, hops, same);
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

    /**
     * NVLS graph (§5.3): one channel per head GPU (all GPUs of the node, at most 32); per channel the head's
     * NVSwitch links carry 2 x bw and the other GPUs' 1 x bw in each direction, so every GPU's switch links
     * carry (nHeads + 1) x bw; bwIntra is the first speed that fits. Pass 2 raises bwInter while it is below
     * 2 x bwIntra, limited on several nodes by the heads' NIC paths.
     */
    GraphSummary nvls() {
        int heads = Math.min(32, g);
        if (!h.hasNvSwitch || h.minSm < 90 || g < 2) {
            return GraphSummary.none(GraphPattern.NVLS);
        }
        double minSwitchBw = Double.MAX_VALUE;
        for (int i = 0; i < g; i++) {
            minSwitchBw = Math.min(minSwitchBw, h.nvSwitchBw(i));
        }
        int i = 0;
        while (i < speeds.length && (heads + 1) * speeds[i] > minSwitchBw + EPS) {
            i++;
        }
        if (i == speeds.length || minSwitchBw == 0) {
            return GraphSummary.none(GraphPattern.NVLS);
        }
        double bwIntra = speeds[i];
        double nicLimit = Double.MAX_VALUE;
        PathType typeInter = PathType.PIX;
        if (multiNode) {
            if (h.nics.isEmpty()) {
                return GraphSummary.none(GraphPattern.NVLS);
            }
            for (int head = 0; head < heads; head++) {
                HostPath best = null;
                int bestNic = 0;
                for (int n = 0; n < h.nics.size(); n++) {
                    HostPath p = h.gpuToNic[head][n];
                    if (p != null && (best == null || p.compareTo(best) < 0)) {
                        best = p;
                        bestNic = n;
                    }
                }
                if (best == null) {
                    return GraphSummary.none(GraphPattern.NVLS);
                }
                typeInter = typeInter.max(best.type());
                double share = h.nicSpeed[bestNic] * h.nics.size() / (double) heads;
                nicLimit = Math.min(nicLimit, Math.min(best.bandwidth(), share));
            }
        }
        double bwInter = bwIntra;
        for (int j = i - 1; j >= 0 && bwInter < 2 * bwIntra && speeds[j] <= nicLimit + EPS; j--) {
            bwInter = speeds[j];
        }
        if (bwInter > nicLimit) {
            int j = i;
            while (j < speeds.length - 1 && speeds[j] > nicLimit + EPS) {
                j++;
            }
            bwInter = speeds[j];
        }
        return new GraphSummary(GraphPattern.NVLS, heads, bwIntra, bwInter, PathType.NVL, typeInter, 0, true);
    }
}
