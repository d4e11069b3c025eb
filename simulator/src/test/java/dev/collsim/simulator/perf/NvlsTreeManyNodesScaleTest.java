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
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * collsim's Hopper NVLS scale is not applied to NCCL's NVLSTree entry between 3 or more nodes
 * ({@link PerformanceParameters#nvlsBwScale(GpuGeneration, Algorithm, int)}). Figures worked out by hand from NCCL
 * 2.28.9 {@code src/graph/tuning.cc}: index2 = nNodes &lt;= 2 ? nNodes - 1 : 2 (line 250); perChMaxNVLSTreeBws for
 * Hopper {0.0, 57.7, 45.5} (line 196); the NVLSTree per-head bandwidth min(intraBw, interBw, that cap), where on a DGX
 * H100 the NVLS graph is 8 heads x 40/48 GB/s, so intraBw = 40 x 0.85 x 7/8 x 2 = 59.5 and interBw = 48 x 2 = 96 on 2
 * nodes, 48 on more (line 298): the cap binds, 8 x 45.5 = 364 GB/s busbw on 3 or more nodes and 8 x 57.7 = 461.6 on
 * two; collsim's Simple efficiency 0.98 on both and its Hopper scale 1.10 on the two-node entry only:
 * 356.72 and 497.59 GB/s.
 */
class NvlsTreeManyNodesScaleTest {

    private static final Pattern GRAPH = Pattern.compile("NVLSTree graph ([0-9.]+) GB/s busBw");

    private static double graphBusBw(String cluster) throws Exception {
        Topology t = ClusterLoader.load(cluster);
        NcclPredictor predictor = new NcclPredictor(NcclVersion.V2_28_9, PerformanceParameters.DEFAULTS);
        Prediction p = predictor.predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, 512L << 20,
                DataType.FLOAT, RedOp.SUM, NcclSettings.parse(Map.of("NCCL_ALGO", "NVLSTree"))));
        assertEquals(Algorithm.NVLS_TREE, p.algorithm(), p.toString());
        Matcher m = GRAPH.matcher(p.bottleneck());
        assertTrue(m.find(), p.bottleneck());
        return Double.parseDouble(m.group(1));
    }

    /** NCCL's column boundary: nNodes 3 and more read the N4 column, 2 the N2 one, 1 has no NVLSTree. */
    @Test
    void scaleFollowsNcclsNodeColumn() {
        PerformanceParameters pp = PerformanceParameters.DEFAULTS;
        double fitted = pp.nvlsBwScale(GpuGeneration.HOPPER);
        assertEquals(1.10, fitted, 1e-12);
        assertEquals(fitted, pp.nvlsBwScale(GpuGeneration.HOPPER, Algorithm.NVLS_TREE, 2), 0.0);
        assertEquals(fitted, pp.nvlsBwScale(GpuGeneration.HOPPER, Algorithm.NVLS, 1), 0.0);
        for (int nodes : new int[] {3, 4, 8, 64}) {
            assertEquals(1.0, pp.nvlsBwScale(GpuGeneration.HOPPER, Algorithm.NVLS_TREE, nodes), 0.0);
        }
    }

    /** 8 x 8 and 3 x 8 DGX H100: 8 x 45.5 x 0.98; 2 x 8: 8 x 57.7 x 0.98 x 1.10 (class comment). */
    @Test
    void dgxH100NvlsTreeEntries() throws Exception {
        assertEquals(356.72, graphBusBw("dgx-h100x8"), 0.05);
        assertEquals(356.72, graphBusBw("dgx-h100x3"), 0.05);
        assertEquals(497.59, graphBusBw("dgx-h100x2"), 0.05);
    }
}
