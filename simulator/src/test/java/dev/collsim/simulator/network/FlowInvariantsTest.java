package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.schedule.DirectAllToAllSchedule;
import dev.collsim.simulator.schedule.PatSchedule;
import dev.collsim.simulator.schedule.RingSchedule;
import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.simulator.schedule.ScheduleRequest;
import dev.collsim.simulator.schedule.Step;
import dev.collsim.simulator.schedule.Transfer;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Invariants of the flow backend on a contended run (8 hosts x 2 GPUs on a 2:1 fat-tree with ECMP, random
 * placement, three concurrent jobs with latencies): no link ever carries more than its capacity, every byte of
 * every transfer crosses every link of its route exactly once (conservation), and the timeline accounts for all
 * transfers.
 */
class FlowInvariantsTest {

    private final Topology fabric = TestFabrics.fatTree(8, 2, 2, 50, new TestFabrics.Spec(2, 200, 64, 50, 0.5));

    private List<Job> jobs() {
        List<Gpu> pool = new ArrayList<>(fabric.gpus());
        List<Gpu> a = Placement.place(Placement.Policy.RANDOM, pool, 8, 3);
        pool.removeAll(a);
        List<Gpu> b = Placement.place(Placement.Policy.ROUND_ROBIN, pool, 8, 0);
        Schedule a2a = new DirectAllToAllSchedule(3).schedule(new ScheduleRequest(Collective.ALL_TO_ALL, 8_000_000L, 8,
                4, 1));
        Schedule ring = new RingSchedule().schedule(new ScheduleRequest(Collective.ALL_REDUCE, 12_000_000L, 8, 2, 1));
        Schedule pat = new PatSchedule().schedule(new ScheduleRequest(Collective.ALL_GATHER, 4_000_000L, 8, 1, 1));
        return List.of(new Job("a2a", a2a, a, 0), new Job("ring", ring, b, 30), new Job("pat", pat, a, 400));
    }

    @Test
    void noLinkExceedsItsCapacityAndBytesAreConserved() {
        NetworkModel m = NetworkModel.of(fabric);
        double[] worst = {0};
        int[] intervals = {0};
        FlowSimulation sim = new FlowSimulation(jobs(), m, true, (from, to, load) -> {
            intervals[0]++;
            assertTrue(to > from);
            for (int l = 0; l < load.length; l++) {
                worst[0] = Math.max(worst[0], load[l] / m.capacity(l));
            }
        });
        sim.run();
        assertTrue(worst[0] <= 1 + 1e-9, "load/capacity peaked at " + worst[0]);
        assertTrue(worst[0] > 0.999, "the run should fill some link, peaked at " + worst[0]);
        assertTrue(intervals[0] > 10);

        double[] expected = new double[m.linkCount()];
        Router router = new Router(m);
        double scheduled = 0;
        for (Job j : jobs()) {
            for (Step s : j.schedule().steps()) {
                for (Transfer t : s.transfers()) {
                    Route r = router.route(j.ranks().get(t.src()), j.ranks().get(t.dst()), t.channel());
                    for (int i = 0; i < r.size(); i++) {
                        expected[r.link(i)] += s.repeat() * t.bytes() * r.share(i);
                    }
                }
            }
            scheduled += j.schedule().totalBytes();
        }
        for (int l = 0; l < expected.length; l++) {
            assertEquals(expected[l], sim.linkBytes()[l], 1e-6 * Math.max(1, expected[l]), m.link(l).id());
        }
        double recorded = sim.records().stream().mapToDouble(f -> f.bytes() * f.flows() * f.copies()).sum();
        assertEquals(scheduled, recorded, 1e-6 * scheduled);
        assertTrue(sim.records().stream().anyMatch(f -> f.copies() > 1), "the ring's last copies run alone");
    }

    /**
     * With a completion window of 0.2 the rates are still max-min allocations (no link over capacity) and every byte
     * still crosses its links; each job's time stays within 20% of the exact simulation's (a batched event hands
     * freed bandwidth on at most 0.2 x the elapsed step time late).
     */
    @Test
    void completionWindowKeepsInvariantsAndStaysClose() {
        NetworkModel m = NetworkModel.of(fabric);
        double[] worst = {0};
        FlowSimulation sim = new FlowSimulation(jobs(), m, false, (from, to, load) -> {
            for (int l = 0; l < load.length; l++) {
                worst[0] = Math.max(worst[0], load[l] / m.capacity(l));
            }
        }, 0.2);
        sim.run();
        assertTrue(worst[0] <= 1 + 1e-9, "load/capacity peaked at " + worst[0]);
        FlowSimulation exact = new FlowSimulation(jobs(), m, false, null, 0);
        exact.run();
        assertTrue(sim.events() < exact.events(), sim.events() + " vs " + exact.events());
        for (int j = 0; j < 3; j++) {
            double a = sim.jobTimings().get(j).timeUs();
            double e = exact.jobTimings().get(j).timeUs();
            assertTrue(Math.abs(a - e) <= 0.2 * e, "job " + j + ": " + a + " vs exact " + e);
        }
        double total = 0;
        for (double b : sim.linkBytes()) {
            total += b;
        }
        double exactTotal = 0;
        for (double b : exact.linkBytes()) {
            exactTotal += b;
        }
        assertEquals(exactTotal, total, 1e-9 * exactTotal);
    }

    /** Each job ends no earlier than it would alone (sharing never speeds anything up). */
    @Test
    void sharingNeverSpeedsAJobUp() {
        NetworkModel m = NetworkModel.of(fabric);
        Timing together = new FlowNetwork().time(jobs(), m);
        for (int i = 0; i < 3; i++) {
            Job j = jobs().get(i);
            double alone = new FlowNetwork().time(List.of(j), m).jobs().get(0).timeUs();
            assertTrue(together.jobs().get(i).timeUs() >= alone * (1 - 1e-12), j.name());
        }
    }
}
