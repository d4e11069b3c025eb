package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.schedule.RingSchedule;
import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.simulator.schedule.ScheduleRequest;
import dev.collsim.simulator.schedule.Step;
import dev.collsim.simulator.schedule.Transfer;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Flow-backend times worked out by hand. Units: bytes, GB/s = 1000 bytes/us, microseconds.
 */
class FlowNetworkTest {

    /** DGX-like host: 450 GB/s NVLink, 64 GB/s PCIe, 50 GB/s (400 Gb/s) NICs, no latency. */
    static final TestFabrics.Spec DGX = new TestFabrics.Spec(8, 450, 64, 50, 0);

    private static Schedule ring(Collective c, long size, int n, int nCh, int perHost) {
        return new RingSchedule().schedule(new ScheduleRequest(c, size, n, nCh, perHost));
    }

    private static double time(NetworkBackend b, Topology t, Schedule s, List<Gpu> ranks, RoutingOptions o) {
        return b.time(List.of(new Job("j", s, ranks, 0)), NetworkModel.of(t, List.of(), o)).jobs().get(0).timeUs();
    }

    /**
     * 2 hosts x 8 GPUs on one switch, ring AllReduce of 16 MiB, 1 channel, contiguous ranks. Each of the 30 steps
     * moves a 1 MiB chunk (16 MiB / 16) per rank. NVLink steps run at 450 GB/s; the two host-to-host transfers
     * cross a 50 GB/s NIC each (with PXN the rank-7 to rank-8 hop goes GPU7 -NVLink- GPU0 - NIC0 - switch - NIC0 -
     * GPU0 of host 1), and no link carries two flows. Step = 1,048,576 B / 50,000 B/us = 20.97152 us;
     * total = 30 x 20.97152 = 629.1456 us.
     */
    @Test
    void twoHostsOnOneSwitchRingAllReduceIsNicBound() {
        Topology t = TestFabrics.singleSwitch(2, DGX);
        Schedule s = ring(Collective.ALL_REDUCE, 16L << 20, 16, 1, 8);
        assertEquals(629.1456, time(new FlowNetwork(), t, s, t.gpus(), RoutingOptions.DEFAULT), 1e-9);
        assertEquals(629.1456, time(new FlowNetwork(), t, s, t.gpus(), new RoutingOptions(Multipath.ECMP, false, 0)),
                1e-9);
    }

    /**
     * Same, two channels: channel 1's ring is rotated inside each host, so its host-to-host hop uses NIC1 while
     * channel 0 uses NIC0; each NIC carries one 512 KiB transfer per step: 524,288 / 50,000 = 10.48576 us per step,
     * 314.5728 us in all (half the one-channel time). The NVLink transfers that both channels make between the
     * same GPUs share their NVLink (225 GB/s each), which is not the bottleneck.
     */
    @Test
    void twoChannelsUseTwoNicsAndHalveTheTime() {
        Topology t = TestFabrics.singleSwitch(2, DGX);
        Schedule s = ring(Collective.ALL_REDUCE, 16L << 20, 16, 2, 8);
        assertEquals(314.5728, time(new FlowNetwork(), t, s, t.gpus(), RoutingOptions.DEFAULT), 1e-9);
    }

    /**
     * 4 hosts of 1 GPU on a 2:1 fat-tree: 2 hosts per leaf (2 x 50 GB/s down), one 50 GB/s uplink per leaf to one
     * spine. Ranks alternate leaves (h0, h2, h1, h3), so all four ring transfers cross the spine and each uplink
     * carries two flows: max-min share 50 / 2 = 25 GB/s. Ring AllReduce of 100 MB: 6 steps of 25 MB;
     * 25,000,000 B / 25,000 B/us = 1000 us per step, 6000 us in all. The links backend times each transfer alone
     * (500 us) but bounds each step by its busiest link, 2 x 25,000,000 B / 50,000 B/us = 1000 us: 6000 us too.
     */
    @Test
    void fatTreeUplinkSharedByTwoFlowsHalvesTheirRate() {
        Topology t = TestFabrics.fatTree(4, 2, 1, 50, new TestFabrics.Spec(1, 450, 64, 50, 0));
        List<Gpu> ranks = TestFabrics.gpus(t, "h0/gpu0", "h2/gpu0", "h1/gpu0", "h3/gpu0");
        Schedule s = ring(Collective.ALL_REDUCE, 100_000_000L, 4, 1, 1);
        Timing flow = new FlowNetwork().time(List.of(new Job("j", s, ranks, 0)), NetworkModel.of(t));
        assertEquals(6000, flow.jobs().get(0).timeUs(), 1e-9);
        assertEquals(6000, time(new LinksNetwork(), t, s, ranks, RoutingOptions.DEFAULT), 1e-9);
        String top = flow.bottlenecks().get(0).link();
        assertTrue(top.startsWith("leaf") && top.contains(">spine0"), top);
        assertEquals(1.0, flow.bottlenecks().get(0).utilization(), 1e-9);
    }

    /**
     * Two flows share a 50 GB/s link (same NIC): 1,000,000 B and 3,000,000 B. Both run at 25 GB/s until the small
     * one ends at 40 us; the big one has 2,000,000 B left and runs alone at 50 GB/s for 40 us more: 80 us.
     */
    @Test
    void survivorSpeedsUpWhenTheOtherFlowEnds() {
        Topology t = TestFabrics.singleSwitch(2, new TestFabrics.Spec(2, 450, 64, 50, 0));
        List<Gpu> ranks = TestFabrics.gpus(t, "h0/gpu0", "h1/gpu0", "h1/gpu1");
        Schedule s = new Schedule("test", Collective.SEND_RECV, 3, 1, 0, List.of(new Step("two sends",
                List.of(new Transfer(0, 1, 1e6, 0), new Transfer(0, 2, 3e6, 0)), 1)));
        Timing tm = new FlowNetwork(true, 3).time(List.of(new Job("j", s, ranks, 0)),
                NetworkModel.of(t, List.of(), new RoutingOptions(Multipath.ECMP, false, 0)));
        assertEquals(80, tm.jobs().get(0).timeUs(), 1e-9);
        assertEquals(40, tm.timeline().get(0).endUs(), 1e-9);
    }

    /**
     * Latency: every link has 1 us. Host-to-host route h0/gpu0 - pcie - nic - sw0 - nic - pcie - gpu0 has 6 links,
     * so 6 us; 1,000,000 B at 50 GB/s adds 20 us: 26 us, the same in both backends.
     */
    @Test
    void latencyIsAddedOncePerTransfer() {
        Topology t = TestFabrics.singleSwitch(2, new TestFabrics.Spec(1, 450, 64, 50, 1));
        Schedule s = new Schedule("test", Collective.SEND_RECV, 2, 1, 0, List.of(new Step("send",
                List.of(new Transfer(0, 1, 1e6, 0)), 1)));
        assertEquals(26, time(new FlowNetwork(), t, s, t.gpus(), RoutingOptions.DEFAULT), 1e-9);
        assertEquals(26, time(new LinksNetwork(), t, s, t.gpus(), RoutingOptions.DEFAULT), 1e-9);
    }
}
