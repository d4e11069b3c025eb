package dev.collsim.simulator.channel;

import dev.collsim.nccl.NcclDevice;
import dev.collsim.topology.GraphPattern;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.topology.PathType;
import java.util.ArrayList;
import java.util.List;

/** NCCL's NVLS graph search on one node (NCCL 2.30.7 {@code src/graph/search.cc}). Stateless. */
final class NvlsSearch {

    private static final double EPS = 1e-6;


    private NvlsSearch() {
    }

    /**
     * NVLS graph (§5.3): one channel per head GPU; per channel the head's NVSwitch links carry 2 x bw and the other
     * GPUs' 1 x bw in each direction, so every GPU's switch links carry (nHeads + 1) x bw; bwIntra is the first
     * speed that fits. Pass 2 raises bwInter while it is below 2 x bwIntra, limited on several nodes by the heads'
     * NIC paths. The heads: on one node every GPU, at most 32 ({@code NCCL_MAX_NVLS_ARITY}); on several nodes one
     * per NIC ({@link #netHeads}).
     *
     * @param h         the node
     * @param multiNode whether the communicator spans several nodes
     * @param speeds    NCCL's speed array for the node, GB/s, fastest first
     * @return the NVLS graph, or none (no NVSwitch, below sm90, fewer than two GPUs, or no speed fits)
     */
    static GraphSummary search(HostModel h, boolean multiNode, double[] speeds) {
        int g = h.gpus.size();
        if (!h.hasNvSwitch || h.minSm < 90 || g < 2) {
            return GraphSummary.none(GraphPattern.NVLS);
        }
        int[][] headNic = multiNode ? netHeads(h) : null;
        if (multiNode && headNic.length == 0) {
            return GraphSummary.none(GraphPattern.NVLS);
        }
        int heads = multiNode ? headNic.length : Math.min(NcclDevice.NCCL_MAX_NVLS_ARITY, g);
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
            double[] headNicBw = headNicBw(h, headNic);
            for (int k = 0; k < headNic.length; k++) {
                HostPath p = h.gpuToNic[headNic[k][0]][headNic[k][1]];
                typeInter = typeInter.max(p.type());
                nicLimit = Math.min(nicLimit, Math.min(p.bandwidth(), headNicBw[k]));
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

    /**
     * The heads of an NVLS graph on several nodes, as NCCL 2.30.7 {@code src/graph/search.cc
     * ncclTopoSearchRecNet} finds them: one channel per NIC the node's GPUs use ({@link HostModel#localNics()}, NCCL's
     * {@code ncclTopoSelectNets}), in NIC order, each headed by the NIC's local GPU ({@code net.localGpu},
     * {@link LocalNet#gpuOf}), skipping a NIC whose GPU already heads a channel ("duplicate head when one GPU
     * connects with multiple NICs"), at most {@code min(32, GPUs)} channels ({@code graph->maxChannels}). So a node
     * of 8 GPUs and 4 NICs, one NIC per GPU pair, has 4 heads, each driving its own NIC; 8 GPUs with 4 EFA NICs each
     * have 8.
     *
     * @param h the node
     * @return per head {GPU index, NIC index} into {@link HostModel#gpus} and {@link HostModel#nics}; empty when
     *         no GPU reaches a NIC
     */
    static int[][] netHeads(HostModel h) {
        int max = Math.min(NcclDevice.NCCL_MAX_NVLS_ARITY, h.gpus.size());
        List<int[]> heads = new ArrayList<>();
        for (int n : h.localNics()) {
            int gpu = LocalNet.gpuOf(h, n);
            if (gpu < 0 || heads.size() == max) {
                continue;
            }
            boolean duplicate = heads.stream().anyMatch(x -> x[0] == gpu);
            if (!duplicate) {
                heads.add(new int[] {gpu, n});
            }
        }
        return heads.toArray(new int[0][]);
    }

    /**
     * The port speed each head drives: its own NIC's, plus that of every other NIC whose local GPU it is. NCCL gives
     * a head one NET device; where a host has several NICs per GPU its network plugin presents them as one device of
     * their summed speed (aws-ofi-nccl v1.7.3 {@code src/nccl_ofi_rdma.c} getProperties: "Scale speed by the total
     * number of rails", the RDMA protocol chosen on EFA hosts with more NICs than GPUs, {@code src/nccl_ofi_net.c}),
     * so a p5.48xlarge head has 4 x 100 Gb/s.
     *
     * @param h       the node
     * @param headNic {@link #netHeads}
     * @return GB/s per direction, per head
     */
    private static double[] headNicBw(HostModel h, int[][] headNic) {
        double[] bw = new double[headNic.length];
        for (int n : h.localNics()) {
            int gpu = LocalNet.gpuOf(h, n);
            for (int k = 0; k < headNic.length; k++) {
                if (headNic[k][0] == gpu) {
                    bw[k] += h.nicSpeed[n];
                }
            }
        }
        return bw;
    }
}
