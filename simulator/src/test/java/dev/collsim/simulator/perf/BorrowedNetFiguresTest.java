package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.NetworkClass;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * predict, compare and plan say when a network class runs on another class's figures, and only then. The notes'
 * claims are checked against the figures themselves: EFA and socket carry exactly InfiniBand's profile, TCPXO its
 * step cost plus its own hop latency, TCPX TCPXO's hop latency and the socket class's stream rate, Slingshot
 * InfiniBand's step cost.
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
     * TCPX's network step, 58 us, is what the two public GPUDirect-TCPX runs that forced Ring/Simple show per ring
     * step (43-57 us, SkyPilot; 52-77 us, the dstack A3 High AllGather), not InfiniBand's 10 us plus the hop (24 us);
     * its TCP stream rate is the socket class's, and its hop latency and line-rate share TCPXO's. The note says so.
     */
    @Test
    void tcpxStepIsReadOnTcpxRunsAndItsStreamsAreTheSocketClasss() {
        NetClassProfile tcpx = PP.netProfile(NetworkClass.TCPX);
        NetClassProfile tcpxo = PP.netProfile(NetworkClass.TCPXO);
        assertEquals(58, tcpx.stepUs());
        assertTrue(tcpx.stepUs() >= 43 && tcpx.stepUs() <= 77);
        assertTrue(tcpx.stepUs() != PP.netProfile(NetworkClass.INFINIBAND).stepUs() + tcpx.hopLatencyUs());
        assertEquals(PP.netProfile(NetworkClass.SOCKET).streamGBps(), tcpx.streamGBps());
        assertEquals(tcpxo.hopLatencyUs(), tcpx.hopLatencyUs());
        assertEquals(tcpxo.bwFraction(), tcpx.bwFraction());
        String note = NetClassDefaults.borrowedNote(NetworkClass.TCPX, tcpx).orElseThrow();
        assertTrue(note.contains("58 us per network send") && note.contains("2.225 GB/s per TCP stream"), note);
    }

    /**
     * TCPXO's hop latency, 14 us, is read on the A3 Mega run under the settings it ran with (TcpxoProfileFiguresTest,
     * validation); its step is InfiniBand's by assumption, and below the most the A3 Mega AllGathers allow: a Ring
     * AllGather of 64 MiB on 2 x 8 ranks sends 15 ring steps x 2 slices = 30 sends per connection, 4 in flight, each
     * slot back after 2 steps, so 30 / 4 x 2 = 15 steps, within the 447.4 us measured
     * (A-allgather-2x8xH100-gcp-a3mega-tcpxo-dstack.txt line 20): at most 29.8 us a step. The note says so.
     */
    @Test
    void tcpxoStepIsInfiniBandsAndWithinWhatItsAllGathersAllow() {
        NetClassProfile tcpxo = PP.netProfile(NetworkClass.TCPXO);
        assertEquals(14, tcpxo.hopLatencyUs());
        assertEquals(PP.netProfile(NetworkClass.INFINIBAND).stepUs(), tcpxo.stepUs());
        assertTrue(15 * tcpxo.stepUs() <= 447.4);
        assertTrue(15 * PP.netProfile(NetworkClass.TCPX).stepUs() > 447.4);
        String note = NetClassDefaults.borrowedNote(NetworkClass.TCPXO, tcpxo).orElseThrow();
        assertTrue(note.contains("InfiniBand's step cost of 10 us") && note.contains("an assumption"), note);
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
