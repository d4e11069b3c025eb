package dev.collsim.simulator.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The invariants every {@link ScheduleAlgorithm} must keep, whatever it is (a contract suite: a new algorithm gets
 * them by extending this class and naming its closed form). For every supported collective and every shape of
 * {@link #shapes()}:
 * <ul>
 * <li>the schedule describes the request (collective, nRanks, nChannels, size);</li>
 * <li>nothing to move (one rank, or 0 bytes) gives no steps; otherwise steps exist and none is empty;</li>
 * <li>every transfer joins two ranks in [0, nRanks) on a channel in [0, nChannels), with bytes > 0; every repeat
 *     count is >= 1;</li>
 * <li>every rank moves at least what the collective's definition forces, for n ranks and S bytes (nccl-tests
 *     sizes): AllGather: each rank must receive the n-1 parts it does not hold, (n-1)/n S; ReduceScatter: each rank
 *     must send the n-1 parts it does not keep, (n-1)/n S; AllReduce: both (its contribution to the other ranks'
 *     results must leave it, their contributions must reach it); AllToAll: each rank sends S/n to each of the n-1
 *     others and receives as much;</li>
 * <li>the bytes moved equal the algorithm's closed form ({@link #expectedTotalBytes}, derived by hand in each
 *     subclass), and, for algorithms whose ranks are symmetric, each rank sends and receives {@code total / n};</li>
 * <li>a collective it does not support is refused with a message naming the algorithm.</li>
 * </ul>
 */
abstract class ScheduleAlgorithmContract {

    /** S: odd, so a split into n x nChannels parts is not whole bytes. */
    static final long S = 1_000_003L;

    /** @return the algorithm under test */
    abstract ScheduleAlgorithm algorithm();

    /**
     * @param r a request with n ranks, L per host, S bytes
     * @return the bytes the algorithm moves over the whole schedule, summed over transfers, by hand
     */
    abstract double expectedTotalBytes(ScheduleRequest r);

    /** @return true when every rank sends and receives the same bytes (false for trees: leaves move less) */
    boolean symmetricRanks() {
        return true;
    }

    /** @return shapes {nRanks, nChannels, ranksPerHost} to check */
    List<int[]> shapes() {
        return List.of(new int[] {2, 1, 1}, new int[] {8, 2, 1}, new int[] {7, 3, 1}, new int[] {16, 4, 8},
                new int[] {12, 2, 4}, new int[] {32, 8, 8});
    }

    private List<ScheduleRequest> requests() {
        List<ScheduleRequest> out = new ArrayList<>();
        for (Collective c : Collective.values()) {
            if (!algorithm().supports(c)) {
                continue;
            }
            for (int[] s : shapes()) {
                out.add(new ScheduleRequest(c, S, s[0], s[1], s[2]));
            }
        }
        assertFalse(out.isEmpty(), algorithm().name() + " supports no collective");
        return out;
    }

    @Test
    void scheduleDescribesTheRequest() {
        for (ScheduleRequest r : requests()) {
            Schedule s = algorithm().schedule(r);
            assertEquals(r.collective(), s.collective());
            assertEquals(r.nRanks(), s.nRanks());
            assertEquals(r.nChannels(), s.nChannels());
            assertEquals(r.sizeBytes(), s.sizeBytes());
        }
    }

    @Test
    void nothingToMoveGivesNoStepsOtherwiseNoEmptyStep() {
        for (ScheduleRequest r : requests()) {
            assertTrue(algorithm().schedule(new ScheduleRequest(r.collective(), S, 1, 1, 1)).steps().isEmpty());
            assertTrue(algorithm().schedule(new ScheduleRequest(r.collective(), 0, r.nRanks(), r.nChannels(),
                    r.ranksPerHost())).steps().isEmpty(), "0 bytes");
            Schedule s = algorithm().schedule(r);
            assertFalse(s.steps().isEmpty(), r.toString());
            for (Step st : s.steps()) {
                assertFalse(st.transfers().isEmpty(), "empty step " + st.label() + " in " + r);
            }
        }
    }

    @Test
    void transfersStayInsideTheRankAndChannelSpace() {
        for (ScheduleRequest r : requests()) {
            for (Step st : algorithm().schedule(r).steps()) {
                assertTrue(st.repeat() >= 1, st.label());
                for (Transfer t : st.transfers()) {
                    assertTrue(t.src() < r.nRanks() && t.dst() < r.nRanks(), t + " in " + r);
                    assertTrue(t.channel() < r.nChannels(), t + " in " + r);
                    assertTrue(t.bytes() > 0, t + " in " + r);
                }
            }
        }
    }

    @Test
    void everyRankMovesWhatTheCollectiveForces() {
        for (ScheduleRequest r : requests()) {
            Schedule s = algorithm().schedule(r);
            int n = r.nRanks();
            double part = (n - 1.0) / n * S;
            double[] received = received(s);
            for (int k = 0; k < n; k++) {
                String at = "rank " + k + " of " + r;
                boolean mustSend = r.collective() != Collective.ALL_GATHER;
                boolean mustReceive = r.collective() != Collective.REDUCE_SCATTER;
                if (mustSend) {
                    assertTrue(s.bytesSentBy(k) >= part * (1 - 1e-12), at + " sends " + s.bytesSentBy(k));
                }
                if (mustReceive) {
                    assertTrue(received[k] >= part * (1 - 1e-12), at + " receives " + received[k]);
                }
            }
        }
    }

    @Test
    void bytesMovedAreTheClosedForm() {
        for (ScheduleRequest r : requests()) {
            Schedule s = algorithm().schedule(r);
            double total = expectedTotalBytes(r);
            assertEquals(total, s.totalBytes(), 1e-9 * total, r.toString());
            if (symmetricRanks()) {
                double[] received = received(s);
                for (int k = 0; k < r.nRanks(); k++) {
                    assertEquals(total / r.nRanks(), s.bytesSentBy(k), 1e-9 * total, "sent by " + k + " in " + r);
                    assertEquals(total / r.nRanks(), received[k], 1e-9 * total, "received by " + k + " in " + r);
                }
            }
        }
    }

    @Test
    void unsupportedCollectiveIsRefusedByName() {
        for (Collective c : Collective.values()) {
            if (algorithm().supports(c)) {
                continue;
            }
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> algorithm().schedule(new ScheduleRequest(c, S, 4, 1, 1)));
            assertTrue(e.getMessage().startsWith(algorithm().name() + " has no schedule for " + c.ncclName()),
                    e.getMessage());
        }
    }

    private static double[] received(Schedule s) {
        double[] in = new double[s.nRanks()];
        for (Step st : s.steps()) {
            for (Transfer t : st.transfers()) {
                in[t.dst()] += st.repeat() * t.bytes();
            }
        }
        return in;
    }
}
