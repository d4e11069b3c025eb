package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.simulator.tuning.TuningInput;

/**
 * The link-limited bandwidth of NCCL's Tree AllReduce (Simple) between exactly two NCCL nodes, from its data
 * movement, used for collsim's <em>time</em> prediction only; NCCL's choice still follows NCCL's own table.
 *
 * <p>NCCL's table gives Tree on two nodes {@code 0.5 x min(0.92 x nChannels x bwIntra, nChannels x
 * perChMaxTreeBw)} (NCCL 2.30.7 {@code src/graph/tuning.cc}: for nNodes <= 2 the per-channel figure is the tree
 * graph's intra-node bandwidth; Hopper's perChMaxTreeBw for 2 nodes is 41.4 GB/s per graph channel). Both terms are
 * tuning constants for NCCL's algorithm choice, not limits of the links: measured, 2 x 2 DGX H100 with two GPU-local
 * 400 Gb/s NICs per host reaches 98.65 GB/s algbw at 8 GiB (A-allreduce-2x2xH100-dgx-ib.txt:51, 147.98 GB/s busbw),
 * 98.7 % of the two NICs' 100 GB/s, where NCCL's entry is 0.5 x 4 x 41.4 = 82.8 GB/s.
 *
 * <p>What the data movement allows. Between two nodes the double binary tree is one tree rooted on each node, each
 * carrying half the buffer (NCCL 2.30.7 {@code src/graph/trees.cc}); inside a node each channel's tree is a chain of
 * the node's ranks whose head talks to the network. NCCL runs reduce-up and broadcast-down at the same time in every
 * channel ({@code src/device/all_reduce.h runTreeSplit}). So with a buffer of S bytes:
 * <ul>
 *   <li>a node sends S/2 up (the tree whose root is on the other node) and S/2 down (its own tree): S over its NICs,
 *       the NIC term collsim already applies ({@code PhysicalBound#interBusBw} with 2 nodes);</li>
 *   <li>inside the node a chain of q ranks has q - 1 edges, each carrying S up and S down; the busiest rank sends
 *       S x e over its intra-node links, e = 1 for q = 2 (each end has one neighbour), e = 2 for q >= 3 (a middle rank
 *       has two), as on one node ({@link IntraNodeChain}).</li>
 * </ul>
 * The intra-node capacity one rank sends per direction is the tree graph's {@code nChannels x bwIntra}, the figure
 * NCCL's own two-node formula starts from. So {@code algBw = nChannels x bwIntra / e}, and the call is bounded by the
 * smaller of that and the NICs. On one DGX A100 pair (8 ranks per host, tree graph 240 GB/s) this gives 120 GB/s
 * against NCCL's 110.4 (0.92 x 240 / 2); measured 127 GB/s algbw at 8 GiB over RoCE
 * (A-allreduce-2x8xA100-40GB-oci-oke-sriov-roce-nccl2.26.txt, 237.94 GB/s busbw).
 *
 * <p>Only Simple: LL and LL128 keep NCCL's entries (their /3.8 and 120/128 terms are the protocols' flag overhead,
 * which the links do not remove). Not for one rank per node (no chain: NCCL's entry stands), nor for three or more
 * nodes, where a node is inside one tree and a leaf of the other and sends up to 2S over its NICs (NCCL's entry,
 * from bwInter, stands). Stateless and thread-safe.
 */
public final class TwoNodeTree {

    private TwoNodeTree() {
    }

    /**
     * @param func   collective
     * @param a      algorithm
     * @param p      protocol
     * @param nNodes NCCL nodes
     * @param nRanks ranks
     * @return true for Tree AllReduce Simple on two nodes with at least 2 ranks on a node
     */
    public static boolean applies(Collective func, Algorithm a, Protocol p, int nNodes, int nRanks) {
        return a == Algorithm.TREE && func == Collective.ALL_REDUCE && p == Protocol.SIMPLE && nNodes == 2
                && nRanks >= 4;
    }

    /**
     * The intra-node algorithm bandwidth of the two-node tree before collsim's efficiencies and the NIC bound.
     *
     * @param in the communicator's tuning input (its tree graph)
     * @return GB/s; 0 when the communicator has no tree graph (the caller then keeps NCCL's Tree entry)
     */
    public static double algBw(TuningInput in) {
        GraphSummary g = in.graphs().graphFor(Algorithm.TREE);
        if (!g.present()) {
            return 0;
        }
        int ranksPerNode = (int) Math.ceil(in.ppn());
        return g.nChannels() * g.bwIntra() / IntraNodeChain.sentPerByte(ranksPerNode);
    }
}
