package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.RuntimeChannels;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.simulator.tuning.HardwareClass;
import dev.collsim.simulator.tuning.TreeChunk;
import dev.collsim.simulator.tuning.TuningInput;
import dev.collsim.topology.PathType;

/**
 * Pipeline fill of Tree/Simple AllReduce between nodes: the store-and-forward trip of one chunk down NCCL's tree
 * chain and back up, each hop at its own link's per-channel rate. It replaces the generic one-chunk fill of
 * {@link PipelineFill} for these calls.
 *
 * <p>What NCCL's source fixes (NCCL 2.30.7):
 * <ol>
 *   <li>Store and forward. {@code src/device/all_reduce.h}, {@code RunWorkColl<ncclFuncAllReduce, T, RedOp,
 *       NCCL_ALGO_TREE, NCCL_PROTO_SIMPLE>::run} runs {@code runTreeSplit<T, RedOp, ProtoSimple<1, 1>>}: one slice of
 *       one step per chunk, and {@code src/device/prims_simple.h waitPeer} lets a receiver start a step only once
 *       its sender posted all of it, so every hop forwards a whole chunk (as in {@link NvlsTreePipeline}).</li>
 *   <li>Depth. {@code src/graph/connect.cc} (tree setup): a chain of nRanks / nNodes - 1 intra-node hops, then the
 *       network hops up the tree of {@code src/graph/trees.cc ncclGetBtree}, {@link NetHops#treeDepth} (ceil log2
 *       nNodes: NCCL's own {@code tree.depth} counts floor log2, which is the same on 2, 4 and 8 nodes and one hop
 *       short on 3); the reduce goes up these hops and the broadcast comes down them, 2 x depth hops.</li>
 *   <li>Chunk. {@code src/enqueue.cc calcCollChunking}: the Simple step, NCCL_BUFFSIZE / NCCL_STEPS = 512 KiB
 *       ({@code chunkSteps} 1 for Tree), at every size ({@link CalcCollChunking#chunk}); a channel's part when
 *       smaller. Releases before 2.20 halved it down to 32 KiB for small calls against {@code tree.depth} (v2.17.1-1,
 *       v2.19.3-1 {@code enqueue.cc} "Optimize chunkSize / nSteps"); 2.20.3 removed that. This fill follows the run's
 *       release ({@link #chunk}, {@link TreeChunk}), as the flow backend's {@code TreeSchedule} does.</li>
 * </ol>
 *
 * <p>A pipe of stages with stage times t_i delivers its last chunk sum(t_i) + (K - 1) max(t_i) after the start; the
 * bandwidth term counts K x max(t_i), so the full pipe's fill is sum(t_i) - max(t_i). Stage times: chunk / rate,
 * a network hop at the call's per-channel bus rate ({@code busPerChannel} of {@link PipelineFill}: the links
 * and NICs shared by the channels), an intra-node hop at {@link #intraRate}: over NVLink one channel's own copy
 * rate, the per-channel cap. That NVLink rate is a collsim assumption, not in NCCL's source: the GPU's NVLink
 * (300 GB/s on A100, 450 on H100) is well above the NICs, so the chain's NVLink hops are not the shared
 * bottleneck. Charged at the NVLink share NCCL's tree graph gives ({@code nChannels x bwIntra} over the runtime
 * channels, equal to the network's per-channel rate on 2 x 8 A100), the fill made OKE RoCE A100 2 x 8
 * (A-allreduce-2x8xA100-40GB-oci-oke-sriov-roce-nccl2.26.txt) 6.9 -> 9.5 % median, its 1 GiB +1.3 -> +12.1 %.
 * With fewer iterations than 2 x depth - 1, NvlsTreePipeline's straight line (the part NCCL's source does not
 * give) scales the network hops' part by iterations / (2 x depth - 1): a stage shared with fewer busy stages may
 * run faster than its full-pipe share. The NVLink hops' part is not scaled: their rate is one channel's own copy
 * rate, a limit of the channel's threads that no other stage shares ({@link PipelineFill}: "the per-channel cap is
 * a rate per channel, so it is not shared again"), and {@code waitPeer} makes a one-chunk call cross them one after
 * another. Over PCIe (a shared share of the tree graph) the whole fill stays scaled. Not fitted: on the 2x8 A100
 * p4d DLAMI run (A-allreduce-2x8xA100-40GB-aws-p4d-dlami-efa-nccl2.23.txt, NCCL 2.23, Tree/Simple only by its
 * plugin's NCCL_PROTO) a 4 MiB call has one 512 KiB chunk per channel and 14 NVLink hops of 21.8 us at 24 GB/s,
 * 305.8 us that the straight line charged at 1/15: 924.5 us measured (line 67), 545.9 predicted before, 831.4
 * after; the p4d run's median at >= 1 MiB 10.8 -> 6.7 %, the two 2x2 H100 NVL Slingshot runs (NCCL 2.30,
 * A-allreduce-2x2xH100NVL-slingshot200-amd-epyc9534-nccl2.30-issue-nccl2441.txt) 33.3 -> 21.9 and 33.9 -> 22.5 %.
 * A release before 2.20 halves the chunk of such calls (item 3), which this fill does not model: the p4de run of
 * NCCL 2.17 (A-allreduce-2x8xA100-80GB-aws-p4de-efa-parallelcluster-nccl2.17-excerpt.txt) goes 9.2 -> 10.7 %.
 *
 * <p>Releases whose latency is a chunk's trip. NCCL 2.5.6 to 2.18.1 and 2.19 to 2.22 set Tree/Simple's {@code hwLat}
 * to 28 us on every link, and 2.5.6-2.18.1 say why: "the latency a 256kB chunk, which is ~ base lat + 256k/12GB/s"
 * (v2.8.4-1 {@code src/graph/tuning.cc} line 61): a whole chunk's trip per hop at one rate for every link. The time
 * of every such release reads 2.18.5's hop figures instead (4 us on NVLink, 14 on the network, {@code
 * tuning.RemeasuredLatency}, on any GPU; {@code RemeasuredLatencyTest} checks that no modelled release is timed on
 * the 28) and charges this fill, each hop at its own rate and with the run's chunk (2.8 halves it to 64 KiB at
 * 2-8 MiB on the ABCI V100 nodes, v2.8.4-1 {@code src/enqueue.cc} lines 385-387, where 28 us stands for 256 KB), so
 * the fill is charged on every release and the flow backend's Tree schedule keeps its fill steps alike; NCCL's
 * choice keeps the release's 28.
 *
 * <p>Network hops staged through host memory ({@link #netLegs}). Without GPU Direct RDMA a network hop is three
 * whole-chunk legs in series (GPU store into host memory, the NIC's transfer, GPU load from host memory), each charged
 * as a stage at the network's per-channel rate. Measured, NCCL 2.8.4 on ABCI V100 nodes (4 a node, 2 x EDR, GPU-NIC
 * path PHB, GDR off; A-allreduce-2to32x4xV100-16GB-abci-vnode-edr-nccl2.8.txt, 2.8's table picking Tree/Simple at 2 MiB
 * on 8 nodes, 2-8 MiB on 16 and 1-16 MiB on 32; 64 KiB chunks at 2-8 MiB on all three): 2 MiB takes 592.7 / 697.3 /
 * 800.4 us on 8 / 16 / 32 nodes (lines 220, 383, 674), about 100 us a tree level (one network hop up, one down), where
 * 2.8's table charges 2 x 28 = 56 and 2.18.5's figures with a one-leg fill about 40. With 2.8's own latency and no fill
 * the time was 694.2 / 750.2 / 806.2 us at 2 MiB (8 nodes +17.1 %; 16 nodes 750.2 / 1004.9 / 1463.5 at 2-8 MiB, 32
 * nodes 663.5 / 806.2 / 1060.9 / 1519.5 at 1-8 MiB); with the hop figures and a one-leg fill 562.1 / 605.0 / 644.0 at 2
 * MiB (16 nodes -13.2 / -9.0 / -12.9 % at 2-8 MiB, 32 nodes -11.0 to -19.5 % at 1-16 MiB); with three legs 612.8 /
 * 650.4 / 684.8 at 2 MiB (16 nodes 650.4 / 1006.2 / 1606.8 at 2-8 MiB, 32 nodes 475.6 / 684.8 / 1045.1 / 1693.6 /
 * 3654.0 at 1-16 MiB against 507.1 / 800.4 / 1096.3 / 1663.3 / 3677.4). Still short of the measured shape: the line
 * through 2 and 8 MiB meets 0 bytes at 332 / 349 us (16 / 32 nodes) where the runs' meets it at 417 / 513, and rises
 * 159 / 168 us a MiB where theirs rises 140 / 144: the few-chunk scaling below (8 chunks a channel at 2 MiB against 2 x
 * depth - 1 = 23 to 35 stages, legs counted) takes off more of the network hops than these runs show; charging a staged
 * hop's two GPU legs in full instead, as the NVLink hops, overshoots (2 MiB 787.3 / 908.7 / 1028.7 us on 8 / 16 / 32
 * nodes, +28 to +33 %; tried, not kept). The staged legs also take the 2 x 2 H100 NVL Slingshot runs of NCCL 2.30
 * (GPU-NIC path through the CPU; A-allreduce-2x2xH100NVL-slingshot200-amd-epyc9534-nccl2.30-issue-nccl2441.txt) 21.9 ->
 * 16.4 and 22.5 -> 17.0 % at >= 1 MiB.
 *
 * <pre>
 *   stage    = min(chunk, nBytes / channels)
 *   full     = 2 (ppn - 1) stage / intraRate + 2 treeDepth(nNodes) legs stage / netRate
 *              - stage / min(intraRate, netRate)
 *   intra    = 2 (ppn - 1) stage / intraRate, less one stage when it is the slowest  (NVLink hops only, else 0)
 *   fill_us  = pipelineFillChunks x (intra + (full - intra) x min(1, iterations / (2 depth - 1))) / 1000
 *   (legs = netLegs: 1, or 3 staged through host memory; depth = ppn - 1 + treeDepth(nNodes) x legs)
 * </pre>
 * Stateless and thread-safe.
 */
public final class TreeSimpleFill {

    private TreeSimpleFill() {
    }

    /** @return true for Tree/Simple AllReduce on more than one node */
    static boolean applies(Collective func, Algorithm a, Protocol p, ChannelPlan plan) {
        return func == Collective.ALL_REDUCE && a == Algorithm.TREE && p == Protocol.SIMPLE && plan.nNodes() > 1;
    }

    /**
     * The fill of a Tree/Simple AllReduce between nodes, or {@code otherFill} for any other call.
     *
     * @param otherFill     the generic fill, microseconds (returned when this class does not apply)
     * @param plan          channel plan
     * @param pp            performance parameters (fill chunks, Simple and link efficiencies)
     * @param func          collective
     * @param a             algorithm
     * @param p             protocol
     * @param s             NCCL settings (NCCL_BUFFSIZE)
     * @param nBytes        bytes of the call
     * @param channels      channels the call's data occupies, >= 1 (PerformanceModel's effective count, as the
     *                      generic fill's: a tuner's forced count above it must not shrink the fill)
     * @param busPerChannel bus bandwidth of one channel between nodes, GB/s (1e9 B/s), > 0
     * @param perChannelCap bus bandwidth one channel can move at most, GB/s
     * @param callChannels  NCCL's channels for the call ({@code info->nChannels}, which its chunk rule reads)
     * @param in            the communicator's tuning input (its rules' run minor release for {@link #chunk})
     * @return microseconds
     */
    static double fillUs(double otherFill, ChannelPlan plan, PerformanceParameters pp, Collective func, Algorithm a,
            Protocol p, NcclSettings s, long nBytes, double channels, double busPerChannel, double perChannelCap,
            int callChannels, TuningInput in) {
        if (!applies(func, a, p, plan)) {
            return otherFill;
        }
        int runMinor = in.constants().rules().runMinor();
        return pp.pipelineFillChunks() * fillUs(chunk(plan, s, nBytes, callChannels, runMinor), nBytes, channels,
                plan.nRanks() / plan.nNodes() - 1, NetHops.treeDepth(plan.nNodes()) * netLegs(plan, s),
                intraRate(plan, pp, perChannelCap),
                busPerChannel, ownIntraRate(plan));
    }

    /**
     * The store-and-forward legs of one network hop of the tree: 1 where the tree's GPUs reach their NICs by GPU
     * Direct RDMA (the NIC reads and writes the GPU's own buffers), 3 where the GPU-NIC path crosses the CPU beyond
     * the GDR level ({@code NCCL_NET_GDR_LEVEL}; {@link ShmHostReads#hostMemoryBuffers}, the rule the Ring LL cap
     * reads): the buffers are then in host memory (v2.8.4-1 {@code
     * src/transport/net.cc} lines 85 and 135, {@code LOC_HOSTMEM} without {@code useGdr}), and a chunk is stored by
     * the sending GPU into host memory, posted by the proxy only once the GPU's tail shows the whole step (line 291),
     * and made visible to the receiving GPU only once the receive has completed (lines 419-427), which then loads it
     * from host memory: three whole-chunk legs in series, each charged at the network's per-channel rate (the GPU's
     * legs cross the PCIe links to the CPU that the NIC's data crosses too; their own rate is not known apart: an
     * assumption, not fitted). The same order holds in NCCL 2.30.7 (v2.30.7-1 {@code sendProxyProgress} line 1362,
     * {@code recvProxyProgress} line 1712).
     *
     * @param plan channel plan (the tree graph's GPU-NIC path type)
     * @param s    NCCL settings (NCCL_NET_GDR_LEVEL)
     * @return 1 or 3
     */
    static int netLegs(ChannelPlan plan, NcclSettings s) {
        return ShmHostReads.hostMemoryBuffers(plan.graphs().tree().typeInter(), s) ? STAGED_LEGS : 1;
    }

    /** Legs of a network hop staged through host memory ({@link #netLegs}). */
    static final int STAGED_LEGS = 3;

    /**
     * NCCL's Tree/Simple chunk of the call: the Simple step ({@link CalcCollChunking#chunk}), before 2.20 halved
     * against NCCL's tree depth ({@link TreeChunk}). 2 x 8 A100, 8 channels, 4 MiB under 2.17: depth 7 + 1 = 8,
     * 4 MiB / (8 x 512 KiB) = 1 &lt; 64 -&gt; 256 KiB (2) -&gt; 128 KiB (4, the first loop's floor); 4 &lt; 32 -&gt;
     * 64 KiB (8, the second's); 8 &lt; 8 is false: 64 KiB, where 2.20 and later keep 512 KiB.
     *
     * @param plan         channel plan (ranks, nodes)
     * @param s            NCCL settings (NCCL_BUFFSIZE)
     * @param nBytes       bytes of the call
     * @param callChannels NCCL's channels for the call, >= 1
     * @param runMinor     the run's NCCL 2 minor release
     * @return bytes
     */
    static long chunk(ChannelPlan plan, NcclSettings s, long nBytes, int callChannels, int runMinor) {
        long step = CalcCollChunking.chunk(Algorithm.TREE, Protocol.SIMPLE, Collective.ALL_REDUCE, s);
        return TreeChunk.halves(runMinor, Protocol.SIMPLE) ? TreeChunk.bytes(step, nBytes, callChannels,
                TreeChunk.ncclDepth(plan.nRanks(), plan.nNodes())) : step;
    }

    /**
     * @return true when an intra-node hop runs at one channel's own copy rate (NVLink, {@link #intraRate}), a limit of
     *         the channel's own threads that fewer busy stages do not raise, so its part of the fill is not scaled
     *         down for calls of few chunks
     */
    static boolean ownIntraRate(ChannelPlan plan) {
        GraphSummary tree = plan.graphs().tree();
        return tree.typeIntra() == PathType.NVL || tree.nChannels() == 0 || !(tree.bwIntra() > 0);
    }

    /**
     * Bus bandwidth one channel's chunk crosses an intra-node hop with: over NVLink one channel's own rate, the
     * per-channel cap (measured on one-node NVLink rings, where every hop is such a copy); over PCIe the tree
     * graph's intra-node bandwidth ({@code nChannels x bwIntra}, NCCL 2.30.7 {@code src/graph/search.cc}) over
     * NCCL's default runtime channels, at most the cap.
     *
     * @param plan          channel plan (tree graph, channels)
     * @param pp            performance parameters (Simple and PCIe efficiencies)
     * @param perChannelCap bus bandwidth one channel can move at most, GB/s
     * @return GB/s, > 0
     */
    static double intraRate(ChannelPlan plan, PerformanceParameters pp, double perChannelCap) {
        GraphSummary tree = plan.graphs().tree();
        if (tree.typeIntra() == PathType.NVL || tree.nChannels() == 0 || !(tree.bwIntra() > 0)) {
            return perChannelCap;
        }
        int defaults = RuntimeChannels.collectiveChannels(plan.graphs(), plan.minSm(), plan.nNodes(),
                NcclSettings.DEFAULTS);
        return Math.min(tree.nChannels() * tree.bwIntra() * pp.bwEfficiency(Protocol.SIMPLE)
                * pp.bwEfficiency(HardwareClass.PCI) / Math.max(1, defaults), perChannelCap);
    }

    /**
     * The fill in stage times (class comment), before pipelineFillChunks.
     *
     * @param chunk     NCCL's Tree/Simple chunk, bytes
     * @param nBytes    bytes of the call
     * @param channels  channels the call's data occupies, >= 1
     * @param intraHops chain hops inside a node, nRanks / nNodes - 1, >= 0
     * @param netHops   network hops up the tree, {@link NetHops#treeDepth}, >= 1
     * @param intraRate bus bandwidth of one channel on an intra-node hop, GB/s, > 0
     * @param netRate   bus bandwidth of one channel on a network hop, GB/s, > 0
     * @param ownIntra  true when the intra-node hops run at the channel's own copy rate ({@link #ownIntraRate}):
     *                  their stage times are then charged in full at any number of chunks
     * @return microseconds
     */
    static double fillUs(long chunk, long nBytes, double channels, int intraHops, int netHops, double intraRate,
            double netRate, boolean ownIntra) {
        int depth = intraHops + netHops;
        double perChannel = nBytes / Math.max(1.0, channels);
        double stage = Math.min(chunk, perChannel);
        double iterations = Math.max(1.0, perChannel / stage);
        double tIntra = BusBandwidth.timeUs(stage, intraRate), tNet = BusBandwidth.timeUs(stage, netRate);
        boolean intraSlowest = intraHops > 0 && tIntra > tNet;
        double slowest = intraSlowest ? tIntra : tNet;
        double full = 2.0 * intraHops * tIntra + 2.0 * netHops * tNet - slowest;
        double scale = Math.min(1.0, iterations / (2.0 * depth - 1));
        if (!ownIntra) {
            return full * scale;
        }
        double intra = 2.0 * intraHops * tIntra - (intraSlowest ? tIntra : 0);
        return intra + (full - intra) * scale;
    }

}
