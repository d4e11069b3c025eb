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

/** The Ring's pipeline fill follows its steps per loop: a 2-rank ReduceScatter or AllGather has one step, no fill. */
class RingPipelineFillTest {

    private static Prediction predict(Collective c, int ranks, long bytes) throws Exception {
        Topology t = ClusterLoader.load("dgx-h100");
        return new NcclPredictor().predict(new PredictionRequest(t, t.gpus().subList(0, ranks), c, bytes,
                DataType.FLOAT, RedOp.SUM, NcclSettings.parse(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple"))));
    }

    /**
     * 2 GPUs of a DGX H100, 64 MiB: NCCL's ring graph is 12 channels x 30 GB/s = 360 GB/s busBw (the "Channels"
     * line of {@code collsim predict -c dgx-h100 -g 2}), algBw 360 x n/(n-1) = 720 GB/s; NCCL's estimate is its
     * latency plus 67108864 B / 720 GB/s. collsim adds the launch overhead (launchOverheadUs, 1.5 us) and moves data at
     * 0.98 x 1.036 of NCCL's bandwidth (bwEfficiencySimple, the link's factor over P2P write, RingFinalRecv):
     * 67108.864 x (1/(705.6 x 1.036) - 1/720) = -1.403 us. With one step per loop nothing fill is added, so time =
     * estimate + 1.5 - 1.403, plus the copy of the rank's 32 MiB piece that the loops' receive-only primitives cost
     * (RingFinalRecv): 33554432 / (2100 x 3350 / 4800 GB/s, the H100's local copy rate) = 22.894 us (about 128.0 us
     * against NCCL's 105.0; before, a whole step of fill, 95.1 us, was charged on top). Measured on 2x H200 (same NV18 NVLink, NCCL 2.28.3):
     * data/device/h200x2-2026-11-29/collsim-reduce_scatter.txt row 67108864, 161.83 us.
     */
    @Test
    void twoRanksOneStepNoFill() throws Exception {
        long bytes = 64L << 20;
        for (Collective c : new Collective[] {Collective.REDUCE_SCATTER, Collective.ALL_GATHER}) {
            Prediction p = predict(c, 2, bytes);
            assertEquals(Algorithm.RING, p.algorithm());
            double expected = p.ncclEstimateUs() + 1.5 + bytes / 1000.0 * (1 / (705.6 * 1.036) - 1 / 720.0)
                    + bytes / 2 / (1000.0 * 2100 * 3350 / 4800);
            assertEquals(expected, p.timeUs(), 0.05, p.toString());
        }
    }

    /**
     * Between nodes a Ring's fill is one network send, a slice, not the chunk of 2 slices (NCCL 2.28.9
     * src/device/prims_simple.h, src/transport/net.cc: one message per slice). 2 DGX H100 over InfiniBand, Ring/Simple
     * AllGather and ReduceScatter of 1 GiB on 16 ranks: the per-rank piece per channel, 1 GiB / (16 channels x 16
     * ranks) = 4 MiB, is above the chunk (NCCL_BUFFSIZE 4 MiB / NCCL_STEPS 8 x CHUNKSTEPS 4 = 2 MiB), so the fill is
     * one slice, 4 MiB / 8 x SLICESTEPS 2 = 1 MiB, at one channel's rate: a Hopper Ring channel between nodes moves the
     * one-node 20.7 GB/s ({@link RingChannelRate}), below its share of the ring graph (NCCL's 8 x 48 GB/s x 0.98 over
     * 16 runtime channels = 23.52 GB/s), 50.66 us (the chunk would be 101.3 us). NCCL's latency is its estimate at
     * 1 GiB less its bandwidth term, 2 est(1 GiB) - est(2 GiB) (a line); the data moves at the 16 channels' 16 x 20.7
     * GB/s busBw, x 16/15 algBw; InfiniBand adds no hop latency; launchOverheadUs 1.5.
     */
    @Test
    void betweenNodesOneSlice() throws Exception {
        Topology t = ClusterLoader.load("dgx-h100x2");
        NcclSettings ring = NcclSettings.parse(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple"));
        long bytes = 1L << 30;
        for (Collective c : new Collective[] {Collective.ALL_GATHER, Collective.REDUCE_SCATTER}) {
            Prediction p1 = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), c, bytes, DataType.FLOAT,
                    RedOp.SUM, ring));
            Prediction p2 = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), c, 2 * bytes,
                    DataType.FLOAT, RedOp.SUM, ring));
            assertEquals(Algorithm.RING, p1.algorithm());
            double busBw = 16 * 20.7;
            double fill = 1048576 / (1000.0 * busBw / 16);
            double expected = 1.5 + (2 * p1.ncclEstimateUs() - p2.ncclEstimateUs()) + fill
                    + bytes / (1000.0 * busBw * 16 / 15);
            assertEquals(50.66, fill, 0.01);
            assertEquals(expected, p1.timeUs(), 0.05, p1.toString());
        }
    }

    /**
     * Share of a step charged as fill: a Ring loop that forwards (S >= 2 steps: AllReduce 2 (n - 1), ReduceScatter
     * and AllGather n - 1; NCCL 2.30.7 src/device/all_reduce.h, reduce_scatter.h, all_gather.h runRing) pays one
     * step; one step per loop (2-rank ReduceScatter, AllGather) none; Broadcast and other algorithms one step.
     */
    @Test
    void shareFollowsStepsPerLoop() {
        assertEquals(0.0, RingLoopFill.share(Algorithm.RING, Collective.REDUCE_SCATTER, 2));
        assertEquals(0.0, RingLoopFill.share(Algorithm.RING, Collective.ALL_GATHER, 2));
        assertEquals(1.0, RingLoopFill.share(Algorithm.RING, Collective.ALL_REDUCE, 2));
        assertEquals(1.0, RingLoopFill.share(Algorithm.RING, Collective.ALL_GATHER, 8));
        assertEquals(1.0, RingLoopFill.share(Algorithm.RING, Collective.BROADCAST, 2));
        assertEquals(1.0, RingLoopFill.share(Algorithm.TREE, Collective.REDUCE_SCATTER, 2));
    }

    /** One network send of the chunk: half for Simple Ring AllReduce/AllGather/ReduceScatter between nodes, else 1. */
    @Test
    void netSendShareByHand() {
        assertEquals(0.5, RingLoopFill.netSendShare(Algorithm.RING, Protocol.SIMPLE, Collective.ALL_GATHER, 2));
        assertEquals(0.5, RingLoopFill.netSendShare(Algorithm.RING, Protocol.SIMPLE, Collective.ALL_REDUCE, 4));
        assertEquals(1.0, RingLoopFill.netSendShare(Algorithm.RING, Protocol.SIMPLE, Collective.ALL_GATHER, 1));
        assertEquals(1.0, RingLoopFill.netSendShare(Algorithm.RING, Protocol.LL128, Collective.ALL_GATHER, 2));
        assertEquals(1.0, RingLoopFill.netSendShare(Algorithm.RING, Protocol.SIMPLE, Collective.BROADCAST, 2));
        assertEquals(1.0, RingLoopFill.netSendShare(Algorithm.TREE, Protocol.SIMPLE, Collective.ALL_REDUCE, 2));
    }
}
