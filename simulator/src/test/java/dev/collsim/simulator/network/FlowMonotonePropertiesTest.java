package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.schedule.HierarchicalSchedule;
import dev.collsim.simulator.schedule.RingSchedule;
import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.simulator.schedule.ScheduleAlgorithm;
import dev.collsim.simulator.schedule.ScheduleRequest;
import dev.collsim.simulator.schedule.TreeSchedule;
import dev.collsim.topology.Topology;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * For a fixed schedule (algorithm) and channel count, the flow backend's time never falls as the size grows: more
 * bytes on the same transfers can only take longer. Fabric: 4 hosts x 8 GPUs on one switch (450 GB/s NVLink,
 * 50 GB/s per NIC, 0.7 us per link).
 */
class FlowMonotonePropertiesTest {

    private static final Topology T = TestFabrics.singleSwitch(4, new TestFabrics.Spec(8, 450, 64, 50, 0.7));

    private static double flowUs(ScheduleAlgorithm a, long size, int nCh) {
        Schedule s = a.schedule(new ScheduleRequest(Collective.ALL_REDUCE, size, 32, nCh, 8));
        return new FlowNetwork().time(List.of(new Job("j", s, T.gpus(), 0)), NetworkModel.of(T)).jobs().get(0)
                .timeUs();
    }

    @Provide
    Arbitrary<ScheduleAlgorithm> schedules() {
        return Arbitraries.of(new RingSchedule(), new TreeSchedule(), new HierarchicalSchedule());
    }

    /** Time at k x size is at least the time at size, for every schedule, size and channel count. */
    @Property(tries = 30)
    void flowTimeNeverFallsWithSize(@ForAll("schedules") ScheduleAlgorithm a,
            @ForAll @LongRange(min = 1024, max = 1L << 28) long size, @ForAll @IntRange(min = 2, max = 8) int k,
            @ForAll @IntRange(min = 1, max = 4) int nChLog2) {
        int nCh = 1 << nChLog2;
        double small = flowUs(a, size, nCh);
        double large = flowUs(a, size * k, nCh);
        assertTrue(large >= small * (1 - 1e-9), a.name() + " " + size + " x" + k + " on " + nCh + " channels: "
                + small + " -> " + large + " us");
    }
}
