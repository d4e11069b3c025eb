package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.FlowChoice;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.schedule.HierarchicalSchedule;
import dev.collsim.simulator.schedule.RingSchedule;
import dev.collsim.simulator.schedule.TreeSchedule;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The flow backend's choice ({@link FlowChoice}), shared by {@code predict --backend flow} and the report's flow
 * variants: NCCL's algorithm and channels by default, the given schedule and channels when replaced. Two hosts of
 * 8 GPUs ({@link TestFabrics}), 16 ranks.
 */
class FlowChoiceTest {

    private static final Topology T = TestFabrics.singleSwitch(2, FlowNetworkTest.DGX);

    private static Prediction nccl(Algorithm a, Protocol p, int nCh) {
        return new Prediction(Collective.ALL_REDUCE, 1 << 20, 16, a, p, nCh, 10, 1, 1, 9, 100, "test");
    }

    private static FlowChoice decide(Prediction p, FlowChoice.Override o, List<Gpu> ranks, boolean rankOrder) {
        return FlowChoice.decide(Collective.ALL_REDUCE, p, o, ranks, rankOrder, 0, NcclVersion.DEFAULT)
                .orElseThrow();
    }

    @Test
    void defaultIsNcclsAlgorithmProtocolAndChannels() {
        FlowChoice tree = decide(nccl(Algorithm.TREE, Protocol.LL128, 12), FlowChoice.Override.NONE, T.gpus(), false);
        assertTrue(tree.schedule() instanceof TreeSchedule);
        assertEquals(12, tree.nChannels());
        assertEquals(Algorithm.TREE, tree.algorithm());
        assertEquals(Protocol.LL128, tree.protocol());
        assertEquals(8, tree.ranksPerHost());
        assertEquals("Tree, 12 channels (NCCL's choice: Tree/LL128)", tree.describe());
        FlowChoice nvls = decide(nccl(Algorithm.NVLS_TREE, Protocol.SIMPLE, 16), FlowChoice.Override.NONE, T.gpus(),
                false);
        assertTrue(nvls.schedule() instanceof HierarchicalSchedule, "NVLSTree moves data as the hierarchical one");
        assertEquals(Algorithm.NVLS_TREE, nvls.algorithm());
        // NCCL's name leads, as in the algo column; the schedule that moves the data follows
        assertEquals("NVLSTree, 16 channels (NCCL's choice: NVLSTree/Simple; simulated as the Hierarchical schedule)",
                nvls.describe());
    }

    /**
     * A given schedule without channels gets one channel per NIC: 8 GPUs (and NICs) per host give a ring 8 and a
     * tree 2 x 8 = 16 (two trees per NIC); given channels win; the protocol is then not NCCL's (none).
     */
    @Test
    void overridesReplaceScheduleAndChannels() {
        Prediction p = nccl(Algorithm.TREE, Protocol.SIMPLE, 12);
        FlowChoice ring = decide(p, FlowChoice.Override.of("ring", null, Collective.ALL_REDUCE), T.gpus(), false);
        assertTrue(ring.schedule() instanceof RingSchedule);
        assertEquals(8, ring.nChannels());
        assertEquals(Algorithm.RING, ring.algorithm());
        assertNull(ring.protocol());
        assertEquals(16, decide(p, FlowChoice.Override.of("tree", null, Collective.ALL_REDUCE), T.gpus(), false)
                .nChannels());
        FlowChoice three = decide(p, FlowChoice.Override.of(null, 3, Collective.ALL_REDUCE), T.gpus(), false);
        assertEquals(3, three.nChannels());
        assertTrue(three.schedule() instanceof TreeSchedule, "NCCL's algorithm kept");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FlowChoice.Override.of("ring", null, Collective.ALL_TO_ALL));
        assertEquals("Ring has no schedule for AllToAll; schedules for AllToAll: Direct", e.getMessage());
    }

    /** Ranks alternating hosts (h0, h1, h0, h1, ...): NCCL's order groups each host's 8; rank order leaves 1 per host. */
    @Test
    void topologyOrderGroupsHostsRankOrderDoesNot() {
        List<Gpu> alternating = Placement.place(Placement.Policy.ROUND_ROBIN, T.gpus(), 16, 0);
        Prediction p = nccl(Algorithm.RING, Protocol.SIMPLE, 8);
        assertEquals(8, decide(p, FlowChoice.Override.NONE, alternating, false).ranksPerHost());
        assertEquals(1, decide(p, FlowChoice.Override.NONE, alternating, true).ranksPerHost());
    }

    /**
     * The Tree schedule follows the modelled release's chunk. 2 hosts x 8 GPUs, 12 channels (6 per tree): a chain
     * of 8 per host below the other host's head, tree depth 1 + 7 = 8. 48 MiB: each channel carries 48 MiB / 2 / 6 =
     * 4 MiB. NCCL 2.30.7 (chunk 512 KiB at every size): 8 chunks, 8 + 2 x 8 - 1 = 23 steps. NCCL 2.19 (v2.19.4-1
     * src/enqueue.cc computeColl): 48 MiB / (12 x 512 KiB) = 8 < 8 x 8 -> 256 KiB (16 < 64) -> 128 KiB (floor of
     * the first loop; 32 >= 4 x 8 and >= 8 stop the others): 32 chunks, 32 + 15 = 47 steps.
     */
    @Test
    void treeFollowsTheReleasesChunk() {
        Prediction p = nccl(Algorithm.TREE, Protocol.SIMPLE, 12);
        long size = 48L << 20;
        assertEquals(23, FlowChoice.decide(Collective.ALL_REDUCE, p, FlowChoice.Override.NONE, T.gpus(), false, 0,
                NcclVersion.V2_30_7).orElseThrow().build(Collective.ALL_REDUCE, size).stepCount());
        assertEquals(47, FlowChoice.decide(Collective.ALL_REDUCE, p, FlowChoice.Override.NONE, T.gpus(), false, 0,
                NcclVersion.V2_19_4).orElseThrow().build(Collective.ALL_REDUCE, size).stepCount());
        // the loop is for Tree/Simple only (v2.19.4-1: protocol == NCCL_PROTO_SIMPLE): Tree/LL128 keeps 23 steps
        assertEquals(23, FlowChoice.decide(Collective.ALL_REDUCE, nccl(Algorithm.TREE, Protocol.LL128, 12),
                FlowChoice.Override.NONE, T.gpus(), false, 0, NcclVersion.V2_19_4).orElseThrow()
                .build(Collective.ALL_REDUCE, size).stepCount());
    }

    @Test
    void collectivesWithoutAScheduleGiveNone() {
        Prediction p = new Prediction(Collective.BROADCAST, 1 << 20, 16, Algorithm.RING, Protocol.SIMPLE, 8, 10, 1, 1,
                9, 100, "test");
        assertTrue(FlowChoice.decide(Collective.BROADCAST, p, FlowChoice.Override.NONE, T.gpus(), false, 0,
                NcclVersion.DEFAULT)
                .isEmpty());
    }
}
