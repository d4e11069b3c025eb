package dev.collsim.validation.h200;

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
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NCCL_ALGO=Tree AllReduce on the 2x H200 (NV18) machine of issue 8: a chain of 2 ranks moves S each way, as a ring of
 * 2 does, so its measured busbw at 8 GiB (354.50 GB/s, out-of-place, the 8589934592 B row of the
 * "NCCL_ALGO=Tree" block of {@code data/device/h200x2-2026-11-29/collsim-sweep-NCCL_ALGO.txt}, read here) is
 * predicted within 10% (NCCL's table entry 232.2 GB/s was 34% low). NCCL's choice is not changed: without
 * NCCL_ALGO it is still Ring at 8 GiB (NCCL's table: Ring/Simple 360 x 1 against Tree/Simple 232.2).
 * Environment as in every run of that data: NCCL_NVLS_ENABLE=0, NCCL 2.28.
 */
class H200x2TreeChainTest {

    private static final Path DIR = Path.of("..", "data", "device", "h200x2-2026-11-29");
    private static final long SIZE = 8589934592L;

    private static Prediction predict(Map<String, String> extraEnv) throws Exception {
        Topology topo = ClusterLoader.read("nccl-topo-dump.xml",
                Files.readString(DIR.resolve("nccl-topo-dump.xml")));
        Map<String, String> env = new HashMap<>(extraEnv);
        env.put("NCCL_NVLS_ENABLE", "0");
        NcclPredictor p = new NcclPredictor(NcclVersion.parse("2.28"), PerformanceParameters.DEFAULTS);
        return p.predict(new PredictionRequest(topo, topo.gpus(), Collective.ALL_REDUCE, SIZE, DataType.FLOAT,
                RedOp.SUM, NcclSettings.parse(env)));
    }

    private static double measuredTreeBusBw() throws Exception {
        List<String> lines = Files.readAllLines(DIR.resolve("collsim-sweep-NCCL_ALGO.txt"));
        boolean inBlock = false;
        for (String l : lines) {
            if (l.startsWith("# collsim settings:")) {
                inBlock = l.trim().equals("# collsim settings: NCCL_ALGO=Tree");
            } else if (inBlock && !l.startsWith("#")) {
                String[] f = l.trim().split("\\s+");
                if (f.length > 7 && f[0].equals(Long.toString(SIZE))) {
                    return Double.parseDouble(f[7]);
                }
            }
        }
        throw new AssertionError("no 8 GiB row for NCCL_ALGO=Tree");
    }

    @Test
    void treeChainOfTwoRunsAtTheMeasuredRingLikeBandwidth() throws Exception {
        double measured = measuredTreeBusBw();
        assertTrue(measured > 300 && measured < 400, "file read wrong: " + measured);
        Prediction p = predict(Map.of("NCCL_ALGO", "Tree"));
        assertEquals(Algorithm.TREE, p.algorithm(), p.toString());
        assertEquals(measured, p.busBw(), 0.10 * measured, p.toString());
    }

    @Test
    void defaultChoiceAtEightGibStaysRing() throws Exception {
        assertEquals(Algorithm.RING, predict(Map.of()).algorithm());
    }
}
