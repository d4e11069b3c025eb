package dev.collsim.cli.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import org.junit.jupiter.api.Test;

/**
 * The bound column follows NCCL_ALGO, and the footer says so. 4 DGX H100 (8 x 400 Gb/s NICs = 400 GB/s per node and
 * direction), AllReduce: with Ring alone every node sends 2 (n-1)/n S over its NICs, busbw at most 400 GB/s (a
 * ring's busbw is its link bandwidth, nccl-tests {@code doc/PERFORMANCE.md}); with every algorithm a node sends at
 * least 2 (m-1)/m S, 400 x 4/3 x 31/32 = 516.67 GB/s (m = 4 nodes, n = 32 ranks).
 */
class BoundFooterTest {

    private static final String FOOTER = "bound is the physical busbw bound, the best busbw the links allow at their physical speeds";

    private static String boundColumn(CliRun r) {
        String row = r.out().lines().filter(l -> l.trim().startsWith("67108864")).findFirst().orElseThrow();
        String[] cells = row.trim().split("\\s+");
        return cells[cells.length - 1];
    }

    @Test
    void theFooterNamesTheAlgorithmNcclAlgoLeaves() {
        CliRun ring = CliRun.run("predict", "-c", "dgx-h100x4", "allreduce", "-b", "64M", "-e", "64M", "--env",
                "NCCL_ALGO=Ring");
        assertEquals(0, ring.code(), ring.err());
        assertEquals("400.00", boundColumn(ring), ring.out());
        assertTrue(ring.out().contains(FOOTER + " for Ring, the algorithm NCCL_ALGO=Ring allows (N/A"), ring.out());
        CliRun any = CliRun.run("predict", "-c", "dgx-h100x4", "allreduce", "-b", "64M", "-e", "64M");
        assertEquals("516.67", boundColumn(any), any.out());
        assertTrue(any.out().contains(FOOTER + " (N/A"), any.out());
        // the ring graph's figures (8 channels of 48 GB/s: 384, below 516.67) are named as what they are
        assertTrue(any.out().contains("# Channels: ring 8 x 48.0/48.0 GB/s"), any.out());
        assertTrue(any.out().contains("the '# Channels:' GB/s are NCCL's graph bandwidth per channel, not a bound"),
                any.out());
        assertFalse(any.out().contains("NCCL_ALGO="), any.out());
    }

    /**
     * The flow backend's bound column is NCCL's choice's, so it follows NCCL_ALGO as the analytical one does (400.00
     * with Ring alone, the class javadoc's figure) and its footer names the algorithms with the same words; under
     * {@code --schedule} the bound is that of any algorithm (516.67, every algorithm allowed) and the footer names
     * none.
     */
    @Test
    void theFlowFooterNamesTheAlgorithmNcclAlgoLeaves() {
        CliRun ring = CliRun.run("predict", "-c", "dgx-h100x4", "allreduce", "-b", "64M", "-e", "64M", "--env",
                "NCCL_ALGO=Ring", "--backend", "flow");
        assertEquals(0, ring.code(), ring.err());
        assertEquals("400.00", flowBoundColumn(ring), ring.out());
        assertTrue(ring.out().contains("leaf uplinks allow for Ring, the algorithm NCCL_ALGO=Ring allows"
                + " (oversubscription counted"), ring.out());
        CliRun any = CliRun.run("predict", "-c", "dgx-h100x4", "allreduce", "-b", "64M", "-e", "64M", "--backend",
                "flow");
        assertEquals("516.67", flowBoundColumn(any), any.out());
        assertTrue(any.out().contains("leaf uplinks allow (oversubscription counted"), any.out());
        CliRun given = CliRun.run("predict", "-c", "dgx-h100x4", "allreduce", "-b", "64M", "-e", "64M", "--env",
                "NCCL_ALGO=Ring", "--backend", "flow", "--schedule", "ring");
        assertEquals(0, given.code(), given.err());
        assertEquals("516.67", flowBoundColumn(given), given.out());
        assertFalse(given.out().contains("NCCL_ALGO=Ring allows"), given.out());
    }

    /** @return the flow table's bound column (the one before links) */
    private static String flowBoundColumn(CliRun r) {
        String row = r.out().lines().filter(l -> l.trim().startsWith("67108864")).findFirst().orElseThrow();
        String[] cells = row.trim().split("\\s+");
        return cells[cells.length - 2];
    }
}
