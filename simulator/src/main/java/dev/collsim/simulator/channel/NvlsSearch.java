package dev.collsim.simulator.channel;

import dev.collsim.simulator.tuning.GraphPattern;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.topology.PathType;

/** NCCL's NVLS graph search on one node (NCCL 2.30.7 {@code src/graph/search.cc}). Stateless. */
final class NvlsSearch {

    private static final double EPS = 1e-6;

    private NvlsSearch() {
    }

    /**
     * NVLS graph (§5.3): one channel per head GPU (all GPUs of the node, at most 32); per channel the head's
     * NVSwitch links carry 2 x bw and the other GPUs' 1 x bw in each direction, so every GPU's switch links
     * carry (nHeads + 1) x bw; bwIntra is the first speed that fits. Pass 2 raises bwInter while it is below
     * 2 x bwIntra, limited on several nodes by the heads' NIC paths.
     *
     * @param h         the node
     * @param multiNode whether the communicator spans several nodes
     * @param speeds    NCCL's speed array for the node, GB/s, fastest first
     * @return the NVLS graph, or none (no NVSwitch, below sm90, fewer than two GPUs, or no speed fits)
     */
    static GraphSummary search(HostModel h, boolean multiNode, double[] speeds) {
        int g = h.gpus.size();
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
