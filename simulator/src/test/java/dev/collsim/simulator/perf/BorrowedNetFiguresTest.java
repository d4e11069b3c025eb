package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.NetworkClass;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * predict, compare and plan say when a network class runs on another class's figures, and only then. The notes'
 * claims are checked against the figures themselves: EFA and socket carry exactly InfiniBand's profile, TCPXO its
 * step cost plus its own hop latency, Slingshot InfiniBand's step cost.
 */
class BorrowedNetFiguresTest {

    private static final PerformanceParameters PP = PerformanceParameters.DEFAULTS;

    /** EFA: InfiniBand's step cost (an assumption), its own hop latency and line-rate share, and the note says so. */
    @Test
    void efaCarriesInfiniBandsStepAndSaysSo() {
        NetClassProfile ib = PP.netProfile(NetworkClass.INFINIBAND);
        NetClassProfile efa = PP.netProfile(NetworkClass.EFA);
        assertEquals(ib.stepUs(), efa.stepUs(), "EFA no longer uses InfiniBand's step cost: the note is wrong");
        Optional<String> note = NetClassDefaults.borrowedNote(NetworkClass.EFA, efa);
        assertTrue(note.isPresent() && note.get().contains("InfiniBand's step cost") && note.get().contains("an assumption")
                && note.get().contains("20 us added per hop") && note.get().contains("82 % of the line rate"),
                String.valueOf(note));
    }

    /** Socket: InfiniBand's step and hop, its own stream rate (17.8 Gb/s of NVIDIA/nccl#450), and the note says so. */
    @Test
    void socketHasItsOwnStreamRateAndInfiniBandsStepAndHop() {
        NetClassProfile ib = PP.netProfile(NetworkClass.INFINIBAND);
        NetClassProfile socket = PP.netProfile(NetworkClass.SOCKET);
        assertEquals(ib.stepUs(), socket.stepUs());
        assertEquals(ib.hopLatencyUs(), socket.hopLatencyUs());
        assertEquals(17.8 / 8, socket.streamGBps(), 1e-12);
        assertEquals(0, ib.streamGBps());
        String note = NetClassDefaults.borrowedNote(NetworkClass.SOCKET, socket).orElseThrow();
        assertTrue(note.contains("2.225 GB/s each") && note.contains("InfiniBand's step cost"), note);
        assertTrue(NetClassDefaults.borrowedNote(NetworkClass.SOCKET, new NetClassProfile(10, 0, 1, 4)).isEmpty());
    }

    /**
     * TCPXO's network step is InfiniBand's (10 us) plus its own hop latency (48 us, the A3 Mega run's floor: (123.0 -
     * 26.2) / 2 rounded down), 58 us, and the note says that it is derived from InfiniBand's.
     */
    @Test
    void tcpxoStepIsInfiniBandsPlusItsHopLatency() {
        NetClassProfile tcpxo = PP.netProfile(NetworkClass.TCPXO);
        assertEquals(48, tcpxo.hopLatencyUs());
        assertEquals(PP.netProfile(NetworkClass.INFINIBAND).stepUs() + 48, tcpxo.stepUs());
        assertEquals(58, tcpxo.stepUs());
        String note = NetClassDefaults.borrowedNote(NetworkClass.TCPXO, tcpxo).orElseThrow();
        assertTrue(note.contains("InfiniBand's step cost plus its own hop latency, 58 us per network send"), note);
    }

    /** Slingshot: InfiniBand's step cost by assumption (no published figure), and the note says so. */
    @Test
    void slingshotBorrowsTheStepCostAndSaysSo() {
        NetClassProfile sl = PP.netProfile(NetworkClass.SLINGSHOT);
        assertEquals(PP.netProfile(NetworkClass.INFINIBAND).stepUs(), sl.stepUs());
        String note = NetClassDefaults.borrowedNote(NetworkClass.SLINGSHOT, sl).orElseThrow();
        assertTrue(note.contains("InfiniBand's step cost of 10 us") && note.contains("an assumption"), note);
        assertTrue(NetClassDefaults.borrowedNote(NetworkClass.SLINGSHOT, new NetClassProfile(30, 0, 1)).isEmpty());
    }

    @Test
    void noNoteForOwnOrCalibratedFigures() {
        assertTrue(NetClassDefaults.borrowedNote(NetworkClass.INFINIBAND, PP.netProfile(NetworkClass.INFINIBAND))
                .isEmpty());
        assertTrue(NetClassDefaults.borrowedNote(NetworkClass.ROCE, PP.netProfile(NetworkClass.ROCE)).isEmpty());
        // a calibrated EFA profile (its own step cost) is no longer InfiniBand's
        assertTrue(NetClassDefaults.borrowedNote(NetworkClass.EFA, new NetClassProfile(25, 0, 1)).isEmpty());
    }
}
