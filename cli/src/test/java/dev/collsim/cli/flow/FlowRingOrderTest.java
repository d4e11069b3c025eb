package dev.collsim.cli.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@code --ring-order}: NCCL builds its rings from the topology, so on the same hosts a round-robin placement gives
 * the very ring a contiguous one gives (each host's GPUs together, hosts 0..3, GPUs by index): the same time to the
 * last digit. Walking the ring in rank numbers instead ({@code --ring-order rank}) makes every one of the 32 hops
 * cross hosts with one channel (the placement's host groups are of one rank), so it must be far slower.
 */
class FlowRingOrderTest {

    private static String[] args(String placement, String... more) {
        String[] base = {"predict", "allreduce", "-c", "dgx-h100x4", "-b", "256M", "-e", "256M", "--backend", "flow",
            "--fabric", "fat-tree", "--oversubscription", "2:1", "--leaf-radix", "16", "--placement", placement};
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    private static double time(String... a) {
        FlowCliErrorsTest.Run r = FlowCliErrorsTest.run(a);
        assertEquals(0, r.code(), r.err());
        String row = r.out().lines().filter(l -> l.trim().startsWith("268435456")).findFirst().orElseThrow();
        return Double.parseDouble(row.trim().split("\\s+")[5]);
    }

    @Test
    void topologyOrderMakesPlacementOrderIrrelevantOnTheSameHosts() {
        double contiguous = time(args("contiguous"));
        double roundRobin = time(args("round-robin"));
        assertEquals(contiguous, roundRobin, 0);
        double byRank = time(args("round-robin", "--ring-order", "rank"));
        assertTrue(byRank > 3 * roundRobin, byRank + " vs " + roundRobin);
    }

    @Test
    void unknownRingOrderIsAUsageError() {
        FlowCliErrorsTest.Run r = FlowCliErrorsTest.run(args("contiguous", "--ring-order", "ring"));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("unknown --ring-order 'ring'; allowed: topology, rank"), r.err());
    }
}
