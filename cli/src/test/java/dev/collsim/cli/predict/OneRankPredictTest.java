package dev.collsim.cli.predict;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One rank: a defined answer or a clear error, never {@code inf} or a time of 0.00. Found by fuzzing: the bound
 * column printed inf, and the flow and links backends printed 0.00 us at 8 GiB.
 */
class OneRankPredictTest {

    /**
     * busbw is algbw * 2(nranks-1)/nranks for allreduce (nccl-tests doc/PERFORMANCE.md), so 0 with one rank, and no
     * link bounds it: bound is N/A. The time is the local copy's, not 0.
     */
    @Test
    void analyticalOneRankHasNoInfiniteBound() {
        CliRun r = run("predict", "allreduce", "-c", "dgx-h100", "--ranks", "1", "-b", "8G", "-e", "8G");
        assertEquals(0, r.code(), r.err());
        List<String> rows = r.out().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
        assertEquals(1, rows.size(), r.out());
        String[] f = rows.get(0).trim().split("\\s+");
        assertEquals("8589934592", f[0]);
        assertNotEquals("0.00", f[5], "time");
        assertEquals("0.00", f[7], "busbw");
        assertEquals("N/A", f[f.length - 1], "bound");
        assertTrue(!r.out().contains("inf"), r.out());
    }

    /**
     * A one-rank copy reads and writes device memory, so it scales with the GPU's memory bandwidth: the default
     * 2,100 GB/s was measured on one H200 (4.8 TB/s HBM3e), so a DGX H100 (3.35 TB/s HBM3, NVIDIA H100 SXM datasheet)
     * copies at 2100 x 3350 / 4800 = 1465.625 GB/s, 8 GiB in 8589934592 / 1465.625e3 = 5860.91 us, plus the default
     * launch overhead 1.5 us; a DGX H200 keeps 8589934592 / 2100e3 + 1.5 = 4091.94 us.
     */
    @Test
    void oneRankCopyScalesWithMemoryBandwidth() {
        double[] expected = {5860.91 + 1.5, 4090.44 + 1.5};
        String[] hosts = {"dgx-h100", "dgx-h200"};
        for (int i = 0; i < hosts.length; i++) {
            CliRun r = run("predict", "allreduce", "-c", hosts[i], "--ranks", "1", "-b", "8G", "-e", "8G");
            assertEquals(0, r.code(), r.err());
            String row = r.out().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).findFirst().orElseThrow();
            assertEquals(expected[i], Double.parseDouble(row.trim().split("\\s+")[5]), 0.05, hosts[i] + ": " + row);
        }
    }

    @Test
    void flowAndLinksBackendsRefuseOneRank() {
        for (String backend : new String[] {"flow", "links"}) {
            CliRun r = run("predict", "allreduce", "-c", "dgx-h100", "--ranks", "1", "-b", "8G", "-e", "8G",
                    "--backend", backend);
            assertEquals(2, r.code(), backend + ": " + r.out());
            assertTrue(r.err().contains("--backend flow and links need at least 2 ranks; found 1"), r.err());
            assertTrue(r.err().contains("use --backend analytical"), r.err());
        }
    }
}
