package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.schedule.HierarchicalSchedule;
import dev.collsim.simulator.schedule.PatSchedule;
import dev.collsim.simulator.schedule.RingSchedule;
import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.simulator.schedule.ScheduleAlgorithm;
import dev.collsim.simulator.schedule.ScheduleRequest;
import dev.collsim.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The analytical and flow backends time the same flows; where no link carries two flows at once they must agree
 * (to floating-point rounding, 1e-12 relative), and where links are shared the flow backend must be slower.
 * Fabric: 2 hosts x 8 GPUs on one switch with 0.7 us per link.
 */
class BackendAgreementTest {

    private final Topology t = TestFabrics.singleSwitch(2, new TestFabrics.Spec(8, 450, 64, 50, 0.7));

    private double[] both(ScheduleAlgorithm a, Collective c, long size, int nCh) {
        Schedule s = a.schedule(new ScheduleRequest(c, size, 16, nCh, 8));
        List<Job> jobs = List.of(new Job("j", s, t.gpus(), 0));
        NetworkModel m = NetworkModel.of(t);
        return new double[] {new LinksNetwork().time(jobs, m).jobs().get(0).timeUs(),
            new FlowNetwork().time(jobs, m).jobs().get(0).timeUs()};
    }

    /** One-channel rings: every link carries at most one flow per step (see FlowNetworkTest). */
    @Test
    void ringWithoutSharingAgreesExactly() {
        for (Collective c : List.of(Collective.ALL_REDUCE, Collective.ALL_GATHER, Collective.REDUCE_SCATTER)) {
            for (long size : new long[] {1L << 10, 3_000_001L, 1L << 30}) {
                double[] r = both(new RingSchedule(), c, size, 1);
                assertEquals(r[0], r[1], 1e-12 * r[0], c + " " + size);
            }
        }
    }

    /**
     * Hierarchical AllReduce, one channel: intra-host rings use distinct NVLinks; the inter-host phase runs 8
     * rings of 2 hosts, ring j on rail j's NICs only.
     */
    @Test
    void hierarchicalWithoutSharingAgreesExactly() {
        double[] r = both(new HierarchicalSchedule(), Collective.ALL_REDUCE, 64L << 20, 1);
        assertEquals(r[0], r[1], 1e-12 * r[0]);
    }

    /**
     * PAT-like AllGather on 2 channels: both channels' transfers between the same two GPUs take the same route and
     * share every link of it, so the flow backend gives each half the bandwidth the analytical backend assumes.
     * Every step is limited by such shared links, so the flow time is larger (by up to 2x).
     */
    @Test
    void sharingMakesTheFlowBackendSlower() {
        double[] r = both(new PatSchedule(), Collective.ALL_GATHER, 64L << 20, 2);
        assertTrue(r[1] > r[0] * 1.01, "analytical " + r[0] + " flow " + r[1]);
    }
}
