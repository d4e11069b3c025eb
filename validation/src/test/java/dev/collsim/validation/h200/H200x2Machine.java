package dev.collsim.validation.h200;

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

/**
 * The 2x H200 (NV18) machine whose runs are in {@code data/device/h200x2-2026-11-29}, for the tests of this package:
 * its NCCL topology dump, the environment of every run there (NCCL 2.28, NCCL_NVLS_ENABLE=0) and the measured 8 GiB
 * AllReduce busbw of one settings block of a {@code collsim run} sweep file.
 */
final class H200x2Machine {

    /** The folder of the machine's files. */
    static final Path DIR = Path.of("..", "data", "device", "h200x2-2026-11-29");

    /** The size every check here uses: 8 GiB, bytes. */
    static final long SIZE = 8589934592L;

    private H200x2Machine() {
    }

    /**
     * @param extraEnv NCCL settings on top of the runs' NCCL_NVLS_ENABLE=0
     * @return collsim's uncalibrated float sum AllReduce prediction of {@link #SIZE} on both GPUs, NCCL 2.28
     */
    static Prediction predict(Map<String, String> extraEnv) throws Exception {
        return predict(extraEnv, SIZE);
    }

    /**
     * @param extraEnv NCCL settings on top of the runs' NCCL_NVLS_ENABLE=0
     * @param size     bytes
     * @return collsim's uncalibrated float sum AllReduce prediction of {@code size} on both GPUs, NCCL 2.28
     */
    static Prediction predict(Map<String, String> extraEnv, long size) throws Exception {
        Topology topo = ClusterLoader.read("nccl-topo-dump.xml", Files.readString(DIR.resolve("nccl-topo-dump.xml")));
        Map<String, String> env = new HashMap<>(extraEnv);
        env.put("NCCL_NVLS_ENABLE", "0");
        NcclPredictor p = new NcclPredictor(NcclVersion.parse("2.28"), PerformanceParameters.DEFAULTS);
        return p.predict(new PredictionRequest(topo, topo.gpus(), Collective.ALL_REDUCE, size, DataType.FLOAT,
                RedOp.SUM, NcclSettings.parse(env)));
    }

    /**
     * @param file     a sweep file of the folder, e.g. {@code collsim-sweep-NCCL_ALGO.txt}
     * @param settings the block's settings label, e.g. {@code NCCL_ALGO=Tree}
     * @return the out-of-place busbw (column 8, GB/s) of the {@link #SIZE} row in the block headed
     *         {@code # collsim settings: <settings>}
     */
    static double measuredBusBw(String file, String settings) throws Exception {
        List<String> lines = Files.readAllLines(DIR.resolve(file));
        boolean inBlock = false;
        for (String l : lines) {
            if (l.startsWith("# collsim settings:")) {
                inBlock = l.trim().equals("# collsim settings: " + settings);
            } else if (inBlock && !l.startsWith("#")) {
                String[] f = l.trim().split("\\s+");
                if (f.length > 7 && f[0].equals(Long.toString(SIZE))) {
                    return Double.parseDouble(f[7]);
                }
            }
        }
        throw new AssertionError("no 8 GiB row for " + settings + " in " + file);
    }
}
