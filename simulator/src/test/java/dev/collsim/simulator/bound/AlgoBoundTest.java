package dev.collsim.simulator.bound;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.OwnNvlinkDomain;
import dev.collsim.topology.io.ClusterLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bound column follows NCCL_ALGO: with Ring alone it is the bound of a ring, not that of NVLS/NVLSTree. */
class AlgoBoundTest {

    private static double bound(String cluster, Map<String, String> env) throws Exception {
        return bound(ClusterLoader.load(cluster), Collective.ALL_REDUCE, env);
    }

    private static double bound(Topology t, Collective c, Map<String, String> env) {
        return new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), c, 8L << 30,
                DataType.FLOAT, RedOp.SUM, NcclSettings.parse(env))).physicalBoundBusBw();
    }

    /**
     * Two GB300 trays in distinct NVLink domains (2 NCCL nodes of 4 ranks), 4 x 800 Gb/s = 400 GB/s of NICs per tray
     * and direction. An AllGather across nodes without CollNet can only run as Ring (NCCL 2.30.7 tuning.cc: multi-node
     * NVLS and CollNetDirect need CollNet, PAT one GPU per node): a node sends (n-1)/n S, busbw &lt;= 400. With
     * CollNet allowed, an algorithm could send each byte over the network once: (m-1)/m S = S/2, busbw &lt;= 400 x
     * 2 x 7/8 = 700.
     */
    @Test
    void allGatherAcrossNodesIsARingWithoutCollNet() throws Exception {
        Topology two = ClusterLoader.hosts(new OwnNvlinkDomain(Catalog.hostType("a4x-maxgpu-4g-metal").orElseThrow()),
                2).topology();
        assertEquals(400.0, bound(two, Collective.ALL_GATHER, Map.of()), 0.01);
        assertEquals(400.0, bound(two, Collective.REDUCE_SCATTER, Map.of()), 0.01);
        assertEquals(700.0, bound(two, Collective.ALL_GATHER, Map.of("NCCL_COLLNET_ENABLE", "1")), 0.01);
    }

    /**
     * 4 DGX H100, 32 ranks, 8 x 400 Gb/s NICs = 400 GB/s per node and direction. Any algorithm: a node sends at
     * least 2 (m-1)/m S over its NICs, busbw &lt;= 400 x 4/3 x 31/32 = 516.67. Ring alone: every rank's ring crosses
     * a node boundary, a node sends 2 (n-1)/n S, busbw &lt;= 2 (n-1)/n x S / (2 (n-1)/n S / 400) = 400 (nccl-tests
     * doc/PERFORMANCE.md: a ring's busbw is the link bandwidth). The NVLink side without NVLS, 18 NVLinks of 25 GB/s
     * (450 GB/s per direction, H100 SXM datasheet 900 GB/s both ways): 450 x 8/7 x 31/32 = 498.2, above 400.
     */
    @Test
    void ringAloneIsBoundByTheRingNicTraffic() throws Exception {
        assertEquals(400 * 4.0 / 3 * 31 / 32, bound("dgx-h100x4", Map.of()), 0.01);
        assertEquals(400.0, bound("dgx-h100x4", Map.of("NCCL_ALGO", "Ring")), 0.01);
    }

    /**
     * One DGX H100, 8 ranks: with NVLS a GPU sends and receives S once, busbw &lt;= 450 x 2 x 7/8 = 787.5; without
     * it a reduce-scatter plus all-gather over 8 GPUs, busbw &lt;= 450 x 8/7 x 7/8 = 450.
     */
    @Test
    void nvlsOnlyWhenAllowed() throws Exception {
        assertEquals(787.5, bound("dgx-h100", Map.of()), 0.01);
        assertEquals(450.0, bound("dgx-h100", Map.of("NCCL_ALGO", "Ring,Tree")), 0.01);
        assertEquals(787.5, bound("dgx-h100", Map.of("NCCL_ALGO", "NVLS")), 0.01);
    }

    /**
     * NVLS and NVLSTree run Simple only (NCCL 2.30.7 src/graph/tuning.cc:301): under NCCL_PROTO=LL128 one DGX H100's
     * bound is the 450 of NVLS off above, not 787.5. Two DGX H100 (16 ranks, 400 GB/s of NICs per node): NVLS side
     * 450 x 2 x 15/16 = 843.75 above the NICs' 400 x 2 x 15/16 = 750, so 750; without Simple the NVLink side
     * 450 x 8/7 x 15/16 = 482.14 binds. NCCL_ALGO=NVLSTree,Ring with NCCL_PROTO=LL leaves Ring alone: 400.
     */
    @Test
    void nvlsOnlyWhenSimpleIsAllowed() throws Exception {
        assertEquals(450.0, bound("dgx-h100", Map.of("NCCL_PROTO", "LL128")), 0.01);
        assertEquals(787.5, bound("dgx-h100", Map.of("NCCL_PROTO", "Simple")), 0.01);
        assertEquals(750.0, bound("dgx-h100x2", Map.of()), 0.01);
        assertEquals(450 * 8.0 / 7 * 15 / 16, bound("dgx-h100x2", Map.of("NCCL_PROTO", "LL128")), 0.01);
        assertEquals(400.0, bound("dgx-h100x2", Map.of("NCCL_ALGO", "NVLSTree,Ring", "NCCL_PROTO", "LL")), 0.01);
    }

    /**
     * The words printed next to the bound say which algorithms it is for where NCCL_ALGO turns some off (NCCL's
     * syntax, 2.30.7 {@code docs/userguide/source/env.rst}: a list enables only those, {@code ^} excludes, {@code
     * func:} applies to one function). Seven algorithms (Tree, Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree,
     * PAT): {@code ^Tree} leaves six. {@code allreduce:Ring} leaves AllGather's at its default; Broadcast's bound
     * reads no NCCL_ALGO (PhysicalBound.busBw(plan, c) for every collective but AllReduce, AllGather, ReduceScatter).
     */
    @Test
    void theBoundSaysWhichAlgorithmsNcclAlgoLeaves() {
        assertEquals("for Ring, the algorithm NCCL_ALGO=Ring allows", note(Collective.ALL_REDUCE, "Ring"));
        assertEquals("for Ring, CollNetDirect, CollNetChain, NVLS, NVLSTree, PAT, the algorithms NCCL_ALGO=^Tree"
                + " allows", note(Collective.ALL_REDUCE, "^Tree"));
        assertEquals("", note(Collective.ALL_GATHER, "allreduce:Ring"));
        assertEquals("for Ring, the algorithm NCCL_ALGO=allreduce:Ring allows",
                note(Collective.ALL_REDUCE, "allreduce:Ring"));
        assertEquals("", note(Collective.BROADCAST, "Ring"));
        assertEquals("", PhysicalBound.algorithmsNote(Collective.ALL_REDUCE, NcclSettings.DEFAULTS.algo())
                .orElse(""));
    }

    private static String note(Collective c, String algo) {
        return PhysicalBound.algorithmsNote(c, NcclSettings.parse(Map.of("NCCL_ALGO", algo)).algo()).orElse("");
    }
}
