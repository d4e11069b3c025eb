package dev.collsim.reports.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.reports.plan.ComputeRate;
import dev.collsim.reports.plan.MemoryModel;
import dev.collsim.reports.plan.MemoryPlan;
import dev.collsim.reports.plan.ModelFlops;
import dev.collsim.reports.plan.ModelShape;
import dev.collsim.reports.plan.RankOrder;
import dev.collsim.reports.plan.Recompute;
import dev.collsim.reports.plan.StepPlan;
import dev.collsim.reports.plan.StepPlanner;
import dev.collsim.reports.plan.TrainingJob;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The published Megatron-LM runs of Narayanan et al. 2021, Table 1 (test resource {@code published/
 * narayanan2021-table1.csv}, with its source), planned on DGX A100 hosts with 8 x 200 Gb/s NICs (Selene's nodes):
 * one kernel efficiency is fitted on one row (39.1B on 512 GPUs, the first to use tensor, pipeline and data parallelism
 * together), every other row but the smallest must come within 15 % of its achieved TFLOP/s per GPU (1.7B comes out
 * 20 % high, pinned below). No single row fits all ten within 15 %: fitted on the 1.7B row instead,
 * the larger rows come out 15 to 27 % low: one efficiency for all sizes misses what the paper names as the cause of
 * its super-linear scaling, GEMMs that run closer to peak as h grows (section 5.1).
 * Settings the paper states: full recomputation, s = 2048, V = 51,200 (tied); not stated and assumed: micro-batch 1,
 * no interleaving, the gradient AllReduce in fp32 after backward (overlap 0).
 */
class PublishedRunsTest {

    private static final double A100_PEAK = 312e12;
    /** An "80GB" A100 holds 80 GiB: nvidia-smi reports 81,920 MiB ({@link MemoryPlan#GIB}). */
    private static final double A100_80GB = 80 * MemoryPlan.GIB;
    /** The row the kernel efficiency is fitted on: 39.1B, the first that uses tensor, pipeline and data parallelism. */
    private static final int FIT_ROW = 4;
    /**
     * Below this hidden size (only the 1.7B row, h = 2304) one efficiency does not hold: collsim comes out 20 % high
     * (164 vs 137 TFLOP/s), which the test pins as a known miss instead of widening the 15 % for every row.
     */
    private static final int SMALL_GEMM_HIDDEN = 3072;

    record Row(double paramsB, int hidden, int layers, int tp, int pp, int gpus, int batch, double tflops) {
    }

    static List<Row> rows() throws IOException {
        List<Row> out = new ArrayList<>();
        try (InputStream in = PublishedRunsTest.class.getResourceAsStream("/published/narayanan2021-table1.csv")) {
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
            for (String l : lines) {
                if (l.startsWith("#") || l.startsWith("params_b") || l.isBlank()) {
                    continue;
                }
                String[] f = l.split(",");
                out.add(new Row(Double.parseDouble(f[0]), Integer.parseInt(f[2]), Integer.parseInt(f[3]),
                        Integer.parseInt(f[4]), Integer.parseInt(f[5]), Integer.parseInt(f[6]), Integer.parseInt(f[7]),
                        Double.parseDouble(f[8])));
            }
        }
        return out;
    }

    static TrainingJob job(Row r, int tp, int pp, double efficiency) {
        ModelShape shape = new ModelShape(Math.round(r.paramsB() * 1e9), r.hidden(), r.layers(), 51_200, true, r.hidden(),
                ModelShape.Ffn.standard(r.hidden()));
        int dp = r.gpus() / (r.tp() * r.pp());
        return new TrainingJob(shape, 4, 2, 2, dp, tp, pp, 1, 1, 0, 0, 1, 1.0, 0, false, 2048, 1, r.batch(),
                ComputeRate.kernelEfficiency(efficiency), Recompute.FULL, 0);
    }

    private static StepPlan plan(Row r, double efficiency) {
        Topology t = ClusterLoader.shorthand("dgx-a100x" + r.gpus() / 8).orElseThrow().build();
        return new StepPlanner(new NcclPredictor(), NcclSettings.DEFAULTS, RankOrder.TP_PP_DP).plan(t,
                job(r, r.tp(), r.pp(), efficiency), A100_PEAK);
    }

    /** @return achieved TFLOP/s per GPU as the paper counts it: eq. 3 FLOPs (recompute included) / (GPUs x step) */
    private static double tflops(StepPlan p) {
        return ModelFlops.hardwarePerStep(p.job()) / (p.job().nGpus() * p.stepUs() * 1e-6) / 1e12;
    }

    /**
     * Fit: with overlap 0, step = c (1 + bubble share) + comm, c = c1 / e (c1 the compute time at e = 1); the row's
     * TFLOP/s fixes the step, so e = c1 (1 + bubble share) / (step - comm).
     */
    @Test
    void tableOneWithinFifteenPercentAfterOneFit() throws IOException {
        List<Row> rows = rows();
        Row fit = rows.get(FIT_ROW);
        StepPlan one = plan(fit, 1.0);
        double step = ModelFlops.hardwarePerStep(one.job()) / (one.job().nGpus() * fit.tflops() * 1e12) * 1e6;
        double e = (one.computeUs() + one.bubbleUs()) / (step - one.commUs());
        assertTrue(e > 0.3 && e < 1, "fitted kernel efficiency " + e);
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT,
                "kernel efficiency fitted on %.1fB: %.3f%n| params | t | p | GPUs | batch | published TFLOP/s | collsim"
                + " | error |%n", fit.paramsB(), e));
        List<String> off = new ArrayList<>();
        for (Row r : rows) {
            StepPlan p = plan(r, e);
            double got = tflops(p);
            double err = (got - r.tflops()) / r.tflops();
            table.append(String.format(Locale.ROOT, "| %.1fB | %d | %d | %d | %d | %.0f | %.1f | %+.1f %% |%n",
                    r.paramsB(), r.tp(), r.pp(), r.gpus(), r.batch(), r.tflops(), got, err * 100));
            if (r.hidden() < SMALL_GEMM_HIDDEN) {
                // known miss: the smallest model's GEMMs run well below the efficiency of the fitted row
                assertTrue(err > 0.15 && err < 0.25, r.paramsB() + "B: expected 15-25 % high, got " + err);
            } else if (Math.abs(err) > 0.15) {
                off.add(r.paramsB() + "B: " + got + " vs " + r.tflops());
            }
        }
        assertEquals(fit.tflops(), tflops(plan(fit, e)), 1e-6, "the fitted row reproduces itself");
        assertTrue(off.isEmpty(), "rows off by more than 15 %: " + off + "\n" + table);
    }

    /**
     * Memory: each published layout fits in 80 GiB (full recompute keeps 2 s b h per layer, L layers in flight on the
     * first stage; model states 16 B per parameter over t p GPUs, no ZeRO). Without its model parallelism (t = p = 1)
     * the model states alone are 16 x P bytes, over 80 GiB (85.9 GB) from 5.4B parameters up: 7.5B needs 120 GB.
     */
    @Test
    void publishedLayoutsFitAndFailWithoutTheirParallelism() throws IOException {
        for (Row r : rows()) {
            assertTrue(MemoryModel.of(job(r, r.tp(), r.pp(), 0.5), A100_80GB).fits(), r.paramsB() + "B as published");
            boolean alone = MemoryModel.of(job(r, 1, 1, 0.5), A100_80GB).fits();
            if (r.paramsB() * 1e9 * 16 > A100_80GB) {
                assertFalse(alone, r.paramsB() + "B without model parallelism");
            } else {
                assertTrue(alone, r.paramsB() + "B is small enough for one GPU");
            }
        }
    }
}
