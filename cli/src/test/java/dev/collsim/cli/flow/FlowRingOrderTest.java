package dev.collsim.cli.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.util.Arrays;
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
        CliRun r = CliRun.run(a);
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

    /**
     * Tree: NCCL runs its two trees on a pair of channels sharing one NIC, so by default the flow backend gives a
     * tree twice the GPUs per host in channels (16 on a DGX H100): 8 pairs, one per NIC. With 8 channels only 4
     * pairs, so only 4 of the 8 NICs carry tree traffic with the same load per pair: the NIC-bound time doubles,
     * busbw halves (ratio 2, less a little per-step latency that does not scale).
     */
    @Test
    void treeUsesAPairOfChannelsPerNicByDefault() {
        String[] base = {"predict", "allreduce", "-c", "dgx-h100x4", "-b", "1G", "-e", "1G", "--backend", "flow",
            "--schedule", "tree"};
        CliRun r = CliRun.run(base);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("# Schedule: Tree, 16 channels"), r.out());
        String[] eight = Arrays.copyOf(base, base.length + 2);
        eight[base.length] = "--channels";
        eight[base.length + 1] = "8";
        double ratio = busBw(r.out()) / busBw(CliRun.run(eight).out());
        assertTrue(ratio > 1.8 && ratio < 2.05, "16 vs 8 channels: " + ratio);
    }

    private static double busBw(String out) {
        String row = out.lines().filter(l -> l.trim().startsWith("1073741824")).findFirst().orElseThrow();
        return Double.parseDouble(row.trim().split("\\s+")[7]);
    }

    /**
     * 16 ranks placed at random on 4 hosts of 8 GPUs land unevenly (seed 3: 3, 5, 2 and 6 per host). The ring still
     * groups each host's GPUs and rotates its channels inside every group; with {@code --schedule ring} channels
     * default to the widest group (6), by default they are NCCL's count. The host with 2 GPUs has 2 NICs, so its
     * channels share 2 x 50 GB/s whatever their number: ring busbw is that host's 100 GB/s (ring busbw = the
     * smallest per-host bandwidth), less a little per-step latency. A tree cannot group unequal hosts and says so in
     * a warning.
     */
    @Test
    void unevenPlacementGroupsTheRingAndWarnsForOtherSchedules() {
        String[] base = {"predict", "allreduce", "-c", "dgx-h100x4", "-b", "1G", "-e", "1G", "--backend", "flow",
            "--ranks", "16", "--placement", "random", "--seed", "3"};
        CliRun r = CliRun.run(with(base, "--schedule", "ring"));
        assertEquals(0, r.code(), r.err());
        String schedule = r.out().lines().filter(l -> l.startsWith("# Schedule:")).findFirst().orElseThrow();
        assertTrue(schedule.contains("6 channels") && schedule.contains("host groups of ["), schedule);
        double busBw = busBw(r.out());
        assertTrue(busBw > 97 && busBw <= 100, "busbw " + busBw);
        assertTrue(r.out().lines().noneMatch(l -> l.contains("Warning:")), r.out());
        CliRun nccl = CliRun.run(base);
        assertEquals(0, nccl.code(), nccl.err());
        assertTrue(nccl.out().contains("(NCCL's choice: Ring/Simple), 16 ranks (host groups of ["), nccl.out());
        assertTrue(busBw(nccl.out()) > 97 && busBw(nccl.out()) <= 100, nccl.out());
        assertTrue(CliRun.run(with(base, "--schedule", "tree")).out().lines()
                .anyMatch(l -> l.contains("Warning: the placement gives hosts different numbers of ranks")));
    }

    private static String[] with(String[] a, String... more) {
        String[] out = Arrays.copyOf(a, a.length + more.length);
        System.arraycopy(more, 0, out, a.length, more.length);
        return out;
    }

    @Test
    void unknownRingOrderIsAUsageError() {
        CliRun r = CliRun.run(args("contiguous", "--ring-order", "ring"));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("unknown --ring-order 'ring'; allowed: topology, rank"), r.err());
    }
}
