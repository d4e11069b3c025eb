package dev.collsim.cli;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The readers' warnings reach the user: each on stderr with the file as given and its line, then their count; diagnose
 * reports them as findings. Bad bytes and sizes give a clear message, not a stack trace or a made-up row. The
 * reproducers are the modules' fuzz seeds (validation/topology-model src/test/resources/fuzz).
 */
class ReaderWarningsCliTest {

    private static final Path VFUZZ = Path.of("../validation/src/test/resources/fuzz");
    private static final Path TFUZZ = Path.of("../topology-model/src/test/resources/fuzz");

    /** s04 (an NCCL WARN at line 45 inside the table): one warning line and its count on stderr; diagnose names it. */
    @Test
    void diagnoseMentionsAnNcclWarnInsideTheTable() {
        String f = VFUZZ.resolve("s04-ncclt-warn-in-table.txt").toString();
        CliRun r = run("diagnose", f);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("collsim: warning: " + f + ":45: NCCL WARN inside the results table (Cuda failure"
                + " 'an illegal memory access was encountered')"), r.err());
        assertTrue(r.err().contains("collsim: 1 warning in " + f), r.err());
        assertTrue(r.out().contains("PROBLEM nccl warn: NCCL WARN inside the results table"), r.out());
        assertFalse(r.out().contains("no problem found"), r.out());
    }

    /** s05 (time -207.5 at line 40): compare prints the warning and compares the 31 other sizes. */
    @Test
    void compareWarnsAboutTheDroppedRow() {
        String f = VFUZZ.resolve("s05-ncclt-negative-time.txt").toString();
        CliRun r = run("compare", "-m", f);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("collsim: warning: " + f + ":40: out-of-place time -207.5 us: no measured value"
                + " is below zero; the row is dropped"), r.err());
        assertTrue(r.err().contains("collsim: 1 warning in " + f), r.err());
        assertFalse(r.out().contains("  262144 "), "the dropped size is not compared");
    }

    /** s01: topo check counts the warning on stdout and prints it on stderr; problems go to stderr too. */
    @Test
    void topoCheckCountsWarnings() {
        String f = TFUZZ.resolve("s01-smi-asymmetric-nv.txt").toString();
        CliRun r = run("topo", "check", "-c", f);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("OK: s01-smi-asymmetric-nv: 1 host, 8 GPUs;"), r.out());
        assertTrue(r.out().contains("; 1 warning (on stderr)"), r.out());
        assertTrue(r.err().contains("collsim: warning: " + f + ": GPU0/GPU1 is NV6 at 12:10"), r.err());
    }

    /** Random bytes: exit 3 with the file, line, column and byte offset, in every reading command. */
    @Test
    void bytesThatAreNotText(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("noise.txt");
        Files.write(f, new byte[] {'#', '\n', (byte) 0x80, 'x'});
        String expected = f + ":2:1: not UTF-8 text: byte 0x80 at byte offset 2";
        for (String[] cmd : new String[][] {{"diagnose", f.toString()}, {"compare", "-m", f.toString()},
            {"topo", "check", "-c", f.toString()}, {"predict", "allreduce", "-c", f.toString()}}) {
            CliRun r = run(cmd);
            assertEquals(3, r.code(), String.join(" ", cmd) + ": " + r.err());
            assertTrue(r.err().contains(expected), String.join(" ", cmd) + ": " + r.err());
            assertFalse(r.err().contains("Input length") || r.err().contains("\tat "), r.err());
        }
    }

    /**
     * A 0-byte all_reduce runs nothing (NCCL discards an empty collective, src/enqueue.cc taskAppend), but nccl-tests
     * -b 0 prints a row for it: size 0, count 0, algbw and busbw 0.00 (src/common.cu TimeTest; the public RTX 2080 Ti
     * file, lines 62-63). The analytical backend prints that row, its time the per-call overhead alone
     * (launchOverheadUs, 1.5 us in the documented defaults, --calibration none), no algorithm, protocol, channel or
     * NCCL estimate. all_gather on 8 ranks: nccl-tests rounds the per-rank count down to 16 bytes (all_gather.cu), so
     * 8, 16, 32 and 64 bytes are 0 elements and print size 0 (64 B = 16 floats, 2 per rank); 128 B = 4 per rank runs.
     * The flow backends leave such sizes out, and refuse a sweep of only such sizes.
     */
    @Test
    void zeroElementSizesPrintNcclTestsEmptyRowsOrAreLeftOutByTheFlowBackends() {
        CliRun r = run("predict", "allreduce", "-c", "dgx-h100", "-b", "0", "-e", "0", "--calibration", "none");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("# size 0 of all_reduce on 8 ranks is 0 float elements per rank and NCCL discards"
                + " an empty collective (src/enqueue.cc), so nothing runs: nccl-tests prints a row with algbw and busbw"
                + " 0"), r.out());
        List<String> rows = r.out().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
        assertEquals(1, rows.size(), r.out());
        assertEquals(List.of("0", "0", "float", "sum", "-1", "1.50", "0.00", "0.00", "N/A", "-", "-", "0", "-1",
                "N/A"), List.of(rows.get(0).trim().split("\\s+")), rows.get(0));
        CliRun g = run("predict", "allgather", "-c", "dgx-h100", "-b", "8", "-e", "256", "-f", "2");
        assertEquals(0, g.code(), g.err());
        assertTrue(g.out().contains("# sizes 8, 16, 32, 64 of all_gather on 8 ranks are 0 float elements per"
                + " rank and NCCL discards an empty collective (src/enqueue.cc), so nothing runs: nccl-tests prints"), g.out());
        List<String> all = g.out().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
        assertEquals(6, all.size(), g.out());
        for (int i = 0; i < 4; i++) {
            assertEquals(List.of("0", "0", "float"), List.of(all.get(i).trim().split("\\s+")).subList(0, 3), all.get(i));
        }
        assertTrue(all.get(4).trim().startsWith("128 "), all.get(4));
        CliRun f = run("predict", "allgather", "-c", "dgx-h100", "-b", "8", "-e", "256", "-f", "2", "--backend",
                "flow");
        assertEquals(0, f.code(), f.err());
        assertTrue(f.out().contains("# sizes 8, 16, 32, 64 of all_gather on 8 ranks are 0 float elements per"
                + " rank and NCCL discards an empty collective (src/enqueue.cc), so nothing runs: left out (the first size that"
                + " runs: 128 bytes)"), f.out());
        List<String> flow = f.out().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
        assertEquals(2, flow.size(), f.out());
        assertTrue(flow.get(0).trim().startsWith("128 "), flow.get(0));
        CliRun z = run("predict", "allreduce", "-c", "dgx-h100", "-b", "0", "-e", "0", "--backend", "flow");
        assertEquals(2, z.code(), z.out());
        assertTrue(z.err().contains("size 0 of all_reduce on 8 ranks is 0 float elements per rank and NCCL discards an"
                + " empty collective (src/enqueue.cc), so nothing runs; the flow backends simulate data movement: use"
                + " -b 4 or more, or the analytical backend"), z.err());
        CliRun a = run("predict", "alltoall", "-c", "dgx-h100", "-b", "0", "-e", "0");
        assertEquals(0, a.code(), a.err() + "alltoall's sends and receives still launch at 0 bytes");
    }

    /**
     * The public RTX 2080 Ti file has two all_gather rows of size 0 (lines 62-63, 0.33 us: the timer alone) and two
     * alltoall rows of size 0 (lines 231-232): compare says it left them out and why, instead of dropping them silently.
     */
    @Test
    void compareSaysWhichZeroByteRowsItLeftOut() {
        CliRun r = run("compare", "-m", "../validation/src/test/resources/data/"
                + "A-allreduce-allgather-bcast-reduce-alltoall-1x2xRTX2080Ti-pcie3-nop2p-autodl.txt");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("  left out: 2 rows of size 0 (NCCL discards an empty collective, src/enqueue.cc;"
                + " nccl-tests then times only its own timer)"), r.out());
        assertTrue(r.out().contains("  left out: 2 rows of size 0 (0-byte sends and receives are not modelled)"),
                r.out());
    }

    /** Sizes beyond a long (2^63 and 99999999999G, about 1.07e20 bytes): a usage error, never a clamp. */
    @Test
    void sizesBeyondALongAreRefused() {
        for (String e : new String[] {"9223372036854775808", "99999999999G"}) {
            for (String cmd : new String[] {"predict", "run"}) {
                CliRun r = run(cmd, "allreduce", "-b", "8", "-e", e);
                assertEquals(2, r.code(), cmd + " " + e + ": " + r.out() + r.err());
                assertTrue(r.err().contains("-e '" + e + "' is too large"), cmd + ": " + r.err());
            }
        }
    }
}
