package dev.collsim.validation.diagnose;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.validation.diagnose.Finding.Kind;
import dev.collsim.validation.ingest.MeasurementReader;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Causes the corpus does not show, on small hand-written logs in the formats of NCCL 2.2x INFO output,
 * nccl-tests 2.19.6 tables and lspci -vv.
 */
class DiagnoserSyntheticTest {

    private static final String RANKS_2H = """
            #  Rank  0 Group  0 Pid 1 on a device  0 [0x1b] NVIDIA H100 80GB HBM3
            #  Rank  1 Group  0 Pid 1 on a device  1 [0x43] NVIDIA H100 80GB HBM3
            #  Rank  2 Group  0 Pid 1 on a device  2 [0x52] NVIDIA H100 80GB HBM3
            #  Rank  3 Group  0 Pid 1 on a device  3 [0x61] NVIDIA H100 80GB HBM3
            #  Rank  4 Group  0 Pid 2 on b device  0 [0x1b] NVIDIA H100 80GB HBM3
            #  Rank  5 Group  0 Pid 2 on b device  1 [0x43] NVIDIA H100 80GB HBM3
            #  Rank  6 Group  0 Pid 2 on b device  2 [0x52] NVIDIA H100 80GB HBM3
            #  Rank  7 Group  0 Pid 2 on b device  3 [0x61] NVIDIA H100 80GB HBM3
            """;
    private static final String TABLE = """
            #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
               268435456      67108864     float     sum      -1   5000.0   53.69   93.95      0   5000.0   53.69   93.95      0
               536870912     134217728     float     sum      -1  10000.0   53.69   93.95      0  10000.0   53.69   93.95      0
              1073741824     268435456     float     sum      -1  20000.0   53.69   93.95      0  20000.0   53.69   93.95      0
            """;

    private static Set<Kind> kinds(String text) throws Exception {
        var ds = MeasurementReader.read("synthetic.txt", text);
        return new Diagnoser().diagnose(ds, List.of(text.split("\n"))).get(0).findings().stream()
                .map(Finding::kind).collect(Collectors.toSet());
    }

    @Test
    void gdrOffFromTransportLines() throws Exception {
        String log = "#@ hardware: 2 hosts x 4x H100\n# Collective test starting: all_reduce_perf\n" + RANKS_2H
                + "a:1:1 [0] NCCL INFO Channel 00/0 : 3[3] -> 4[0] [send] via NET/IB/0\n"
                + "a:1:1 [0] NCCL INFO 16 coll channels, 0 collnet channels, 16 nvls channels, 16 p2p channels, 2 p2p channels per peer\n"
                + TABLE;
        assertTrue(kinds(log).contains(Kind.GDR_OFF));
    }

    @Test
    void socketAndShmAndNvlsOff() throws Exception {
        String log = "# Collective test starting: all_reduce_perf\n" + RANKS_2H
                + "a:1:1 [0] NCCL INFO Using network Socket\n"
                + "a:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via SHM/direct/direct\n"
                + "a:1:1 [0] NCCL INFO 4 coll channels, 0 collnet channels, 0 nvls channels, 4 p2p channels, 1 p2p channels per peer\n"
                + TABLE;
        Set<Kind> k = kinds(log);
        assertTrue(k.containsAll(Set.of(Kind.SOCKET_INSTEAD_OF_IB, Kind.P2P_THROUGH_CPU, Kind.NVLS_OFF,
                Kind.TOO_FEW_CHANNELS)), k.toString());
    }

    @Test
    void ll128ForcedOnPcie() throws Exception {
        String text = """
                #@ hardware: 4x GeForce RTX 4090
                #@ env: NCCL_PROTO=LL128
                # Collective test starting: all_reduce_perf
                #  Rank  0 Group  0 Pid 1 on a device  0 [0x01] NVIDIA GeForce RTX 4090
                #  Rank  1 Group  0 Pid 1 on a device  1 [0x25] NVIDIA GeForce RTX 4090
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                    33554432       8388608     float     sum      -1   2013.3   16.67   16.67      0   2013.0   16.67   16.67      0
                """;
        assertTrue(kinds(text).contains(Kind.LL128_FORCED));
    }

    @Test
    void pcieDowngradedFromLspci() throws Exception {
        String text = "# Collective test starting: all_reduce_perf\n" + RANKS_2H
                + "\t\tLnkCap:\tPort #0, Speed 32GT/s, Width x16, ASPM not supported\n"
                + "\t\tLnkSta:\tSpeed 16GT/s (downgraded), Width x8 (downgraded)\n" + TABLE;
        assertTrue(kinds(text).contains(Kind.PCIE_DOWNGRADED));
    }

    @Test
    void unevenRanksPerHost() throws Exception {
        String text = "# Collective test starting: all_reduce_perf\n" + RANKS_2H.replace("on b device  0", "on a device  4")
                + TABLE.replace("93.95", "94.33");
        assertTrue(kinds(text).contains(Kind.SLOW_RANK_OR_HOST));
    }

    @Test
    void maxChannelsCap() throws Exception {
        String text = "#@ env: NCCL_MAX_NCHANNELS=2\n# Collective test starting: all_reduce_perf\n" + RANKS_2H + TABLE;
        assertTrue(kinds(text).contains(Kind.TOO_FEW_CHANNELS));
    }
    /**
     * Times written in seconds instead of nccl-tests' microseconds: the rows of {@link #TABLE} with 5000.0 us made
     * 0.005 (and so on). size/time is then 268435456 B / 0.005 us = 5.37e7 GB/s against the printed algbw 53.69
     * (nccl-tests 2.19.6 doc/PERFORMANCE.md: algbw = size / time), a factor of 1e6; the check used to skip every time
     * below 1 us and said nothing. The same rows in microseconds (268435456 / 5000 us = 53.69 GB/s) are consistent.
     */
    @Test
    void timesInSecondsAreInconsistentData() throws Exception {
        String header = "# Collective test starting: all_reduce_perf\n" + RANKS_2H;
        String seconds = TABLE.replace("   5000.0 ", "    0.005 ").replace("  10000.0 ", "     0.01 ")
                .replace("  20000.0 ", "     0.02 ");
        assertTrue(seconds.contains("0.005") && !seconds.contains("5000.0"), seconds);
        var ds = MeasurementReader.read("synthetic.txt", header + seconds);
        List<Finding> f = new Diagnoser().diagnose(ds, List.of(seconds.split("\n"))).get(0).findings();
        assertTrue(f.stream().anyMatch(x -> x.kind() == Kind.INCONSISTENT_DATA
                && x.message().contains("algbw 53.69 GB/s does not equal size/time = 53687091.20 GB/s (1.00e+06 x:")),
                f.toString());
        assertFalse(kinds(header + TABLE).contains(Kind.INCONSISTENT_DATA));
    }
}
