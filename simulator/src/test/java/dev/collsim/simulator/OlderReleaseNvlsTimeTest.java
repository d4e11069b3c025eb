package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An older release's NVLS entry decides NCCL's choice and estimate; collsim's time of the NVLS call reads 2.28.9's
 * figures (TimeTable, docs/nccl-releases.md).
 */
class OlderReleaseNvlsTimeTest {

    private static Prediction nvls(NcclVersion v, long bytes) {
        Topology t = TestClusters.cluster(TestClusters.DGX_H100, 1);
        return new NcclPredictor(v, PerformanceParameters.DEFAULTS).predict(new PredictionRequest(t, t.gpus(),
                Collective.ALL_REDUCE, bytes, DataType.FLOAT, RedOp.SUM, NcclSettings.parse(Map.of("NCCL_ALGO",
                "NVLS"))));
    }

    /**
     * NCCL_ALGO=NVLS AllReduce of 1 GiB on one DGX H100, whose NVLS graph is 8 channels x bwIntra 40 GB/s (bwInter 60;
     * the fact sheet's 8x H100 example). NCCL's estimate: 2.18.5 23 us + 2^30 B / (8 x 40 x 5/6 = 266.67 GB/s) =
     * 23 + 4026.53 = 4049.53 us (v2.18.5-1 lines 59, 174, 197); 2.28.9 25 us + 2^30 / (8 x 59.5 x 8/14 = 272 GB/s) =
     * 25 + 3947.58 = 3972.58 us (v2.28.9-1 lines 153, 290-299, 348). collsim's predicted time is the same under both:
     * it reads 2.28.9's NVLS figures for 2.18.
     */
    @Test
    void estimateIsTheReleasesTimeIsNot() {
        long gib = 1L << 30;
        Prediction old = nvls(NcclVersion.V2_18_5, gib);
        Prediction newer = nvls(NcclVersion.V2_28_9, gib);
        assertEquals(Algorithm.NVLS, old.algorithm());
        assertEquals(4049.53, old.ncclEstimateUs(), 0.01);
        assertEquals(3972.58, newer.ncclEstimateUs(), 0.01);
        assertEquals(newer.timeUs(), old.timeUs(), 1e-9);
    }
}
