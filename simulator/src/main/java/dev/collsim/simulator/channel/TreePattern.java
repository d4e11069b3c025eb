package dev.collsim.simulator.channel;

import dev.collsim.topology.GraphPattern;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.PathType;

/**
 * The pattern NCCL's tree graph ends with: NCCL asks its search for a balanced tree and falls back to a plain tree
 * where a balanced one cannot be built, and a plain tree costs every Tree estimate 15 % of its bandwidth ({@code
 * busBw *= .85} when the tree pattern is {@code NCCL_TOPO_PATTERN_TREE}: the rank's own graph in NCCL 2.18-2.24,
 * {@code comm->maxTreePattern} over all ranks from 2.26, NCCL 2.26.2 and 2.30.7 {@code src/graph/tuning.cc
 * ncclTopoTuneModel}; applied in {@code simulator.tuning.NcclTuningModel}). So the pattern moves NCCL's choice
 * between Tree and the other algorithms, e.g. Tree/LL128 against NVLSTree/Simple at 512 KiB on 2 x 8 Hopper.
 *
 * <p>What NCCL's search does (NCCL 2.18.5 to 2.30.7 {@code src/graph/search.cc}):
 * <ul>
 *   <li>A balanced tree (pattern 1) enters a node from NIC n at GPU a and sends back to the network from two GPUs,
 *       a and the next GPU b of the chain, each at half the channel's network bandwidth ({@code ncclTopoSearchRecGpu}
 *       "Balanced Tree : count half of the bandwidth on first two GPUs"); b must use the same NIC n ({@code
 *       ncclTopoSearchCheckNet}: {@code BALANCED_TREE && step != 0 && net->id != graph->inter[2c + 1]} is refused)
 *       over a path no worse than the search's typeInter ({@code ncclTopoFollowPath} refuses longer paths).</li>
 *   <li>{@code ncclTopoCompute} tries, at each typeIntra and typeInter, the balanced tree first and then, on GPUs of
 *       compute capability 9.0 and later, "a simpler tree" (pattern 3, {@code ccMin >= 90}: all of a channel's
 *       network traffic on GPU a), keeping the better graph and stopping at the first perfect one. On a host where a
 *       NIC has one GPU at its best path type (DGX H100/H200, HGX B200: one NIC per GPU; one GPU per node) the
 *       balanced tree finds no channel there, the plain tree finds them all, and the search stops with pattern 3
 *       before it raises typeInter to PXN, where a balanced tree would fit.</li>
 *   <li>A node of one GPU is a plain tree whatever was asked ({@code if (ngpus == 1) ... graph->pattern =
 *       NCCL_TOPO_PATTERN_TREE}).</li>
 * </ul>
 * collsim's tree search ({@link GraphSearch}) fills tree channels as plain trees at every level (the balanced
 * tree's half-bandwidth split is not modelled), so the level it settles on is the one where NCCL's plain tree is
 * found; there NCCL would have kept a balanced tree only if every channel's NIC has a second GPU within that
 * typeInter.
 *
 * <p>NCCL 2.8-2.9 ask for a split tree (pattern 2) in place of the balanced one on GPUs below sm80 ("SPLIT_TREE works
 * better on older archs", {@code if (ccMin < 80 && graph->pattern == NCCL_TOPO_PATTERN_BALANCED_TREE)}, v2.8.4-1 and
 * v2.9.9-1 {@code src/graph/search.cc} lines 679-682 and 738-741; v2.10.3-1 keeps the comment and drops the rule,
 * line 740): the channel enters a node at GPU a and leaves it for the network at the chain's second GPU b ({@code
 * ncclTopoSearchParams}: {@code backToNet = 1}, line 489), the tree's parent link on a and both child links on b
 * ({@code ncclTopoPreset}, v2.8.4-1 {@code src/graph/connect.cc} lines 43-45). Where both GPUs reach the NIC at the
 * same path type, as the search's fill assumes, it finds the same channels and speeds; the pattern is then split
 * ({@link #splitTree}), else the search's "simpler tree" (pattern 3) would follow. NCCL 2.8's tuning reads no
 * pattern, and collsim's time does not model the chain's added NVLink hop per tree level (docs/nccl-releases.md,
 * h28net round). Stateless.
 */
final class TreePattern {

    /** First compute capability (x10) whose search falls back to a plain tree ({@code ccMin >= 90}). */
    static final int SIMPLER_TREE_SM = 90;

    private TreePattern() {
    }

    /**
     * @param h         the node searched
     * @param multiNode whether the tree crosses nodes (one node never builds a balanced tree's network split)
     * @param s         the tree solution the search kept (per channel its GPU order and {entry, exit} NIC)
     * @param splitTree whether the release asks for a split tree ({@link #splitTree}): then, between nodes,
     *                  {@link GraphPattern#SPLIT_TREE}
     * @return {@link GraphPattern#TREE} where NCCL's search ends with a plain tree, else
     *         {@link GraphPattern#BALANCED_TREE}
     */
    static GraphPattern of(HostModel h, boolean multiNode, GraphSolution s, boolean splitTree) {
        if (h.gpus.size() == 1) {
            return GraphPattern.TREE;
        }
        if (splitTree && multiNode && !s.nets().isEmpty()) {
            return GraphPattern.SPLIT_TREE;
        }
        if (!multiNode || h.minSm < SIMPLER_TREE_SM || s.nets().isEmpty()) {
            return GraphPattern.BALANCED_TREE;
        }
        for (int c = 0; c < s.nets().size(); c++) {
            if (!hasSecondGpu(h, s.orders().get(c)[0], s.nets().get(c)[1], s.typeInter())) {
                return GraphPattern.TREE;
            }
        }
        return GraphPattern.BALANCED_TREE;
    }

    /**
     * @param version the release entry searched for
     * @param minSm   the node's lowest compute capability x 10
     * @return true where NCCL asks for a split tree in place of a balanced one: the 2.8.4 entry (NCCL 2.8-2.9; the
     *         2.4-2.7 runs it approximates too) below sm80 (class comment)
     */
    static boolean splitTree(NcclVersion version, int minSm) {
        return version.minor() < NcclVersion.V2_10_3.minor() && minSm < SPLIT_TREE_BELOW_SM;
    }

    /** Compute capability x 10 from which NCCL 2.8-2.9 keep the balanced tree ({@code ccMin < 80}). */
    static final int SPLIT_TREE_BELOW_SM = 80;

    /** @return whether a GPU other than {@code first} reaches NIC {@code nic} over a path no worse than typeInter */
    private static boolean hasSecondGpu(HostModel h, int first, int nic, PathType typeInter) {
        for (int b = 0; b < h.gpus.size(); b++) {
            HostPath p = h.gpuToNic[b][nic];
            if (b != first && p != null && p.type().atMost(typeInter)) {
                return true;
            }
        }
        return false;
    }
}
