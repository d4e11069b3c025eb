package dev.collsim.cli.validation;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import org.junit.jupiter.api.Test;

/**
 * nccl-tests 2.19.6's own sendrecv_perf output on one H200 (data/device/h200-nccl-tests-sendrecv.txt: redop 'sum',
 * root -1, in-place #wrong N/A) is compared, not refused; with one rank no link is crossed, so the bound is N/A, never
 * Infinity, and the header says "1 rank".
 */
class SendrecvCompareTest {

    @Test
    void oneRankSendrecvIsComparedWithNoInfiniteBound() {
        CliRun r = run("compare", "-m", "../data/device/h200-nccl-tests-sendrecv.txt");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("  sendrecv, 1 rank, cluster"), r.out());
        assertTrue(r.out().contains("physical busbw bound: N/A (one rank"), r.out());
        assertFalse(r.out().contains("Infinity"), r.out());
    }
}
