package dev.collsim.reports.whatif;

import dev.collsim.io.InputException;
import dev.collsim.reports.spec.PlanSpec;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.SweepSpec;
import dev.collsim.reports.spec.VariantSpec;
import dev.collsim.units.DataSize;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a what-if report: every sweep and plan of the spec on every variant, the algorithm map on the base, and
 * the comparison with measurements when the spec names them (rows: {@link SweepRows}, {@link PlanRows}). Produces
 * {@link ReportData}; draws nothing. The pieces run on a few threads ({@link OrderedTasks}) and are gathered in spec
 * order: the same report on any thread count.
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
                    part.cells.addAll(SweepRows.algorithmMap(spec, b, spec.algorithmMap()));
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
                part.sweeps.addAll(SweepRows.of(spec, v, s));
                if (v == base && s.measured() != null) {
                    part.measured.addAll(SweepRows.measured(measurements, spec, v, s, part.sweeps));
                }
                step.step(v.name() + ": " + s.collective().ncclName() + " sweep");
                return part;
            });
        }
        for (PlanSpec p : spec.plans()) {
            PlanSpec scaled = PlanRows.scaled(p, v, base);
            tasks.submit(() -> {
                ReportPart part = new ReportPart();
                PlanRows.plan(spec, v, scaled, part.plans, part.comms, part.scaling, part.targets);
                step.step(v.name() + ": plan " + p.name());
                return part;
            });
        }
    }

    /** @return {@code size} as nccl-tests users read it (8, 1K, 32M) */
    static String size(long bytes) {
        return DataSize.format(bytes);
    }
}
