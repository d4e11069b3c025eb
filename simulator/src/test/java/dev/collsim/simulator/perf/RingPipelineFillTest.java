package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
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
     * latency plus 67108864 B / 720 GB/s. collsim adds the launch overhead (launchOverheadUs, 1.0 us) and moves data at 0.98 of NCCL's
     * bandwidth (bwEfficiencySimple): 67108.864 x (1/705.6 - 1/720) = 1.902 us more. With one step per loop nothing
     * else is added, so time = estimate + 1.0 + 1.902 (about 107.9 us against NCCL's 105.0; before, a whole step of
     * fill, 95.1 us, was charged on top). Measured on 2x H200 (same NV18 NVLink, NCCL 2.28.3):
     * data/device/h200x2-2026-11-29/collsim-reduce_scatter.txt row 67108864, 161.83 us.
     */
    @Test
    void twoRanksOneStepNoFill() throws Exception {
        long bytes = 64L << 20;
        for (Collective c : new Collective[] {Collective.REDUCE_SCATTER, Collective.ALL_GATHER}) {
            Prediction p = predict(c, 2, bytes);
            assertEquals(Algorithm.RING, p.algorithm());
            double expected = p.ncclEstimateUs() + 1.0 + bytes / 1000.0 * (1 / 705.6 - 1 / 720.0);
            assertEquals(expected, p.timeUs(), 0.05, p.toString());
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
}
