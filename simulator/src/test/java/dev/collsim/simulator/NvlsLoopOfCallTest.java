package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.perf.NvlsLoop;
import dev.collsim.simulator.schedule.HierarchicalSchedule;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * NCCL's NVLS loop of a call as the predictor hands it to the flow backend ({@link CollectivePredictor#nvlsLoop}):
 * NCCL's chunk ({@code src/enqueue.cc calcCollChunking}, NVLSTree branch), the NVLS heads and the per-iteration
 * cost, the figures the analytical time charges (NvlsLoop), and the schedule FlowChoice builds from it.
 */
class NvlsLoopOfCallTest {

    private static Optional<NvlsLoop.Call> loop(String cluster, long size, Map<String, String> env) throws Exception {
        Topology t = ClusterLoader.load(cluster);
        NcclPredictor p = new NcclPredictor();
        PredictionRequest r = new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, size, DataType.FLOAT,
                RedOp.SUM, NcclSettings.parse(env));
        return p.nvlsLoop(r, p.predict(r));
    }

    /**
     * 4 DGX H100 (8 NICs, 8 NVLS heads per node), NVLSTree with 16 channels (ops = 128): NCCL starts from
     * min(NCCL_NVLS_CHUNKSIZE 128 KiB, treeMax 64 KiB on 4 or more nodes) = 64 KiB; the 256/128/64 KiB steps leave
     * it; 32 KiB below 1 x ops x 64 KiB = 8 MiB. Hopper's loop cost 5.0 us (PerformanceParameters nvlsLoopUs).
     * 2 nodes: treeMax is the chunk, 128 KiB, at 4 GiB.
     */
    @Test
    void nvlsTreeChunkIsNcclsOfTheCall() throws Exception {
        Map<String, String> nvlsTree = Map.of("NCCL_ALGO", "NVLSTree");
        assertEquals(new NvlsLoop.Call(64 << 10, 8, 5.0), loop("dgx-h100x4", 256L << 20, nvlsTree).orElseThrow());
        assertEquals(new NvlsLoop.Call(32 << 10, 8, 5.0), loop("dgx-h100x4", 4L << 20, nvlsTree).orElseThrow());
        assertEquals(new NvlsLoop.Call(128 << 10, 8, 5.0), loop("dgx-h100x2", 4L << 30, nvlsTree).orElseThrow());
    }

    /** Ring moves no NVLS loop: nothing to hand over. */
    @Test
    void ringHasNoNvlsLoop() throws Exception {
        assertTrue(loop("dgx-h100x4", 1L << 30, Map.of("NCCL_ALGO", "Ring")).isEmpty());
    }

    /**
     * NVLSTree gets the tree between hosts in NCCL's loop (8 heads x 64 KiB per channel, 3.2 us a step); CollNet and
     * NVLS keep rings; without a loop, NCCL_NVLS_CHUNKSIZE's default and no step cost.
     */
    @Test
    void flowChoiceBuildsNcclsHierarchicalSchedule() {
        Optional<NvlsLoop.Call> l = Optional.of(new NvlsLoop.Call(64 << 10, 8, 3.2));
        assertEquals(new HierarchicalSchedule(8 * 65_536L, true, 3.2),
                FlowChoice.ncclHierarchical(Algorithm.NVLS_TREE, l));
        assertEquals(new HierarchicalSchedule(8 * 65_536L, false, 3.2),
                FlowChoice.ncclHierarchical(Algorithm.NVLS, l));
        assertEquals(new HierarchicalSchedule(), FlowChoice.ncclHierarchical(Algorithm.COLLNET_DIRECT,
                Optional.empty()));
    }
}
