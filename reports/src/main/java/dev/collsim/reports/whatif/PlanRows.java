package dev.collsim.reports.whatif;

import dev.collsim.io.InputException;
import dev.collsim.reports.plan.CommTiming;
import dev.collsim.reports.plan.GroupPlacement;
import dev.collsim.reports.plan.ScalingSearch;
import dev.collsim.reports.plan.StepPlan;
import dev.collsim.reports.plan.StepPlanner;
import dev.collsim.reports.plan.TrainingJob;
import dev.collsim.reports.spec.PlanSpec;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.simulator.InvalidRequestException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The rows of a report's training-step plans on one variant: the step plan and its collectives, the scaling curve and
 * the GPUs a target throughput needs ({@link ScalingSearch}); on a variant that sets {@code hosts} the plan's dp
 * follows the cluster ({@link #scaled}). Used by {@link ReportRunner} and by callers that plan single points (design
 * sweeps, {@link #row}). Stateless.
 */
public final class PlanRows {

    /** GPU count up to which a target throughput is searched when the plan gives no scaling-max-gpus. */
    public static final int DEFAULT_SEARCH_GPUS = 1024;

    private PlanRows() {
    }

    /**
     * One plan on one variant as {@link ReportRunner#run} plans it on the base, with the plan's own dp (a report
     * scales dp on a variant that sets {@code hosts}, {@link #scaled}; a design sweep's plans keep theirs); the plan's
     * target and scaling curve are not searched.
     *
     * @return the plan row (fits false with the reason when the job needs more GPUs than the variant has)
     * @throws InputException when the planner rejects the variant's NCCL settings (located at the variant)
     */
    public static ReportData.PlanRow row(ReportSpec spec, ResolvedVariant v, PlanSpec p) throws InputException {
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
    static PlanSpec scaled(PlanSpec p, ResolvedVariant v, ResolvedVariant base) {
        int have = v.topology().gpus().size();
        int baseGpus = base.topology().gpus().size();
        if (v == base || v.spec().edits().hosts() == null || have == baseGpus) {
            return p;
        }
        return ScalingSearch.scaledTo(p.job(), baseGpus, have)
                .map(j -> new PlanSpec(p.name(), j, p.order(), p.targetTokensPerS(), p.scalingMaxGpus())).orElse(p);
    }

    /**
     * Adds a plan's rows on one variant: its step plan (or why it does not fit), its collectives, and where the plan
     * asks, its scaling curve and the GPUs that reach its target throughput.
     *
     * @throws InputException when the planner rejects the variant's NCCL settings (located at the variant)
     */
    static void plan(ReportSpec spec, ResolvedVariant v, PlanSpec p, List<ReportData.PlanRow> plans,
            List<ReportData.PlanCommRow> comms, List<ReportData.ScalingRow> scaling,
            List<ReportData.TargetRow> targets) throws InputException {
        StepPlanner planner = new StepPlanner(v.predictor(), v.spec().ncclSettings(), p.order());
        int have = v.topology().gpus().size();
        if (p.job().nGpus() > have) {
            plans.add(ReportData.PlanRow.notFitting(v.name(), p.name(), p.job().describe(), p.job().nGpus(),
                    tooFew(p.job(), have)));
        } else {
            StepPlan sp = planWith(spec, v, p, () -> planner.plan(v.topology(), p.job(), Double.NaN));
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
        List<StepPlan> curve = planWith(spec, v, p, () -> search.curve(p.job(), searchLimit));
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
                    .orElse(ReportData.TargetRow.notReached(v.name(), p.name(), p.targetTokensPerS(), why)));
        }
    }

    /**
     * @return why a job does not fit a cluster of {@code have} GPUs, with the GPUs one replica needs; where a smaller
     *         dp the plan allows ({@link ScalingSearch#scaledTo}) would fit, that dp (the report changes dp only on a
     *         variant that sets hosts, {@link #scaled}: a variant that changes the GPUs per host keeps the plan's)
     */
    static String tooFew(TrainingJob job, int have) {
        int replica = job.nGpus() / job.dp();
        Optional<TrainingJob> smaller = replica > have ? Optional.empty()
                : ScalingSearch.scaledTo(job, job.nGpus(), have);
        return "does not fit: " + GroupPlacement.tooFewGpus(job, null, have)
                + (replica > have ? "; even dp=1 needs " + replica : smaller.isPresent() ? "; dp="
                + smaller.get().dp() + " would fit its GPUs, but the report changes a plan's dp only on a variant"
                + " that sets hosts (set hosts, or give the plan that dp)" : "; no dp of at most " + have / replica
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

    /** Runs the planner; a refusal is located at the variant and names the plan whose collective was refused. */
    private static <T> T planWith(ReportSpec spec, ResolvedVariant v, PlanSpec p, Supplier<T> work)
            throws InputException {
        try {
            return work.get();
        } catch (InvalidRequestException e) {
            throw new InputException(v.spec().problem(spec.file(), "plan \"" + p.name() + "\": " + e.getMessage()));
        }
    }
}
