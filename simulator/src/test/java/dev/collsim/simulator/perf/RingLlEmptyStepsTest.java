package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A tiny one-host Ring LL AllReduce waits only for the steps its rank-chunks with data need, one call after another
 * ({@link RingLlEmptySteps}): {@code min(2 (n - 1), 2 n - n / ceil(k / 2))} steps for k chunks with data of n. Hand
 * values from NCCL 2.30.7 {@code src/graph/tuning.cc} (Ring LL baseLat 6.6 us, hwLat[NVLINK][Ring][LL] 0.6 us; the
 * same in v2.18.5-1), collsim's {@code launchOverheadUs} 1.5 us and the A100 step of {@link NvlinkLlHop} 1.13 us,
 * plus the data of the call's one channel at collsim's Ampere LL cap (12 GB/s bus bandwidth, nBytes / (1000 x 12 x
 * 8 / 14) us on 8 ranks), which adds to the steps; one GPU per process. Floats: a chunk of v2.22.3-1 on is {@code alignUp(divUp(count, n), 4)} elements (16 bytes).
 */
class RingLlEmptyStepsTest {

    private static double predictUs(NcclPredictor predictor, String cluster, long bytes) throws Exception {
        Topology t = ClusterLoader.load(cluster);
        return predictor.predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, bytes, DataType.FLOAT,
                RedOp.SUM, NcclSettings.parse(Map.of("NCCL_ALGO", "Ring", "NCCL_PROTO", "LL")))).timeUs();
    }

    private static double predictUs(String cluster, long bytes) throws Exception {
        return predictUs(new NcclPredictor(), cluster, bytes);
    }

    /**
     * 8 A100s: 16 B is one chunk (4 floats), 8 steps: 1.5 + 6.6 + 8 x 1.13 + 0.002 = 17.14 us (measured 17.90 / 17.77,
     * thanos run 2, A-allreduce-1x8xA100-80GB-sxm-thanos-g8-vs-mpirun-sweep.txt 16-byte row); 64 B four chunks, 16 -
     * 8 / 2 = 12 steps: 21.67 us (measured 22.30 / 23.21); 128 B all eight, 14 steps: 23.94 us (measured 23.91 /
     * 24.08).
     */
    @Test
    void a100StepsFollowTheChunksWithData() throws Exception {
        assertEquals(17.14, predictUs("dgx-a100", 16), 17.14 * 0.002);
        assertEquals(21.67, predictUs("dgx-a100", 64), 21.67 * 0.002);
        assertEquals(23.94, predictUs("dgx-a100", 128), 23.94 * 0.002);
    }

    /**
     * 8 H100s keep NCCL's 0.6 us step: 8 B one chunk, 1.5 + 6.6 + 8 x 0.6 = 12.9 us (measured 13.67 / 13.00 us at 8
     * and 16 B, A-allreduce-1x8xH100-dgx-nvidia-dgxc-benchmarking-nccl-recipe.txt); 64 B four chunks, 12 steps: 15.3
     * us (measured 14.92).
     */
    @Test
    void h100StepsFollowTheChunksWithData() throws Exception {
        assertEquals(12.9, predictUs("dgx-h100", 8), 12.9 * 0.002);
        assertEquals(15.3, predictUs("dgx-h100", 64), 15.3 * 0.002);
    }

    /**
     * NCCL 2.18.5 rounds a chunk up to 8 bytes a thread of the call ({@code all_reduce.h} minChunkSize), the threads
     * halved from 512 while nBytes < 512 x ... x 64 and a multiple of 128, then at least 96 ({@code getAlgoInfo}):
     * 512 B runs 96 threads, a 768-byte chunk, so one chunk holds it all: 8 steps, 1.5 + 6.6 + 8 x 1.13 + 0.07 =
     * 17.21 us; 4 KiB runs 96 threads too (4096 < 128 x 64), chunks of 768 B, ceil(4096 / 768) = 6 with data: 16 -
     * 8 / 3 = 13.33 steps, 1.5 + 6.6 + 13.333 x 1.13 + 0.60 = 23.76 us; 8 KiB runs 128 threads, 1024-byte chunks, all 8 with data: 1.5 + 6.6 + 14 x
     * 1.13 + 1.19 = 25.11 us.
     */
    @Test
    void nccl218RoundsChunksToItsThreads() throws Exception {
        NcclPredictor v218 = new NcclPredictor(NcclVersion.V2_18_5, PerformanceParameters.DEFAULTS);
        assertEquals(17.21, predictUs(v218, "dgx-a100", 512), 17.21 * 0.002);
        assertEquals(23.76, predictUs(v218, "dgx-a100", 4096), 23.76 * 0.002);
        assertEquals(25.11, predictUs(v218, "dgx-a100", 8192), 25.11 * 0.002);
    }

    /**
     * Byte by byte from 4 to 400 B (past 8 x 16 B, where NCCL's own count of chunks with data dips: 132 B of floats
     * fills 5 chunks of 32 B) the time never falls, under both chunk rules.
     */
    @Test
    void neverFasterAsSizeGrowsByteByByte() throws Exception {
        for (NcclPredictor predictor : new NcclPredictor[] {new NcclPredictor(),
                new NcclPredictor(NcclVersion.V2_18_5, PerformanceParameters.DEFAULTS)}) {
            double previous = 0;
            for (long bytes = 4; bytes <= 400; bytes += 4) {
                double us = predictUs(predictor, "dgx-a100", bytes);
                assertTrue(us >= previous - 1e-9, bytes + " B: " + us + " us after " + previous);
                previous = us;
            }
        }
    }
}
