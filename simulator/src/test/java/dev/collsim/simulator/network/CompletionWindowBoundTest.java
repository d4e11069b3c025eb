package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.simulator.schedule.Step;
import dev.collsim.simulator.schedule.Transfer;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The completion window against the exact simulation on a fabric built so that max-min fair sharing is not
 * monotone: holding a finished flow's bandwidth a little longer (what the window does) makes the last flow end
 * earlier, so the window is not always pessimistic and the makespan does not always lie in [exact, ...]; the stated
 * two-sided bound ({@link CompletionWindow}) covers it.
 */
class CompletionWindowBoundTest {

    /**
     * Hosts of one GPU (links inside the host 1,000 GB/s, no latency). Switches sw1, sw2, sw3 in a line: sw1-sw2
     * 10 GB/s (L1), sw2-sw3 20 GB/s (L2); host 5's NIC cable 15 GB/s (L4); hosts 6 and 7 on sw4 (host 7's cable
     * 10 GB/s). Transfers (10 GB/s = 1e4 bytes/us): A 0->2 (1e6 B, over L1), B 1->3 (3e6 B, L1 and L2), C 4->5
     * (8e6 B, L2 and L4), A2 6->7 (2.1e6 B, alone on host 7's cable).
     *
     * <p>Exact, by hand: until A ends, L1 gives A and B 5e3 B/us each, C takes the rest of L2, 1.5e4 (L4's
     * limit); A ends at 1e6 / 5e3 = 200 us. Then B and C share L2, 1e4 each (B fits L1): B has 2e6 B left, ends at
     * 400 us; A2 ends alone at 2.1e6 / 1e4 = 210 us. C has sent 3e6 + 2e6 by 400 us and sends its last 3e6 at 1.5e4
     * B/us: 600 us.
     *
     * <p>Window 0.1: at 200 us (A first) the cutoff is 200 + 0.1 x 200 = 220 us, A2 ends by then (210 us), B
     * (600 us at its rate) and C (533 us) do not: A and A2 finish together at 210 us, so until 210 us C keeps
     * 1.5e4 and B 5e3. B then has 1.95e6 B left at 1e4: 405 us (the next cutoff, 445.5 us, holds no other flow,
     * C's projected end being 695 us). C has sent 3.15e6 + 1.95e6 = 5.1e6 B; its last 2.9e6 at 1.5e4 B/us take
     * 193.333 us: 598.333 us, 1.667 us before the exact end.
     */
    @Test
    void theWindowCanEndTheStepEarlierThanTheExactSimulation() {
        TopologyBuilder b = Topology.builder("mmf-anomaly");
        NetSwitch[] sw = new NetSwitch[5];
        for (int k = 1; k <= 4; k++) {
            sw[k] = b.add(new NetSwitch("sw" + k, NetSwitch.Tier.LEAF, 0));
        }
        TestFabrics.net(b, sw[1], sw[2], 10, 0);
        TestFabrics.net(b, sw[2], sw[3], 20, 0);
        int[] leaf = {1, 1, 2, 3, 2, 3, 4, 4};
        double[] cable = {1000, 1000, 1000, 1000, 1000, 15, 1000, 10};
        TestFabrics.Spec host = new TestFabrics.Spec(1, 1000, 1000, 1000, 0);
        for (int h = 0; h < leaf.length; h++) {
            Nic n = TestFabrics.addHost(b, h, host).get(0);
            TestFabrics.net(b, n, sw[leaf[h]], cable[h], 0);
        }
        Topology t = b.build();
        List<Gpu> ranks = new ArrayList<>();
        for (int h = 0; h < leaf.length; h++) {
            ranks.addAll(TestFabrics.gpus(t, "h" + h + "/gpu0"));
        }
        Schedule s = new Schedule("test", Collective.SEND_RECV, 8, 1, 0, List.of(new Step("anomaly", List.of(
                new Transfer(0, 2, 1e6, 0), new Transfer(1, 3, 3e6, 0), new Transfer(4, 5, 8e6, 0),
                new Transfer(6, 7, 2.1e6, 0)), 1)));
        List<Job> job = List.of(new Job("j", s, ranks, 0));
        NetworkModel m = NetworkModel.of(t);
        assertEquals(600, new FlowNetwork(false, 0, 0).time(job, m).makespanUs(), 1e-6);
        Timing windowed = new FlowNetwork(false, 0, 0.1).time(job, m);
        assertEquals(598.333333, windowed.makespanUs(), 1e-5);
        // the stated bound, 0.1 / 0.9 x 598.333 = 66.48 us, covers the 1.667 us
        assertEquals(66.481481, windowed.windowBoundUs(), 1e-5);
    }
}
