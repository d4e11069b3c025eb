package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.simulator.schedule.Step;
import dev.collsim.simulator.schedule.Transfer;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The invariants every {@link NetworkBackend} must keep (a contract suite: a new backend gets them by extending this
 * class). Fabrics from {@link TestFabrics}, no latency unless said; units bytes, GB/s = 1000 B/us, microseconds.
 * <ul>
 * <li>one transfer on an idle fabric takes its bytes over its route's bottleneck: host to host on one switch the
 *     50 GB/s NIC, 1,000,000 B / 50,000 B/us = 20 us; with 1 us per link, plus the 6 links of its route
 *     (GPU-PCIe, PCIe-NIC, NIC-switch, switch-NIC, NIC-PCIe, PCIe-GPU): 26 us;</li>
 * <li>two equal transfers on one 50 GB/s uplink (4 one-GPU hosts, 2 per leaf, one spine, h0 to h2 and h1 to h3):
 *     in one job 40 us, since no backend may serve a link above its capacity (2,000,000 B / 50,000 B/us); in two jobs
 *     {@link #sharedLinkTimeAcrossJobs} (a backend that shares links between jobs: each gets 25 GB/s, both end at
 *     40 us; one whose jobs do not see each other: 20 us), and both end at the same time (equal flows, equal
 *     shares);</li>
 * <li>a step repeated r times takes r times one copy on an idle fabric; a job starting at t ends at t plus its time
 *     alone; two jobs on disjoint links do not slow each other; nothing to move takes 0 us; no time is negative;</li>
 * <li>a transfer to a rank outside the job (rank 2 of a 2-rank job) is refused.</li>
 * </ul>
 */
abstract class NetworkBackendContract {

    private static final TestFabrics.Spec ONE_GPU = new TestFabrics.Spec(1, 450, 64, 50, 0);

    /** @return the backend under test */
    abstract NetworkBackend backend();

    /**
     * @return the time of two 1,000,000 B transfers of two different jobs that share one idle 50 GB/s link,
     *         microseconds
     */
    abstract double sharedLinkTimeAcrossJobs();

    private static Schedule schedule(int nRanks, long repeat, Transfer... transfers) {
        return new Schedule("test", Collective.SEND_RECV, nRanks, 1, 0, List.of(new Step("step", List.of(transfers),
                repeat)));
    }

    private Timing time(Topology t, List<Job> jobs) {
        return backend().time(jobs, NetworkModel.of(t));
    }

    @Test
    void oneTransferOnAnIdleFabricTakesBytesOverTheBottleneck() {
        Topology t = TestFabrics.singleSwitch(2, ONE_GPU);
        Timing tm = time(t, List.of(new Job("j", schedule(2, 1, new Transfer(0, 1, 1e6, 0)), t.gpus(), 0)));
        assertEquals(20, tm.jobs().get(0).timeUs(), 1e-9);
        Topology slow = TestFabrics.singleSwitch(2, new TestFabrics.Spec(1, 450, 64, 50, 1));
        assertEquals(26, time(slow, List.of(new Job("j", schedule(2, 1, new Transfer(0, 1, 1e6, 0)), slow.gpus(), 0)))
                .jobs().get(0).timeUs(), 1e-9);
    }

    @Test
    void twoEqualFlowsOnOneLinkEndTogether() {
        Topology t = TestFabrics.fatTree(4, 2, 1, 50, ONE_GPU);
        List<Gpu> ranks = TestFabrics.gpus(t, "h0/gpu0", "h1/gpu0", "h2/gpu0", "h3/gpu0");
        Schedule s = schedule(4, 1, new Transfer(0, 2, 1e6, 0), new Transfer(1, 3, 1e6, 0));
        Timing tm = time(t, List.of(new Job("j", s, ranks, 0)));
        assertEquals(2e6 / 50_000, tm.jobs().get(0).timeUs(), 1e-9, "one job: the link's capacity binds");
        Timing split = time(t, List.of(new Job("a", schedule(4, 1, new Transfer(0, 2, 1e6, 0)), ranks, 0),
                new Job("b", schedule(4, 1, new Transfer(1, 3, 1e6, 0)), ranks, 0)));
        assertEquals(sharedLinkTimeAcrossJobs(), split.jobs().get(0).timeUs(), 1e-9);
        assertEquals(sharedLinkTimeAcrossJobs(), split.jobs().get(1).timeUs(), 1e-9, "equal flows, equal shares");
    }

    /**
     * Two 1,000,000 B transfers of one step on the same route (two channels from GPU 0 to GPU 1, which the backends
     * merge into one flow of weight 2) cross the 50 GB/s NIC together: 2,000,000 B / 50,000 B/us = 40 us, never 20.
     */
    @Test
    void transfersOnOneRouteShareItsLinks() {
        Topology t = TestFabrics.singleSwitch(2, ONE_GPU);
        Schedule s = schedule(2, 1, new Transfer(0, 1, 1e6, 0), new Transfer(0, 1, 1e6, 1));
        assertEquals(40, time(t, List.of(new Job("j", s, t.gpus(), 0))).jobs().get(0).timeUs(), 1e-9);
    }

    @Test
    void repeatedStepsTakeRepeatTimesOneCopyAndStartTimesShift() {
        Topology t = TestFabrics.singleSwitch(2, ONE_GPU);
        Job repeated = new Job("j", schedule(2, 5, new Transfer(0, 1, 1e6, 0)), t.gpus(), 0);
        assertEquals(100, time(t, List.of(repeated)).jobs().get(0).timeUs(), 1e-9);
        Job late = new Job("late", schedule(2, 1, new Transfer(0, 1, 1e6, 0)), t.gpus(), 30);
        JobTiming jt = time(t, List.of(late)).jobs().get(0);
        assertEquals(30, jt.startUs(), 1e-9);
        assertEquals(50, jt.endUs(), 1e-9);
        assertEquals(20, jt.timeUs(), 1e-9);
    }

    @Test
    void jobsOnDisjointLinksDoNotSlowEachOther() {
        Topology t = TestFabrics.singleSwitch(4, ONE_GPU);
        List<Gpu> a = TestFabrics.gpus(t, "h0/gpu0", "h1/gpu0");
        List<Gpu> b = TestFabrics.gpus(t, "h2/gpu0", "h3/gpu0");
        Timing tm = time(t, List.of(new Job("a", schedule(2, 1, new Transfer(0, 1, 1e6, 0)), a, 0),
                new Job("b", schedule(2, 1, new Transfer(1, 0, 1e6, 0)), b, 0)));
        assertEquals(20, tm.jobs().get(0).timeUs(), 1e-9);
        assertEquals(20, tm.jobs().get(1).timeUs(), 1e-9);
        assertEquals("a", tm.jobs().get(0).name());
        assertEquals("b", tm.jobs().get(1).name());
    }

    @Test
    void nothingToMoveTakesNoTimeAndNoTimeIsNegative() {
        Topology t = TestFabrics.singleSwitch(2, ONE_GPU);
        Schedule empty = new Schedule("test", Collective.SEND_RECV, 2, 1, 0, List.of());
        Timing tm = time(t, List.of(new Job("j", empty, t.gpus(), 0)));
        assertEquals(0, tm.jobs().get(0).timeUs(), 0);
        Timing zero = time(t, List.of(new Job("z", schedule(2, 1, new Transfer(0, 1, 0, 0)), t.gpus(), 0)));
        assertTrue(zero.jobs().get(0).timeUs() >= 0, "time " + zero.jobs().get(0).timeUs());
        assertTrue(zero.makespanUs() >= 0);
    }

    @Test
    void aRankOutsideTheJobIsRefused() {
        Topology t = TestFabrics.singleSwitch(2, ONE_GPU);
        Schedule s = new Schedule("test", Collective.SEND_RECV, 2, 1, 0, List.of(new Step("step",
                List.of(new Transfer(0, 2, 1e6, 0)), 1)));
        assertThrows(IllegalArgumentException.class, () -> time(t, List.of(new Job("j", s, t.gpus(), 0))));
    }
}
