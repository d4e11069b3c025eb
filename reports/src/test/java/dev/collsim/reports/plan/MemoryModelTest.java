package dev.collsim.reports.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Memory per GPU worked by hand from ZeRO (Rajbhandari et al. 2020) and Korthikanti et al. 2022, Table 2. */
class MemoryModelTest {

    /** An "80GB" H100 holds 80 GiB (see {@link MemoryPlan#GIB}). */
    private static final double H100_BYTES = 80.0 * (1L << 30);

    /** A GPT-style 70B (h=8192, L=80, a=64 heads of 128, GELU MLP of 4h, no GQA), s=4096, b=1, G=128. */
    private static TrainingJob llama70b(int dp, int tp, int pp, int zero, boolean sp, Recompute r) {
        return new TrainingJob(new ModelShape(70_000_000_000L, 8192, 80), 2, 2, 2, dp, tp, pp, 1, 1, 0, 0, 1, 1.0, zero,
                sp, 4096, 1, 128, ComputeRate.kernelEfficiency(0.4), r, 0);
    }

    /**
     * ZeRO paper section 3.1: 7.5B parameters with Adam in mixed precision take 2+2+12 = 16 bytes each, 120 GB;
     * with ZeRO-1 on 64 GPUs (Psi=7.5B, K=12, Nd=64): 4 Psi + 12 Psi/64 = 31.4 GB per GPU; stage 2:
     * 2 Psi + 14 Psi/64 = 16.6 GB; stage 3: 16 Psi/64 = 1.875 GB (the paper's Figure 1 values).
     */
    @Test
    void zeroStagesMatchThePapersFigureOne() {
        ModelShape s = new ModelShape(7_500_000_000L, 4096, 37);
        double[] expected = {120e9, 31.40625e9, 16.640625e9, 1.875e9};
        for (int z = 0; z <= 3; z++) {
            TrainingJob j = new TrainingJob(s, 2, 2, 2, 64, 1, 1, 1, 1, 0, 0, 1, 1.0, z, false, 1, 1, 64,
                    ComputeRate.kernelEfficiency(0.4), Recompute.FULL, 0);
            MemoryPlan m = MemoryModel.of(j, Double.NaN);
            assertEquals(expected[z], m.weightsBytes() + m.gradsBytes() + m.optimizerBytes(), 1, "stage " + z);
        }
    }

    /**
     * Korthikanti et al. Table 2, per layer, s b h = 4096 x 8192 = 33,554,432 and a s / h = 64 x 4096 / 8192 = 32:
     * no parallelism 34 + 5 x 32 = 194 -> 6,509,559,808 B; tp=8: 10 + 24/8 + 160/8 = 33 -> 1,107,296,256 B;
     * tp=8 with SP: 34/8 + 20 = 24.25 -> 813,694,976 B; tp=8 SP selective: 34/8 = 4.25 -> 142,606,336 B;
     * tp=8 selective without SP: 13 -> 436,207,616 B; full recompute with SP: 2/8 -> 8,388,608 B.
     */
    @Test
    void activationsPerLayerFollowTableTwo() {
        assertEquals(6_509_559_808.0, MemoryModel.activationsPerLayer(llama70b(1, 1, 1, 0, false, Recompute.NONE)), 1);
        assertEquals(1_107_296_256.0, MemoryModel.activationsPerLayer(llama70b(1, 8, 1, 0, false, Recompute.NONE)), 1);
        assertEquals(813_694_976.0, MemoryModel.activationsPerLayer(llama70b(1, 8, 1, 0, true, Recompute.NONE)), 1);
        assertEquals(142_606_336.0, MemoryModel.activationsPerLayer(llama70b(1, 8, 1, 0, true, Recompute.SELECTIVE)),
                1);
        assertEquals(436_207_616.0, MemoryModel.activationsPerLayer(llama70b(1, 8, 1, 0, false, Recompute.SELECTIVE)),
                1);
        assertEquals(8_388_608.0, MemoryModel.activationsPerLayer(llama70b(1, 8, 1, 0, true, Recompute.FULL)), 1);
    }

    /**
     * 70B tp=8 pp=2 dp=4 ZeRO-1 SP, no recompute, on 80 GB: Psi = 70e9/16 = 4.375e9; weights 8.75 GB, gradients
     * 8.75 GB, optimizer 12 x 4.375e9/4 = 13.125 GB; activations: m = 128/4 = 32 >= pp, so 2 micro-batches in
     * flight x 40 layers x 813,694,976 B = 65.0955981 GB; total 95.7205981 GB; 80 GiB = 85.89934592 GB, so
     * 9.82125218 GB = 9.15 GiB short. With selective
     * recompute: 2 x 40 x 142,606,336 = 11.4085 GB, total 42.0335 GB: fits. Twice the pipeline stages keeps the
     * activations (with 1F1B the first stage holds pp micro-batches of L/pp layers, L layers' worth whatever pp is)
     * but on the same 64 GPUs dp halves to 2, so ZeRO-1 shards the optimizer over 2: Psi = 2.1875e9, 4.375 + 4.375 +
     * 13.125 + 4 x 20 x 813,694,976 = 86.9705981 GB = 81.0 GiB: does not fit. ZeRO-3 at dp 4: 2.1875 + 2.1875 +
     * 13.125 + 65.0955981 = 82.5955981 GB = 76.9 GiB: fits. Twice tp at dp 2 (only where the NVLink domain holds 16
     * GPUs): Psi = 2.1875e9, 4.375 + 4.375 + 13.125 GB, activations 2 x 40 x 33,554,432 x (34/16 + 160/16) =
     * 32.5477990 GB; 54.4227990 GB = 50.7 GiB.
     */
    @Test
    void seventyBillionNeedsRecomputeOnEightyGibibytes() {
        MemoryPlan m = MemoryModel.of(llama70b(4, 8, 2, 1, true, Recompute.NONE), H100_BYTES);
        assertEquals(8.75e9, m.weightsBytes(), 1);
        assertEquals(13.125e9, m.optimizerBytes(), 1);
        assertEquals(65.0955981e9, m.activationsBytes(), 1e3);
        assertFalse(m.fits());
        assertEquals(9.82125218e9, m.shortBytes(), 1e3);
        assertTrue(m.summary().contains("of 80.0 GiB: 9.1 GiB short"), m.summary());
        assertTrue(m.suggestions().stream().anyMatch(x -> x.startsWith("--recompute full")), m.suggestions().toString());
        assertTrue(m.suggestions().contains("--zero 3: 76.9 GiB per GPU on 64 GPUs"), m.suggestions().toString());
        assertFalse(m.suggestions().stream().anyMatch(x -> x.startsWith("--pp") || x.startsWith("--tp")),
                m.suggestions().toString());
        MemoryPlan wide = MemoryModel.of(llama70b(4, 8, 2, 1, true, Recompute.NONE), H100_BYTES, 16);
        assertTrue(wide.suggestions().contains("--tp 16: 50.7 GiB per GPU on 64 GPUs (dp 2)"),
                wide.suggestions().toString());
        MemoryPlan sel = MemoryModel.of(llama70b(4, 8, 2, 1, true, Recompute.SELECTIVE), H100_BYTES);
        assertEquals(42.0335069e9, sel.totalBytes(), 1e3);
        assertTrue(sel.fits());
        assertTrue(sel.suggestions().isEmpty());
    }

    /**
     * Interleaved 1F1B: pp=4, v=2 holds 4 x (1 + 3/8) = 5.5 micro-batches of its L/pp = 20 layers (Korthikanti
     * section 4.2.3); with m = 2 and plain 1F1B only min(pp, m) = 2.
     */
    @Test
    void inFlightMicroBatches() {
        TrainingJob inter = new TrainingJob(ModelShape.of(70_000_000_000L, 0, 0), 2, 2, 2, 1, 8, 4, 2, 1, 0, 0, 1, 1.0,
                0, true, 4096, 1, 128, ComputeRate.kernelEfficiency(0.4), Recompute.SELECTIVE, 0);
        assertEquals(5.5, MemoryModel.of(inter, Double.NaN).inFlight(), 1e-12);
        TrainingJob few = new TrainingJob(ModelShape.of(70_000_000_000L, 0, 0), 2, 2, 2, 1, 8, 4, 1, 1, 0, 0, 1, 1.0,
                0, true, 4096, 1, 2, ComputeRate.kernelEfficiency(0.4), Recompute.SELECTIVE, 0);
        assertEquals(2, MemoryModel.of(few, Double.NaN).inFlight(), 1e-12);
    }
}
