package dev.collsim.simulator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rank placement policies and hostfiles. */
class PlacementTest {

    private final Topology t = TestFabrics.singleSwitch(3, new TestFabrics.Spec(4, 450, 64, 50, 0));

    private static List<String> ids(List<Gpu> g) {
        return g.stream().map(Gpu::id).toList();
    }

    @Test
    void contiguousFillsHostsInOrder() {
        assertEquals(List.of("h0/gpu0", "h0/gpu1", "h0/gpu2", "h0/gpu3", "h1/gpu0"),
                ids(Placement.place(Placement.Policy.CONTIGUOUS, t.gpus(), 5, 0)));
    }

    @Test
    void roundRobinPutsConsecutiveRanksOnDifferentHosts() {
        assertEquals(List.of("h0/gpu0", "h1/gpu0", "h2/gpu0", "h0/gpu1", "h1/gpu1"),
                ids(Placement.place(Placement.Policy.ROUND_ROBIN, t.gpus(), 5, 0)));
    }

    @Test
    void randomIsSeededAndDistinct() {
        List<Gpu> a = Placement.place(Placement.Policy.RANDOM, t.gpus(), 12, 7);
        assertEquals(a, Placement.place(Placement.Policy.RANDOM, t.gpus(), 12, 7));
        assertEquals(12, new HashSet<>(a).size());
        assertTrue(!a.equals(Placement.place(Placement.Policy.CONTIGUOUS, t.gpus(), 12, 7)));
    }

    @Test
    void tooManyRanksIsRejected() {
        // 12 free GPUs, 13 ranks: a refused request (PlacementException), which the flow entry point reports as a
        // usage error; a plain IllegalArgumentException would be read as a bug
        PlacementException e = assertThrows(PlacementException.class,
                () -> Placement.place(Placement.Policy.CONTIGUOUS, t.gpus(), 13, 0));
        assertEquals("cannot place 13 ranks on 12 free GPUs", e.getMessage());
        assertThrows(PlacementException.class, () -> Placement.Policy.parse("packed"));
    }

    @Test
    void hostfileListsHostsAndSlots() throws InputException {
        List<Gpu> g = Placement.fromHostfile("hosts.txt", "# two hosts\nh2 slots=2\n0\n", t.gpus());
        assertEquals(List.of("h2/gpu0", "h2/gpu1", "h0/gpu0", "h0/gpu1", "h0/gpu2", "h0/gpu3"), ids(g));
    }

    @Test
    void badHostfileLinesAreAllReported() {
        InputException e = assertThrows(InputException.class,
                () -> Placement.fromHostfile("hosts.txt", "h0\nnode7\nh1 slots=9\n", t.gpus()));
        assertEquals(2, e.problems().size());
        assertEquals("hosts.txt:2:1: host: unknown host 'node7'; allowed: a host index or h<index> of a host with"
                + " free GPUs: 0..2", e.problems().get(0).toString());
        assertEquals(3, e.problems().get(1).line());
        assertEquals(4, e.problems().get(1).column());
    }

    /** Found by the parse audit: a slot count beyond an int was a NumberFormatException; now a located problem. */
    @Test
    void slotCountBeyondAnIntIsAProblem() {
        InputException e = assertThrows(InputException.class,
                () -> Placement.fromHostfile("hosts.txt", "h1 slots=99999999999\n", t.gpus()));
        assertEquals(1, e.problems().size());
        assertEquals("hosts.txt:1:4: slots: 'slots=99999999999' is not allowed; use slots=N with N in 1..4 (free GPUs"
                + " on host 1)", e.problems().get(0).toString());
    }

    /** Host 1 exists but another job holds all its GPUs: the problem says so instead of "unknown host". */
    @Test
    void hostWhoseGpusAreTakenIsReportedAsFull() {
        List<Gpu> free = t.gpus().stream().filter(g -> g.host() != 1).toList();
        InputException e = assertThrows(InputException.class,
                () -> Placement.fromHostfile("hosts.txt", "h1\nh7\n", free, 3));
        assertEquals("hosts.txt:1:1: host: host 'h1' has no free GPUs (other jobs hold them all); allowed: a host"
                + " index or h<index> of a host with free GPUs: 0, 2", e.problems().get(0).toString());
        assertEquals("hosts.txt:2:1: host: unknown host 'h7'; allowed: a host index or h<index> of a host with free"
                + " GPUs: 0, 2", e.problems().get(1).toString());
    }
}
