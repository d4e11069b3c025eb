package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.schedule.DirectAllToAllSchedule;
import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.simulator.schedule.ScheduleRequest;
import dev.collsim.simulator.schedule.Step;
import dev.collsim.simulator.schedule.Transfer;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Routing ahead on a background thread ({@link StepSource} with prefetch) must hand the simulation exactly what
 * routing in place gives: for every step of a large AllToAll (steps above the prefetch threshold), the same
 * transfers and, for each, a route with the same links and shares; and a bad step must fail with the same
 * message either way.
 */
class StepSourceTest {

    /**
     * 32 hosts x 8 GPUs: an AllToAll step of 8 rounds to another host has 2,048 transfers, enough to be routed ahead
     * (step 0, the send to self and the 7 rounds inside each host, has 1,792).
     */
    private final Topology fabric = TestFabrics.fatTree(32, 4, 4, 50, new TestFabrics.Spec(8, 200, 64, 50, 0.5));

    @Test
    void routingAheadGivesTheSameRoutesAsRoutingInPlace() {
        NetworkModel m = NetworkModel.of(fabric);
        int n = fabric.gpus().size();
        Schedule s = new DirectAllToAllSchedule().schedule(
                new ScheduleRequest(Collective.ALL_TO_ALL, 1L << 24, n, 4, 8));
        assertTrue(s.steps().get(1).transfers().size() >= StepSource.PREFETCH_MIN_TRANSFERS);
        List<Job> jobs = List.of(new Job("a2a", s, fabric.gpus(), 0));
        try (StepSource ahead = new StepSource(jobs, m, new Router(m), true);
                StepSource inPlace = new StepSource(jobs, m, new Router(m), false)) {
            for (int k = 0; k < s.steps().size(); k++) {
                StepSource.Prepared a = ahead.get(0, k);
                StepSource.Prepared b = inPlace.get(0, k);
                assertEquals(k, a.index());
                List<Transfer> ta = a.step().transfers();
                assertEquals(b.step().transfers(), ta);
                for (int i = 0; i < ta.size(); i++) {
                    Route ra = a.routes()[i];
                    Route rb = b.routes()[i];
                    assertEquals(rb.size(), ra.size());
                    for (int x = 0; x < ra.size(); x++) {
                        assertEquals(rb.link(x), ra.link(x), "step " + k + " transfer " + i);
                        assertEquals(rb.share(x), ra.share(x), 0, "step " + k + " transfer " + i);
                    }
                }
            }
        }
    }

    @Test
    void aBadStepFailsTheSameWayWhenRoutedAhead() {
        NetworkModel m = NetworkModel.of(fabric);
        int n = fabric.gpus().size();
        Transfer bad = new Transfer(0, n + 3, 1024, 0);
        List<Transfer> big = new ArrayList<>();
        for (int i = 0; i < StepSource.PREFETCH_MIN_TRANSFERS; i++) {
            big.add(new Transfer(i % n, (i + 1) % n, 1024, 0));
        }
        Schedule s = new Schedule("test", Collective.ALL_TO_ALL, n, 1, 1024,
                List.of(new Step("big", big, 1), new Step("bad", List.of(bad), 1)));
        List<Job> jobs = List.of(new Job("j", s, fabric.gpus(), 0));
        String inPlace;
        try (StepSource src = new StepSource(jobs, m, new Router(m), false)) {
            src.get(0, 0);
            inPlace = assertThrows(IllegalArgumentException.class, () -> src.get(0, 1)).getMessage();
        }
        try (StepSource src = new StepSource(jobs, m, new Router(m), true)) {
            src.get(0, 0);
            assertEquals(inPlace, assertThrows(IllegalArgumentException.class, () -> src.get(0, 1)).getMessage());
        }
    }
}
