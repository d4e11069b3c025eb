package dev.collsim.reports.whatif;

import dev.collsim.reports.plan.MemoryPlan;
import dev.collsim.reports.plan.StepPlan;
import java.util.List;
import java.util.Locale;

/**
 * Every number of a what-if report, as flat rows (one CSV each, all in the JSON). Times in microseconds unless the
 * field says ms; bandwidths in GB/s (1e9 B/s); sizes in bytes. Immutable.
 *
 * @param title       report title
 * @param specFile    the spec's file name
 * @param variants    one row per variant: name, cluster, changes
 * @param sweeps      predicted sweep points
 * @param measured    measured points matched to predictions (base variant)
 * @param plans       one row per (variant, plan)
 * @param planComms   one row per (variant, plan, collective kind)
 * @param scaling     scaling curves
 * @param targets     smallest GPU counts for target throughputs
 * @param algorithmMap predicted choice per (size, nRanks) on the base cluster
 * @param leavesOut   what the model leaves out, per topic (sweep, plan)
 * @param tuning      what to change in NCCL's settings on the base cluster ({@link TuningSection#NONE}: not computed)
 */
public record ReportData(String title, String specFile, List<VariantRow> variants, List<SweepRow> sweeps,
        List<MeasuredRow> measured, List<PlanRow> plans, List<PlanCommRow> planComms, List<ScalingRow> scaling,
        List<TargetRow> targets, List<AlgoCellRow> algorithmMap, List<String> leavesOut, TuningSection tuning) {

    /** A report without the tuning section (as before it existed). */
    public ReportData(String title, String specFile, List<VariantRow> variants, List<SweepRow> sweeps,
            List<MeasuredRow> measured, List<PlanRow> plans, List<PlanCommRow> planComms, List<ScalingRow> scaling,
            List<TargetRow> targets, List<AlgoCellRow> algorithmMap, List<String> leavesOut) {
        this(title, specFile, variants, sweeps, measured, plans, planComms, scaling, targets, algorithmMap, leavesOut,
                TuningSection.NONE);
    }

    /** Copies the lists. */
    public ReportData {
        variants = List.copyOf(variants);
        sweeps = List.copyOf(sweeps);
        measured = List.copyOf(measured);
        plans = List.copyOf(plans);
        planComms = List.copyOf(planComms);
        scaling = List.copyOf(scaling);
        targets = List.copyOf(targets);
        algorithmMap = List.copyOf(algorithmMap);
        leavesOut = List.copyOf(leavesOut);
        tuning = tuning == null ? TuningSection.NONE : tuning;
    }

    /**
     * @param variant  name
     * @param cluster  the cluster's name
     * @param hosts    hosts
     * @param gpus     GPUs
     * @param changes  what differs from the base, in words
     * @param ncclEnv  NCCL settings, {@code K=V} joined by spaces
     * @param calibration calibration profile, or empty
     * @param backend  what timed its collectives: {@code analytical}, or {@code flow (ROUTING[, seed N])}
     * @param network  the note predict prints as its {@code Network:} line for this cluster ({@code VariantNetwork}),
     *                 or empty
     * @param trays    true when the hosts are trays of a rack-scale NVLink domain type (NVL72, {@code
     *                 ClusterSpec.ofTrays}): {@code hosts} counts trays, and tables say so as the CLI's Ranks line does
     */
    public record VariantRow(String variant, String cluster, int hosts, int gpus, String changes, String ncclEnv,
            String calibration, String backend, String network, boolean trays) {

        /** A row of hosts that are no trays. */
        public VariantRow(String variant, String cluster, int hosts, int gpus, String changes, String ncclEnv,
                String calibration, String backend, String network) {
            this(variant, cluster, hosts, gpus, changes, ncclEnv, calibration, backend, network, false);
        }

        /** A row of hosts that are no trays, without a network note. */
        public VariantRow(String variant, String cluster, int hosts, int gpus, String changes, String ncclEnv,
                String calibration, String backend) {
            this(variant, cluster, hosts, gpus, changes, ncclEnv, calibration, backend, "");
        }

        /**
         * @param rows variant rows
         * @return the word for their host counts, as the CLI's Ranks line says it: {@code trays} when every row's
         *         hosts are trays of a rack-scale NVLink domain, {@code hosts} when none are, {@code hosts / trays}
         *         for a mix (each cell then names its own unit, {@link #hostsText})
         */
        public static String hostsWord(List<VariantRow> rows) {
            boolean any = rows.stream().anyMatch(VariantRow::trays);
            return !any ? "hosts" : rows.stream().allMatch(VariantRow::trays) ? "trays" : "hosts / trays";
        }

        /**
         * @return the calibration without its band ({@link VariantResolver#BAND}): {@code auto: KEY.yaml},
         *         {@code none}, {@code - (bare model)} or a file name; "-" when empty
         */
        public String calibrationLabel() {
            int i = calibration.indexOf(VariantResolver.BAND);
            if (i < 0) {
                return calibration.isEmpty() ? "-" : calibration;
            }
            String head = calibration.substring(0, i);
            // "- (bare model; band ...)": the parenthesis opened before the band closes after it
            return head.lastIndexOf('(') > head.lastIndexOf(')') ? head + ")" : head;
        }

        /** @return the band of the calibration ({@code factor 2.11 (...) below 1 MiB, ...}), "" when it has none */
        public String calibrationBand() {
            int i = calibration.indexOf(VariantResolver.BAND);
            if (i < 0) {
                return "";
            }
            String band = calibration.substring(i + VariantResolver.BAND.length());
            String head = calibration.substring(0, i);
            return head.lastIndexOf('(') > head.lastIndexOf(')') && band.endsWith(")")
                    ? band.substring(0, band.length() - 1) : band;
        }

        /**
         * @param mixed true when the table holds trays and other hosts ({@link #hostsWord} says {@code hosts / trays})
         * @return the host count, with its unit ({@code 36 trays}, {@code 1 host}) when mixed
         */
        public String hostsText(boolean mixed) {
            return !mixed ? Integer.toString(hosts) : hosts + (trays ? " tray" : " host") + (hosts == 1 ? "" : "s");
        }
    }

    /**
     * @param variant      variant name
     * @param collective   NCCL name
     * @param dataType     nccl-tests type name
     * @param nRanks       ranks
     * @param sizeBytes    size
     * @param timeUs       predicted time
     * @param algBw        GB/s
     * @param busBw        GB/s
     * @param boundBusBw   physical bound, GB/s
     * @param algorithm    NCCL algorithm
     * @param protocol     NCCL protocol
     * @param nChannels    channels
     * @param ncclEstimateUs NCCL's own estimate, -1 when none
     * @param bottleneck   what limits it
     * @param backend      what timed this point: {@code analytical} or {@code flow} (a flow variant's points that no
     *                     flow schedule covers, e.g. Broadcast, are analytical)
     */
    public record SweepRow(String variant, String collective, String dataType, int nRanks, long sizeBytes,
            double timeUs, double algBw, double busBw, double boundBusBw, String algorithm, String protocol,
            int nChannels, double ncclEstimateUs, String bottleneck, String backend) {
    }

    /**
     * @param variant     variant compared (the base)
     * @param collective  NCCL name
     * @param source      measurement file
     * @param sizeBytes   size
     * @param measuredUs  measured time
     * @param predictedUs predicted time
     * @param measuredBusBw measured busbw, GB/s
     * @param errorPct    (predicted - measured) / measured x 100
     */
    public record MeasuredRow(String variant, String collective, String source, long sizeBytes, double measuredUs,
            double predictedUs, double measuredBusBw, double errorPct) {
    }

    /**
     * @param variant      variant
     * @param plan         plan name
     * @param job          the job in words
     * @param gpus         GPUs used
     * @param fits         false when the cluster has too few GPUs or they too little memory (the times 0, the reason
     *                     in {@code notFitReason})
     * @param computeMs    compute per step
     * @param bubbleMs     pipeline bubble per step
     * @param commMs       all communication per step
     * @param exposedMs    communication not hidden
     * @param stepMs       step time
     * @param tokensPerS   throughput
     * @param efficiency   compute / step
     * @param computeSource how compute was obtained; empty for a plan that does not fit
     * @param mfu          end-to-end model FLOPs utilisation (model FLOPs / (GPUs x peak x step)); NaN when not planned
     *                     or the peak is unknown
     * @param memoryGib    memory one GPU needs (first pipeline stage), GiB = 2^30 B; NaN when not planned
     * @param capacityGib  the GPU's memory, GiB; NaN when unknown
     * @param headroomMs   overlappable communication the compute windows could still take before the step grows,
     *                     ms ({@code StepPlan.overlapHeadroomUs}, plan's "overlap headroom" line); NaN when not planned
     * @param idleGpus     empty, or the variant's GPUs the job leaves idle and why ({@code StepPlan.idleGpus})
     * @param notFitReason empty when the plan fits, else why not (too few GPUs, too little GPU memory); the last
     *                     column of {@code plans.csv}, so readers of the columns before it keep them
     */
    public record PlanRow(String variant, String plan, String job, int gpus, boolean fits, double computeMs,
            double bubbleMs, double commMs, double exposedMs, double stepMs, double tokensPerS, double efficiency,
            String computeSource, double mfu, double memoryGib, double capacityGib, double headroomMs,
            String idleGpus, String notFitReason) {

        /** A row that fits, with its GPUs left idle (or empty); other parameters as the record's. */
        public PlanRow(String variant, String plan, String job, int gpus, boolean fits, double computeMs,
                double bubbleMs, double commMs, double exposedMs, double stepMs, double tokensPerS, double efficiency,
                String computeSource, double mfu, double memoryGib, double capacityGib, double headroomMs,
                String idleGpus) {
            this(variant, plan, job, gpus, fits, computeMs, bubbleMs, commMs, exposedMs, stepMs, tokensPerS,
                    efficiency, computeSource, mfu, memoryGib, capacityGib, headroomMs, idleGpus, "");
        }

        /**
         * A plan that does not fit the variant: every time 0, MFU, memory and headroom NaN.
         *
         * @param variant variant
         * @param plan    plan name
         * @param job     the job in words
         * @param gpus    GPUs the job needs
         * @param reason  why it does not fit
         * @return the row
         */
        public static PlanRow notFitting(String variant, String plan, String job, int gpus, String reason) {
            return new PlanRow(variant, plan, job, gpus, false, 0, 0, 0, 0, 0, 0, 0, "", Double.NaN, Double.NaN,
                    Double.NaN, Double.NaN, "", reason);
        }

        /** A row with no GPUs left idle; other parameters as the record's. */
        public PlanRow(String variant, String plan, String job, int gpus, boolean fits, double computeMs,
                double bubbleMs, double commMs, double exposedMs, double stepMs, double tokensPerS, double efficiency,
                String computeSource, double mfu, double memoryGib, double capacityGib, double headroomMs) {
            this(variant, plan, job, gpus, fits, computeMs, bubbleMs, commMs, exposedMs, stepMs, tokensPerS,
                    efficiency, computeSource, mfu, memoryGib, capacityGib, headroomMs, "");
        }

        /** A row without MFU, memory and headroom (NaN); other parameters as the record's. */
        public PlanRow(String variant, String plan, String job, int gpus, boolean fits, double computeMs,
                double bubbleMs, double commMs, double exposedMs, double stepMs, double tokensPerS, double efficiency,
                String computeSource) {
            this(variant, plan, job, gpus, fits, computeMs, bubbleMs, commMs, exposedMs, stepMs, tokensPerS,
                    efficiency, computeSource, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }

        /**
         * @param variant variant
         * @param plan    plan name
         * @param sp      the planned step
         * @return the row of a plan that fits the cluster's GPU count; {@code fits} false (and the times 0) when it
         *         does not fit in GPU memory
         */
        public static PlanRow of(String variant, String plan, StepPlan sp) {
            MemoryPlan m = sp.memory();
            double need = m.totalBytes() / MemoryPlan.GIB;
            double cap = m.capacityBytes() / MemoryPlan.GIB;
            if (!m.fits()) {
                return new PlanRow(variant, plan, sp.job().describe(), sp.job().nGpus(), false, 0, 0, 0, 0, 0, 0, 0,
                        "", Double.NaN, need, cap, Double.NaN, sp.idleGpus(),
                        "does not fit in GPU memory: needs " + m.summary());
            }
            return new PlanRow(variant, plan, sp.job().describe(), sp.job().nGpus(), true, sp.computeUs() / 1e3,
                    sp.bubbleUs() / 1e3, sp.commUs() / 1e3, sp.exposedUs() / 1e3, sp.stepUs() / 1e3, sp.tokensPerS(),
                    sp.efficiency(), sp.computeSource(), sp.endToEndMfu(), need, cap, sp.overlapHeadroomUs() / 1e3,
                    sp.idleGpus());
        }

        /**
         * @return the memory cell: {@code 70.2 of 80.0 GiB}, {@code does not fit by 9.1 GiB (89.1 of 80.0)}, {@code
         *         70.2 GiB (GPU memory unknown)}, or {@code -} when not planned
         */
        public String memoryText() {
            if (Double.isNaN(memoryGib)) {
                return "-";
            }
            if (Double.isNaN(capacityGib)) {
                return String.format(Locale.ROOT, "%.1f GiB (GPU memory unknown)", memoryGib);
            }
            if (memoryGib <= capacityGib) {
                return String.format(Locale.ROOT, "%.1f of %.1f GiB", memoryGib, capacityGib);
            }
            return String.format(Locale.ROOT, "does not fit by %.1f GiB (%.1f of %.1f)", memoryGib - capacityGib,
                    memoryGib, capacityGib);
        }
    }

    /**
     * @param variant      variant
     * @param plan         plan
     * @param kind         collective kind in words
     * @param collective   NCCL name
     * @param group        TP, PP, DP, EP or EDP
     * @param nRanks       ranks of one group
     * @param hosts        hosts one group spans
     * @param sizeBytes    bytes per call
     * @param calls        calls per step
     * @param perCallUs    time per call
     * @param totalMs      time per step
     * @param exposedMs    time per step not hidden behind compute (overlap shared pro rata among overlappable kinds)
     * @param busBw        GB/s per call
     * @param choice       algorithm/protocol
     * @param bottleneck   what limits it
     * @param formula      how size and count were derived
     */
    public record PlanCommRow(String variant, String plan, String kind, String collective, String group, int nRanks,
            int hosts, long sizeBytes, long calls, double perCallUs, double totalMs, double exposedMs, double busBw, String choice,
            String bottleneck, String formula) {
    }

    /**
     * @param variant    variant
     * @param plan       plan
     * @param gpus       GPUs
     * @param dp         data-parallel degree
     * @param stepMs     step time
     * @param tokensPerS throughput
     * @param efficiency compute / step
     */
    public record ScalingRow(String variant, String plan, int gpus, int dp, double stepMs, double tokensPerS,
            double efficiency) {
    }

    /**
     * @param variant     variant
     * @param plan        plan
     * @param target      tokens/s wanted
     * @param gpus        smallest GPU count reaching it; null when not reached (an empty CSV cell, JSON null)
     * @param tokensPerS  throughput at that count, tokens/s; null when not reached
     * @param note        e.g. "not reached up to 4096 GPUs"
     */
    public record TargetRow(String variant, String plan, double target, Integer gpus, Double tokensPerS, String note) {

        /** @return a target not reached: no GPU count, no throughput, the reason in {@code note} */
        static TargetRow notReached(String variant, String plan, double target, String why) {
            return new TargetRow(variant, plan, target, null, null, why);
        }
    }

    /**
     * @param collective NCCL name
     * @param nRanks     ranks
     * @param sizeBytes  size
     * @param choice     algorithm/protocol
     * @param timeUs     predicted time
     */
    public record AlgoCellRow(String collective, int nRanks, long sizeBytes, String choice, double timeUs) {
    }
}
