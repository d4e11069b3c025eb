package dev.collsim.simulator.schedule;

import java.util.ArrayList;
import java.util.List;

/**
 * The network stages of {@link HierarchicalSchedule}'s pipeline: the transfers one chunk makes between hosts in each
 * stage, local rank j of a host exchanging only with local rank j of the others (its rail); only the heads, local
 * ranks given as heads (one per NIC), cross hosts. Immutable.
 *
 * <ul>
 *   <li>Rings: one stage, a ring over the H hosts per local rank and channel carrying the chunk's 2(H-1) ring sends
 *       (CollNet, NVLS with a network switch, {@code --schedule hierarchical}).</li>
 *   <li>Tree: NCCL's NVLSTree between nodes. NCCL 2.28.9 {@code src/graph/connect.cc connectNvls}: every NVLS head
 *       (one GPU and NIC per head) of a node is linked to the same head of its parent and children nodes in
 *       {@code ncclGetDtree}'s two trees ({@link DoubleBinaryTree}), and channel c uses tree {@code c % 2}
 *       ({@code channel->nvls.treeUp = treeUp[c % 2]}); {@code src/device/all_reduce.h}, the NVLSTree kernel: each
 *       head receives its children's reduced chunk, adds its node's and sends the sum up ({@code
 *       directRecvDirectSend} to {@code nvls->treeUp}); the root's result goes back down the same tree, each head
 *       receiving it from its parent and sending it to each child. So per chunk every tree edge carries the
 *       chunk once up and once down. An interior node of the tree (two children) sends 3 chunks per chunk of its
 *       channel (1 up, 2 down) and receives 3; a leaf 1 and 1; the root, with one child, 1 and 1. Stages, D the
 *       trees' depth: the edge up from a node at depth d carries the chunk in stage 1 + D - d (the deepest first,
 *       so the root has every child's part at the end of stage D), the edge down to a node at depth d in stage
 *       D + d: 2D stages, the hops + 2 stages of {@code perf.NvlsTreePipeline} with the intra-host ones.</li>
 * </ul>
 */
final class InterHost {

    private final boolean tree;
    /** Transfers of stage s at index s - 1. */
    private final List<List<Transfer>> byStage;

    private InterHost(boolean tree, List<List<Transfer>> byStage) {
        this.tree = tree;
        this.byStage = List.copyOf(byStage);
    }

    /**
     * @param h     hosts, >= 2
     * @param l     ranks per host, >= 1
     * @param heads local ranks that cross hosts (one per NIC, {@link ScheduleRequest#headRanks}), each below l
     * @param nCh   channels, >= 1
     * @param bytes bytes of one chunk's whole ring pass over one ring edge (2(H-1) sends)
     * @return the one ring stage
     */
    static InterHost rings(int h, int l, int[] heads, int nCh, double bytes) {
        return new InterHost(false, List.of(HierarchicalSchedule.inter(h, l, heads, nCh, bytes)));
    }

    /**
     * @param h     hosts, >= 2
     * @param l     ranks per host, >= 1
     * @param heads NVLS heads: the local ranks that cross hosts (one per NIC, {@link ScheduleRequest#headRanks}),
     *              each below l
     * @param nCh   channels, >= 1
     * @param bytes one head's chunk on one channel, bytes (sent once up and once down every tree edge)
     * @return the 2D tree stages
     */
    static InterHost tree(int h, int l, int[] heads, int nCh, double bytes) {
        int[][] parent = {DoubleBinaryTree.parents(h, 0), DoubleBinaryTree.parents(h, 1)};
        int[][] depth = {DoubleBinaryTree.depths(parent[0]), DoubleBinaryTree.depths(parent[1])};
        int d = 0;
        for (int[] ds : depth) {
            for (int x : ds) {
                d = Math.max(d, x);
            }
        }
        List<List<Transfer>> stages = new ArrayList<>(2 * d);
        for (int s = 0; s < 2 * d; s++) {
            stages.add(new ArrayList<>());
        }
        for (int c = 0; c < nCh; c++) {
            int t = c % 2;
            for (int g = 0; g < h; g++) {
                int p = parent[t][g];
                if (p < 0) {
                    continue;
                }
                List<Transfer> up = stages.get(d - depth[t][g]);
                List<Transfer> down = stages.get(d + depth[t][g] - 1);
                for (int j : heads) {
                    up.add(new Transfer(g * l + j, p * l + j, bytes, c));
                    down.add(new Transfer(p * l + j, g * l + j, bytes, c));
                }
            }
        }
        return new InterHost(true, stages);
    }

    /** @return network stages a chunk passes: 1 for rings, 2 x the tree depth for the tree */
    int stages() {
        return byStage.size();
    }

    /**
     * @param stage 1 .. {@link #stages()}
     * @return the transfers of one chunk in that stage
     */
    List<Transfer> transfers(int stage) {
        return byStage.get(stage - 1);
    }

    /**
     * @param t pipeline step
     * @param k chunks
     * @return what the network does in step t, for the step's label
     */
    List<String> labels(long t, long k) {
        List<String> out = new ArrayList<>(2);
        int n = stages();
        boolean up = false;
        boolean down = false;
        for (int s = 1; s <= n; s++) {
            if (HierarchicalSchedule.active(t, s, k)) {
                up |= !tree || s <= n / 2;
                down |= tree && s > n / 2;
            }
        }
        if (up) {
            out.add(tree ? "inter-host tree reduce" : "inter-host AllReduce");
        }
        if (down) {
            out.add("inter-host tree broadcast");
        }
        return out;
    }
}
