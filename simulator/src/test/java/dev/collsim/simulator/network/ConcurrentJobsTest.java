package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.schedule.RingSchedule;
import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.simulator.schedule.ScheduleRequest;
import dev.collsim.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two jobs on the 2:1 fat-tree of {@link FlowNetworkTest} (2 leaves of 2 single-GPU hosts, one 50 GB/s uplink
 * per leaf). Job A on h0 and h2, job B on h1 and h3: each is a 2-rank ring AllReduce of 100 MB, 2 steps of
 * 50 MB, every transfer crossing its leaf's uplink. Alone: 50,000,000 B / 50,000 B/us = 1000 us per step.
 */
class ConcurrentJobsTest {

    private final Topology fabric = TestFabrics.fatTree(4, 2, 1, 50, new TestFabrics.Spec(1, 450, 64, 50, 0));
    private final Schedule ring = new RingSchedule().schedule(
            new ScheduleRequest(Collective.ALL_REDUCE, 100_000_000L, 2, 1, 1));

    private Timing run(double startB) {
        Job a = new Job("A", ring, TestFabrics.gpus(fabric, "h0/gpu0", "h2/gpu0"), 0);
        Job b = new Job("B", ring, TestFabrics.gpus(fabric, "h1/gpu0", "h3/gpu0"), startB);
        return new FlowNetwork().time(List.of(a, b), NetworkModel.of(fabric));
    }

    /** Started together, both share every uplink for both steps: 25 GB/s, 2000 us per step, slowdown 2. */
    @Test
    void twoJobsSharingUplinksRunAtHalfSpeed() {
        Timing t = run(0);
        assertEquals(4000, t.jobs().get(0).timeUs(), 1e-9);
        assertEquals(4000, t.jobs().get(1).timeUs(), 1e-9);
        Timing alone = new FlowNetwork().time(List.of(new Job("A", ring, TestFabrics.gpus(fabric, "h0/gpu0",
                "h2/gpu0"), 0)), NetworkModel.of(fabric));
        assertEquals(2000, alone.jobs().get(0).timeUs(), 1e-9);
    }

    /**
     * B starts at 1000 us, when A's first step ends. A's second step and B's first share the uplinks (25 GB/s,
     * 2000 us, until 3000 us); B's second step then runs alone (1000 us, until 4000 us). A: 3000 us (slowdown
     * 1.5); B: 1000 to 4000 us, 3000 us (slowdown 1.5).
     */
    @Test
    void lateJobOverlapsOnlyPartly() {
        Timing t = run(1000);
        assertEquals(3000, t.jobs().get(0).endUs(), 1e-9);
        assertEquals(4000, t.jobs().get(1).endUs(), 1e-9);
        assertEquals(3000, t.jobs().get(1).timeUs(), 1e-9);
        assertEquals(4000, t.makespanUs(), 1e-9);
    }

    /** B starts after A has finished: no interaction; A's 2 identical steps are skipped over as one. */
    @Test
    void jobsThatDoNotOverlapRunAtFullSpeed() {
        Timing t = run(2500);
        assertEquals(2000, t.jobs().get(0).timeUs(), 1e-9);
        assertEquals(2000, t.jobs().get(1).timeUs(), 1e-9);
        assertEquals(4500, t.makespanUs(), 1e-9);
    }
}
