package dev.collsim.sweep.point;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.sweep.spec.DesignSpace;
import dev.collsim.sweep.spec.DesignSpaceReader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A sweep point of a plan is checked against GPU memory, as {@code collsim plan} checks it. One DGX H100 host (8 GPUs
 * of 80 GiB), Llama 2 7B (h 4096, L 32, 32 heads, no GQA, SwiGLU d_ff 11008, vocabulary 32,000), dp 8, s 2048, b 1,
 * G 8 (one micro-batch), fp32 gradients, bf16 weights, selective recompute (FlashAttention).
 * <ul>
 *   <li>Activations per layer (Llama-style layer, tp 1): 8 s b h = 67,108,864; Q and O 4 s b h = 33,554,432; K and V
 *       4 s b k = 33,554,432; SwiGLU 6 s b f = 135,266,304; log-sum-exp 4 x 32 x 2048 = 262,144; sum 269,746,176 B,
 *       x 32 layers x 1 micro-batch = 8,631,877,632 B.</li>
 *   <li>No ZeRO: 7e9 x (2 + 4 + 12) = 126e9 B of model states; 134,631,877,632 B = 125.386 GiB of 80: does not fit.</li>
 *   <li>ZeRO-3 over 8 ranks: 126e9 / 8 = 15.75e9 B; 24,381,877,632 B = 22.7074 GiB: fits.</li>
 * </ul>
 */
class PointEvaluatorMemoryTest {

    private static final String SPEC = "cluster: dgx-h100x1\nplans:\n"
            + "  - name: 7B dp8\n    params: 7B\n    dp: 8\n    kernel-efficiency: 0.5\n"
            + "  - name: 7B dp8 zero3\n    params: 7B\n    dp: 8\n    zero: 3\n    kernel-efficiency: 0.5\n";

    @Test
    void aPlanThatDoesNotFitInMemoryIsNoFit() throws InputException {
        DesignSpace space = DesignSpaceReader.read("s.yaml", SPEC, Path.of("."));
        PointEvaluator e = new PointEvaluator(space);
        PointResult big = e.evaluate(0);
        assertEquals(PointResult.NO_FIT, big.status(), big.reason());
        assertTrue(big.reason().contains("does not fit in GPU memory"), big.reason());
        assertEquals(125.386, big.memoryGib(), 1e-3);
        PointResult sharded = e.evaluate(1);
        assertEquals(PointResult.OK, sharded.status(), sharded.reason());
        assertEquals(22.7074, sharded.memoryGib(), 1e-4);
    }
}
