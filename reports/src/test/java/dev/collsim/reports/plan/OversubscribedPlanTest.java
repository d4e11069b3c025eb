package dev.collsim.reports.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.fabric.FabricSpec;
import dev.collsim.units.Latency;
import org.junit.jupiter.api.Test;

/**
 * A plan on a 2:1 oversubscribed fat-tree is slower than on its 1:1 twin where the overlap leaves communication
 * exposed. Cluster: 16 DGX H100 (8 GPUs, 8 NICs x 400 Gb/s = 50 GB/s each: NVIDIA DGX H100 User Guide), leaf radix 8,
 * so each host fills a leaf whose uplink is 8 x 50 / ratio GB/s (FabricBuilder's sizing). Job: 70B, tp 8, pp 2,
 * dp 8, ZeRO-1, sequence parallel, G = 128: ZeRO-1 reduce-scatters fp32 gradients of 70e9 / 16 = 4.375e9 parameters
 * (17.5e9 B) and gathers bf16 parameters (8.75e9 B), one call each per step, in 8 concurrent DP groups of 8 ranks on
 * 8 hosts (one per GPU of a host).
 */
class OversubscribedPlanTest {

    private static Topology cluster(double ratio) {
        FabricSpec f = new FabricSpec(FabricKind.FAT_TREE, null, ratio, 8, 1, Latency.ofMicros(0.6));
        return new ClusterSpec("c16", "test", Catalog.hostType("dgx-h100").orElseThrow(), 16, f).build();
    }

    private static StepPlan plan(double ratio, double overlap) {
        JobBuilder b = new JobBuilder();
        b.params = "70B";
        b.tp = 8;
        b.pp = 2;
        b.dp = 8;
        b.zero = 1;
        b.sequenceParallel = true;
        b.globalBatch = 128;
        b.overlap = overlap;
        return new StepPlanner(new NcclPredictor(), NcclSettings.DEFAULTS, RankOrder.TP_PP_DP).plan(cluster(ratio),
                b.build(), Double.NaN);
    }

    private static double perCall(StepPlan p, CommKind k) {
        return p.comms().stream().filter(c -> c.op().kind() == k).findFirst().orElseThrow().perCallUs();
    }

    /**
     * 2:1: 200 GB/s of uplink per leaf shared by the 8 DP groups, 25 GB/s each, and a Ring leaves every leaf: busbw
     * &lt;= 25 GB/s. ReduceScatter 7/8 x 17.5e9 / 25e3 = 612,500 us; AllGather 7/8 x 8.75e9 / 25e3 = 306,250 us;
     * PP send/recv of 4 MiB between 2 leaves shared by 8 PP groups: 4,194,304 / 25e3 = 167.77 us. At overlap 0.5
     * (both compute windows far from full) hidden = 0.5 x (612,500 + 306,250) = 459,375 us, and the step grows over
     * 1:1 by (1 - 0.5) x the overlappable communication's growth plus the PP calls' growth.
     */
    @Test
    void stepGrowsUnderTwoToOneAtOverlapBelowOne() {
        StepPlan one = plan(1, 0.5);
        StepPlan two = plan(2, 0.5);
        assertEquals(612_500, perCall(two, CommKind.DP_REDUCE_SCATTER), 1e-6);
        assertEquals(306_250, perCall(two, CommKind.DP_ALLGATHER), 1e-6);
        assertEquals(4_194_304 / 25e3, perCall(two, CommKind.PP_SENDRECV), 1e-6);
        assertEquals(918_750, two.overlappableUs(), 1e-6);
        assertEquals(459_375, two.hiddenUs(), 1e-6);
        assertEquals(one.computeUs(), two.computeUs(), 1e-9);
        double ppCalls = two.comms().stream().filter(c -> c.op().kind() == CommKind.PP_SENDRECV).findFirst()
                .orElseThrow().op().callsPerStep();
        double grow = 0.5 * (918_750 - one.overlappableUs()) + ppCalls * (4_194_304 / 25e3
                - perCall(one, CommKind.PP_SENDRECV));
        assertTrue(grow > 100_000, "2:1 must cost time at overlap 0.5: " + grow);
        assertEquals(grow, two.stepUs() - one.stepUs(), 1e-3);
        assertTrue(perCall(one, CommKind.DP_REDUCE_SCATTER) < 612_500, "1:1 is not held to the 2:1 uplinks");
    }

    /**
     * At overlap 1 the same 2:1 DP communication hides completely (step grows only by the PP calls), and the overlap
     * headroom, (2/3 c - backward) + (1/3 c - forward) at overlap 1, shrinks by exactly the DP communication's growth.
     */
    @Test
    void atFullOverlapTheHeadroomShrinksInstead() {
        StepPlan one = plan(1, 1);
        StepPlan two = plan(2, 1);
        double c = two.computeUs();
        assertEquals(c * 2 / 3 - 612_500 + c / 3 - 306_250, two.overlapHeadroomUs(), 1e-6);
        assertEquals(one.overlapHeadroomUs() - (918_750 - one.overlappableUs()), two.overlapHeadroomUs(), 1e-6);
        assertEquals(two.overlappableUs(), two.hiddenUs(), 1e-9);
        double ppCalls = two.comms().stream().filter(k -> k.op().kind() == CommKind.PP_SENDRECV).findFirst()
                .orElseThrow().op().callsPerStep();
        assertEquals(ppCalls * (4_194_304 / 25e3 - perCall(one, CommKind.PP_SENDRECV)), two.stepUs() - one.stepUs(),
                1e-3);
    }
}
