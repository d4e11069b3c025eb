package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Hand-worked fills of {@link TreeSimpleFill}. NCCL 2.30.7: {@code src/graph/connect.cc} line 144
 * {@code depth = nRanks / nNodes - 1 + log2i(nNodes)} (its network part taken as ncclGetBtree's depth,
 * NetHops.treeDepth); {@code src/device/all_reduce.h} lines 236-243 (Tree/Simple
 * AllReduce runs {@code runTreeSplit<T, RedOp, ProtoSimple<1, 1>>}: each hop forwards a whole chunk);
 * {@code src/enqueue.cc calcCollChunking}: chunk = NCCL_BUFFSIZE / NCCL_STEPS = 4 MiB / 8 = 524288 B.
 */
class TreeSimpleFillTest {

    /**
     * 2 nodes x 8 GPUs, 1 GiB on 32 channels: 7 NVLink hops and 1 network hop up (depth 8), 64 chunks of 524288 B
     * per channel (a full pipe of 2 x 8 - 1 = 15 stage times). NVLink hop at 24 GB/s: 524288 / 24000 = 21.845333 us;
     * network hop at 7.35 GB/s: 524288 / 7350 = 71.331701 us. Fill = 14 x 21.845333 + 2 x 71.331701 - 71.331701
     * (the slowest stage is the bandwidth term's) = 305.834667 + 71.331701 = 377.166367 us. At one rate of 7.35
     * for every hop it would be 15 x 71.331701 = 1069.98 us.
     */
    @Test
    void twoNodeChainChargesEachHopAtItsRate() {
        assertEquals(377.166367, TreeSimpleFill.fillUs(524288, 1L << 30, 32, 7, 1, 24.0, 7.35, true), 1e-5);
        assertEquals(1069.975510, TreeSimpleFill.fillUs(524288, 1L << 30, 32, 7, 1, 7.35, 7.35, true), 1e-5);
    }

    /**
     * At one rate for every hop the fill is (2 depth - 1) stage times: 2 x 4 GPUs (depth 3 + 1 = 4), 1 GiB on 16
     * channels (128 chunks each), 20 GB/s: 7 x 524288 / 20000 = 7 x 26.2144 = 183.5008 us.
     */
    @Test
    void oneRateGivesTwiceTheDepthLessOneStages() {
        assertEquals(183.5008, TreeSimpleFill.fillUs(524288, 1L << 30, 16, 3, 1, 20.0, 20.0, false), 1e-9);
    }

    /**
     * Fewer chunks than the 2 depth - 1 = 7 stages of 2 x 4 GPUs scale the full pipe's fill by chunks / 7 (the
     * straight line of {@link NvlsTreePipeline}) when every hop's rate is a shared one (PCIe). Intra 20 GB/s,
     * network 10 GB/s.
     * 2 MiB on 16 channels: 131072 B per channel, one stage of that size: 131072 / 20000 = 6.5536 us, / 10000 =
     * 13.1072 us; full = 6 x 6.5536 + 2 x 13.1072 - 13.1072 = 52.4288 us; x 1/7 = 7.489829 us.
     * 16 MiB on 16 channels: 1 MiB per channel, 2 chunks of 524288 B: 26.2144 and 52.4288 us stages; full = 6 x
     * 26.2144 + 52.4288 = 209.7152 us; x 2/7 = 59.918629 us.
     */
    @Test
    void fewChunksFillPartOfThePipe() {
        assertEquals(7.489829, TreeSimpleFill.fillUs(524288, 2L << 20, 16, 3, 1, 20.0, 10.0, false), 1e-6);
        assertEquals(59.918629, TreeSimpleFill.fillUs(524288, 16L << 20, 16, 3, 1, 20.0, 10.0, false), 1e-6);
    }

    /**
     * Over NVLink the intra-node hops run at the channel's own copy rate: their stage times count in full at any
     * number of chunks, only the network hops' part is scaled by chunks / 7. Same 2 x 4 GPUs, intra 20 GB/s, network
     * 10 GB/s. 2 MiB on 16 channels: one stage of 131072 B, 6.5536 us intra, 13.1072 us network (the slowest);
     * intra part 6 x 6.5536 = 39.3216 us; network part 2 x 13.1072 - 13.1072 = 13.1072 us, x 1/7 = 1.872457 us;
     * fill 41.194057 us. 16 MiB: 2 chunks of 524288 B, 26.2144 and 52.4288 us; intra 6 x 26.2144 = 157.2864 us;
     * network 52.4288 x 2/7 = 14.979657 us; fill 172.266057 us. With 7 or more chunks it is the full pipe's, as
     * over PCIe: 1 GiB on 16 channels (128 chunks), 157.2864 + 52.4288 = 209.7152 us.
     */
    @Test
    void nvlinkHopsCountInFullWithFewChunks() {
        assertEquals(41.194057, TreeSimpleFill.fillUs(524288, 2L << 20, 16, 3, 1, 20.0, 10.0, true), 1e-6);
        assertEquals(172.266057, TreeSimpleFill.fillUs(524288, 16L << 20, 16, 3, 1, 20.0, 10.0, true), 1e-6);
        assertEquals(209.7152, TreeSimpleFill.fillUs(524288, 1L << 30, 16, 3, 1, 20.0, 10.0, true), 1e-9);
        assertEquals(209.7152, TreeSimpleFill.fillUs(524288, 1L << 30, 16, 3, 1, 20.0, 10.0, false), 1e-9);
    }

    /**
     * One GPU per node, 4 nodes: no NVLink hop, 2 network hops up (NetHops.treeDepth(4)): 2 x 2 - 1 = 3 stages of
     * 524288 B at 10 GB/s = 3 x 52.4288 = 157.2864 us (the unused intra rate must not count).
     */
    @Test
    void onlyNetworkHopsWithOneGpuPerNode() {
        assertEquals(157.2864, TreeSimpleFill.fillUs(524288, 1L << 30, 16, 0, 2, 1.0, 10.0, true), 1e-9);
    }

    private static Prediction treeSimple(NcclVersion v, long bytes) throws Exception {
        Topology t = ClusterLoader.load("abci-node-vx16");
        Prediction p = new NcclPredictor(v, PerformanceParameters.DEFAULTS).predict(new PredictionRequest(t, t.gpus(),
                Collective.ALL_REDUCE, bytes, DataType.FLOAT, RedOp.SUM,
                NcclSettings.parse(Map.of("NCCL_ALGO", "Tree", "NCCL_PROTO", "Simple"))));
        assertEquals(Algorithm.TREE, p.algorithm(), p.toString());
        assertEquals(Protocol.SIMPLE, p.protocol(), p.toString());
        return p;
    }

    /**
     * 16 ABCI V100 nodes (4 GPUs and 2 x 100 Gb/s EDR each), Tree/Simple forced. At 512 MiB and 1 GiB the chunk is
     * the whole 512 KiB step (2.8's halving stops: 512 MiB / (4 x 512 KiB) = 256 is above depth x 8) and no tree
     * correction applies (above 256 MiB), so 2 t(512 MiB) - t(1 GiB) is what does not grow with size. NCCL 2.8.4's
     * own latency is 2 x ((4 - 1) x 28 + log2(16) x 28) = 392 us (v2.8.4-1 {@code src/graph/tuning.cc} lines 153-155),
     * a 256 KB chunk's trip per hop (line 61); the time reads 2.18.5's hop figures instead, 2 x (3 x 4 + 4 x 14) =
     * 136 us (v2.18.5-1 lines 67, 75), + 1.5 launch = 137.5, and charges the fill. The GPU-NIC path is PHB (each
     * socket's NIC on its own root port), beyond the default GDR level PXB: each of the 2 x 4 network hops is 3
     * legs of a whole chunk, of which all but the slowest stage take at least 524288 B at the node's 2 x 12.5 GB/s
     * shared by the call's channels: the intercept is at least 137.5 + 23 x 524288 / (25000 / nc) us.
     */
    @Test
    void chunkLatencyReleasesChargeTheFillOnHopFigures() throws Exception {
        long half = 512L << 20;
        Prediction oldHalf = treeSimple(NcclVersion.V2_8_4, half);
        double old = 2 * oldHalf.timeUs() - treeSimple(NcclVersion.V2_8_4, 2 * half).timeUs();
        double minFill = 23 * 524288 / (25000.0 / oldHalf.nChannels());
        assertTrue(old >= 137.5 + minFill, "intercept " + old + ", fill at least " + minFill);
    }

    /**
     * Legs of a network hop: ABCI V100 nodes reach their NICs through the CPU (PHB), beyond the default GDR level
     * PXB (NCCL 2.8.4 {@code src/graph/paths.cc} line 340): 3 (host-memory buffers, v2.8.4-1 {@code
     * src/transport/net.cc} lines 85, 135); NCCL_NET_GDR_LEVEL=SYS puts PHB within it: 1. ABCI A100 nodes have a
     * NIC on each GPU pair's PCIe switch (PIX): 1.
     */
    @Test
    void stagedHopsHaveThreeLegs() throws Exception {
        Topology v = ClusterLoader.load("abci-node-vx2");
        ChannelPlan pv = ChannelSearch.search(v, v.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_8_4);
        assertEquals(3, TreeSimpleFill.netLegs(pv, NcclSettings.DEFAULTS));
        NcclSettings sys = NcclSettings.parse(Map.of("NCCL_NET_GDR_LEVEL", "SYS"));
        assertEquals(1, TreeSimpleFill.netLegs(ChannelSearch.search(v, v.gpus(), sys, NcclVersion.V2_8_4), sys));
        Topology a = ClusterLoader.load("abci-node-ax2");
        ChannelPlan pa = ChannelSearch.search(a, a.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_8_4);
        assertEquals(1, TreeSimpleFill.netLegs(pa, NcclSettings.DEFAULTS));
    }
}
