package dev.collsim.simulator.channel;

import dev.collsim.topology.GraphPattern;
import dev.collsim.topology.PathType;
import dev.collsim.topology.paths.HostPaths;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Which NIC a multi-node channel of NCCL's search may enter a node by, at which GPU, and which NIC it may leave by
 * (NCCL 2.30.7 and 2.28.9 {@code src/graph/search.cc}):
 * <ul>
 *   <li><b>Entry GPU</b> ({@code ncclTopoSearchRecNet}): a channel entering by NIC n starts at a GPU local to n,
 *       NCCL's {@code ncclTopoGetLocal(NET n, GPU)}: the highest path bandwidth (capped by the port), then the best
 *       path type ({@link #entryGpus}). NCCL never enters at a farther GPU; a worse typeInter only admits a worse
 *       path to the local GPU or out of the last one.</li>
 *   <li><b>Exit NIC</b> ({@code ncclTopoSearchCheckNet}, the {@code crossNic} of one search): with crossNic 0 a ring
 *       leaves by the NIC it entered (same ASIC and port), with crossNic 2 (NCCL_CROSS_NIC=2, the default, tried
 *       only after crossNic 0 at every path type) an even channel leaves by any NIC and the next (odd) channel enters
 *       by the NIC the even one left by and leaves by the one it entered, with crossNic 1 any NIC. Trees leave by
 *       their entry NIC ("Trees are symmetric"). Candidate exits come in {@code ncclTopoSelectNets} order: by the
 *       last GPU's path type to them, then by index ({@link #exits}).</li>
 * </ul>
 * Not modelled: NICs of one ASIC with several ports (each collsim NIC is its own ASIC and port), NIC rails and planes
 * ({@code railId}, {@code planeId}) and NCCL_NETDEVS_POLICY. This class is immutable.
 */
final class SearchNets {

    /** NCCL's {@code crossNic} 0: a ring leaves by the NIC it entered. */
    static final int SAME_NIC = 0;
    /** NCCL's {@code crossNic} 1 (NCCL_CROSS_NIC=1): a ring leaves by any NIC. */
    static final int ANY_NIC = 1;
    /** NCCL's {@code crossNic} 2 (tried last under NCCL_CROSS_NIC=2): channels paired over two NICs. */
    static final int PAIRED = 2;

    private final HostModel h;

    SearchNets(HostModel h) {
        this.h = h;
    }

    /**
     * The search's crossNic values in NCCL's order ({@code ncclTopoCompute}): with NCCL_CROSS_NIC=2 first 0, then 2
     * (NCCL 2.23 on; 2.18-2.22 try 1, any exit NIC, instead: {@code tmpGraph.crossNic = 1}, read at v2.18.5-1 and
     * v2.22.3-1); 1 or 0 alone otherwise; only 0 for trees and for nodes with one NIC.
     *
     * @param pattern  ring or tree
     * @param crossNic NCCL_CROSS_NIC (0, 1 or 2)
     * @param paired   whether the release pairs channels under crossNic 2 (2.23 on)
     * @return the crossNic values to search, in order
     */
    int[] crossNicOrder(GraphPattern pattern, int crossNic, boolean paired) {
        if (pattern != GraphPattern.RING || h.nics.size() < 2 || crossNic == SAME_NIC) {
            return new int[] {SAME_NIC};
        }
        return crossNic == ANY_NIC ? new int[] {ANY_NIC} : new int[] {SAME_NIC, paired ? PAIRED : ANY_NIC};
    }

    /**
     * @param nic index into {@link HostModel#nics}
     * @return the GPUs local to the NIC ({@code ncclTopoGetLocal(NET, GPU)}), ascending; empty when none is reachable
     */
    int[] entryGpus(int nic) {
        int g = h.gpus.size();
        double[] bw = new double[g];
        PathType[] type = new PathType[g];
        for (int j = 0; j < g; j++) {
            HostPath p = h.nicToGpu[nic][j];
            type[j] = p == null ? PathType.DIS : p.type();
            bw[j] = p == null ? 0 : Math.min(p.bandwidth(), h.nicSpeed[nic]);
        }
        return HostPaths.local(bw, type);
    }

    /**
     * NCCL's {@code ncclTopoFollowPath} on tree patterns also requires the reverse path (GPU to NIC) within typeInter.
     *
     * @param pattern ring or tree
     * @param gpu     the entry GPU
     * @param nic     the entry NIC
     * @param limit   the search's typeInter
     * @return whether the entry GPU may be used by this pattern at this typeInter
     */
    boolean backAllowed(GraphPattern pattern, int gpu, int nic, PathType limit) {
        HostPath back = h.gpuToNic[gpu][nic];
        return pattern == GraphPattern.RING || back != null && back.type().compareTo(limit) <= 0;
    }

    /**
     * @param pattern  ring or tree
     * @param crossNic the search's crossNic ({@link #SAME_NIC}, {@link #ANY_NIC}, {@link #PAIRED})
     * @param odd      whether this channel has an odd index (paired with the one before)
     * @param nic      the NIC tried
     * @param prevOut  exit NIC of the channel before (used when {@code odd} under {@link #PAIRED})
     * @return whether a channel may enter by {@code nic}: under {@link #PAIRED} an odd ring channel only by the NIC
     *         the channel before left by
     */
    static boolean entryAllowed(GraphPattern pattern, int crossNic, boolean odd, int nic, int prevOut) {
        return pattern != GraphPattern.RING || crossNic != PAIRED || !odd || nic == prevOut;
    }

    /**
     * The NICs a channel may leave by, in the order NCCL tries them.
     *
     * @param pattern  ring or tree
     * @param crossNic the search's crossNic
     * @param odd      whether this channel has an odd index
     * @param from     the GPU that leaves (local index)
     * @param entryNic the NIC this channel entered by
     * @param prevIn   entry NIC of the channel before (used when {@code odd} under {@link #PAIRED})
     * @return NIC indices; candidates without a path are left out
     */
    int[] exits(GraphPattern pattern, int crossNic, boolean odd, int from, int entryNic, int prevIn) {
        if (pattern != GraphPattern.RING || crossNic == SAME_NIC) {
            return new int[] {entryNic};
        }
        if (crossNic == PAIRED && odd) {
            return new int[] {prevIn};
        }
        HostPath[] row = h.gpuToNic[from];
        Integer[] all = IntStream.range(0, row.length).filter(m -> row[m] != null).boxed().toArray(Integer[]::new);
        Arrays.sort(all, Comparator.comparing((Integer m) -> row[m].type()).thenComparingInt(m -> m));
        return Arrays.stream(all).mapToInt(Integer::intValue).toArray();
    }
}
