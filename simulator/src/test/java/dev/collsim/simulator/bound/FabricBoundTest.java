package dev.collsim.simulator.bound;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.FlowPredictor;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.network.Multipath;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricCut;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.fabric.FabricSpec;
import dev.collsim.units.Latency;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The fabric's part of the bound, worked out by hand from the class comment of {@link FabricBound} and the sizing
 * rule of {@code FabricBuilder} (a leaf of d NICs of speed s has d s / oversubscription of uplink). DGX H100: 8 GPUs,
 * 8 NICs of 400 Gb/s = 50 GB/s per host (NVIDIA DGX H100 User Guide); 4 hosts, n = 32 ranks.
 */
class FabricBoundTest {

    private static final double EPS = 1e-9;

    private static Topology cluster(FabricKind kind, double ratio, int radix) {
        FabricSpec f = new FabricSpec(kind, null, ratio, radix, 1, Latency.ofMicros(0.6));
        return new ClusterSpec("t", "test", Catalog.hostType("dgx-h100").orElseThrow(), 4, f).build();
    }

    private static double bound(Topology t, Collective c, Map<String, String> env) {
        return FabricBound.busBw(t, t.gpus(), c, NcclSettings.parse(env));
    }

    /**
     * 4 leaves (8 ports each: one host per leaf), 2:1: U_i = 8 x 50 / 2 = 200 GB/s, G = 4 groups of k = 8 ranks.
     * AllReduce, any algorithm: U / (2 (G-1)) x 2 (n-1)/n = 800 / 6 x 62 / 32 = 258.33; Ring: U_i = 200.
     * AllGather/ReduceScatter across nodes run as Ring (no CollNet, no PAT): 200; with PAT allowed, any algorithm:
     * U_i (n-1)/(n-k) = 200 x 31 / 24 = 258.33. AllToAll: 200 x 31 / (8 x 24) = 32.29. Broadcast: 200; Gather:
     * 258.33. The NICs alone allow 516.7 for AllReduce (N m/(m-1) (n-1)/n = 400 x 4/3 x 31/32).
     */
    @Test
    void fatTreeOfFourLeavesTwoToOne() {
        Topology t = cluster(FabricKind.FAT_TREE, 2, 8);
        assertEquals(4, FabricCut.of(t, new int[] {0, 1, 2, 3}).orElseThrow().groups().size());
        assertEquals(200.0, FabricCut.of(t, new int[] {0, 1, 2, 3}).orElseThrow().groups().get(0).uplinkGBps(), EPS);
        assertEquals(800.0 / 6 * 62 / 32, bound(t, Collective.ALL_REDUCE, Map.of()), 1e-6);
        assertEquals(200.0, bound(t, Collective.ALL_REDUCE, Map.of("NCCL_ALGO", "Ring")), 1e-6);
        // CollNet allowed: a spine that reduces needs S up and S down per leaf: 200 x 62/32 = 387.5
        assertEquals(200.0 * 62 / 32, bound(t, Collective.ALL_REDUCE, Map.of("NCCL_COLLNET_ENABLE", "1")), 1e-6);
        assertEquals(200.0, bound(t, Collective.ALL_GATHER, Map.of()), 1e-6);
        assertEquals(200.0 * 31 / 24, bound(t, Collective.REDUCE_SCATTER, Map.of("NCCL_PAT_ENABLE", "1")), 1e-6);
        assertEquals(200.0 * 31 / (8 * 24), bound(t, Collective.ALL_TO_ALL, Map.of()), 1e-6);
        assertEquals(200.0, bound(t, Collective.BROADCAST, Map.of()), 1e-6);
        assertEquals(200.0 * 31 / 24, bound(t, Collective.GATHER, Map.of()), 1e-6);
        // two hosts of the four: G = 2, U = 400: 400 / 2 x 30 / 16 = 375
        assertEquals(375.0, FabricBound.busBw(t, t.gpus().subList(0, 16), Collective.ALL_REDUCE,
                NcclSettings.DEFAULTS), 1e-6);
    }

    /**
     * Both backends' bound is the fabric's 258.33 now (the analytical prediction used to keep the NICs' 516.67, as
     * if the fabric were non-blocking); the 1:1 twin keeps the NICs' 516.67.
     */
    @Test
    void analyticalAndFlowBoundsSeeTheCut() {
        Topology t = cluster(FabricKind.FAT_TREE, 2, 8);
        PredictionRequest r = new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, 1L << 30, DataType.BFLOAT16,
                RedOp.SUM, null);
        NcclPredictor analytical = new NcclPredictor();
        assertEquals(800.0 / 6 * 62 / 32, analytical.predict(r).physicalBoundBusBw(), 1e-6);
        double flow = new FlowPredictor(analytical, FlowPredictor.Mode.SLOWER, Multipath.ECMP, 0).predict(r)
                .physicalBoundBusBw();
        assertEquals(800.0 / 6 * 62 / 32, flow, 1e-6);
        Topology twin = cluster(FabricKind.FAT_TREE, 1, 8);
        assertEquals(400.0 * 4 / 3 * 31 / 32, analytical.predict(new PredictionRequest(twin, twin.gpus(),
                Collective.ALL_REDUCE, 1L << 30, DataType.BFLOAT16, RedOp.SUM, null)).physicalBoundBusBw(), 1e-6);
    }

    /**
     * Rail-optimized, 2 hosts per scalable unit, 4:1: 2 units (G = 2, k = 16), 8 rail leaves each with 2 downlinks and
     * 2 x 50 / 4 = 25 GB/s of uplink: U_i = 200, U = 400. AllReduce: 400 / 2 x 62/32 = 387.5 (below the NICs' 516.7);
     * AllGather Ring: 200, any algorithm (PAT allowed): 200 x 31/16 = 387.5; AllToAll: 200 x 31 / (16 x 16) = 24.22.
     * Ranks of one unit only (hosts 0, 1): their rail traffic stays under their rail leaves, no limit.
     */
    @Test
    void railOptimizedCountsOnlyTrafficBetweenScalableUnits() {
        Topology t = cluster(FabricKind.RAIL_OPTIMIZED, 4, 2);
        assertEquals(2, FabricCut.of(t, new int[] {0, 1, 2, 3}).orElseThrow().groups().size());
        assertEquals(387.5, bound(t, Collective.ALL_REDUCE, Map.of()), 1e-6);
        assertEquals(200.0, bound(t, Collective.ALL_GATHER, Map.of()), 1e-6);
        assertEquals(387.5, bound(t, Collective.ALL_GATHER, Map.of("NCCL_PAT_ENABLE", "1")), 1e-6);
        assertEquals(200.0 * 31 / 256, bound(t, Collective.ALL_TO_ALL, Map.of()), 1e-6);
        assertEquals(Double.POSITIVE_INFINITY, FabricBound.busBw(t, t.gpus().subList(0, 16), Collective.ALL_REDUCE,
                NcclSettings.DEFAULTS));
        Topology oneUnit = cluster(FabricKind.RAIL_OPTIMIZED, 2, 32);
        assertEquals(Double.POSITIVE_INFINITY, bound(oneUnit, Collective.ALL_TO_ALL, Map.of()));
    }

    /**
     * Non-blocking fat-tree, one host per leaf: U_i = 400 = the host's NICs, so AllReduce 1600 / 6 x 62/32 = 516.67,
     * the NIC bound itself (never below it); unequal groups from figures: k = (8, 24), U = (100, 300): AllGather any
     * algorithm min(100 x 31/24, 300 x 31/8) = 129.17; Gather, root unknown: the larger, 1162.5.
     */
    @Test
    void nonBlockingEqualsTheNicBoundAndUnequalGroupsFromFigures() {
        Topology t = cluster(FabricKind.FAT_TREE, 1, 8);
        assertEquals(400.0 * 4 / 3 * 31 / 32, bound(t, Collective.ALL_REDUCE, Map.of()), 1e-6);
        int[] k = {8, 24};
        double[] u = {100, 300};
        assertEquals(100.0 * 31 / 24, FabricBound.busBw(Collective.ALL_GATHER, k, u, false), 1e-9);
        assertEquals(300.0 * 31 / 8, FabricBound.busBw(Collective.GATHER, k, u, false), 1e-9);
        assertEquals(Double.POSITIVE_INFINITY, FabricBound.busBw(Collective.ALL_REDUCE, new int[] {8}, new double[] {1},
                false));
        List<Integer> hosts = FabricCut.of(t, new int[] {2, 0}).orElseThrow().groups().stream()
                .map(g -> g.hosts().get(0)).toList();
        assertEquals(List.of(0, 2), hosts);
    }

    /**
     * 1,000 DGX H100 described once (not built): more than FabricCut.MAX_PARTIAL_HOSTS = 512 hosts, so the cut is laid
     * out from the fabric spec and nothing is built. Radix 8 at 2:1: one host per leaf, U_i = 8 x 50 / 2 = 200 GB/s,
     * G = 1,000: the any-algorithm form algbw &lt;= G U_i / (2 (G - 1)) = 200,000 / 1,998 GB/s, busbw x 2 (n - 1) / n
     * with n = 8,000: 200,000 / 1,998 x 15,998 / 8,000 = 200.175 GB/s.
     */
    @Test
    void largeDescribedClusterIsNotBuiltForTheBound() {
        FabricSpec f = new FabricSpec(FabricKind.FAT_TREE, null, 2, 8, 1, Latency.ofMicros(0.6));
        Topology t = new ClusterSpec("big", "test", Catalog.hostType("dgx-h100").orElseThrow(), 1000, f).build();
        assertEquals(200_000.0 / 1_998 * 15_998 / 8_000, bound(t, Collective.ALL_REDUCE, Map.of()), 1e-9);
        assertEquals(false, t.graphBuilt());
    }
}
