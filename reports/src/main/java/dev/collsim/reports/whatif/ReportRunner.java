package dev.collsim.reports.whatif;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.CollGeometry;
import dev.collsim.reports.chart.SweepSeries;
import dev.collsim.reports.plan.CommTiming;
import dev.collsim.reports.plan.ScalingSearch;
import dev.collsim.reports.plan.StepPlan;
import dev.collsim.reports.plan.StepPlanner;
import dev.collsim.reports.plan.TrainingJob;
import dev.collsim.reports.spec.PlanSpec;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.SweepSpec;
import dev.collsim.reports.spec.VariantSpec;
import dev.collsim.simulator.FlowPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.InvalidRequestException;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.bound.HostNicShare;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.units.DataSize;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Runs a what-if report: every sweep and plan of the spec on every variant, the algorithm map on the base, and
 * the comparison with measurements when the spec names them. Produces {@link ReportData}; draws nothing. The pieces
 * run on a few threads ({@link OrderedTasks}) and are gathered in spec order: the same report on any thread count.
 */
public final class ReportRunner {

    /** What sweep predictions leave out (report footnote). */
    public static final String SWEEP_LEAVES_OUT = "other jobs' traffic, GPU clock and thermal variation, "
            + "NCCL tuner plugins, stragglers; each collective alone on an idle cluster";
    /**
     * What plans leave out: the report's footnote and {@code collsim plan}'s last line (StepCollectives names what
     * its derivation leaves out; full recomputation re-runs the forward but its collectives are not counted).
     */
    public static final String PLAN_LEAVES_OUT = "full recomputation's repeated forward collectives, optimizer-step "
            + "time, gradient bucketing, embedding AllReduce, MoE load imbalance, data loading, other jobs' traffic; "
            + "collectives of different kinds never overlap each other";

    /** GPU count up to which a target throughput is searched when the plan gives no scaling-max-gpus. */
    public static final int DEFAULT_SEARCH_GPUS = 1024;

    /** Most threads a runner uses by default (the report has a few dozen pieces of very different sizes). */
    public static final int MAX_THREADS = 4;

    private final VariantResolver resolver;
    private final MeasuredSeriesReader measurements;
    private final ProgressListener progress;
    private final int threads;

    /** A runner on as many threads as the machine has processors, at most {@link #MAX_THREADS}; see below. */
    public ReportRunner(VariantResolver resolver, MeasuredSeriesReader measurements, ProgressListener progress) {
        this(resolver, measurements, progress, Math.min(MAX_THREADS, Runtime.getRuntime().availableProcessors()));
    }

    /**
     * @param resolver     builds variants; the {@link ResolvedVariant#withHosts} functions it returns and its
     *                     variants' predictors are called from {@code threads} threads at once
     * @param measurements reads measurement files, or null when none can be read (a spec naming one then fails)
     * @param progress     progress listener (called from one thread at a time)
     * @param threads      threads computing the report's pieces (each sweep and plan of each variant, the algorithm
     *                     map, the tuning section), >= 1; the report is the same for every count
     */
    public ReportRunner(VariantResolver resolver, MeasuredSeriesReader measurements, ProgressListener progress,
            int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        this.resolver = resolver;
        this.measurements = measurements;
        this.progress = progress == null ? ProgressListener.NONE : progress;
        this.threads = threads;
    }

    /**
     * Resolves the variants one after the other on the calling thread and computes their sweeps and plans, the
     * algorithm map and the tuning section as independent pieces on the runner's threads, gathered in spec order.
     *
     * @param spec the spec
     * @return every number of the report
     * @throws InputException when a variant cannot be built, a measurement file cannot be read, or the predictor
     *                        rejects a variant's NCCL setting (located at the variant; the first in spec order)
     */
    public ReportData run(ReportSpec spec) throws InputException {
        long total = (long) spec.variants().size() * (spec.sweeps().size() + spec.plans().size())
                + (spec.algorithmMap() == null ? 0 : 1);
        progress.start(total);
        ProgressListener step = ProgressListener.serialized(progress);
        List<ReportData.VariantRow> variantRows = new ArrayList<>();
        ReportPart all = new ReportPart();
        ResolvedVariant base = null;
        try (OrderedTasks<ReportPart> tasks = new OrderedTasks<>(threads)) {
            for (VariantSpec vs : spec.variants()) {
                ResolvedVariant v;
                try {
                    v = resolver.resolve(spec, vs);
                } catch (InputException e) {
                    tasks.submit(() -> {
                        throw e;
                    });
                    break;
                }
                if (base == null) {
                    base = v;
                }
                variantRows.add(new ReportData.VariantRow(v.name(), v.topology().name(), v.topology().hostCount(),
                        v.topology().gpus().size(), VariantChanges.text(vs, v, base),
                        vs.ncclSettings().label(),
                        resolver.calibrationLabel(vs), vs.backend().label(), VariantNetwork.note(v), v.trays() != null));
                submitVariant(spec, v, base, tasks, step);
            }
            ResolvedVariant b = base;
            if (spec.algorithmMap() != null && b != null) {
                tasks.submit(() -> {
                    ReportPart part = new ReportPart();
                    part.cells.addAll(algorithmMap(spec, b, spec.algorithmMap()));
                    step.step("algorithm map");
                    return part;
                });
            }
            if (b != null) {
                tasks.submit(() -> {
                    ReportPart part = new ReportPart();
                    part.tuning = TuningSection.of(b, b.spec().ncclSettings(), b.spec().calibration());
                    return part;
                });
            }
            tasks.results(InputException.class).forEach(all::add);
        }
        return new ReportData(spec.title(), spec.file(), variantRows, all.sweeps, all.measured, all.plans,
                all.comms, all.scaling, all.targets, all.cells, List.of("sweeps: " + SWEEP_LEAVES_OUT,
                "plans: " + PLAN_LEAVES_OUT), all.tuning);
    }

    /** Submits each sweep and each plan of a variant as its own piece. */
    private void submitVariant(ReportSpec spec, ResolvedVariant v, ResolvedVariant base,
            OrderedTasks<ReportPart> tasks, ProgressListener step) {
        for (SweepSpec s : spec.sweeps()) {
            tasks.submit(() -> {
                ReportPart part = new ReportPart();
                part.sweeps.addAll(sweepRows(spec, v, s));
                if (v == base && s.measured() != null) {
                    part.measured.addAll(compare(spec, v, s, part.sweeps));
                }
                step.step(v.name() + ": " + s.collective().ncclName() + " sweep");
                return part;
            });
        }
        for (PlanSpec p : spec.plans()) {
            PlanSpec scaled = scaled(p, v, base);
            tasks.submit(() -> {
                ReportPart part = new ReportPart();
                plan(spec, v, scaled, part.plans, part.comms, part.scaling, part.targets);
                step.step(v.name() + ": plan " + p.name());
                return part;
            });
        }
    }

    /**
     * One collective sweep on one variant, each size exactly as {@link #run} times it (for callers that time single
     * points, such as design sweeps); sizes NCCL discards ({@link CollGeometry#discarded}: 0 elements per rank) are
     * left out, as the flow backends leave them out.
     *
     * @throws InputException when the predictor rejects the variant's NCCL settings (located at the variant)
     */
    public static List<ReportData.SweepRow> sweepRows(ReportSpec spec, ResolvedVariant v, SweepSpec s)
            throws InputException {
        List<Gpu> ranks = ranks(v.topology(), s.gpus());
        List<ReportData.SweepRow> rows = new ArrayList<>();
        for (long size : s.sizes().sizes()) {
            if (!CollGeometry.discarded(s.collective(), size, s.dataType().size(), ranks.size())) { // NCCL runs nothing
                rows.add(row(v, s, ranks, size, predict(spec, v, ranks, s, size)));
            }
        }
        return rows;
    }

    /**
     * One plan on one variant as {@link #run} plans it on the base, with the plan's own dp (a report scales dp on a
     * variant that sets {@code hosts}, {@link #scaled}; a design sweep's plans keep theirs); the plan's target and
     * scaling curve are not searched.
     *
     * @return the plan row (fits false with the reason when the job needs more GPUs than the variant has)
     * @throws InputException when the planner rejects the variant's NCCL settings (located at the variant)
     */
    public static ReportData.PlanRow planRow(ReportSpec spec, ResolvedVariant v, PlanSpec p) throws InputException {
        List<ReportData.PlanRow> rows = new ArrayList<>();
        plan(spec, v, new PlanSpec(p.name(), p.job(), p.order(), Double.NaN, 0), rows, new ArrayList<>(),
                new ArrayList<>(), new ArrayList<>());
        return rows.get(0);
    }

    /**
     * The plan as a variant runs it: on a variant that sets {@code hosts} to a cluster of another GPU count, the
     * plan's data parallelism follows the GPU count ({@link ScalingSearch#scaledTo}), so "32 hosts" runs the plan on
     * all its GPUs, not on the base's 32 of them. A plan no degree of which fits is kept as it is (its row then says
     * it does not fit, with the GPUs it needs).
     */
    private static PlanSpec scaled(PlanSpec p, ResolvedVariant v, ResolvedVariant base) {
        int have = v.topology().gpus().size();
        int baseGpus = base.topology().gpus().size();
        if (v == base || v.spec().edits().hosts() == null || have == baseGpus) {
            return p;
        }
        return ScalingSearch.scaledTo(p.job(), baseGpus, have)
                .map(j -> new PlanSpec(p.name(), j, p.order(), p.targetTokensPerS(), p.scalingMaxGpus())).orElse(p);
    }

    private static List<Gpu> ranks(Topology t, int gpus) {
        List<Gpu> all = t.gpus();
        return gpus <= 0 || gpus >= all.size() ? all : all.subList(0, gpus);
    }

    private static Prediction predict(ReportSpec spec, ResolvedVariant v, List<Gpu> ranks, SweepSpec s, long size)
            throws InputException {
        try {
            return v.predictor().predict(new PredictionRequest(v.topology(), ranks, s.collective(), size,
                    s.dataType(), null, v.spec().ncclSettings()));
        } catch (InvalidRequestException e) {
            // refused by the simulator because of what the variant asks; any other exception is a bug (exit 1)
            throw new InputException(v.spec().problem(spec.file(), e.getMessage()));
        }
    }

    /**
     * A sweep row: the prediction as the variant's predictor gives it, the number {@code collsim predict} prints (the
     * analytical prediction applies its nodes' NIC bound, the flow backend shares every link); with no finite time (no
     * NCCL-model estimate for the layout) timed by the host NICs ({@link HostNicShare}, one group), and says so. Bound:
     * the prediction's, which includes what the fabric's leaf uplinks allow ({@code FabricBound}) whatever the backend.
     */
    private static ReportData.SweepRow row(ResolvedVariant v, SweepSpec s, List<Gpu> ranks, long size, Prediction p) {
        double limit = p.physicalBoundBusBw();
        String backend = FlowPredictor.fabricLimited(p) ? "flow" : "analytical";
        double t = p.timeUs();
        boolean ring = p.algorithm() == Algorithm.RING;
        double bound = Double.isFinite(t) ? 0 : HostNicShare.boundUs(v.topology(), ranks, s.collective(), size, 1,
                ring);
        if (!Double.isFinite(t) && bound > 0) {
            return new ReportData.SweepRow(v.name(), s.collective().ncclName(), s.dataType().testName(), ranks.size(),
                    size, bound, BusBandwidth.algBw(size, bound), BusBandwidth.busBw(s.collective(), ranks.size(), size,
                    bound), limit, algo(p), proto(p),
                    p.nChannels(), p.ncclEstimateUs(), "no estimate from the NCCL model for this layout ("
                    + p.bottleneck() + "); timed instead by the host NICs", "host-NIC bound");
        }
        return new ReportData.SweepRow(v.name(), s.collective().ncclName(), s.dataType().testName(), ranks.size(),
                size, t, p.algBw(), p.busBw(), limit, algo(p), proto(p), p.nChannels(),
                p.ncclEstimateUs(), p.bottleneck(), backend);
    }

    private List<ReportData.MeasuredRow> compare(ReportSpec spec, ResolvedVariant v, SweepSpec s,
            List<ReportData.SweepRow> predicted) throws InputException {
        if (measurements == null) {
            throw new InputException(new InputProblem(spec.file(), 0, 0, "sweeps.measured",
                    "measurement files cannot be read by this build (no reader available)"));
        }
        Map<Long, ReportData.SweepRow> bySize = new TreeMap<>();
        predicted.forEach(r -> bySize.put(r.sizeBytes(), r));
        List<ReportData.MeasuredRow> out = new ArrayList<>();
        int nRanks = ranks(v.topology(), s.gpus()).size();
        for (SweepSeries.Measured m : measurements.read(spec.folder().resolve(s.measured()), s.collective(),
                nRanks)) {
            ReportData.SweepRow p = bySize.get(m.sizeBytes());
            if (p == null) {
                List<Gpu> ranks = ranks(v.topology(), s.gpus());
                p = row(v, s, ranks, m.sizeBytes(), predict(spec, v, ranks, s, m.sizeBytes()));
            }
            if (m.timeUs() > 0) {
                out.add(new ReportData.MeasuredRow(v.name(), s.collective().ncclName(), s.measured(), m.sizeBytes(),
                        m.timeUs(), p.timeUs(), m.busBw(), (p.timeUs() - m.timeUs()) / m.timeUs() * 100));
            }
        }
        return out;
    }

    private static void plan(ReportSpec spec, ResolvedVariant v, PlanSpec p, List<ReportData.PlanRow> plans,
            List<ReportData.PlanCommRow> comms, List<ReportData.ScalingRow> scaling,
            List<ReportData.TargetRow> targets) throws InputException {
        StepPlanner planner = new StepPlanner(v.predictor(), v.spec().ncclSettings(), p.order());
        int have = v.topology().gpus().size();
        if (p.job().nGpus() > have) {
            plans.add(new ReportData.PlanRow(v.name(), p.name(), p.job().describe(), p.job().nGpus(), false, 0, 0, 0,
                    0, 0, 0, 0, tooFew(p.job(), have)));
        } else {
            StepPlan sp = planWith(spec, v, () -> planner.plan(v.topology(), p.job(), Double.NaN));
            if (sp.memory().fits()) {
                addPlan(v, p, sp, plans, comms);
            } else {
                plans.add(ReportData.PlanRow.of(v.name(), p.name(), sp));
            }
        }
        if (p.scalingMaxGpus() <= 0 && Double.isNaN(p.targetTokensPerS())) {
            return;
        }
        // a variant that sets 'hosts' is a cluster of that size: the search may not grow it past its own GPUs
        Integer fixedHosts = v.spec().edits().hosts();
        ScalingSearch search = new ScalingSearch(planner, v.withHosts(), v.gpusPerHost(), Double.NaN);
        int limit = p.scalingMaxGpus() > 0 ? p.scalingMaxGpus() : DEFAULT_SEARCH_GPUS;
        int searchLimit = fixedHosts == null ? limit : Math.min(limit, have);
        List<StepPlan> curve = planWith(spec, v, () -> search.curve(p.job(), searchLimit));
        if (p.scalingMaxGpus() > 0) {
            for (StepPlan s : curve) {
                scaling.add(new ReportData.ScalingRow(v.name(), p.name(), s.job().nGpus(), s.job().dp(),
                        s.stepUs() / 1e3, s.tokensPerS(), s.efficiency()));
            }
        }
        if (!Double.isNaN(p.targetTokensPerS())) {
            Optional<StepPlan> hit = curve.stream().filter(s -> s.tokensPerS() >= p.targetTokensPerS()
                    && s.memory().fits()).findFirst();
            int tried = curve.isEmpty() ? 0 : curve.get(curve.size() - 1).job().nGpus();
            String why = fixedHosts == null ? "not reached up to " + tried + " GPUs (limit " + limit
                    + " GPUs, and the global batch caps dp at G/b; configurations that do not fit in GPU memory"
                    + " do not count)" : "not reached on the variant's own " + have + " GPUs (it sets hosts: "
                    + fixedHosts + ", so the search does not grow its cluster" + (p.job().nGpus() > have
                    ? "; the plan needs " + p.job().nGpus() + " GPUs)" : ")");
            targets.add(hit.map(s -> new ReportData.TargetRow(v.name(), p.name(), p.targetTokensPerS(),
                    s.job().nGpus(), s.tokensPerS(), "dp=" + s.job().dp()))
                    .orElse(new ReportData.TargetRow(v.name(), p.name(), p.targetTokensPerS(), 0, 0, why)));
        }
    }

    /** @return why a job does not fit a cluster of {@code have} GPUs, with the GPUs one replica needs */
    private static String tooFew(TrainingJob job, int have) {
        int replica = job.nGpus() / job.dp();
        return "does not fit: needs " + job.nGpus() + " GPUs (dp=" + job.dp() + " x tp=" + job.tp() + " x pp="
                + job.pp() + (job.cp() > 1 ? " x cp=" + job.cp() : "") + "), the cluster has " + have
                + (replica > have ? "; even dp=1 needs " + replica : "; no dp of at most " + have / replica
                + " (what fits) is allowed: global batch " + job.globalBatch() + " / (micro-batch " + job.microBatch()
                + " x dp) must be whole" + (job.ep() > 1 ? ", dp a multiple of ep=" + job.ep() : ""));
    }

    private static void addPlan(ResolvedVariant v, PlanSpec p, StepPlan sp, List<ReportData.PlanRow> plans,
            List<ReportData.PlanCommRow> comms) {
        plans.add(ReportData.PlanRow.of(v.name(), p.name(), sp));
        double hiddenShare = sp.overlappableUs() > 0 ? sp.hiddenUs() / sp.overlappableUs() : 0;
        for (CommTiming c : sp.comms()) {
            double exposed = c.totalUs() * (c.op().kind().overlappable() ? 1 - hiddenShare : 1);
            comms.add(new ReportData.PlanCommRow(v.name(), p.name(), c.op().kind().label(),
                    c.op().kind().collective().ncclName(), c.op().kind().group().name(), c.nRanks(), c.hosts(),
                    c.op().sizeBytes(), c.op().callsPerStep(), c.perCallUs(), c.totalUs() / 1e3, exposed / 1e3,
                    c.busBw(), c.algoProto(), c.bottleneck(), c.op().formula()));
        }
    }

    private static <T> T planWith(ReportSpec spec, ResolvedVariant v, Supplier<T> work)
            throws InputException {
        try {
            return work.get();
        } catch (InvalidRequestException e) {
            throw new InputException(v.spec().problem(spec.file(), e.getMessage()));
        }
    }

    private static List<ReportData.AlgoCellRow> algorithmMap(ReportSpec spec, ResolvedVariant base, SweepSpec s)
            throws InputException {
        List<ReportData.AlgoCellRow> out = new ArrayList<>();
        int all = base.topology().gpus().size();
        List<Integer> counts = new ArrayList<>();
        for (int n = 2; n < all; n *= 2) {
            counts.add(n);
        }
        counts.add(all);
        for (int n : counts) {
            List<Gpu> ranks = ranks(base.topology(), n);
            for (long size : s.sizes().sizes()) {
                if (!CollGeometry.discarded(s.collective(), size, s.dataType().size(), n)) { // NCCL runs nothing
                    Prediction p = predict(spec, base, ranks, s, size);
                    out.add(new ReportData.AlgoCellRow(s.collective().ncclName(), n, size, CommTiming.choice(p),
                            p.timeUs()));
                }
            }
        }
        return out;
    }

    private static String algo(Prediction p) {
        return p.algorithm() == null ? "P2P" : p.algorithm().ncclName();
    }

    private static String proto(Prediction p) {
        return p.protocol() == null ? "-" : p.protocol().ncclName();
    }

    /** @return {@code size} as nccl-tests users read it (8, 1K, 32M) */
    static String size(long bytes) {
        return DataSize.format(bytes);
    }
}
