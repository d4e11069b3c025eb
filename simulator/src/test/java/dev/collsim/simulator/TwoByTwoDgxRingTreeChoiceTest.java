package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NCCL 2.30.7's own choice for AllReduce on GPUs 0 and 1 of each of 2 DGX H100 hosts (as
 * A-allreduce-2x2xH100-dgx-ib.txt lines 14-17), around 256 MiB, where its Ring/Simple and Tree/Simple estimates sit
 * 0.4 % apart. Graphs as {@code channel.TreePatternTest} works them out: ring 4 x 24 GB/s, tree a plain tree
 * (pattern 3) of 4 x 48/24 GB/s; nNodes 2, nRanks 4, ppn 2, Intel x86, Hopper N2. Worked by hand from NCCL
 * v2.30.7-1 {@code src/graph/tuning.cc} (ncclTopoTuneModel lines 259-430, ncclTopoGetAlgoTime lines 630-660):
 * <ul>
 *   <li>Tree/Simple: bw is bwIntra for nNodes &lt;= 2 (line 306): 4 x 48 = 192, x .92 = 176.64 capped at
 *       4 x perChMaxTreeBw 41.4 = 165.6 (line 331), plain tree x .85 = 140.76 (line 336), ratio .5 = 70.38 GB/s;
 *       latency base 8.4 + 2 x (1 x NVLink 4.0 + log2(2) x NET 14) = 44.4 us (line 416);
 *       treeCorrectionFactor[Simple][log2(nBytes / 64)] = .9 at 128 MiB (21) and 256 MiB (22), none at 512 MiB
 *       (23, not &lt; 23, line 640).</li>
 *   <li>Ring/Simple: 4 x 24 = 96 x nRanks / nsteps 4 / 6 = 64 GB/s; latency 8.4 + (6 - 2) x max(NVLink 3.4, Intel
 *       net overhead 1.0 x 3) + 2 x 14 = 50.0 us (lines 396-413), x 1.4 ring plateau (line 649) = 70.0 us.</li>
 * </ul>
 * So 128 MiB: Tree 2163.34 against Ring 2167.15 us; 256 MiB: Ring 4264.30 against Tree 4282.27 us; 512 MiB Tree
 * 7672.57 against Ring 8458.61 us. {@code src/enqueue.cc} topoGetAlgoInfo takes the strictly smallest time; NVLSTree
 * (5001 us at 256 MiB) and PAT (not for AllReduce) do not take part.
 */
class TwoByTwoDgxRingTreeChoiceTest {

    private static Prediction allReduce(long bytes, Map<String, String> env) {
        Topology t = TestClusters.dgxH100(2, null);
        List<Gpu> ranks = List.of(t.gpus().get(0), t.gpus().get(1), t.gpus().get(8),
                t.gpus().get(9));
        NcclPredictor p = new NcclPredictor(NcclVersion.V2_30_7, PerformanceParameters.DEFAULTS);
        PreparedCommunicator c = p.prepare(t, ranks, NcclSettings.parse(env));
        return c.call(Collective.ALL_REDUCE, bytes, DataType.FLOAT, RedOp.SUM).predict(PerformanceParameters.DEFAULTS);
    }

    @Test
    void ringSimpleWinsAt256MiBByItsLowerLatency() {
        Prediction p = allReduce(256L << 20, Map.of());
        assertEquals(Algorithm.RING, p.algorithm());
        assertEquals(Protocol.SIMPLE, p.protocol());
        assertEquals(4264.30, p.ncclEstimateUs(), 0.01);
    }

    @Test
    void treeSimpleIsSlowerAt256MiBInNcclsTable() {
        Prediction p = allReduce(256L << 20, Map.of("NCCL_ALGO", "Tree", "NCCL_PROTO", "Simple"));
        assertEquals(Algorithm.TREE, p.algorithm());
        assertEquals(4282.27, p.ncclEstimateUs(), 0.01);
    }

    @Test
    void treeSimpleWinsAt128And512MiB() {
        Prediction at128 = allReduce(128L << 20, Map.of());
        assertEquals(Algorithm.TREE, at128.algorithm());
        assertEquals(2163.34, at128.ncclEstimateUs(), 0.01);
        Prediction at512 = allReduce(512L << 20, Map.of());
        assertEquals(Algorithm.TREE, at512.algorithm());
        assertEquals(7672.57, at512.ncclEstimateUs(), 0.01);
    }
}
