package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.bound.LeafGroups;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricCut;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.fabric.FabricSpec;
import dev.collsim.units.Latency;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The analytical prediction (every command's one pipeline) is never faster than the fabric's leaf uplinks allow.
 * Hand figures: DGX H100, 8 NICs x 400 Gb/s = 8 x 50 GB/s per host (NVIDIA DGX H100 User Guide); 4 hosts, leaf radix
 * 8 (one host per leaf), so FabricBuilder's sizing gives each leaf 8 x 50 / ratio GB/s of uplink.
 */
class OversubscribedAnalyticalTimeTest {

    private static final long GIB = 1L << 30;

    private static Topology cluster(double ratio, int hosts) {
        FabricSpec f = new FabricSpec(FabricKind.FAT_TREE, null, ratio, 8, 1, Latency.ofMicros(0.6));
        return new ClusterSpec("t", "test", Catalog.hostType("dgx-h100").orElseThrow(), hosts, f).build();
    }

    private static Prediction allReduce(Topology t, long bytes) {
        return new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, bytes,
                DataType.BFLOAT16, RedOp.SUM, null));
    }

    /**
     * 2:1, U_i = 400 / 2 = 200 GB/s, G = 4 leaf groups, n = 32. NCCL's Ring at 1 GiB crosses every leaf once per
     * channel: busbw &lt;= min U_i = 200 GB/s, so time = 2^30 B x 2(n-1)/n / 200 GB/s = 1,073,741,824 x 62/32 / 200e3
     * = 2,080,374,784 / 200e3 = 10,401.87 us. The 1:1 twin (U_i = 400) is left as the model times it, faster than
     * that floor; at 64 KiB the floor (0.6 us) is below the latency-bound time and changes nothing.
     */
    @Test
    void twoToOneFatTreeAllReduceTakesItsUplinkTime() {
        Prediction one = allReduce(cluster(1, 4), GIB);
        Prediction two = allReduce(cluster(2, 4), GIB);
        assertEquals("Ring", two.algorithm().ncclName(), "the hand figure below is Ring's");
        double floor = 1_073_741_824.0 * 62 / 32 / 200e3;
        assertEquals(10_401.87, floor, 0.01);
        assertTrue(one.timeUs() < floor, "1:1 is faster than the 2:1 floor: " + one.timeUs());
        assertEquals(floor, two.timeUs(), 1e-6);
        assertEquals(200.0, two.busBw(), 1e-9);
        assertTrue(two.bottleneck().startsWith("fabric leaf uplinks: busbw <= 200.0 GB/s (4 leaf groups, 200.0 GB/s"),
                two.bottleneck());
        assertTrue(!one.bottleneck().startsWith("fabric"), one.bottleneck());
        assertEquals(allReduce(cluster(1, 4), 64 << 10).timeUs(), allReduce(cluster(2, 4), 64 << 10).timeUs(),
                1e-9);
    }

    /**
     * NCCL_ALGO=Tree at 4:1 (U_i = 400 / 4 = 100 GB/s): any algorithm's form, 2(G-1) S over the G uplinks together,
     * algbw &lt;= U / (2(G-1)) = 400 / 6 = 66.67 GB/s, time = 1,073,741,824 / 66.67e3 = 16,106.13 us (FabricBound's
     * class comment). At 2:1 the same form allows 133.33 GB/s, 8,053.06 us, which Tree's own time exceeds: no change.
     */
    @Test
    void treeAllReduceTakesTheTwoGMinusOneForm() {
        NcclSettings tree = NcclSettings.parse(Map.of("NCCL_ALGO", "Tree"));
        Topology t = cluster(4, 4);
        Prediction p = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, GIB,
                DataType.BFLOAT16, RedOp.SUM, tree));
        assertEquals("Tree", p.algorithm().ncclName());
        assertEquals(16_106.13, 1_073_741_824.0 / (400.0 / 6 * 1e3), 0.01);
        assertEquals(1_073_741_824.0 / (400.0 / 6 * 1e3), p.timeUs(), 1e-6);
        assertEquals(400.0 / 6, p.algBw(), 1e-9);
        Topology half = cluster(2, 4);
        Prediction atTwo = new NcclPredictor().predict(new PredictionRequest(half, half.gpus(), Collective.ALL_REDUCE,
                GIB, DataType.BFLOAT16, RedOp.SUM, tree));
        assertTrue(atTwo.timeUs() > 8_053.07 && !atTwo.bottleneck().startsWith("fabric"), atTwo.bottleneck());
    }

    /**
     * 1:1 changes nothing: the prediction on a non-blocking fat-tree equals the one on a single switch (no spine,
     * one leaf group) at every size from 1 KiB to 8 GiB; predictions skip the cut there ({@link
     * FabricCut#nonBlocking}), and the cut computed anyway ({@link LeafGroups#of}) would not have raised any of those
     * times (its floor, Ring form for Ring, is at most the predicted time), which is what makes skipping it exact.
     */
    @Test
    void nonBlockingFatTreeTimesAsOneSwitch() {
        FabricSpec single = new FabricSpec(FabricKind.SINGLE_SWITCH, null, 1, 64, 1, Latency.ofMicros(0.6));
        Topology flat = new ClusterSpec("s", "test", Catalog.hostType("dgx-h100").orElseThrow(), 4, single).build();
        Topology fat = cluster(1, 4);
        assertTrue(FabricCut.nonBlocking(fat) && !FabricCut.nonBlocking(cluster(2, 4)));
        // another network class (--network, a guessed cluster) is the same fabric: still non-blocking, still 2:1
        assertTrue(FabricCut.nonBlocking(fat.withNetworkClass(NetworkClass.ROCE)));
        assertFalse(FabricCut.nonBlocking(cluster(2, 4).withNetworkClass(NetworkClass.ROCE)));
        LeafGroups cut = LeafGroups.of(fat, fat.gpus()).orElseThrow();
        assertEquals(4, cut.count());
        for (long b = 1 << 10; b <= 8 * GIB; b *= 8) {
            Prediction p = allReduce(fat, b);
            assertEquals(allReduce(flat, b).timeUs(), p.timeUs(), 1e-9, "size " + b);
            double limit = cut.busBw(Collective.ALL_REDUCE, NcclSettings.DEFAULTS, p.algorithm() == Algorithm.RING);
            assertTrue(cut.floorUs(Collective.ALL_REDUCE, b, limit) <= p.timeUs(), "size " + b);
        }
    }

    /**
     * The hierarchical composition (ReduceScatter in the host, AllReduce across hosts per rail, AllGather) moves the
     * same bytes over the leaf uplinks: at 4:1 (U_i = 100 GB/s, 4 groups) it is never faster than the form of any
     * algorithm, 2^30 B / (400 / 6 GB/s) = 16,106.13 us (as in the Tree case above), its phases' sum being less
     * (below the floor by construction: each phase on NVLink or at its rail's 50 GB/s); its bound is that 66.67 GB/s
     * algbw, as busbw x 2(n-1)/n = 129.17 GB/s. Non-blocking (1:1) keeps the phases' sum.
     */
    @Test
    void hierarchicalAllReduceTakesTheUplinkFloor() {
        Topology t = cluster(4, 4);
        PredictionRequest r = new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE, GIB, DataType.BFLOAT16,
                RedOp.SUM, null);
        Prediction h = new NcclPredictor().predictHierarchical(r, Hierarchy.RS_AR_AG);
        assertEquals(1_073_741_824.0 / (400.0 / 6 * 1e3), h.timeUs(), 1e-6);
        assertTrue(h.bottleneck().contains("; raised to fabric leaf uplinks"), h.bottleneck());
        assertEquals(400.0 / 6 * 62 / 32, h.physicalBoundBusBw(), 1e-9);
        Topology flat = cluster(1, 4);
        Prediction one = new NcclPredictor().predictHierarchical(new PredictionRequest(flat, flat.gpus(),
                Collective.ALL_REDUCE, GIB, DataType.BFLOAT16, RedOp.SUM, null), Hierarchy.RS_AR_AG);
        assertTrue(one.timeUs() < h.timeUs() && !one.bottleneck().contains("raised"), one.bottleneck());
    }

    /**
     * 600 hosts, more than a partial build takes (FabricCut.MAX_PARTIAL_HOSTS), so the cut comes from the fabric spec
     * (before: no fabric limit at all). Radix 8 at 2:1: one host per leaf, U_i = 200 GB/s, G = 600; NCCL's choice at
     * 1 GiB is NVLSTree, held to the any-algorithm form algbw &lt;= G U_i / (2 (G - 1)) = 120,000 / 1,198 = 100.17
     * GB/s: time = 2^30 B x 1,198 / 120,000e3 = 10,719.52 us.
     */
    @Test
    void largeDescribedClusterIsHeldToItsUplinks() {
        Topology t = cluster(2, 600);
        Prediction p = allReduce(t, GIB);
        assertEquals(10_719.52, 1_073_741_824.0 * 1198 / 120_000e3, 0.01);
        assertEquals(1_073_741_824.0 * 1198 / 120_000e3, p.timeUs(), 1e-6);
        assertTrue(p.bottleneck().startsWith("fabric leaf uplinks"), p.bottleneck());
        assertFalse(t.graphBuilt(), "the cut is laid out from the spec, not built");
    }
}
