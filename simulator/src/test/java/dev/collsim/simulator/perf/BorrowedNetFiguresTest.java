package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.NetworkClass;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * predict, compare and plan say when a network class runs on another class's figures, and only then. The notes'
 * claims are checked against the figures themselves: EFA and socket carry exactly InfiniBand's profile, TCPXO its
 * step cost, Slingshot its step cost.
 */
class BorrowedNetFiguresTest {

    private static final PerformanceParameters PP = PerformanceParameters.DEFAULTS;

    @Test
    void efaCarriesInfiniBandsFiguresAndSaysSo() {
        NetClassProfile ib = PP.netProfile(NetworkClass.INFINIBAND);
        assertEquals(ib, PP.netProfile(NetworkClass.EFA), "EFA no longer uses InfiniBand's figures: the note is wrong");
        Optional<String> note = NetClassDefaults.borrowedNote(NetworkClass.EFA, PP.netProfile(NetworkClass.EFA));
        assertTrue(note.isPresent() && note.get().contains("InfiniBand's figures") && note.get().contains("an assumption"),
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

    @Test
    void tcpxoBorrowsOnlyTheStepCost() {
        assertEquals(PP.netProfile(NetworkClass.INFINIBAND).stepUs(), PP.netProfile(NetworkClass.TCPXO).stepUs());
        assertTrue(NetClassDefaults.borrowedNote(NetworkClass.TCPXO, PP.netProfile(NetworkClass.TCPXO)).get()
                .contains("InfiniBand's step cost"));
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
