package dev.collsim.simulator.perf;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.channel.ChannelPlan;

/**
 * The best bus bandwidth (nccl-tests definition, GB/s) the hardware allows for a collective, from physical link
 * bandwidths, whatever the algorithm. With B = per-direction scale-up bandwidth of the weakest GPU (sum of its
 * NVLinks, or its PCIe link without NVLink), N = per-direction NIC bandwidth of the weakest node (sum of its NICs),
 * n ranks, m nodes, q = n/m ranks per node:
 *
 * <ul>
 *   <li><b>AllReduce</b>: inside a node each GPU must send and receive at least what a reduce-scatter plus
 *       all-gather over q GPUs moves, 2(q-1)/q S, so algBw <= B q/(2(q-1)), i.e. busBw <= B (q/(q-1)) ((n-1)/n);
 *       with NVSwitch reduction (NVLS) a GPU only sends S and receives S, so busBw <= B x 2(n-1)/n. Across nodes
 *       every node must send 2(m-1)/m S over its NICs, so busBw <= N (m/(m-1)) ((n-1)/n). The bound is the
 *       smaller of the intra and inter limits (one node: the intra limit).</li>
 *   <li><b>AllGather, ReduceScatter</b>: each GPU receives (n-1)/n S, so busBw <= B; each node receives
 *       (m-1)/m S over its NICs, so busBw <= N (m/(m-1)) ((n-1)/n).</li>
 *   <li><b>Broadcast, Reduce</b>: the root moves S: busBw <= B, and <= N across nodes.</li>
 *   <li><b>AllToAll</b>: each GPU sends S/n to each of its q-1 node peers, (q-1)/n S over its own links:
 *       busBw <= B (n-1)/(q-1) (B on one node, where q = n; no limit for q = 1); the (n-q)/n S for other nodes
 *       leaves through the NIC path, not through B. Each node sends q S (n-q)/n to other nodes:
 *       busBw <= N (n-1) / (q (n-q)).</li>
 *   <li><b>Gather, Scatter</b>: the root receives or sends (q-1)/n S from or to its node peers:
 *       busBw <= B (n-1)/(q-1) (B on one node); and (n-q)/n S crosses its node's NICs: busBw <= N (n-1)/(n-q).</li>
 *   <li><b>SendRecv</b>: each GPU sends S: busBw <= B; across nodes the pair shares N/q per GPU, busBw <= N/q.</li>
 * </ul>
 * Fabric oversubscription is not included (the fabric is assumed non-blocking). One rank: no bound (infinity).
 */
public final class PhysicalBound {

    private PhysicalBound() {
    }

    /**
     * @param plan the channel plan (carries B, N, n, m)
     * @param c    the collective
     * @return the bound, GB/s of bus bandwidth; {@code Double.POSITIVE_INFINITY} for one rank
     */
    public static double busBw(ChannelPlan plan, Collective c) {
        return Math.min(intraBusBw(plan, c), interBusBw(plan, c));
    }

    /**
     * @return the intra-node part of the bound, GB/s ({@code Double.POSITIVE_INFINITY} when it does not apply)
     */
    public static double intraBusBw(ChannelPlan plan, Collective c) {
        return part(plan, c, true);
    }

    /**
     * @return the inter-node (NIC) part of the bound, GB/s ({@code Double.POSITIVE_INFINITY} on one node)
     */
    public static double interBusBw(ChannelPlan plan, Collective c) {
        return part(plan, c, false);
    }

    private static double part(ChannelPlan plan, Collective c, boolean wantIntra) {
        int n = plan.nRanks();
        int m = plan.nNodes();
        double q = plan.ppn();
        double b = plan.gpuScaleUpBw();
        double nic = plan.nodeNicBw();
        if (n == 1) {
            return Double.POSITIVE_INFINITY;
        }
        double intra;
        double inter = Double.POSITIVE_INFINITY;
        switch (c) {
            case ALL_REDUCE -> {
                intra = plan.nvlsSupport() ? b * 2.0 * (n - 1) / n
                        : q > 1 ? b * (q / (q - 1)) * ((n - 1.0) / n) : Double.POSITIVE_INFINITY;
                if (m > 1) {
                    inter = nic * ((double) m / (m - 1)) * ((n - 1.0) / n);
                }
            }
            case ALL_GATHER, REDUCE_SCATTER -> {
                intra = b;
                if (m > 1) {
                    inter = nic * ((double) m / (m - 1)) * ((n - 1.0) / n);
                }
            }
            case BROADCAST, REDUCE -> {
                intra = b;
                if (m > 1) {
                    inter = nic;
                }
            }
            case ALL_TO_ALL -> {
                intra = nodePeerShare(b, n, q);
                if (m > 1) {
                    inter = nic * (n - 1.0) / (q * (n - q));
                }
            }
            case GATHER, SCATTER -> {
                intra = nodePeerShare(b, n, q);
                if (m > 1) {
                    inter = nic * (n - 1.0) / (n - q);
                }
            }
            default -> {
                intra = b;
                if (m > 1) {
                    inter = nic / q;
                }
            }
        }
        return wantIntra ? intra : inter;
    }

    /** busBw limit when only the (q-1)/n S for a GPU's node peers must cross its links B: B (n-1)/(q-1). */
    private static double nodePeerShare(double b, int n, double q) {
        return q > 1 ? b * (n - 1.0) / (q - 1) : Double.POSITIVE_INFINITY;
    }
}
