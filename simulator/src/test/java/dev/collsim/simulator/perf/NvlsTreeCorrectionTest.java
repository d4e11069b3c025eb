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
import org.junit.jupiter.api.Test;

/**
 * NCCL 2.30.7 multiplies NVLSTree AllReduce bandwidth on sm100+ x86 hosts by its tree correction
 * ({@code src/graph/tuning.cc ncclTopoGetAlgoTime}, treeCorrectionFactor[Simple]: 0.8 at 8 MiB, 0.7 at 16 and
 * 32 MiB, 0.8 at 64 MiB, 0.9 at 128-512 MiB); collsim's time carries the mid-size shortfall through the NVLSTree
 * pipeline fill instead, so it takes NCCL's bandwidth whole.
 */
class NvlsTreeCorrectionTest {

    private static Prediction allReduce(String cluster, long bytes) throws Exception {
        Topology t = ClusterLoader.load(cluster);
        return new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, bytes,
                DataType.FLOAT, RedOp.SUM, NcclSettings.DEFAULTS));
    }

    /**
     * 4 x 8 B200 (hgx-b200x4, 8 x 400 Gb/s per host), 64 MiB: NCCL runs NVLSTree. NCCL's NVLSTree bus bandwidth is
     * 8 graph channels x min(intraBw, interBw 48) = 384 GB/s (intraBw = 80 x 0.74 x 7/8 x 2 = 103.6), x
     * bwEfficiencySimple 0.98 = 376.32 GB/s, the link figure the bottleneck names; with the correction it was
     * 0.8 x 376.32 = 301.06. The busbw then does not fall below the 179.72 GB/s of Ring/LL128 that NCCL runs at
     * 32 MiB (it fell to 158.29). The bottleneck is read at 256 MiB, still NVLSTree (0.9 x 376.32 with the correction),
     * where the data outlasts the latency: at 64 MiB the latency term (NCCL's, the fill and the 72 us of sends beyond 16
     * channels, {@link NvlsTreePosts}) is half the time.
     */
    @Test
    void blackwellNvlsTreeTakesNcclsBandwidthWhole() throws Exception {
        Prediction at64 = allReduce("hgx-b200x4", 64L << 20);
        Prediction at32 = allReduce("hgx-b200x4", 32L << 20);
        Prediction at256 = allReduce("hgx-b200x4", 256L << 20);
        assertEquals(Algorithm.NVLS_TREE, at64.algorithm(), at64.toString());
        assertEquals(Algorithm.NVLS_TREE, at256.algorithm(), at256.toString());
        assertTrue(at256.bottleneck().contains("NVLSTree graph 376.3 GB/s"), at256.bottleneck());
        assertTrue(at64.busBw() >= at32.busBw(), at32 + " -> " + at64);
        double prev = 0;
        for (long bytes = 8L << 20; bytes <= 2L << 30; bytes *= 2) {
            Prediction p = allReduce("hgx-b200x4", bytes);
            assertTrue(p.busBw() >= prev, bytes + " B: " + p);
            prev = p.busBw();
        }
    }
}
