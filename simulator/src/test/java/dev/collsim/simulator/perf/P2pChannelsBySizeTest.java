package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.SimulatorFixtures;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.PcieEightGpu;
import dev.collsim.topology.io.ClusterLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The channels a point-to-point call keeps busy follow NCCL's split of each send by its size (NCCL 2.30.7
 * {@code src/enqueue.cc addP2pToPlan} lines 912-927; the same lines 893-901 at v2.28.9-1; nChannelsMin from
 * {@code scheduleP2pTasksToPlan} lines 1143-1146, 2.28.9 lines 1053-1056): nChannels = min(nChannelsMin,
 * ceil(B / minPart)), doubled while B / nChannels &gt; maxPart and nChannels &lt;= p2pnChannelsPerPeer / 2, with
 * nChannelsMin = p2pnChannelsPerPeer halved while it x nRanks &gt; p2pnChannels, and on one node minPart = chunk / 8,
 * maxPart = chunk x 32 (chunk: {@code src/init.cc computeBuffSizes}, 2.30.7 lines 818-843: NCCL_P2P_NVL_CHUNKSIZE
 * 512 KiB on an all-NVLink node, NCCL_P2P_PCI_CHUNKSIZE 128 KiB otherwise). Every expected value is worked by hand
 * below.
 */
class P2pChannelsBySizeTest {

    private static final Path H200X2 = Path.of("..", "data", "device", "h200x2-2026-11-29");

    private static Prediction h200SendRecv(long bytes, String... env) throws Exception {
        return h200SendRecv(NcclVersion.V2_28_9, bytes, env);
    }

    private static Prediction h200SendRecv(NcclVersion v, long bytes, String... env) throws Exception {
        Topology t = ClusterLoader.read("nccl-topo-dump.xml", Files.readString(H200X2.resolve("nccl-topo-dump.xml")));
        return new NcclPredictor(v, PerformanceParameters.DEFAULTS).predict(new PredictionRequest(t,
                t.gpus(), Collective.SEND_RECV, bytes, DataType.FLOAT, RedOp.SUM, SimulatorFixtures.env(env)));
    }

    private static Prediction l40sSysPair(Collective c, long bytes) {
        Topology t = Catalog.standalone(PcieEightGpu.l40s(), 1);
        List<Gpu> pair = List.of(t.gpus().get(0), t.gpus().get(4));
        return new NcclPredictor().predict(new PredictionRequest(t, pair, c, bytes, DataType.FLOAT, RedOp.SUM,
                NcclSettings.parse(Map.of())));
    }

    /**
     * 2x H200 (NV18), NCCL's own log of that machine (data/device/h200x2-2026-11-29/nccl-info-allreduce.txt lines 246
     * and 293): "P2P Chunksize set to 524288", "32 p2p channels, 32 p2p channels per peer". nChannelsMin: 32 x 2
     * ranks &gt; 32, so 16. minPart 512 KiB / 8 = 64 KiB, maxPart 512 KiB x 32 = 16 MiB. SendRecv of 256 MiB:
     * min(16, 4096) = 16 channels, parts of 16 MiB, not above maxPart: 16. 512 MiB: parts of 32 MiB &gt; 16 MiB and
     * 16 &lt;= 32 / 2, so 32 (parts of 16 MiB). At 16 channels x 20.7 GB/s (perChannelCapSimple, Hopper) = 331 GB/s
     * the channels bind before NVLink. Measured on that machine (collsim-sendrecv.txt lines 37-38): busbw 303.64 GB/s
     * at 256 MiB, 355.32 at 512 MiB, the step this split makes.
     */
    @Test
    void h200SendRecvDoublesItsChannelsAbove256MiB() throws Exception {
        Prediction at256 = h200SendRecv(256L << 20);
        assertEquals(16, at256.nChannels(), at256.toString());
        assertTrue(at256.bottleneck().startsWith("per-channel throughput: 16 p2p channels"), at256.bottleneck());
        assertEquals(32, h200SendRecv(512L << 20).nChannels());
        // 1 MiB: min(16, ceil(1 MiB / 64 KiB) = 16) = 16
        assertEquals(16, h200SendRecv(1L << 20).nChannels());
    }

    /**
     * Where the releases part, on the same 2x H200 (2 x 18 NVLinks: 32 channels per peer in both). NCCL 2.30.7 splits
     * first: 512 KiB on min(16, ceil(512 KiB / 64 KiB)) = 8 channels, more than 8 x 16384, so Simple; a send of B
     * &lt;= 64 KiB takes one channel, so LL ends at 16 KiB (32 KiB: 1 channel, Simple).
     * NCCL 2.28.9 picks the protocol first ({@code src/enqueue.cc} lines 821-835): LL up to 32 x 16384 = 512 KiB,
     * then splits with LL's step, NCCL_LL_BUFFSIZE 512 KiB / 8 = 64 KiB: minPart 8 KiB, maxPart 2 MiB, so
     * min(16, 64) = 16 channels; 1 MiB is Simple on min(16, 16) = 16.
     */
    @Test
    void ncclReleasesPickTheProtocolInTheirOwnOrder() throws Exception {
        Prediction new512 = h200SendRecv(NcclVersion.V2_30_7, 512L << 10);
        assertEquals(Protocol.SIMPLE, new512.protocol());
        assertEquals(8, new512.nChannels());
        assertEquals(Protocol.LL, h200SendRecv(NcclVersion.V2_30_7, 16L << 10).protocol());
        assertEquals(Protocol.SIMPLE, h200SendRecv(NcclVersion.V2_30_7, 32L << 10).protocol());
        Prediction old512 = h200SendRecv(NcclVersion.V2_28_9, 512L << 10);
        assertEquals(Protocol.LL, old512.protocol());
        assertEquals(16, old512.nChannels());
        assertEquals(Protocol.SIMPLE, h200SendRecv(NcclVersion.V2_28_9, 1L << 20).protocol());
    }

    /**
     * The knobs that set the split, on the same 2x H200. NCCL_MAX_P2P_NCHANNELS=16 ({@code src/graph/paths.cc
     * ncclTopoComputeP2pChannels}): 16 p2p channels, channels per peer min(16, pow2Up(2 x 18)) = 16, nChannelsMin
     * 16 x 2 &gt; 16, so 8; 128 MiB: parts of 16 MiB, 8 channels; 256 MiB: parts of 32 MiB &gt; 16 MiB and 8 &lt;= 16
     * / 2, so 16. NCCL_BUFFSIZE=1048576 ({@code src/init.cc computeBuffSizes}: the p2p chunk at most the Simple
     * buffer / NCCL_STEPS = 128 KiB): maxPart 4 MiB, so 64 MiB stays on 16 channels (parts of 4 MiB) and 128 MiB
     * takes 32 (parts of 8 MiB &gt; 4 MiB).
     */
    @Test
    void p2pChannelLimitAndBufferSizeMoveTheSplit() throws Exception {
        assertEquals(8, h200SendRecv(128L << 20, "NCCL_MAX_P2P_NCHANNELS", "16").nChannels());
        assertEquals(16, h200SendRecv(256L << 20, "NCCL_MAX_P2P_NCHANNELS", "16").nChannels());
        assertEquals(16, h200SendRecv(64L << 20, "NCCL_BUFFSIZE", "1048576").nChannels());
        assertEquals(32, h200SendRecv(128L << 20, "NCCL_BUFFSIZE", "1048576").nChannels());
    }

    /**
     * 2 ranks over SHM (GPUs 0 and 4 of the 8x L40S host, SYS: ShmLinkShareTest): 2 runtime channels, so 2 p2p
     * channels (pow2Up); a PCI peer gets 2 channels per peer ({@code src/graph/paths.cc ncclTopoGetNchannels}), at
     * most the p2p channels: 2. nChannelsMin: 2 x 2 ranks &gt; 2, so 1. The chunk is NCCL_P2P_PCI_CHUNKSIZE 128 KiB:
     * minPart 16 KiB, maxPart 4 MiB. AllToAll of S sends S / 2 to the one peer: S = 8 MiB, 4 MiB, 1 channel (not above
     * maxPart); S = 16 MiB, 8 MiB &gt; 4 MiB and 1 &lt;= 2 / 2, so 2. SendRecv sends S: 4 MiB on 1 channel, 8 MiB on 2.
     */
    @Test
    void shmPairTakesASecondChannelAbove4MiBPerPeer() {
        assertEquals(1, l40sSysPair(Collective.ALL_TO_ALL, 8L << 20).nChannels());
        assertEquals(2, l40sSysPair(Collective.ALL_TO_ALL, 16L << 20).nChannels());
        assertEquals(1, l40sSysPair(Collective.SEND_RECV, 4L << 20).nChannels());
        assertEquals(2, l40sSysPair(Collective.SEND_RECV, 8L << 20).nChannels());
    }

    /**
     * One network send's data (NCCL 2.30.7 {@code src/enqueue.cc addP2pToPlan} lines 935-950), between 2 hosts x 1
     * L40S (x86, one 200 Gb/s NIC each: 2 channels per peer, pow2Up(ceil(25 / 14)); 2 p2p channels; nChannelsMin 1).
     * The p2p chunk is NCCL_P2P_NET_CHUNKSIZE 128 KiB; minPart 64 KiB, maxPart 128 KiB. 64 KiB: 1 channel, Simple
     * (above 1 x 16384), below one step, so 128 KiB / 4 = 32 KiB. 512 KiB: 2 channels (parts of 512 KiB &gt; 128 KiB
     * double once), below 8 steps, so 64 KiB. 1 GiB: 128 KiB. 8 KiB: LL (1 channel x 16384), step NCCL_LL_BUFFSIZE
     * 512 KiB / 8 = 64 KiB, below 8 steps so 32 KiB, half of it data, 16 KiB, more than the 8 KiB part: 8 KiB.
     */
    @Test
    void networkSendsShrinkForSmallOperations() {
        Topology t = ClusterLoader.load("pcie-8x-l40sx2");
        List<Gpu> ranks = List.of(t.gpusOf(0).get(0), t.gpusOf(1).get(0));
        ChannelPlan plan = ChannelSearch.search(t, ranks, NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
        PathType type = plan.graphs().ring().typeIntra();
        NcclVersion v = NcclVersion.V2_30_7;
        assertEquals(32L << 10, P2pPeerChannels.netSendBytes(plan, NcclSettings.DEFAULTS, type, 64L << 10, v));
        assertEquals(64L << 10, P2pPeerChannels.netSendBytes(plan, NcclSettings.DEFAULTS, type, 512L << 10, v));
        assertEquals(128L << 10, P2pPeerChannels.netSendBytes(plan, NcclSettings.DEFAULTS, type, 1L << 30, v));
        assertEquals(8L << 10, P2pPeerChannels.netSendBytes(plan, NcclSettings.DEFAULTS, type, 8L << 10, v));
    }
}
