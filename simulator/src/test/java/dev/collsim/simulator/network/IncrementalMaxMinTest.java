package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.schedule.DirectAllToAllSchedule;
import dev.collsim.simulator.schedule.RingSchedule;
import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.simulator.schedule.ScheduleRequest;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The incremental max-min solver ({@link MaxMinFairShare#resolve}, used when flows only finish) against the
 * plain one (progressive filling from scratch, {@link MaxMinFairShare#solve}) on seeded random instances: the
 * reference values come from the plain solver, whose own correctness is checked by hand in
 * {@link MaxMinFairShareTest}. Agreement is to 1e-9 relative (only the order of floating-point sums differs).
 */
class IncrementalMaxMinTest {

    private final Topology fabric = TestFabrics.fatTree(8, 2, 2, 50, new TestFabrics.Spec(2, 200, 64, 50, 0.5));

    private static double[] capacities(NetworkModel m) {
        double[] cap = new double[m.linkCount()];
        for (int l = 0; l < cap.length; l++) {
            cap[l] = m.capacity(l);
        }
        return cap;
    }

    @Test
    void resolveAfterRemovalsEqualsSolvingFromScratch() {
        NetworkModel m = NetworkModel.of(fabric);
        double[] cap = capacities(m);
        Random rnd = new Random(20261129L);
        for (int trial = 0; trial < 20; trial++) {
            int count = 50 + rnd.nextInt(150);
            SimFlow[] flows = new SimFlow[count];
            for (int f = 0; f < count; f++) {
                int k = 1 + rnd.nextInt(4);
                int[] links = rnd.ints(0, Math.min(12, cap.length)).distinct().limit(k).toArray();
                double[] share = new double[links.length];
                for (int i = 0; i < share.length; i++) {
                    share[i] = rnd.nextBoolean() ? 1 : 0.25 + 0.75 * rnd.nextDouble();
                }
                flows[f] = new SimFlow(0, 0, 0, 0, 1, 0, new Route(links, share, 0, m), 1, 0);
                flows[f].weight = 1 + rnd.nextInt(3);
            }
            MaxMinFairShare incremental = new MaxMinFairShare(cap);
            incremental.solve(flows, count, 0.0);
            int n = count;
            int resolved = 0;
            while (n > 1) {
                int remove = 1 + rnd.nextInt(Math.min(5, n - 1));
                for (int r = 0; r < remove; r++) {
                    int i = rnd.nextBoolean() ? argMax(flows, n) : rnd.nextInt(n);
                    incremental.remove(flows[i]);
                    n--;
                    flows[i] = flows[n];
                }
                incremental.resolve();
                resolved++;
                double[] rate = new double[n];
                for (int i = 0; i < n; i++) {
                    rate[i] = flows[i].rate;
                }
                double[] plain = new double[n];
                new MaxMinFairShare(cap).solve(flows.clone(), n, plain);
                for (int i = 0; i < n; i++) {
                    assertEquals(plain[i], rate[i], 1e-9 * plain[i], "trial " + trial + ", flow " + i);
                }
                for (int i = 0; i < n; i++) {
                    flows[i].rate = rate[i];
                }
            }
            assertTrue(resolved > 5);
        }
    }

    private static int argMax(SimFlow[] flows, int n) {
        int best = 0;
        for (int i = 1; i < n; i++) {
            if (flows[i].rate > flows[best].rate) {
                best = i;
            }
        }
        return best;
    }

    /** An AllToAll over ECMP (many distinct finish times) overlapped by a ring job that starts later. */
    @Test
    void simulationGivesTheSameFinishTimesAsThePlainSolver() {
        NetworkModel m = NetworkModel.of(fabric);
        List<Gpu> pool = new ArrayList<>(fabric.gpus());
        List<Gpu> a = Placement.place(Placement.Policy.RANDOM, pool, 8, 7);
        pool.removeAll(a);
        List<Gpu> b = Placement.place(Placement.Policy.RANDOM, pool, 8, 11);
        Schedule a2a = new DirectAllToAllSchedule(3).schedule(new ScheduleRequest(Collective.ALL_TO_ALL,
                24_000_000L, 8, 4, 1));
        Schedule ring = new RingSchedule().schedule(new ScheduleRequest(Collective.ALL_REDUCE, 12_000_000L, 8, 2, 1));
        List<Job> jobs = List.of(new Job("a2a", a2a, a, 0), new Job("ring", ring, b, 45));

        Timing fast = new FlowNetwork(true, 3, 0, true).time(jobs, m);
        Timing plain = new FlowNetwork(true, 3, 0, false).time(jobs, m);

        assertEquals(plain.makespanUs(), fast.makespanUs(), 1e-9 * plain.makespanUs());
        assertEquals(plain.events(), fast.events());
        List<FlowRecord> p = sorted(plain.timeline());
        List<FlowRecord> f = sorted(fast.timeline());
        assertEquals(p.size(), f.size());
        long distinctEnds = p.stream().mapToDouble(FlowRecord::endUs).distinct().count();
        assertTrue(distinctEnds > 20, "the instance should have many distinct finish times, has " + distinctEnds);
        for (int i = 0; i < p.size(); i++) {
            assertEquals(p.get(i).endUs(), f.get(i).endUs(), 1e-9 * p.get(i).endUs(), p.get(i).toString());
        }
    }

    private static List<FlowRecord> sorted(List<FlowRecord> r) {
        List<FlowRecord> out = new ArrayList<>(r);
        out.sort(Comparator.comparing(FlowRecord::job).thenComparingInt(FlowRecord::step)
                .thenComparingLong(FlowRecord::copy).thenComparingInt(FlowRecord::src)
                .thenComparingInt(FlowRecord::dst).thenComparingInt(FlowRecord::channel));
        return out;
    }
}
