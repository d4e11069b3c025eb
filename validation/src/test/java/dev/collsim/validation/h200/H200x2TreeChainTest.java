package dev.collsim.validation.h200;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Algorithm;
import dev.collsim.simulator.Prediction;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NCCL_ALGO=Tree AllReduce on the 2x H200 (NV18) machine of issue 8: a chain of 2 ranks moves S each way, as a ring of
 * 2 does, so its measured busbw at 8 GiB (354.50 GB/s, out-of-place, the 8589934592 B row of the
 * "NCCL_ALGO=Tree" block of {@code data/device/h200x2-2026-11-29/collsim-sweep-NCCL_ALGO.txt}, read here) is
 * predicted within 10% (NCCL's table entry 232.2 GB/s was 34% low). NCCL's choice is not changed: without
 * NCCL_ALGO it is still Ring at 8 GiB (NCCL's table: Ring/Simple 360 x 1 against Tree/Simple 232.2).
 * Environment as in every run of that data: NCCL_NVLS_ENABLE=0, NCCL 2.28.
 */
class H200x2TreeChainTest {

    @Test
    void treeChainOfTwoRunsAtTheMeasuredRingLikeBandwidth() throws Exception {
        double measured = H200x2Machine.measuredBusBw("collsim-sweep-NCCL_ALGO.txt", "NCCL_ALGO=Tree");
        assertTrue(measured > 300 && measured < 400, "file read wrong: " + measured);
        Prediction p = H200x2Machine.predict(Map.of("NCCL_ALGO", "Tree"));
        assertEquals(Algorithm.TREE, p.algorithm(), p.toString());
        assertEquals(measured, p.busBw(), 0.10 * measured, p.toString());
    }

    @Test
    void defaultChoiceAtEightGibStaysRing() throws Exception {
        assertEquals(Algorithm.RING, H200x2Machine.predict(Map.of()).algorithm());
    }
}
