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
 * The per-channel (one CTA) LL128 rate on Ampere, 7.0 GB/s of bus bandwidth ({@link PerformanceParameters}): on a
 * one-host 8x A100 Ring AllReduce with NCCL_PROTO=LL128 on NCCL's 24 runtime channels, the data moves at 24 x 7.0 =
 * 168 GB/s busbw, under NCCL's 0.92 x 240 x 0.96 (bwEfficiencyLL128) = 212.0 that bound it before.
 */
class AmpereLl128ChannelCapTest {

    private static Prediction ll128(long bytes) {
        Topology t = ClusterLoader.load("dgx-a100");
        return new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, bytes,
                DataType.FLOAT, RedOp.SUM, NcclSettings.parse(Map.of("NCCL_PROTO", "LL128"))));
    }

    /**
     * 8 -> 16 MiB adds 2 x 7/8 x 8388608 = 14680064 bytes of bus traffic, 14680064 / 168e3 = 87.381 us at 168 GB/s,
     * plus the one-host fill's growth (2 / nRanks of a per-rank slot, {@link IntraNodeFill}): the slot grows from
     * 8388608 / 192 to 16777216 / 192 bytes, 43690.7 bytes x 2 / 8 / 7.0e3 = 1.560 us; 88.94 us in all. With the
     * former cap (20 x 24 = 480, not binding) the step was 14680064 / 212.0e3 = 69.2 us plus its fill. Measured on
     * thanos, mpirun (A-allreduce-1x8xA100-80GB-sxm-thanos-g8-vs-mpirun-sweep.txt run 2): 213.3 - 130.6 = 82.7 us.
     */
    @Test
    void eightA100Ll128StepRate() {
        Prediction eight = ll128(8L << 20);
        Prediction sixteen = ll128(16L << 20);
        assertEquals(Algorithm.RING, sixteen.algorithm(), sixteen.toString());
        assertEquals(Protocol.LL128, sixteen.protocol(), sixteen.toString());
        assertEquals(24, sixteen.nChannels(), sixteen.toString());
        assertEquals(24, eight.nChannels(), eight.toString());
        assertEquals(87.381 + 1.560, sixteen.timeUs() - eight.timeUs(), 0.05,
                () -> "16 MiB " + sixteen + " minus 8 MiB " + eight);
    }
}
