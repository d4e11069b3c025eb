package dev.collsim.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.units.Bandwidth;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * NCCL numbers a host's NET devices 0, 1, 2, ... in the net plugin's order (2.28.9 {@code src/graph/topo.cc
 * ncclTopoPopulateNics}); collsim's readers name NIC k {@code nic<k>}, so NET dev 10 comes after NET dev 9, not
 * after 1 as text comparison of the ids would put it.
 */
class NicNetDevOrderTest {

    private static Nic nic(String id, int host) {
        return new Nic(id, host, null, Bandwidth.ofGbits(400), 1, true, -1, "");
    }

    @Test
    void netDevTenFollowsNineAndHostsComeFirst() {
        List<String> sorted = Stream.of(nic("h1/nic0", 1), nic("h0/nic10", 0), nic("h0/nic2", 0), nic("h0/nic9", 0),
                nic("h0/nic1", 0)).sorted(Nic.NET_DEV_ORDER).map(Nic::id).toList();
        assertEquals(List.of("h0/nic1", "h0/nic2", "h0/nic9", "h0/nic10", "h1/nic0"), sorted);
    }

    /** Two ids ending in one number (two NIC kinds of an InfraGraph host) keep a fixed order: by the rest of the id. */
    @Test
    void equalNetDevsAreOrderedByTheirIds() {
        List<String> sorted = Stream.of(nic("h0/storage0", 0), nic("h0/cx7_1", 0), nic("h0/cx7_0", 0))
                .sorted(Nic.NET_DEV_ORDER).map(Nic::id).toList();
        assertEquals(List.of("h0/cx7_0", "h0/storage0", "h0/cx7_1"), sorted);
    }
}
