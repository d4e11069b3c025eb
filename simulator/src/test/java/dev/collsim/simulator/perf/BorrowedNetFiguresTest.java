package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.NetworkClass;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * predict, compare and plan say when a network class runs on another class's figures, and only then. The notes'
 * claims are checked against the figures themselves: EFA and socket carry exactly InfiniBand's profile, TCPXO its
 * step cost.
 */
class BorrowedNetFiguresTest {

    private static final PerformanceParameters PP = PerformanceParameters.DEFAULTS;

    @Test
    void efaAndSocketCarryInfiniBandsFiguresAndSaySo() {
        NetClassProfile ib = PP.netProfile(NetworkClass.INFINIBAND);
        for (NetworkClass c : new NetworkClass[] {NetworkClass.EFA, NetworkClass.SOCKET}) {
            assertEquals(ib, PP.netProfile(c), c + " no longer uses InfiniBand's figures: the note would be wrong");
            Optional<String> note = NetClassDefaults.borrowedNote(c, PP.netProfile(c));
            assertTrue(note.isPresent() && note.get().contains("InfiniBand's figures")
                    && note.get().contains("an assumption"), String.valueOf(note));
        }
        assertTrue(NetClassDefaults.borrowedNote(NetworkClass.SOCKET, PP.netProfile(NetworkClass.SOCKET)).get()
                .contains("no GPUDirect RDMA"));
    }

    @Test
    void tcpxoBorrowsOnlyTheStepCost() {
        assertEquals(PP.netProfile(NetworkClass.INFINIBAND).stepUs(), PP.netProfile(NetworkClass.TCPXO).stepUs());
        assertTrue(NetClassDefaults.borrowedNote(NetworkClass.TCPXO, PP.netProfile(NetworkClass.TCPXO)).get()
                .contains("InfiniBand's step cost"));
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
