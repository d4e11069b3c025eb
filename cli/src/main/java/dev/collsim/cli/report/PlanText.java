package dev.collsim.cli.report;

import dev.collsim.reports.plan.CommTiming;
import dev.collsim.reports.plan.MemoryPlan;
import dev.collsim.reports.plan.ModelFlops;
import dev.collsim.reports.plan.ScalingSearch;
import dev.collsim.reports.plan.StepPlan;
import dev.collsim.reports.plan.TrainingJob;
import dev.collsim.reports.whatif.ReportRunner;
import dev.collsim.topology.Topology;
import dev.collsim.units.DataSize;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;

/** Prints a {@link StepPlan} as the text {@code collsim plan} shows. Stateless. */
final class PlanText {

    /**
     * What plan's analytical timing cannot see: it times each collective no faster than the leaf switches' uplinks
     * allow (oversubscription, shared by the concurrent groups of a kind; bottleneck "fabric leaf uplinks"), but not
     * how flows collide on the links above them.
     */
    static final String FABRIC_LEAVES_OUT = "link sharing above the leaf uplinks (ECMP collisions, uneven routes: a"
            + " report variant with backend: flow times it)";

    private PlanText() {
    }

    /**
     * @param size  the cluster's size in words ({@code ClusterOption.sizeText}: {@code 4 hosts, 32 GPUs}; trays of a
     *              rack-scale type name trays and NVLink domains)
     * @param trays true when the hosts are trays of a rack-scale NVLink domain (NVL72): the group column counts trays
     */
    static void print(PrintWriter out, StepPlan p, Topology t, String size, boolean trays) {
        out.printf("# collsim plan: %s%n", p.job().describe());
        out.printf("# cluster: %s (%s); %d micro-batches per step, %,d tokens per step%n", t.name(), size,
                p.job().microBatches(), p.job().tokensPerStep());
        if (!p.idleGpus().isEmpty()) {
            out.printf("# %s%n", p.idleGpus());
        }
        out.printf("#%n# %-29s %-5s %5s %5s %9s %7s %11s %10s %11s  %-16s %s%n", "collective", "group", "ranks",
                trays ? "trays" : "hosts",
                "bytes", "calls", "us/call", "ms/step", "busbw(GB/s)", "algorithm", "bottleneck");
        for (CommTiming c : p.comms()) {
            out.printf("  %-29s %-5s %5d %5d %9s %7d %11.1f %10.2f %11.1f  %-16s %s%n", c.op().kind().label(),
                    c.op().kind().group(), c.nRanks(), c.hosts(), DataSize.formatRounded(c.op().sizeBytes()),
                    c.op().callsPerStep(), c.perCallUs(), c.totalUs() / 1e3, c.busBw(), c.algoProto(), c.bottleneck());
        }
        if (p.comms().isEmpty()) {
            out.println("  (no communication: one GPU)");
        }
        out.printf("#%n  compute                 %12.2f ms   (%s)%n", p.computeUs() / 1e3, p.computeSource());
        out.printf("  pipeline bubble         %12.2f ms   ((pp-1)/(m v) of compute)%n", p.bubbleUs() / 1e3);
        out.printf("  communication           %12.2f ms   (all kinds, if nothing overlapped)%n", p.commUs() / 1e3);
        out.printf("  hidden behind compute   %12.2f ms   (overlap %.2f of %.2f ms overlappable: gradient reduction"
                + " behind backward, parameter gather behind the next forward)%n", p.hiddenUs() / 1e3,
                p.job().overlap(), p.overlappableUs() / 1e3);
        out.printf("  exposed communication   %12.2f ms%n", p.exposedUs() / 1e3);
        if (p.overlappableUs() > 0) {
            out.printf("  overlap headroom        %12.2f ms   (more gradient reduction / parameter gather the compute"
                    + " windows could take before they fill; beyond it each ms adds a ms to the step%s)%n",
                    p.overlapHeadroomUs() / 1e3, p.job().overlap() < 1 ? String.format(Locale.ROOT,
                    ", below it %.2f ms", 1 - p.job().overlap()) : "");
        }
        out.printf("  step time               %12.2f ms%n", p.stepUs() / 1e3);
        out.printf("  tokens per second       %,12.0f%n", p.tokensPerS());
        out.printf("  scaling efficiency      %11.1f %%   (compute / step; 100%% = perfect scaling)%n",
                p.efficiency() * 100);
        out.printf("  model FLOPs per token   %12.4g      (6 x active matmul weights + 12 L h s attention; recompute"
                + " %s: %.4g executed)%n", ModelFlops.modelPerToken(p.job()), p.job().recompute().label(),
                ModelFlops.hardwarePerToken(p.job()));
        if (!Double.isNaN(p.peakFlops())) {
            out.printf("  end-to-end MFU          %12.3f      (model FLOPs / (GPUs x %.4g TFLOP/s %s dense peak x step))%n",
                    p.endToEndMfu(), p.peakFlops() / 1e12, p.job().compute().precision());
            out.printf("  kernel efficiency       %12.3f      (executed FLOPs / (GPUs x peak x compute time))%n",
                    p.kernelEfficiency());
        }
        out.printf("  memory per GPU          %s%n", p.memory().summary());
        if (!p.memory().fits()) {
            out.printf("# DOES NOT FIT: %.1f GiB per GPU short (first pipeline stage, %.3g micro-batches of"
                    + " activations in flight); the step above assumes it would%n", p.memory().shortBytes() / MemoryPlan.GIB,
                    p.memory().inFlight());
        }
        if (!p.warning().isEmpty()) {
            out.printf("# warning: %s%n", p.warning());
        }
        out.println("# model leaves out: " + ReportRunner.PLAN_LEAVES_OUT + "; " + FABRIC_LEAVES_OUT);
    }

    static void target(PrintWriter out, double target, Optional<StepPlan> hit, int maxGpus, TrainingJob job,
            int gpusPerHost, boolean trays) {
        if (hit.isPresent()) {
            StepPlan p = hit.get();
            out.printf("  target %,.0f tokens/s: reached with %d GPUs (%d %s, dp=%d): %,.0f tokens/s, step %.2f ms,"
                    + " efficiency %.1f %%%n", target, p.job().nGpus(), (p.job().nGpus() + gpusPerHost - 1)
                    / gpusPerHost, trays ? "trays" : "hosts", p.job().dp(), p.tokensPerS(), p.stepUs() / 1e3,
                    p.efficiency() * 100);
        } else {
            out.printf("  target %,.0f tokens/s: %s%n", target, notReached(job, maxGpus));
        }
    }

    /**
     * @return why the search stopped: the largest GPU count it tried and what capped it (the global batch, whose
     *         G/b bounds dp, or --max-gpus)
     */
    static String notReached(TrainingJob job, int maxGpus) {
        int gb = job.globalBatch() / job.microBatch();
        String rule = "dp divides G/b = " + gb + (job.ep() > 1 ? " and is a multiple of ep=" + job.ep() : "");
        int dp = ScalingSearch.largestDp(job, maxGpus);
        if (dp == 0) {
            return "not reached: no data-parallel degree fits --max-gpus " + maxGpus + " (" + rule + ")";
        }
        boolean batchCaps = dp == ScalingSearch.largestDp(job, Integer.MAX_VALUE);
        return "not reached up to " + (long) dp * job.tp() * job.pp() * job.cp() + " GPUs (dp=" + dp + ", the largest "
                + (batchCaps ? "the global batch allows: " + rule + "; a larger --global-batch lets dp grow"
                : "within --max-gpus " + maxGpus + " where " + rule)
                + "; layouts that do not fit in GPU memory do not count)";
    }
}
