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
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** collsim's calibratable correction of NCCL's NVLS bandwidth, per GPU generation. */
class NvlsBwScaleTest {

    private static Prediction nvls(PerformanceParameters pp) throws Exception {
        Topology t = ClusterLoader.load("dgx-h100");
        return new NcclPredictor(NcclVersion.DEFAULT, pp).predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, 8L << 30,
                DataType.FLOAT, RedOp.SUM, NcclSettings.parse(Map.of("NCCL_ALGO", "NVLS"))));
    }

    /**
     * One DGX H100: NCCL's NVLS AllReduce figure is 476 GB/s busbw (fact sheet §2 worked example, 272 GB/s algbw),
     * times the Simple efficiency 0.98 = 466.5; a Hopper scale of 0.5 halves it to 233.24 GB/s (8 GiB, latency
     * under 0.1 %; no loop cost). The Blackwell entry leaves a Hopper prediction alone.
     */
    @Test
    void scaleMultipliesNcclsNvlsBandwidthOfItsGeneration() throws Exception {
        PerformanceParameters d = PerformanceParameters.DEFAULTS;
        PerformanceParameters half = withScale(d, List.of(1.0, 1.0, 0.5, 1.0));
        Prediction p = nvls(half);
        assertEquals(Algorithm.NVLS, p.algorithm());
        assertTrue(p.busBw() <= 476 * 0.98 * 0.5 && p.busBw() > 476 * 0.98 * 0.5 * 0.99, p.toString());
        Prediction other = nvls(withScale(d, List.of(1.0, 1.0, 1.0, 1.3)));
        assertEquals(nvls(withScale(d, List.of(1.0, 1.0, 1.0, 1.0))).timeUs(), other.timeUs(), 1e-9);
    }

    /** The defaults with another NVLS scale and no NVLS loop cost (NvlsLoopTest covers it). */
    private static PerformanceParameters withScale(PerformanceParameters d, List<Double> scale) {
        return new PerformanceParameters(d.launchOverheadUs(), d.latencyScale(), d.bwEfficiencyLL(),
                d.bwEfficiencyLL128(), d.bwEfficiencySimple(), d.perChannelCapLL(), d.perChannelCapLL128(),
                d.perChannelCapSimple(), d.pipelineFillChunks(), d.p2pBaseLatencyUs(), d.localCopyGBps(),
                d.netStepUs(), d.perChannelCapNvls(), scale, d.netClasses(),
                List.of(0.0, 0.0, 0.0, 0.0), 1.0, 1.0, 1.0);
    }
}
