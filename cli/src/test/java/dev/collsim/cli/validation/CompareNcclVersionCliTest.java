package dev.collsim.cli.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import org.junit.jupiter.api.Test;

/**
 * compare names the NCCL release it models for each file and why. The Azure ND GB200 v6 file's header states
 * "#@ nccl_version: 2.25.1" (line 6): older than the releases collsim models in full, so 2.28.9's tables under the tuning rules
 * of 2.25-2.26 (NCCL v2.25.1-1 {@code src/graph/tuning.cc}); --nccl-version 2.30 wins over it.
 */
class CompareNcclVersionCliTest {

    private static final String FILE = "../validation/src/test/resources/data/"
            + "A-allreduce-4xGB200-azure-ndgb200v6-ring-nccl2.25-busbw-table.txt";

    @Test
    void theFilesReleaseIsModelledUnlessTheUserNamesOne() {
        CliRun own = CliRun.run("compare", "-m", FILE, "--calibration", "none");
        assertEquals(0, own.code(), own.err());
        assertTrue(own.out().contains("assumed: NCCL 2.28.9 modelled (file states 2.25.1), the oldest release collsim"
                + " models in full, with NCCL 2.25-2.26's own bandwidth factors, latencies and allowed algorithms and"
                + " protocols where they differ (docs/nccl-releases.md)"), own.out());
        CliRun given = CliRun.run("compare", "-m", FILE, "--calibration", "none", "--nccl-version", "2.30");
        assertEquals(0, given.code(), given.err());
        assertTrue(given.out().contains("assumed: NCCL 2.30.7 modelled (--nccl-version; file states 2.25.1)"),
                given.out());
        assertFalse(given.out().contains("NCCL 2.28.9 modelled"), given.out());
    }
}
