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
        return FlowChoice.decide(Collective.ALL_REDUCE, p, o, ranks, rankOrder, 0).orElseThrow();
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

    @Test
    void collectivesWithoutAScheduleGiveNone() {
        Prediction p = new Prediction(Collective.BROADCAST, 1 << 20, 16, Algorithm.RING, Protocol.SIMPLE, 8, 10, 1, 1,
                9, 100, "test");
        assertTrue(FlowChoice.decide(Collective.BROADCAST, p, FlowChoice.Override.NONE, T.gpus(), false, 0)
                .isEmpty());
    }
}
