package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.schedule.DirectAllToAllSchedule;
import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.simulator.schedule.ScheduleRequest;
import dev.collsim.topology.Topology;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Direct AllToAll timed by the exact flow backend (the reference that step sampling is tested against), worked by
 * hand on 2 hosts x 2 GPUs on one switch ({@link TestFabrics}: NVLink 200 GB/s per GPU, PCIe 64 GB/s, NIC 50 GB/s,
 * 0.5 us per link), ECMP with PXN.
 */
class DirectAllToAllFlowTest {

    /**
     * Ranks 0, 1 = h0/gpu0, h0/gpu1; 2, 3 = h1/gpu0, h1/gpu1; 4 MB per rank, so 1,000,000 B per transfer; one step
     * (3 rounds &lt;= 8 in flight). Transfers: in-host 0-1, 1-0, 2-3, 3-2 (gpu &gt; nvs &gt; gpu, 2 links, active at
     * 1.0 us); same rail 0-2, 1-3, 2-0, 3-1 (gpu &gt; pcie &gt; nic &gt; sw0 &gt; nic &gt; pcie &gt; gpu, 6 links,
     * active at 3.0 us); across rails 0-3, 1-2, 2-1, 3-0 by PXN (first over NVLink to the other GPU of the host,
     * then its NIC: 8 links, active at 4.0 us). Each NIC's uplink and downlink carry one same-rail and one PXN flow.
     * <ul>
     * <li>Same rail: alone 1.0 us at 50,000 B/us (50,000 B), then 25,000 B/us with the PXN flow: 950,000 B in
     * 38 us, end 42.0 us.</li>
     * <li>PXN: 25,000 B/us from 4.0 to 42.0 us (950,000 B), then alone at 50,000 B/us: 50,000 B in 1 us, end 43.0
     * us, the step's end.</li>
     * <li>In-host, e.g. 1-0: alone at 200,000 B/us from 1.0 to 4.0 us (600,000 B); then it shares gpu1 &gt; nvs and
     * nvs &gt; gpu0 with PXN flow 1-2 (frozen at 25,000 by the NIC): 175,000 B/us, 400,000 B in 2.2857142857 us,
     * end 6.2857142857 us.</li>
     * </ul>
     */
    @Test
    void twoHostsOfTwoGpusOnOneSwitchByHand() {
        Topology t = TestFabrics.singleSwitch(2, new TestFabrics.Spec(2, 200, 64, 50, 0.5));
        Schedule s = new DirectAllToAllSchedule().schedule(new ScheduleRequest(Collective.ALL_TO_ALL, 4_000_000L, 4,
                1, 2));
        Timing tm = new FlowNetwork(true, 3).time(List.of(new Job("a2a", s, t.gpus(), 0)), NetworkModel.of(t));
        assertEquals(43.0, tm.makespanUs(), 1e-9);
        Map<String, Double> end = new HashMap<>();
        for (FlowRecord r : tm.timeline()) {
            end.put(r.src() + "-" + r.dst(), r.endUs());
        }
        assertEquals(12, end.size());
        for (String inHost : List.of("0-1", "1-0", "2-3", "3-2")) {
            assertEquals(1.0 + 3.0 + 400_000 / 175_000.0, end.get(inHost), 1e-9, inHost);
        }
        for (String sameRail : List.of("0-2", "1-3", "2-0", "3-1")) {
            assertEquals(42.0, end.get(sameRail), 1e-9, sameRail);
        }
        for (String pxn : List.of("0-3", "1-2", "2-1", "3-0")) {
            assertEquals(43.0, end.get(pxn), 1e-9, pxn);
        }
    }
}
