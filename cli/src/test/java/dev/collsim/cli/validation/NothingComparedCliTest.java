package dev.collsim.cli.validation;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compare that compared nothing is not a success: before, a file whose one table had only 0-byte rows printed
 * "not compared" and exited 0, which a script reads as "the model agrees". The exit codes are docs/input-limits.md's:
 * 3 is an input the command cannot use.
 */
class NothingComparedCliTest {

    /** One all_reduce table of 8 H100s whose only row is the 0-byte one (nccl-tests -b 0 -e 0). */
    private static final String ZERO_ONLY = """
            # Collective test starting: all_reduce_perf
            # nThread 1 nGpus 8 minBytes 0 maxBytes 0 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1
            #
            # Using devices
            #  Rank  0 Group  0 Pid  1000 on     node01 device  0 [0x18] NVIDIA H100 80GB HBM3
            #  Rank  1 Group  0 Pid  1000 on     node01 device  1 [0x2a] NVIDIA H100 80GB HBM3
            #  Rank  2 Group  0 Pid  1000 on     node01 device  2 [0x3a] NVIDIA H100 80GB HBM3
            #  Rank  3 Group  0 Pid  1000 on     node01 device  3 [0x5d] NVIDIA H100 80GB HBM3
            #  Rank  4 Group  0 Pid  1000 on     node01 device  4 [0x9a] NVIDIA H100 80GB HBM3
            #  Rank  5 Group  0 Pid  1000 on     node01 device  5 [0xab] NVIDIA H100 80GB HBM3
            #  Rank  6 Group  0 Pid  1000 on     node01 device  6 [0xba] NVIDIA H100 80GB HBM3
            #  Rank  7 Group  0 Pid  1000 on     node01 device  7 [0xdb] NVIDIA H100 80GB HBM3
            #
            #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
            #        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
                       0             0     float     sum      -1     0.12    0.00    0.00      0     0.11    0.00    0.00      0
            # Avg bus bandwidth    : 0
            """;

    @Test
    void aFileWithNothingToCompareExits3NamingTheTableAndWhy(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("zero.txt");
        Files.writeString(f, ZERO_ONLY);
        CliRun r = run("compare", "--calibration", "none", "-m", f.toString());
        assertEquals(3, r.code(), r.err());
        // the table header is line 14 of the text above; the reason is Comparer's for a table without a usable row
        assertTrue(r.err().contains(f + ":14: compare: nothing compared: no point with size > 0 and a time; allowed:"
                + " a table with sizes > 0 and times, of a cluster the file shows (GPU model, hosts) or -c names"),
                r.err());
        assertTrue(r.out().contains("not compared: no point with size > 0 and a time"), r.out());
        assertTrue(!r.err().contains("Exception") && !r.err().contains("\tat "), r.err());
    }

    /** One comparable table among others is a compare: exit 0, as before. */
    @Test
    void oneComparedTableIsEnough(@TempDir Path dir) throws Exception {
        Path zero = dir.resolve("zero.txt");
        Files.writeString(zero, ZERO_ONLY);
        CliRun r = run("compare", "--calibration", "none", "--summary", "-m", zero.toString(),
                "../validation/src/test/resources/data/A-allreduce-2x2xH100-dgx-ib.txt");
        assertEquals(0, r.code(), r.err());
    }

    /**
     * A user's own log cut to its table (no '#  Rank ... device' lines, no header) names no GPU: the error says so,
     * rather than "GPU model '' not recognised", and shows a -c for its 16 ranks (two 8-GPU hosts). The table is the
     * Nebius 2x8 H100 run's (A-allreduce-2x8xH100-nebius-ib-dstack-docs.txt) without its '#@' lines: its column
     * header is line 2 of what is left.
     */
    @Test
    void aTableWithoutDeviceLinesAsksForTheClusterWithAnExample(@TempDir Path dir) throws Exception {
        Path data = Path.of("../validation/src/test/resources/data/A-allreduce-2x8xH100-nebius-ib-dstack-docs.txt");
        Path f = dir.resolve("my-run.log");
        Files.write(f, Files.readAllLines(data).stream().filter(l -> !l.startsWith("#@")).toList());
        CliRun r = run("compare", "--calibration", "none", "-m", f.toString());
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().contains("the file names no GPU model"), r.err());
        assertTrue(r.err().contains("e.g. -c dgx-h100:2 for 16 ranks on 2 8-GPU DGX H100 hosts"), r.err());
        assertTrue(!r.err().contains("GPU model ''"), r.err());
        assertEquals(0, run("compare", "--calibration", "none", "-c", "dgx-h100:2", "-m", f.toString()).code());
    }
}
