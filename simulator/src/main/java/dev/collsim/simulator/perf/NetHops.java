package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.tuning.NcclTuningModel;
import dev.collsim.topology.NetworkClass;

/**
 * Network hops on the critical path of one call: how many times a transport's extra one-way latency
 * ({@link NetClassProfile#hopLatencyUs}) and an LL step's host-memory send FIFO ({@link LlSendFifo})
 * are paid. The counts start from NCCL's own inter-node step counts of its latency formula (NCCL 2.28.9 and 2.30.7
 * {@code src/graph/tuning.cc ncclTopoTuneModel}, fact sheet §2.4), which charge {@code hwLat[NET]} that many times:
 * <ul>
 *   <li>Ring AllReduce 2 (nNodes - 1), Ring AllGather/ReduceScatter nNodes - 1, Ring Broadcast/Reduce nNodes - 1
 *       (the chain through every node); with more than one rank per node a Ring AllGather/ReduceScatter crosses
 *       nNodes and a Ring AllReduce 2 nNodes - 1 (2 ranks per node) or 2 nNodes ({@link #ringCrossings});</li>
 *   <li>Tree AllReduce 2 log2(nNodes) (up and down the inter-node tree), NVLSTree the same;</li>
 *   <li>NVLS and CollNet between nodes 2 (to the switch and back), PAT log2(nNodes);</li>
 *   <li>point-to-point: 1 per round that crosses nodes ({@link P2pModel}).</li>
 * </ul>
 * log2 is NCCL's floor log2, at least 1 on two or more nodes. Zero on one node. The depth NCCL's trees really have,
 * which a pipeline's fill depends on, is {@link #treeDepth}. Stateless.
 */
public final class NetHops {

    /** First compute capability (x10) NCCL skips the GDR flush on ({@code ncclTopoNeedFlush}: Hopper and later). */
    static final int HOPPER_SM = 90;

    private NetHops() {
    }

    /**
     * @param func collective
     * @param a    algorithm
     * @param plan channel plan (nodes, ranks)
     * @return hops, >= 0
     */
    public static int of(Collective func, Algorithm a, ChannelPlan plan) {
        int nodes = plan.nNodes();
        if (nodes < 2) {
            return 0;
        }
        int log2 = Math.max(1, NcclTuningModel.log2i(nodes));
        return switch (a) {
            case RING -> ringCrossings(func, nodes, plan.nRanks());
            case TREE, NVLS_TREE -> 2 * log2;
            case PAT -> log2;
            default -> 2;
        };
    }

    /**
     * How many times a call pays its network class's hop latency ({@link NetClassProfile#hopLatencyUs}): once per
     * crossing ({@link #of}), and on EFA a second time for a Simple call on GPUs before Hopper, whose every network
     * receive waits for NCCL's GPU Direct RDMA flush before the GPU reads the data. NCCL flushes Simple receives
     * there: "Flush is required on Ampere and earlier" (NCCL 2.30.7 and v2.17.1-1 {@code src/graph/paths.cc
     * ncclTopoNeedFlush}; {@code src/transport/net.cc recvProxyProgress} posts {@code iflush} for Simple only), and
     * its own tuning charges the flush as one more network latency ("Also add the flush extra latency", {@code
     * interLat += latencyInter} again for Simple, v2.23.4-1 {@code src/graph/tuning.cc}). On EFA the flush is a read
     * through the EFA device ({@code fi_read}, "an expensive operation", aws-ofi-nccl v1.13.2-aws
     * {@code src/nccl_ofi_sendrecv.c}), a device trip like a send's; on InfiniBand and RoCE it is a loopback read on
     * the local HCA, which collsim does not charge ({@link NetTransport}). Measured: the two Simple EFA runs on A100
     * floor at 37.5-42.3 us per crossing, the LL run of NCCL 2.4.8 on p3dn at 19.1 (docs/accuracy.md, EfaFiguresTest).
     *
     * @param func collective
     * @param a    algorithm
     * @param p    protocol
     * @param plan channel plan (nodes, ranks, class, GPUs' compute capability)
     * @return hop latencies charged, >= 0
     */
    public static int latencyCharges(Collective func, Algorithm a, Protocol p, ChannelPlan plan) {
        boolean efaFlush = p == Protocol.SIMPLE && plan.netClass() == NetworkClass.EFA && plan.minSm() < HOPPER_SM;
        return of(func, a, plan) * (efaFlush ? 2 : 1);
    }

    /**
     * Network links on the longest chain of a Ring AllGather, ReduceScatter or AllReduce: the hops one chunk makes
     * from the rank that puts it in to the last rank that takes it, each waiting for the one before. NCCL 2.28.9
     * {@code src/device/all_gather.h runRing}: step 0 sends the rank's own chunk, the next nRanks - 2 steps receive
     * a chunk and send it on, the last receives; so a chunk crosses nRanks - 1 consecutive links of the ring, all
     * but the one into its origin ({@code reduce_scatter.h}: the same, reducing on the way). NCCL's ring graph
     * leaves and enters each node once per channel, so the ring has nNodes network links, ppn = nRanks / nNodes
     * ranks apart, and the call ends with its slowest chunk: it crosses all nNodes of them unless every chunk's
     * skipped link is a network link, which is so only at ppn 1 (nNodes - 1, NCCL's count). Example, 2 nodes x 4
     * ranks: the chunk of rank 1 goes 1-2-3-4-5-6-7-0, crossing 3-4 and 7-0: 2 hops, where NCCL's formula counts 1.
     *
     * <p>AllReduce (NCCL 2.28.9 and 2.30.7 {@code src/device/all_reduce.h runRing}, the same loop in both): rank
     * position p sends chunk p - 1 at step 0, reduces chunk p - j and sends it on at steps j = 2 .. nRanks - 1,
     * finishes its own chunk p at the next step and sends it, copies chunk p - j on for j = 1 .. nRanks - 2, and
     * receives chunk p + 1 last. So chunk c goes c+1, c+2, .., c (reduce, nRanks - 1 links, all but c to c+1) and
     * c, c+1, .., c-1 (broadcast, nRanks - 1 links, all but c-1 to c): 2 (nRanks - 1) consecutive links, every
     * link of the ring twice except the two at rank c, once each. It crosses 2 nNodes network links less those of
     * the two at its rank c that are network links: both at ppn 1 (2 (nNodes - 1), NCCL's count), exactly one at
     * ppn 2 (every rank is first or last of its node: 2 nNodes - 1), none for a middle rank at ppn &gt;= 3
     * (2 nNodes). NCCL's formula counts 2 (nNodes - 1) for all (fact sheet §2.4).
     *
     * <p>Measured (signed median error below 1 MiB, then rows that move, before -&gt; after this count; + = collsim
     * slow): no dataset not labelled problem gets worse. Three move, all in Ring/LL: 2x2 H100 InfiniBand
     * (A-allreduce-2x2xH100-dgx-ib.txt:19, LL send FIFO only, InfiniBand adds no hop latency) -5.1 -&gt; -4.7 %
     * (1 KiB-512 KiB move 0.1-6.7 points toward the measurement); 2x4 GH200 Slingshot, ok-ish
     * (A-allreduce-int8-2x4xGH200-sigma2-olivia-slingshot-nccl2.30.txt:25) 128-512 KiB -52.6/-80.4/-44.2 -&gt;
     * -51.3/-80.0/-42.3 %; 2x4 H100, health unknown (A-allreduce-2x4xH100-16GB.txt:23) 128/256 KiB -77.3/-81.4 -&gt;
     * -76.7/-81.0 %. The other Ring AllReduce rows between nodes with ppn &gt; 1 (InfiniBand LL128/Simple, RoCE and
     * NVL72 Simple at 1-10 GiB) move less than 0.1 point; the healthy RoCE and TCPXO runs choose Tree below 1 MiB.
     * Two problem-labelled files move: the 2x2 L40S RoCE run
     * (A-allreduce-2x1-2x2xL40S-openshift-sriov-tcp-vs-roce-nccl2.27.txt:70), already predicted slow, goes from
     * +29.5 to +53.4 % (one RoCE hop more: 5 us on the 17.1 us measured at 8 B; its 2x1 TCP run, which this count
     * does not touch, is +52.9 %, so something else is charged too much on that cluster); the 2x2 H100 NVL
     * Slingshot run (A-allreduce-2x2xH100NVL-slingshot200-amd-epyc9534-nccl2.30-issue-nccl2441.txt:22) -59.0 -&gt;
     * -57.5 %. The figures these hops multiply were not read from Ring AllReduce: RoCE's and TCPXO's
     * {@link NetClassProfile#hopLatencyUs} from 2-node Tree runs (2 hops, {@link NetClassDefaults}), the LL send
     * FIFO from a probe ({@link LlSendFifo}), so the count does not change what they mean.
     * Broadcast and Reduce keep NCCL's nNodes - 1 (where the root sits in its node is not known here).
     *
     * @param func   collective
     * @param nodes  NCCL nodes, >= 2
     * @param nRanks ranks, >= nodes
     * @return network links on the critical path
     */
    static int ringCrossings(Collective func, int nodes, int nRanks) {
        int ppn = nRanks / nodes;
        return switch (func) {
            case ALL_GATHER, REDUCE_SCATTER -> ppn > 1 ? nodes : nodes - 1;
            case ALL_REDUCE -> switch (ppn) {
                case 1 -> 2 * (nodes - 1);
                case 2 -> 2 * nodes - 1;
                default -> 2 * nodes;
            };
            default -> nodes - 1;
        };
    }

    /**
     * The depth of NCCL's binary tree over n nodes: the most network hops from a leaf to the root. NCCL 2.27.3 and
     * 2.30.7 {@code src/graph/trees.cc ncclGetBtree}: rank r &gt; 0 with lowest set bit b has parent (r ^ b) | (b &lt;&lt;
     * 1), or r ^ b when that is n or more; {@code ncclGetDtree}'s second tree is the first mirrored (n even) or shifted
     * by one (n odd), so both trees have this depth. It is ceil(log2 n), not NCCL's floor log2 of {@link #of}: 3 nodes
     * form the chain 0 &lt;- 2 &lt;- 1 (depth 2, where floor log2 3 = 1), 5 nodes 0 &lt;- 4 &lt;- 2 &lt;- 1 (depth 3).
     *
     * @param nodes NCCL nodes, >= 1
     * @return hops from the deepest leaf to the root, 0 on one node
     */
    public static int treeDepth(int nodes) {
        int depth = 0;
        for (int r = 1; r < nodes; r++) {
            int d = 0;
            for (int u = r; u != 0; d++) {
                int bit = Integer.lowestOneBit(u);
                int up = (u ^ bit) | (bit << 1);
                u = up >= nodes ? u ^ bit : up;
            }
            depth = Math.max(depth, d);
        }
        return depth;
    }
}
