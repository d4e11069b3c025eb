package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/** NCCL_MAX_NCHANNELS and NCCL_NTHREADS move the prediction the way the hardware does. */
class ChannelAndThreadSettingsTest {

    private static Prediction predict(String cluster, long bytes, Map<String, String> env) throws Exception {
        Topology t = ClusterLoader.load(cluster);
        return new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, bytes,
                DataType.FLOAT, RedOp.SUM, NcclSettings.parse(env)));
    }

    /**
     * DGX A100 (24 runtime channels, ChannelSearchTest.dgxA100SingleHost): with NCCL_MAX_NCHANNELS=16 the Ring
     * still has 16 x 24.0 GB/s (Ampere Simple cap) = 384 GB/s of channel throughput against NCCL's 240 GB/s link
     * figure, so the bandwidth term is the same, and fewer channels must not come out faster (the one-chunk
     * pipeline fill is charged over at least the default 24 channels). At 1 GiB the two times are equal to
     * rounding; with 8 channels (8 x 24 = 192 < 240) the call is slower.
     */
    @Test
    void fewerChannelsAreNeverFaster() throws Exception {
        Map<String, String> ring = Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple");
        for (long bytes : new long[] {64L << 20, 1L << 30}) {
            Prediction dflt = predict("dgx-a100", bytes, ring);
            Prediction sixteen = predict("dgx-a100", bytes, Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple",
                    "NCCL_MAX_NCHANNELS", "16"));
            Prediction eight = predict("dgx-a100", bytes, Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple",
                    "NCCL_MAX_NCHANNELS", "8"));
            assertEquals(24, dflt.nChannels());
            assertEquals(16, sixteen.nChannels());
            assertTrue(sixteen.timeUs() >= dflt.timeUs() * (1 - 1e-12), sixteen + " vs " + dflt);
            assertTrue(eight.timeUs() > sixteen.timeUs(), eight + " vs " + sixteen);
        }
    }

    /**
     * One DGX H100, Ring/Simple AllReduce of 1 GiB on 24 channels: the Hopper Simple cap 20.7 GB/s per channel was
     * measured at NCCL's default 512 threads; NCCL_NTHREADS=128 leaves a quarter of the threads, so 24 x 20.7 x
     * 128/512 = 124.2 GB/s busbw at most (below the ring's NVLink figure), and 256 threads 248.4.
     */
    @Test
    void fewerThreadsLowerThePerChannelRate() throws Exception {
        Prediction t128 = predict("dgx-h100", 1L << 30, Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple",
                "NCCL_NTHREADS", "128"));
        Prediction t256 = predict("dgx-h100", 1L << 30, Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple",
                "NCCL_NTHREADS", "256"));
        Prediction t512 = predict("dgx-h100", 1L << 30, Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "Simple"));
        assertEquals(Algorithm.RING, t128.algorithm());
        assertEquals(24, t128.nChannels());
        assertTrue(t128.busBw() <= 124.2 && t128.busBw() > 124.2 * 0.97, t128.toString());
        assertTrue(t256.busBw() <= 248.4 && t256.busBw() > t128.busBw(), t256.toString());
        assertTrue(t512.busBw() >= t256.busBw(), t512.toString());
    }
}
