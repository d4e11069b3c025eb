package dev.collsim.reports.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.io.ClusterLoader;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The "fits with" suggestions keep the GPU count and TP inside an NVLink domain; worked by hand below. An "80GB" H100
 * holds 80 GiB; fp32 gradients (4 B), bf16 weights (2 B), 12 B of Adam state per parameter.
 */
class MemoryFixesTest {

    private static final double H100_BYTES = 80.0 * (1L << 30);
    private static final double GIB = 1L << 30;

    private static TrainingJob job(String model, int dp, int tp, int pp, boolean sp, int seqLen, int globalBatch) {
        ModelShape shape = ModelPreset.find(model).orElseThrow().shape();
        return new TrainingJob(shape, 4, 2, 2, dp, tp, pp, 1, 1, 0, 0, 1, 1.0, 0, sp, seqLen, 1, globalBatch,
                ComputeRate.kernelEfficiency(0.4), Recompute.SELECTIVE, 0);
    }

    /**
     * {@code plan --model llama3-8b --tp 1 --pp 1 -c dgx-h100 --global-batch 64}: dp = 8 on 8 GPUs, P = 8,030,261,248
     * (the preset's weight sum, ModelPresetTest), model states 18 P = 144,544,702,464 B = 134.6 GiB: does not fit. --pp
     * 2 keeps 8 GPUs at dp 8/2 = 4 (64 % 4 = 0): states 9 P = 72,272,351,232 B, and the first stage holds min(pp, m) =
     * 2 micro-batches (m = 64/4 = 16) of 32/2 = 16 layers, the same 32 layer-equivalents as pp 1: activations
     * unchanged. --tp 2 likewise at dp 4; tp 2 divides the host's 8 GPUs. No --sequence-parallel (tp = 1).
     */
    @Test
    void eightBillionOnOneHostKeepsEightGpus() {
        TrainingJob j = job("llama3-8b", 8, 1, 1, false, 2048, 64);
        MemoryPlan m = MemoryModel.of(j, H100_BYTES, 8);
        assertEquals(144_544_702_464d, m.weightsBytes() + m.gradsBytes() + m.optimizerBytes(), 1);
        assertFalse(m.fits());
        String pp2 = String.format(Locale.ROOT, "--pp 2: %.1f GiB per GPU on 8 GPUs (dp 4)",
                (72_272_351_232d + m.activationsBytes()) / GIB);
        assertTrue(m.suggestions().contains(pp2), m.suggestions().toString());
        assertTrue(m.suggestions().stream().anyMatch(s -> s.startsWith("--tp 2:") && s.endsWith("on 8 GPUs (dp 4)")),
                m.suggestions().toString());
        assertTrue(m.suggestions().stream().allMatch(s -> s.contains(" on 8 GPUs")), m.suggestions().toString());
        assertFalse(m.suggestions().stream().anyMatch(s -> s.startsWith("--sequence-parallel")));
        // dp 1: halving it is impossible, so neither --pp 2 nor --tp 2 is offered
        MemoryPlan one = MemoryModel.of(job("llama3-8b", 1, 1, 1, false, 2048, 64), H100_BYTES, 8);
        assertFalse(one.suggestions().stream().anyMatch(s -> s.startsWith("--pp") || s.startsWith("--tp")),
                one.suggestions().toString());
    }

    /**
     * {@code plan --model llama3-405b --tp 8 --pp 16 -c dgx-h100x1024 --seq-len 8192 --global-batch 2048}: dp = 64 on
     * 8192 GPUs, P/(tp pp) = 405,853,388,800/128 = 3,170,729,600 per GPU (the preset's weight sum). No single change
     * fits (activations without SP are above 80 GiB alone; --tp 16 would leave the 8-GPU host). The first fitting pair:
     * SP with ZeRO-1 keeps 2 + 4 = 6 B of weights and gradients, 19.02e9 B = 17.7 GiB, plus SP activations, over 80
     * GiB; SP with ZeRO-2: 2 x 3,170,729,600 + 16 x 3,170,729,600 / 64 = 7,134,141,600 B of model states plus the SP
     * activations.
     */
    @Test
    void fourHundredFiveBillionGetsSequenceParallelAndAZeroStage() {
        TrainingJob plain = job("llama3-405b", 64, 8, 16, false, 8192, 2048);
        MemoryPlan m = MemoryModel.of(plain, H100_BYTES, 8);
        assertFalse(m.fits());
        MemoryPlan sp = MemoryModel.of(job("llama3-405b", 64, 8, 16, true, 8192, 2048), H100_BYTES, 8);
        String pair = String.format(Locale.ROOT, "--sequence-parallel --zero 2: %.1f GiB per GPU on 8192 GPUs",
                (7_134_141_600d + sp.activationsBytes()) / GIB);
        assertEquals(List.of(pair), m.suggestions());
        assertTrue(m.summary().contains("fits with: " + pair), m.summary());
        // with SP on: single changes only, none of them --tp 16, all on the cluster's 8192 GPUs
        assertFalse(sp.fits());
        assertFalse(sp.suggestions().isEmpty());
        assertTrue(sp.suggestions().stream().allMatch(s -> s.contains(" on 8192 GPUs") && !s.startsWith("--tp")),
                sp.suggestions().toString());
        assertTrue(sp.suggestions().stream().noneMatch(s -> s.startsWith("--sequence-parallel")));
    }

    /**
     * The NVLink domain a suggested tp must divide: a DGX H100 keeps NVLink inside its 8 GPUs, also in a cluster of
     * 1024 of them described once; a GB200 NVL72 rack joins 18 trays of 4 GPUs on its NVLink switches: 72
     * (configs/gb200-nvl72.yaml).
     */
    @Test
    void nvlinkDomainIsTheHostOrTheRack() throws Exception {
        assertEquals(8, StepPlanner.nvlinkDomainGpus(ClusterLoader.shorthand("dgx-h100x1024").orElseThrow().build()));
        assertEquals(8, StepPlanner.nvlinkDomainGpus(ClusterLoader.load("dgx-h100")));
        assertEquals(72, StepPlanner.nvlinkDomainGpus(ClusterLoader.load("gb200-nvl72")));
    }
}
