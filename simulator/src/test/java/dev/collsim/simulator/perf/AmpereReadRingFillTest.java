package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import dev.collsim.simulator.TestClusters;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.HardwareClass;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A Simple Ring on one host over NVLink between sm80 GPUs (NCCL's P2P read, NCCL 2.30.7 {@code src/graph/paths.cc
 * ncclTopoCheckP2p}) pays the whole generic pipeline fill; every other one-host NVLink ring keeps 2 / nRanks
 * ({@link IntraNodeFill}).
 */
class AmpereReadRingFillTest {

    private static final NcclSettings D = NcclSettings.DEFAULTS;
    private static final HardwareClass NVL = HardwareClass.NVLINK;
    private static final NcclSettings READ_OFF = NcclSettings.parse(Map.of("NCCL_P2P_READ_ENABLE", "0"));
    private static final NcclSettings READ_ON = NcclSettings.parse(Map.of("NCCL_P2P_READ_ENABLE", "1"));

    private static ChannelPlan plan(TestClusters.Shape shape) {
        Topology t = TestClusters.cluster(shape, 1);
        return ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_30_7);
    }

    /**
     * 8x A100 (sm80 on both ends of every NVLink path): Simple Ring AllReduce/AllGather/ReduceScatter 1; the same
     * ring under LL128 (P2P read moves only the Simple buffer, {@code src/transport/p2p.cc p2pSendSetup}) and a
     * rooted ring (Broadcast) keep 2 / 8 = 0.25; 8x H100 (sm90, P2P write) keeps 0.25 for Simple.
     */
    @Test
    void onlyTheAmpereSimpleSymmetricRingPaysTheWholeFill() {
        ChannelPlan a100 = plan(TestClusters.DGX_A100);
        ChannelPlan h100 = plan(TestClusters.DGX_H100);
        assertEquals(NVL, PerformanceModel.linkClass(a100));
        assertEquals(1.0, IntraNodeFill.scale(Algorithm.RING, Collective.ALL_REDUCE, Protocol.SIMPLE, a100, NVL, D), 0);
        assertEquals(1.0, IntraNodeFill.scale(Algorithm.RING, Collective.ALL_GATHER, Protocol.SIMPLE, a100, NVL, D), 0);
        assertEquals(1.0, IntraNodeFill.scale(Algorithm.RING, Collective.REDUCE_SCATTER, Protocol.SIMPLE, a100, NVL, D),
                0);
        assertEquals(0.25, IntraNodeFill.scale(Algorithm.RING, Collective.ALL_REDUCE, Protocol.LL128, a100, NVL, D),
                1e-12);
        assertEquals(0.25, IntraNodeFill.scale(Algorithm.RING, Collective.BROADCAST, Protocol.SIMPLE, a100, NVL, D),
                1e-12);
        assertEquals(0.25, IntraNodeFill.scale(Algorithm.TREE, Collective.ALL_REDUCE, Protocol.SIMPLE, a100, NVL, D),
                1e-12);
        assertEquals(0.25, IntraNodeFill.scale(Algorithm.RING, Collective.ALL_REDUCE, Protocol.SIMPLE, h100, NVL, D),
                1e-12);
        assertTrue(IntraNodeFill.readRing(Algorithm.RING, Collective.ALL_REDUCE, Protocol.SIMPLE, a100, NVL, D));
        assertFalse(IntraNodeFill.readRing(Algorithm.RING, Collective.ALL_REDUCE, Protocol.SIMPLE, a100,
                HardwareClass.PCI, D));
    }

    /**
     * DGX A100, 8 ranks, Ring/Simple AllReduce of 512 MiB (536,870,912 B), worked by hand:
     * NCCL's Ring/Simple latency on NVLink 8.4 + 14 x 3.4 = 56.0 us (NCCL 2.30.7 {@code tuning.cc} baseLat, hwLat)
     * plus the 1.5 us launch overhead (PerformanceParameters default); busbw 12 x 20 GB/s x 0.98 x 1.016 (the link's
     * factor over P2P read, {@link RingFinalRecv}) = 238.96, algbw x 8 / 14 = 136.55 GB/s, bytes 536,870,912 /
     * 136,550 = 3931.7 us; the idle copy of the rank's 64 MiB piece at 2,100 x 2,039 / 4,800 = 892.06 GB/s, 75.2 us;
     * fill one 2 MiB Simple chunk (the slice 512 MiB / (24 channels x 8 ranks) = 2.67 MiB is larger) at 238.96 / 24 =
     * 9.957 GB/s a channel: 210.6 us (the former 2 / 8 of it would be 52.7). Time 56.0 + 1.5 + 3931.7 + 75.2 + 210.6 =
     * 4275.0 us. Measured on such a host with one process per GPU: 4248.8 us
     * (A-allreduce-1x8xA100-80GB-sxm-thanos-g8-vs-mpirun-sweep.txt line 103).
     */
    @Test
    void dgxA100RingSimplePaysOneChunkOfFill() throws Exception {
        Topology t = TestClusters.cluster(TestClusters.DGX_A100, 1);
        Prediction p = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE,
                536_870_912L, DataType.FLOAT, RedOp.SUM,
                NcclSettings.parse(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple"))));
        assertEquals(24, p.nChannels());
        assertEquals(4275.0, p.timeUs(), 0.5, p.toString());
    }

    /**
     * NCCL_P2P_READ_ENABLE replaces NCCL's choice (NCCL 2.30.7 {@code src/transport/p2p.cc p2pGetInfo}: when not -2
     * it overwrites ncclTopoCheckP2p's read): 0 on the 8x A100 gives P2P write, so its Simple ring keeps 2 / 8 =
     * 0.25; 1 on the 8x H100 (sm90, write by default) gives read, so its Simple ring pays 1; LL128 still 0.25 (read
     * moves only the Simple buffer, {@code p2pSendSetup}). Over PCIe a forced read keeps the PCIe ring's 0 (no
     * measured read run; IntraNodeFill's class note).
     */
    @Test
    void p2pReadEnableOverridesTheAmpereRule() {
        ChannelPlan a100 = plan(TestClusters.DGX_A100);
        ChannelPlan h100 = plan(TestClusters.DGX_H100);
        assertEquals(NVL, PerformanceModel.linkClass(h100));
        assertEquals(0.25, IntraNodeFill.scale(Algorithm.RING, Collective.ALL_REDUCE, Protocol.SIMPLE, a100, NVL,
                READ_OFF), 1e-12);
        assertEquals(1.0, IntraNodeFill.scale(Algorithm.RING, Collective.ALL_GATHER, Protocol.SIMPLE, h100, NVL,
                READ_ON), 0);
        assertEquals(0.25, IntraNodeFill.scale(Algorithm.RING, Collective.ALL_REDUCE, Protocol.LL128, h100, NVL,
                READ_ON), 1e-12);
        assertEquals(0, IntraNodeFill.scale(Algorithm.RING, Collective.ALL_REDUCE, Protocol.SIMPLE, a100,
                HardwareClass.PCI, READ_ON), 0);
        assertFalse(IntraNodeFill.p2pRead(a100, NVL, READ_OFF));
        assertTrue(IntraNodeFill.p2pRead(h100, NVL, READ_ON));
        assertFalse(IntraNodeFill.p2pRead(h100, NVL, D));
    }

    /**
     * The DGX A100 512 MiB Ring/Simple AllReduce of {@link #dgxA100RingSimplePaysOneChunkOfFill} with
     * NCCL_P2P_READ_ENABLE=0, worked by hand: the link's write factor 1.036, busbw 235.2 x 1.036 = 243.67, algbw
     * 139.24 GB/s, 3855.8 us of data; the same 75.2 us copy (the send-only primitive idles the link instead of the
     * receive-only one) and 56.0 + 1.5 us; the fill 2 / 8 of a 2 MiB chunk at 243.67 / 24 GB/s, 51.6 us: 4040.1 us.
     */
    @Test
    void dgxA100WithReadOffPaysTwoOverNRanksOfTheChunk() throws Exception {
        Topology t = TestClusters.cluster(TestClusters.DGX_A100, 1);
        Prediction p = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE,
                536_870_912L, DataType.FLOAT, RedOp.SUM, NcclSettings.parse(Map.of("NCCL_ALGO", "Ring",
                        "NCCL_PROTO", "Simple", "NCCL_P2P_READ_ENABLE", "0"))));
        assertEquals(24, p.nChannels());
        assertEquals(4040.1, p.timeUs(), 0.5, p.toString());
    }
}
