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
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The rooted Simple Ring (Broadcast, Reduce) forwards whole chunks hop by hop: its fill is nRanks - 2 hops of one
 * chunk (NCCL 2.28.9 src/device/broadcast.h and reduce.h runRing; src/include/collectives.h BROADCAST_/REDUCE_
 * CHUNKSTEPS = SLICESTEPS = 1, so a chunk is one slice of one step, buffSize / NCCL_STEPS = 4 MiB / 8 = 512 KiB;
 * src/device/prims_simple.h genericOp waits for the whole slice before it copies and posts it on).
 *
 * <p>Each case reads the fill off two large sizes of one (algorithm, protocol), where every term but the data is the
 * same: intercept = 2 t(S) - t(2S) = launch + latency + fill.
 */
class RootedRingFillTest {

    /** launchOverheadUs of the default performance parameters (PerformanceParameters.DEFAULTS). */
    private static final double LAUNCH_US = 1.5;

    private static double intercept(Collective c, int ranks, long bytes) throws Exception {
        Topology t = ClusterLoader.load("dgx-h100");
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
     * 2 GPUs of a DGX H100: one hop, the chunks stream, no fill. What is left is the launch (1.5 us) and the rooted
     * ring's latency, NCCL 2.30.7 src/graph/tuning.cc baseLat[Ring][Simple] 8.4 + nRanks 2 x hwLat[NVLINK][Tree][Simple]
     * 4.0 = 16.4 us (NcclTuningModel.rootedRingPipelineLatency). The generic fill charged before was one 512 KiB chunk
     * at 360 x 0.98 / 24 GB/s, 35.7 us more; measured on 2x H200 (NV18, NCCL 2.28.3), Broadcast 64 MiB took 208.24 us
     * (data/device/h200x2-2026-11-29/collsim-broadcast.txt, row 67108864), 67108864 B at the 366.7 GB/s the 8 GiB
     * row moves being 183.0 us: 25 us beside the data, no room for 35.7 us of fill on top of the latency.
     */
    @Test
    void twoRanksStreamWithoutFill() throws Exception {
        for (Collective c : new Collective[] {Collective.BROADCAST, Collective.REDUCE}) {
            assertEquals(LAUNCH_US + 8.4 + 2 * 4.0, intercept(c, 2, 256L << 20), 0.05, c.toString());
        }
    }

    /**
     * 8 GPUs of a DGX H100, 1 GiB: each of the 24 runtime channels carries 44.7 MiB, many chunks, so the fill is
     * 8 - 2 = 6 hops of one 512 KiB chunk at one channel's share of NCCL's ring: 12 channels x 30 GB/s (the
     * "Channels" line of {@code collsim predict -c dgx-h100}) = 360 GB/s, x 0.98 (bwEfficiencySimple) over the 24
     * runtime channels = 14.7 GB/s; 6 x 524288 B / 14.7 GB/s = 213.99 us. Latency: 8.4 + 8 x 4.0 = 40.4 us.
     */
    @Test
    void eightRanksSixChunkHops() throws Exception {
        double fill = 6 * 524288 / (1000.0 * 360 * 0.98 / 24);
        assertEquals(213.99, fill, 0.01);
        for (Collective c : new Collective[] {Collective.BROADCAST, Collective.REDUCE}) {
            assertEquals(LAUNCH_US + 8.4 + 8 * 4.0 + fill, intercept(c, 8, 1L << 30), 0.05, c.toString());
        }
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
