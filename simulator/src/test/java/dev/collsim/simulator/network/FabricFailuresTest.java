package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.schedule.RingSchedule;
import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.simulator.schedule.ScheduleRequest;
import dev.collsim.topology.Link;
import dev.collsim.topology.Topology;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Link and NIC failures, with times worked by hand. */
class FabricFailuresTest {

    /** 2 leaves x 2 single-GPU hosts, 2 spines, 25 GB/s per leaf-spine cable (50 GB/s up per leaf: 2:1). */
    private final Topology fabric = TestFabrics.fatTree(4, 2, 2, 25, new TestFabrics.Spec(1, 450, 64, 50, 0));
    private final Schedule ring = new RingSchedule().schedule(
            new ScheduleRequest(Collective.ALL_REDUCE, 100_000_000L, 2, 1, 1));
    private final RoutingOptions spray = new RoutingOptions(Multipath.SPRAY, true, 0);

    private double time(Set<Link> failed) {
        Job a = new Job("A", ring, TestFabrics.gpus(fabric, "h0/gpu0", "h2/gpu0"), 0);
        return new FlowNetwork().time(List.of(a), NetworkModel.of(fabric, failed, spray)).jobs().get(0).timeUs();
    }

    /**
     * One flow per direction between leaves, sprayed over two 25 GB/s spine paths: 50 GB/s, so 2 steps of
     * 50 MB take 2000 us. With cable leaf0-spine1 down, all goes through spine0 at 25 GB/s: 4000 us.
     */
    @Test
    void failingOneOfTwoUplinksHalvesSprayedBandwidth() {
        assertEquals(2000, time(Set.of()), 1e-9);
        Set<Link> down = FabricFailures.byName(fabric, List.of("leaf0>spine1"));
        assertEquals(2, down.size());
        assertEquals(4000, time(down), 1e-9);
    }

    /** Failing both uplinks of leaf0 disconnects it: the error names the NICs. */
    @Test
    void disconnectedFabricIsReported() {
        Set<Link> down = FabricFailures.byName(fabric, List.of("leaf0>spine0", "leaf0>spine1"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> time(down));
        assertTrue(e.getMessage().contains("no working network path"), e.getMessage());
    }

    /** A failed NIC (host 0 has one) leaves its GPU with no NIC. */
    @Test
    void failedNicIsReported() {
        Set<Link> down = FabricFailures.byName(fabric, List.of("h0/nic0"));
        assertEquals(4, down.size());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> time(down));
        assertTrue(e.getMessage().contains("h0/gpu0 has no working NIC"), e.getMessage());
    }

    /** Unknown names are listed with the accepted forms. */
    @Test
    void unknownNameIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FabricFailures.byName(fabric, List.of("leaf9>spine0")));
        assertTrue(e.getMessage().contains("leaf9>spine0") && e.getMessage().contains("A>B"), e.getMessage());
    }

    /** Random cables: seeded, reproducible, both directions of each chosen cable. */
    @Test
    void randomCablesAreSeededAndWhole() {
        Set<Link> a = FabricFailures.byName(fabric, FabricFailures.randomCableNames(fabric, 3, 42));
        assertEquals(a, FabricFailures.byName(fabric, FabricFailures.randomCableNames(fabric, 3, 42)));
        assertEquals(6, a.size());
        assertThrows(IllegalArgumentException.class, () -> FabricFailures.randomCableNames(fabric, 99, 1));
    }
}
