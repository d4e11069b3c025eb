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

    /**
     * One DGX H100, NVLS AllReduce of 8 GiB: NCCL_NVLS_NCHANNELS=4 leaves 4 NVLS channels of 29.93 GB/s each (the
     * Hopper NVLS per-channel figure, 478.9 GB/s / 16 channels measured on 8x H100, ND H100 v5), so busbw <= 4 x
     * 29.93 = 119.72; NCCL's default 16 channels allow 478.9, above NCCL's own NVLS figure, so there the
     * prediction is NCCL's bandwidth (over 400 GB/s).
     */
    @Test
    void nvlsChannelsMatter() throws Exception {
        Prediction four = predict("dgx-h100", 8L << 30, Map.of("NCCL_ALGO", "NVLS", "NCCL_NVLS_NCHANNELS", "4"));
        Prediction dflt = predict("dgx-h100", 8L << 30, Map.of("NCCL_ALGO", "NVLS"));
        assertEquals(Algorithm.NVLS, four.algorithm());
        assertEquals(4, four.nChannels());
        assertTrue(four.busBw() <= 119.72 && four.busBw() > 119.72 * 0.98, four.toString());
        assertEquals(16, dflt.nChannels());
        assertTrue(dflt.busBw() > 400 && dflt.busBw() <= 478.9, dflt.toString());
    }
}
