package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import dev.collsim.simulator.tuning.RootedRingLatency;
import dev.collsim.simulator.tuning.TuningConstants;
import dev.collsim.simulator.tuning.TuningInput;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The rooted Ring (Broadcast, Reduce): whose channels share one order, it runs ahead into the next call and pays only
 * NCCL's one-hop latency (NCCL 2.30.7 src/graph/tuning.cc: sameChannels, baseLat + hwLat[Ring][p]); otherwise every
 * rank waits for the whole traversal, NCCL's nRanks hops, and with Simple the chunks are stored and forwarded whole:
 * nRanks - 2 hops of one chunk of fill (NCCL 2.28.9 src/device/broadcast.h and reduce.h runRing;
 * src/include/collectives.h BROADCAST_/REDUCE_ CHUNKSTEPS = SLICESTEPS = 1, so a chunk is one slice of one step,
 * buffSize / NCCL_STEPS = 4 MiB / 8 = 512 KiB; src/device/prims_simple.h genericOp waits for the whole slice before
 * it copies and posts it on).
 *
 * <p>Each case reads the fill off two large sizes of one (algorithm, protocol), where every term but the data is the
 * same: intercept = 2 t(S) - t(2S) = launch + latency + fill.
 */
class RootedRingFillTest {

    /** launchOverheadUs of the default performance parameters (PerformanceParameters.DEFAULTS). */
    private static final double LAUNCH_US = 1.5;

    private static double intercept(String cluster, Collective c, int ranks, long bytes) throws Exception {
        Topology t = ClusterLoader.load(cluster);
        NcclSettings ring = NcclSettings.parse(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple"));
        Prediction p1 = new NcclPredictor().predict(new PredictionRequest(t, t.gpus().subList(0, ranks), c, bytes,
                DataType.FLOAT, RedOp.SUM, ring));
        Prediction p2 = new NcclPredictor().predict(new PredictionRequest(t, t.gpus().subList(0, ranks), c,
                2 * bytes, DataType.FLOAT, RedOp.SUM, ring));
        assertEquals(Algorithm.RING, p1.algorithm());
        assertEquals(Protocol.SIMPLE, p1.protocol());
        return 2 * p1.timeUs() - p2.timeUs();
    }

    /**
     * DGX H100 (NVSwitch: every ring channel on one GPU order), 2 and 8 GPUs: no fill, and NCCL's one-hop latency,
     * baseLat[Ring][Simple] 8.4 + hwLat[NVLINK][Ring][Simple] 3.4 = 11.8 us, where collsim charged 8.4 + nRanks x
     * hwLat[NVLINK][Tree][Simple] 4.0 (16.4 and 40.4 us) and on 2 GPUs one 512 KiB chunk of fill at 360 x 0.98 / 24
     * GB/s (35.7 us). Measured on 2x H200 (NV18, NCCL 2.28.3): Broadcast 64 MiB took 208.24 us
     * (data/device/h200x2-2026-11-29/collsim-broadcast.txt, row 67108864); 67108864 B at the 366.7 GB/s of its 8 GiB
     * row is 183.0 us, leaving 25 us, the executor's small-size floor there (18-28 us at 8 B-256 KiB), for everything
     * else: no room for the 35.7 us of fill on top.
     */
    @Test
    void oneOrderRunsAheadWithoutFill() throws Exception {
        for (int ranks : new int[] {2, 8}) {
            for (Collective c : new Collective[] {Collective.BROADCAST, Collective.REDUCE}) {
                assertEquals(LAUNCH_US + 8.4 + 3.4, intercept("dgx-h100", c, ranks, 256L << 20), 0.05,
                        c + " on " + ranks);
            }
        }
    }

    /**
     * DGX-1 V100 (hybrid cube-mesh: NCCL's ring channels take different GPU orders), 8 GPUs, 1 GiB: NCCL's latency
     * 8.4 + 8 x hwLat[NVLINK][Tree][Simple] 4.0 = 40.4 us, and 8 - 2 = 6 hops of one 512 KiB chunk (each of the 12
     * runtime channels carries 85 MiB, many chunks) at one channel's share of the ring's links: each V100 has 6 NVLink2
     * links of 25 GB/s per direction, 150 GB/s (DGX-1 V100 white paper WP-08437-002; the "bound" column of
     * {@code collsim predict -c dgx1-v100}), the rate collsim moves this ring's data at, x 0.98 (bwEfficiencySimple)
     * x 1.036 (the link's factor over P2P write, RingFinalRecv), over the 12 runtime channels: 12.691 GB/s;
     * 6 x 524288 B / 12.691 GB/s = 247.9 us.
     */
    @Test
    void severalOrdersForwardWholeChunks() throws Exception {
        double fill = 6 * 524288 / (1000.0 * 150 * 0.98 * 1.036 / 12);
        assertEquals(247.9, fill, 0.05);
        for (Collective c : new Collective[] {Collective.BROADCAST, Collective.REDUCE}) {
            assertEquals(LAUNCH_US + 8.4 + 8 * 4.0 + fill, intercept("dgx1-v100", c, 8, 1L << 30), 0.05,
                    c.toString());
        }
    }
    /**
     * 4 DGX H100 over InfiniBand, 32 ranks, Broadcast and Reduce of 8 bytes: NCCL's ring graph between nodes has
     * several GPU orders, so NCCL's own latency is 32 hops, baseLat[Ring][LL] 6.6 + 32 x hwLat[NET][Ring][LL] 2.7 =
     * 93.0 us (its estimate); the call runs on one channel, one order, and runs ahead into the next call: 1.5 + 6.6 +
     * 2.7 = 10.8 us. Measured on 4x8 H100 over InfiniBand (NCCL 2.24.3), 9.03-12.08 us from 8 B to 512 B
     * (A-bcast-reduce-4x8xH100-voltagepark-ib-nccl2.24.txt, broadcast rows 8-512, reduce rows 8.14-10.87 us).
     */
    @Test
    void oneChannelBetweenNodesRunsAhead() throws Exception {
        Topology t = ClusterLoader.load("dgx-h100x4");
        for (Collective c : new Collective[] {Collective.BROADCAST, Collective.REDUCE}) {
            Prediction p = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), c, 8, DataType.FLOAT,
                    RedOp.SUM, NcclSettings.DEFAULTS));
            assertEquals(Algorithm.RING, p.algorithm());
            assertEquals(Protocol.LL, p.protocol());
            assertEquals(1, p.nChannels());
            assertEquals(6.6 + 32 * 2.7, p.ncclEstimateUs(), 0.01, "NCCL's own: 32 hops");
            assertEquals(LAUNCH_US + 6.6 + 2.7, p.timeUs(), 0.01, c.toString());
        }
    }

    /**
     * 4 DGX H100 over InfiniBand (Intel hosts: network post overhead 1 us, x3 for Simple), 32 ranks, the ring graph's
     * channels in several GPU orders: the traversal hop by hop as NCCL composes its other rings (NCCL 2.30.7
     * src/graph/tuning.cc: baseLat + (nsteps - nInter) x max(hwLat[NVLINK][Ring][p], netOverhead) + nInter x
     * hwLat[NET][Ring][p], latencyInter 0 on InfiniBand), nsteps = 32, nInter = 4 - 1 = 3. LL: 6.6 + 29 x max(0.6,
     * 1.0) + 3 x 2.7 = 43.7 us; LL128: 14.0 + 29 x 1.9 + 3 x 4.0 = 81.1 us; Simple: 8.4 + 29 x max(3.4, 3.0) + 3 x
     * 14.0 = 149.0 us; NCCL's own figures are 32 x hwLat[NET]: 93.0, 142.0 and (Tree's 14 for Simple) 456.4 us.
     */
    @Test
    void hopByHopTraversalByHand() throws Exception {
        Topology t = ClusterLoader.load("dgx-h100x4");
        ChannelPlan p = ChannelSearch.search(t, t.gpus(), NcclSettings.DEFAULTS, NcclVersion.V2_30_7);
        TuningInput in = new TuningInput(p.graphs(), p.nRanks(), p.nNodes(), p.minSm(), p.maxSm(), p.cpu(),
                p.nvlsSupport(), false, p.hasNvSwitch(), p.maxLocalRanks(), p.graphs().tree().pattern(),
                p.runtimeChannels(), NcclSettings.DEFAULTS, TuningConstants.NCCL_2_30_7);
        assertEquals(43.7, RootedRingLatency.rootedRingHopLatency(in, Protocol.LL), 1e-9);
        assertEquals(81.1, RootedRingLatency.rootedRingHopLatency(in, Protocol.LL128), 1e-9);
        assertEquals(149.0, RootedRingLatency.rootedRingHopLatency(in, Protocol.SIMPLE), 1e-9);
    }

    /**
     * 4x8 H100 over InfiniBand (NCCL 2.24.3), Broadcast LL128 at 32 and 64 MiB: measured intercept 2 t(S) - t(2S) =
     * 2 x 329.50 - 451.52 = 207.5 us (A-bcast-reduce-4x8xH100-voltagepark-ib-nccl2.24.txt lines 76-77); the hop by
     * hop latency (81.1 us) with three network hops of one whole 576000-byte LL128 step each (NCCL 2.24.3
     * src/device/prims_ll128.h: postSend after the step's barrier on a network connection) must land within 15 % of
     * it, where NCCL's 142 us alone (and the earlier 143.6 us) fell 31 % short.
     */
    @Test
    void ll128NetworkHopsStoreWholeSteps() throws Exception {
        Topology t = ClusterLoader.load("dgx-h100x4");
        NcclSettings ll128 = NcclSettings.parse(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "LL128"));
        long s = 32L << 20;
        Prediction p1 = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.BROADCAST, s,
                DataType.FLOAT, RedOp.SUM, ll128));
        Prediction p2 = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.BROADCAST, 2 * s,
                DataType.FLOAT, RedOp.SUM, ll128));
        assertEquals(Protocol.LL128, p1.protocol());
        double intercept = 2 * p1.timeUs() - p2.timeUs();
        assertEquals(207.5, intercept, 0.15 * 207.5);
    }

    /** Hops beyond the data term: the last rank is nRanks - 1 hops from the root, the data term counts one. */
    @Test
    void hopsByHand() {
        assertEquals(0, RingLoopFill.rootedHops(1));
        assertEquals(0, RingLoopFill.rootedHops(2));
        assertEquals(1, RingLoopFill.rootedHops(3));
        assertEquals(6, RingLoopFill.rootedHops(8));
        assertEquals(true, RingLoopFill.rootedSimple(Algorithm.RING, Collective.BROADCAST, Protocol.SIMPLE));
        assertEquals(true, RingLoopFill.rootedSimple(Algorithm.RING, Collective.REDUCE, Protocol.SIMPLE));
        assertEquals(false, RingLoopFill.rootedSimple(Algorithm.RING, Collective.BROADCAST, Protocol.LL));
        assertEquals(false, RingLoopFill.rootedSimple(Algorithm.RING, Collective.ALL_GATHER, Protocol.SIMPLE));
    }
}
