package dev.collsim.simulator.channel;

import dev.collsim.nccl.NcclDevice;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.CpuKind;
import dev.collsim.topology.GraphPattern;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.simulator.tuning.NcclVersion;
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
 * Two rules of {@code ncclTopoCompute} act on one node's CPUs and NVLink (the first since NCCL 2.19.1, so not in
 * the 2.18.5 entry nor the older ones: NCCL v2.18.5-1 {@code src/graph/search.cc} line 904 tries different channels
 * on every CPU, v2.19.3-1 line 939 adds the AMD exception; the second since 2.26.2: v2.25.1-1 {@code
 * src/graph/search.cc} has no {@code ncclTopoSplitNvLink}, v2.26.2-1 calls it at line 986, so it applies from the
 * 2.27.3 entry on, not in the 2.25-2.26 entry, named by its first release; read in 2.28.9 and 2.30.7):
 * <ul>
 *   <li><b>Same channels through AMD CPUs</b> ("Try having different channels (except when going through AMD
 *       CPUs)"): NCCL searches each path-type limit typeIntra with sameChannels 1, then 0, but with an x86 AMD CPU
 *       ({@link HostModel#cpuKind}, NCCL's {@code ncclTopoCpuType}) and typeIntra SYS it keeps sameChannels 1. So on
 *       such a host a graph with a SYS hop has every channel on one GPU order ({@link ChannelFill#sameChannels});
 *       graphs on better paths may still mix orders. On several nodes a SYS graph replays its first channel
 *       ({@link #levelFill}; {@code ncclTopoSearchRecNet}'s replay, entry NICs in NCCL's rotation).</li>
 *   <li><b>Split NVLink</b> ({@code ncclTopoSplitNvLink}, {@link HostModel#splitNvLink}): with exactly 2 NVLink
 *       domains a ring needs at least 2 channels (when maxChannels >= 2 and minChannels is 1), so that the tree,
 *       which takes the ring's channel count, has 2.</li>
 * </ul>
 * Multi-node rings are NET -> GPUs -> NET, entering at a GPU local to the NIC; at each speed NCCL's order is kept
 * ({@link #interLevels}): the same NIC on the way out (crossNic 0) at every typeInter from the best GPU-NIC path
 * type up (so a DGX H100 ring settles on PXN, its last GPU relaying over NVLink to the entry NIC), and only then,
 * under NCCL_CROSS_NIC=2, channel pairs over two NICs ({@link SearchNets}); trees enter and leave through one GPU's
 * NIC. NCCL 2.18-2.22 try crossNic 1 (any exit NIC) last instead of 2, and 2.18-2.19 keep a graph that crosses NICs
 * only when it beats the best one by 15 % ({@link GraphSolution#betterThan(GraphSolution, boolean)}). On one node a
 * single fill at typeIntra SYS stands for NCCL's typeIntra loop under the AMD rule; outside it the loop is NCCL's
 * ({@link #intraLevels}), each search NCCL's backtracking one ({@link OneNodeSearchRec}). Not modelled: the PCI-order
 * reference channel, the balanced-tree NIC split (the pattern it leaves NCCL's tree with is {@link TreePattern}), the
 * Intel PCIe overhead factor and the pre-sm80 reverse-link charge. The channels at one speed are found by
 * {@link ChannelFill}, the NVLS graph by
 * {@link NvlsSearch}. This class is not thread-safe; use one per search.
 */
final class GraphSearch {

    /** The ring graph's most channels: MAXCHANNELS / 2 = 32 (NCCL 2.30.7 {@code src/init.cc} line 1177). */
    static final int RING_MAX_CHANNELS = NcclDevice.MAXCHANNELS / 2;

    private static final double EPS = 1e-6;

    private final HostModel h;
    private final boolean multiNode;
    private final double[] speeds;
    private final int g;
    private final ChannelFill fill;
    /** One node outside the AMD rule: NCCL's backtracking search ({@link OneNodeSearchRec}). */
    private final OneNodeSearchRec searchRec;
    private final SearchNets nets;
    private final NcclSettings settings;
    /** NCCL's crossNic 2 with paired channels (2.23 on); before, crossNic 1 (any exit NIC) is tried last. */
    private final boolean pairedCrossNic;
    /** NCCL 2.18-2.19's 15 % bonus for graphs that do not cross NICs ({@code ncclTopoCompareGraphs}). */
    private final boolean crossNicBonus;
    /** NCCL's AMD rule: SYS graphs only from the sameChannels search (x86 AMD CPU, NCCL 2.19 on; one node here). */
    private final boolean sameChannelsOnSys;
    private final boolean sameChannelsOnSysInter;
    /** NCCL's split-NVLink rule: a ring on 2 NVLink domains takes at least 2 channels (NCCL 2.26.2 on). */
    private final boolean splitNvLink;
    private final boolean splitTree; // NCCL 2.8-2.9's split tree below sm80 (TreePattern.splitTree)
    private GraphSolution found;

    GraphSearch(HostModel h, boolean multiNode, double[] speeds, NcclSettings settings, NcclVersion version) {
        this.h = h;
        this.multiNode = multiNode;
        this.speeds = speeds;
        this.g = h.gpus.size();
        this.nets = new SearchNets(h);
        this.settings = settings;
        this.pairedCrossNic = version.minor() >= NcclVersion.V2_23_4.minor();
        this.crossNicBonus = version.minor() < NcclVersion.V2_21_5.minor();
        this.fill = new ChannelFill(h, multiNode, nets);
        this.searchRec = new OneNodeSearchRec(h);
        boolean amd = h.cpuKind() == CpuKind.AMD_X86 && version.minor() >= NcclVersion.V2_19_4.minor();
        this.sameChannelsOnSys = !multiNode && amd;
        this.sameChannelsOnSysInter = multiNode && amd;
        this.splitNvLink = version.minor() >= NcclVersion.V2_27_3.minor() && h.splitNvLink();
        this.splitTree = TreePattern.splitTree(version, h.minSm);
    }

    /** Ring or tree graph with min..max channels. */
    GraphSummary search(GraphPattern pattern, int minChannels, int maxCh) {
        found = null;
        if (multiNode && h.nics.isEmpty()) {
            return fallback(pattern);
        }
        double totalBw = h.totalBw();
        if (pattern != GraphPattern.RING && g > 1) {
            totalBw *= g / (g - 1.0);
        }
        // ncclTopoCompute: with split NVLink "also force Ring to use 2 channels"
        int minCh = pattern == GraphPattern.RING && splitNvLink && maxCh >= 2 && minChannels == 1 ? 2
                : minChannels;
        double maxBw = maxBw();
        int i = 0;
        while (i < speeds.length - 1 && (speeds[i] > maxBw + EPS || speeds[i] * minCh > totalBw + EPS)) {
            i++;
        }
        GraphSolution best = null;
        while (true) {
            best = multiNode ? interLevels(pattern, speeds[i], maxCh, minCh, best)
                    : fillAt(pattern, speeds[i], maxCh, PathType.SYS, minCh, best);
            if (done(best, maxCh)) {
                break;
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
        return found.summary(pattern == GraphPattern.BALANCED_TREE ? TreePattern.of(h, multiNode, found, splitTree)
                : pattern);
    }

    /**
     * @return the GPU orders of the channels the last {@link #search} kept (local GPU indices); empty when it fell
     *         back to NCCL's one-channel default or has not run
     */
    List<int[]> orders() {
        return found == null ? List.of() : found.orders();
    }

    /**
     * Runs the ring search with NCCL's channel limits of {@link ChannelSearch} (1 to {@link #RING_MAX_CHANNELS}).
     *
     * @return NCCL's {@code crossNic} of the graph kept (0 after a fallback)
     */
    int searchRing() {
        search(GraphPattern.RING, 1, RING_MAX_CHANNELS);
        return found == null ? 0 : found.crossNic();
    }

    /**
     * The tree search after the ring, as NCCL 2.28.9 {@code src/init.cc} (lines 1026-1027) runs it: graph 1
     * (balanced tree) between the ring's channel count, after its duplication, and itself ({@code
     * treeGraph->minChannels = treeGraph->maxChannels = ringGraph->nChannels}).
     *
     * @param ring the ring graph this node's ring search found
     * @return the tree graph; {@link #orders} then reads its channels
     */
    GraphSummary searchTree(GraphSummary ring) {
        return search(GraphPattern.BALANCED_TREE, ring.nChannels(), ring.nChannels());
    }

    /**
     * @return on several nodes, per channel the last {@link #search} kept as {@link #orders}: {entry NIC, exit NIC}
     *         (indices into {@link HostModel#nics}); empty on one node, after a fallback or before a search
     */
    List<int[]> nets() {
        return found == null ? List.of() : found.nets();
    }

    private GraphSummary fallback(GraphPattern pattern) { // NCCL: 1 channel at 0.1 GB/s, type SYS (search.cc)
        return new GraphSummary(pattern, 1, 0.1, 0.1, PathType.SYS, PathType.SYS, 0, true);
    }

    /** NCCL's stop of pass 1: a copy reached maxChannels, or nChannels x bwInter reaches system->totalBw (unscaled). */
    private boolean done(GraphSolution best, int maxCh) {
        return best != null && (best.nCh() >= maxCh || best.nCh() * best.bwInter() >= h.totalBw() - EPS);
    }

    /**
     * NCCL's pass 1 at one speed on several nodes ({@code ncclTopoCompute}, NCCL 2.30.7 and 2.28.9
     * {@code src/graph/search.cc}): for each crossNic in turn ({@link SearchNets#crossNicOrder}: 0 first, crossNic 2
     * only after every path type), typeInter rises from the best GPU-to-NIC path type of the node to the worst (SYS
     * below sm90), on to the next type while no graph is found, the type is better than the best graph's, or it is
     * better than PXN; typeIntra may rise up to typeInter. A type that admits no path the one before did not gives
     * the same fill and is passed over. The search stops as {@link #done} says.
     *
     * @return the better of {@code best} and what these searches found with at least {@code minCh} channels
     */
    private GraphSolution interLevels(GraphPattern pattern, double speed, int maxCh, int minCh, GraphSolution best) {
        TreeSet<PathType> present = presentTypes();
        PathType min = PathType.SYS;
        PathType max = PathType.LOC;
        for (HostPath[] row : h.gpuToNic) {
            for (HostPath p : row) {
                if (p != null) {
                    min = min.compareTo(p.type()) < 0 ? min : p.type();
                    max = max.compareTo(p.type()) > 0 ? max : p.type();
                }
            }
        }
        if (h.minSm < 90 || max.compareTo(min) < 0) {
            max = PathType.SYS;
        }
        min = min.compareTo(max) > 0 ? max : min;
        GraphSolution b = best;
        for (int cross : nets.crossNicOrder(pattern, settings.crossNic(), pairedCrossNic)) {
            PathType searched = null;
            for (PathType level = min; ; level = PathType.values()[level.ordinal() + 1]) {
                if (searched == null || !present.subSet(searched, false, level, true).isEmpty()) {
                    b = keep(b, levelFill(pattern, speed, maxCh, level, cross), minCh);
                    searched = level;
                    if (done(b, maxCh)) {
                        return b;
                    }
                }
                if (level.compareTo(max) >= 0 || b != null && level.compareTo(b.typeInter()) >= 0
                        && level.compareTo(PathType.PXN) >= 0) {
                    break;
                }
            }
        }
        return b;
    }

    /** @return every path type between the node's GPUs and NICs, either way, and between its GPUs */
    private TreeSet<PathType> presentTypes() {
        TreeSet<PathType> t = new TreeSet<>();
        for (HostPath[][] m : List.of(h.nicToGpu, h.gpuToNic, h.gpuToGpu)) {
            for (HostPath[] row : m) {
                for (HostPath p : row) {
                    if (p != null) {
                        t.add(p.type());
                    }
                }
            }
        }
        return t;
    }

    /**
     * The fills NCCL's loop over typeIntra and sameChannels amounts to at one speed: one fill on every path type; or,
     * under the AMD rule, one on paths better than SYS with channels of any order, then, only while the best graph so
     * far is none or a SYS one (NCCL raises typeIntra only while {@code tmpGraph.typeIntra < graph->typeIntra}), one
     * with every channel on one order through SYS ({@link ChannelFill#sameChannels}).
     *
     * @return the better of {@code best} and what these fills found with at least {@code minCh} channels
     */
    private GraphSolution fillAt(GraphPattern pattern, double speed, int maxCh, PathType interLimit, int minCh,
            GraphSolution best) {
        if (!sameChannelsOnSys) {
            return intraLevels(pattern, speed, maxCh, interLimit, minCh, best);
        }
        GraphSolution b = keep(best, fill.at(pattern, speed, speed, maxCh, interLimit, PathType.PHB,
                SearchNets.SAME_NIC), minCh);
        if (sameChannelsOnSys && (b == null || b.typeIntra() == PathType.SYS)) {
            b = keep(b, fill.sameChannels(pattern, speed, speed, maxCh), minCh);
        }
        return b;
    }

    /**
     * NCCL's typeIntra loop at one speed on one node ({@code ncclTopoCompute}, NCCL v2.8.4-1 and v2.28.9-1
     * {@code src/graph/search.cc}: typeIntra starts at NVL, LOC for one GPU, and rises by one path type while no graph
     * is found or the type is below the best graph's), each search NCCL's backtracking one ({@link OneNodeSearchRec});
     * a type that admits no GPU-GPU path the one before did not gives the same search and is passed over. So a host
     * whose GPUs all have direct NVLinks keeps its channels on them: a ring does not route over a 2-hop NVLink path
     * (NVB) and spend two links' bandwidth while direct links would carry it.
     *
     * @return the better of {@code best} and what these searches found with at least {@code minCh} channels
     */
    private GraphSolution intraLevels(GraphPattern pattern, double speed, int maxCh, PathType limit, int minCh,
            GraphSolution best) {
        TreeSet<PathType> present = presentTypes();
        GraphSolution b = best;
        PathType searched = null;
        for (PathType level = g == 1 ? PathType.LOC : PathType.NVL; ;
                level = PathType.values()[level.ordinal() + 1]) {
            if (searched == null || !present.subSet(searched, false, level, true).isEmpty()) {
                b = keep(b, searchRec.search(pattern, speed, speed, maxCh, level), minCh);
                searched = level;
                if (done(b, maxCh)) {
                    return b;
                }
            }
            if (level.compareTo(limit) >= 0 || b != null && level.compareTo(b.typeIntra()) >= 0) {
                return b;
            }
        }
    }

    /**
     * One fill of {@link #interLevels}. Under the AMD rule NCCL reaches typeIntra SYS only when no graph is found
     * below it, and there searches with sameChannels 1 alone (NCCL 2.30.7 {@code src/graph/search.cc} lines 1203-1206,
     * "Try having different channels" skipped whatever the node count; v2.19.3-1 lines 939-944).
     */
    private GraphSolution levelFill(GraphPattern pattern, double speed, int maxCh, PathType level, int cross) {
        GraphSolution s = fill.at(pattern, speed, speed, maxCh, level, level, cross);
        if (!sameChannelsOnSysInter || level != PathType.SYS || s.nCh() == 0 || s.typeIntra() != PathType.SYS) {
            return s;
        }
        GraphSolution below = fill.at(pattern, speed, speed, maxCh, level, PathType.PHB, cross);
        return below.nCh() > 0 ? below : fill.at(pattern, speed, speed, maxCh, level, level, cross, true);
    }

    private GraphSolution keep(GraphSolution best, GraphSolution s, int minCh) {
        return s.nCh() >= minCh && s.betterThan(best, crossNicBonus) ? s : best;
    }

    /** Pass 2's fill: the kind of search that found {@code like} (NCCL copies its typeIntra and sameChannels). */
    private GraphSolution refill(GraphPattern pattern, double bwIntra, double bwInter, int nCh, PathType interLimit,
            GraphSolution like) {
        if (multiNode) {
            return fill.at(pattern, bwIntra, bwInter, nCh, interLimit, interLimit, like.crossNic(),
                    sameChannelsOnSysInter && like.typeIntra() == PathType.SYS);
        }
        if (!sameChannelsOnSys) { // pass 2 starts from the graph found: its typeIntra
            return searchRec.search(pattern, bwIntra, bwInter, nCh, like.typeIntra());
        }
        return like.typeIntra() == PathType.SYS ? fill.sameChannels(pattern, bwIntra, bwInter, nCh)
                : fill.at(pattern, bwIntra, bwInter, nCh, interLimit, PathType.PHB, SearchNets.SAME_NIC);
    }

    private GraphSolution dup(GraphSolution s, int maxCh) {
        if (s.bwIntra() < 25 || h.minSm > 80 && s.bwIntra() < 50 && s.nCh() > 4) {
            return s;
        }
        int dup = Math.min(s.nCh() * 2, maxCh);
        int factor = (dup + s.nCh() - 1) / s.nCh();
        return new GraphSolution(dup, s.bwIntra() / factor, s.bwInter() / factor, s.typeIntra(), s.typeInter(),
                s.hops(), s.same(), s.orders(), s.crossNic(), s.nets(), factor);
    }

    private GraphSolution pass2(GraphPattern pattern, GraphSolution s, PathType interLimit) {
        int idx = 0;
        while (idx < speeds.length - 1 && speeds[idx] > s.bwInter() + EPS) {
            idx++;
        }
        GraphSolution cur = s;
        for (int j = idx - 1; j >= 0; j--) {
            if (pattern == GraphPattern.RING) {
                GraphSolution t = refill(pattern, speeds[j], speeds[j], cur.nCh(), interLimit, cur);
                if (t.nCh() < cur.nCh()) {
                    break;
                }
                cur = t;
            } else {
                if (!(cur.bwIntra() < 2 * cur.bwInter()) || speeds[j] <= cur.bwIntra()) {
                    continue;
                }
                GraphSolution t = refill(pattern, speeds[j], cur.bwInter(), cur.nCh(), interLimit, cur);
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
