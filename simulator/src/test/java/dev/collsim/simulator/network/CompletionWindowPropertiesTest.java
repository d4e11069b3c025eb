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
import java.util.Collections;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/**
 * The completion window's stated bound ({@link Timing#windowBoundUs()}, {@link CompletionWindow}) against the exact
 * simulation (window 0) of the same jobs on random small fabrics: 2:1-like fat-trees (hosts per leaf, spines and
 * uplink speed drawn) and rail-optimized fabrics, hosts of 1-4 GPUs with drawn NVLink, PCIe and NIC speeds and link
 * latency, direct AllToAll or ring AllReduce, one job or two overlapping jobs (the second on the GPUs in reverse
 * order, starting up to 50 us later), ECMP with a drawn seed, windows 0.01 to 0.3. The expected time is the exact
 * simulation's, never the windowed run's.
 *
 * <p>The seed is fixed so that a build is reproducible: the bound is a tested one, not a theorem, and a build must
 * not fail on a draw. The draws stay random over the space; a development search of 56,000 further cases of it is
 * reported in {@link CompletionWindow} (change the seed, or raise the tries, to search again). The counterexample
 * that the former rule (window on while jobs overlap) gave is {@code CompletionWindowOverlapTest}.
 */
class CompletionWindowPropertiesTest {

    /** The windowed end of the last job lies within the stated window bound of the exact one. */
    @Property(tries = 60, seed = "20261204")
    void windowedTimeWithinItsStatedBoundOfTheExactTime(@ForAll @IntRange(min = 1, max = 4) int gpusPerHost,
            @ForAll @IntRange(min = 2, max = 8) int hosts, @ForAll boolean fatTree,
            @ForAll @IntRange(min = 1, max = 3) int hostsPerLeaf, @ForAll @IntRange(min = 1, max = 4) int spines,
            @ForAll @IntRange(min = 5, max = 60) int uplinkGBps, @ForAll @IntRange(min = 5, max = 60) int nicGBps,
            @ForAll @IntRange(min = 10, max = 70) int pcieGBps, @ForAll @DoubleRange(min = 0, max = 2) double latUs,
            @ForAll boolean allToAll, @ForAll @IntRange(min = 10, max = 27) int log2Bytes,
            @ForAll @IntRange(min = 1, max = 4) int channels, @ForAll boolean twoJobs,
            @ForAll @DoubleRange(min = 0, max = 50) double secondStartUs, @ForAll long seed,
            @ForAll @DoubleRange(min = 0.01, max = 0.3) double window) {
        TestFabrics.Spec spec = new TestFabrics.Spec(gpusPerHost, 450, pcieGBps, nicGBps, latUs);
        Topology t = fatTree ? TestFabrics.fatTree(hosts, hostsPerLeaf, spines, uplinkGBps, spec)
                : TestFabrics.railOptimized(hosts, hostsPerLeaf, Math.min(spines, 3), spec);
        int n = t.gpus().size();
        long size = (1L << log2Bytes) * n;
        Schedule s = allToAll
                ? new DirectAllToAllSchedule().schedule(new ScheduleRequest(Collective.ALL_TO_ALL, size, n, channels,
                        gpusPerHost))
                : new RingSchedule().schedule(new ScheduleRequest(Collective.ALL_REDUCE, size, n, channels,
                        gpusPerHost));
        List<Job> jobs = new ArrayList<>(List.of(new Job("a", s, t.gpus(), 0)));
        if (twoJobs) {
            List<Gpu> reversed = new ArrayList<>(t.gpus());
            Collections.reverse(reversed);
            jobs.add(new Job("b", s, reversed, secondStartUs));
        }
        NetworkModel m = NetworkModel.of(t, List.of(), new RoutingOptions(Multipath.ECMP, true, seed));
        Timing exact = new FlowNetwork(false, 0, 0).time(jobs, m);
        Timing windowed = new FlowNetwork(false, 0, window).time(jobs, m);
        String msg = t.name() + " " + s.algorithm() + " window " + window + ": exact " + exact.makespanUs()
                + " us, windowed " + windowed.makespanUs() + " +- " + windowed.windowBoundUs();
        assertEquals(0, exact.makespanBoundUs(), msg);
        assertEquals(0, windowed.samplingBoundUs(), msg);
        assertEquals(window / (1 - window) * windowed.makespanUs(), windowed.windowBoundUs(),
                1e-9 * windowed.makespanUs(), msg);
        assertTrue(Math.abs(windowed.makespanUs() - exact.makespanUs()) <= windowed.makespanBoundUs(), msg);
    }
}
