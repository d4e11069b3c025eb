package dev.collsim.sweep.point;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.reports.cluster.SimulatorResolver;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import dev.collsim.reports.spec.VariantSpec;
import dev.collsim.reports.whatif.ReportData;
import dev.collsim.reports.whatif.PlanRows;
import dev.collsim.reports.whatif.ResolvedVariant;
import dev.collsim.reports.whatif.SweepRows;
import dev.collsim.sweep.spec.BillOfMaterials;
import dev.collsim.sweep.spec.CostModel;
import dev.collsim.sweep.spec.DesignSpace;
import dev.collsim.sweep.spec.Workload;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Computes sweep points from the design space alone: a design's variant is read by the report spec reader, built by
 * the report's {@link SimulatorResolver}, and timed by the report's own code ({@link SweepRows#of},
 * {@link PlanRows#row}), so a point has the number {@code collsim report} (and so {@code predict} and
 * {@code plan}) gives for the same cluster. A point that cannot be computed (a design the cluster editor refuses,
 * NCCL settings the predictor rejects, an error of the simulation) is returned as {@link PointResult#FAILED} with the
 * reason. Keeps the last design built (points come design by design) and the resolver's cluster cache, so use one
 * evaluator per batch of points. Not thread-safe.
 */
public final class PointEvaluator {

    private final DesignSpace space;
    private final SimulatorResolver resolver = new SimulatorResolver();
    private long lastDesign = -1;
    private ResolvedVariant last;
    private BillOfMaterials lastBom;
    private String lastError;

    /** @param space the design space */
    public PointEvaluator(DesignSpace space) {
        this.space = space;
    }

    /**
     * @param p a point, 0 <= p < {@link DesignSpace#points()}
     * @return its result
     */
    public PointResult evaluate(long p) {
        int nw = space.workloads().size();
        long d = p / nw;
        Workload w = space.workloads().get((int) (p % nw));
        if (d != lastDesign) {
            build(d);
        }
        if (lastError != null) {
            return failed(p, d, w, lastError, 0, 0, BillOfMaterials.EMPTY);
        }
        int hosts = last.topology().hostCount();
        try {
            return w.isPlan() ? plan(p, d, w, hosts) : collective(p, d, w, hosts);
        } catch (InputException e) {
            return failed(p, d, w, reason(e), lastBom.gpus(), hosts, lastBom);
        } catch (RuntimeException e) {
            return failed(p, d, w, "error: " + e, lastBom.gpus(), hosts, lastBom);
        }
    }

    private void build(long d) {
        lastDesign = d;
        last = null;
        lastError = null;
        try {
            last = resolver.resolve(space.report(), variant(d));
            lastBom = BillOfMaterials.of(last.topology());
        } catch (InputException e) {
            lastError = reason(e);
        } catch (RuntimeException e) {
            lastError = "error: " + e;
        }
    }

    /** @return the design's variant: a grid combination read from its YAML, a listed variant, or the base */
    private VariantSpec variant(long d) throws InputException {
        ReportSpec report = space.report();
        if (d >= space.gridDesigns()) {
            return space.listed().get((int) (d - space.gridDesigns()));
        }
        if (space.axes().isEmpty()) {
            return report.variants().get(0);
        }
        return ReportSpecReader.read(report.file(), space.variantYaml(d), report.folder()).variants().get(1);
    }

    private PointResult collective(long p, long d, Workload w, int hosts) throws InputException {
        ReportData.SweepRow r = SweepRows.of(space.report(), last, w.sweep()).get(0);
        CostModel c = space.cost();
        double capital = c.capital(lastBom);
        double running = c.running(lastBom.gpus(), c.runHours(Double.NaN));
        return new PointResult(p, d, w.name(), w.kind(), space.label(d), space.axisLabels(d), PointResult.OK, "",
                lastBom.gpus(), hosts, r.sizeBytes(), r.timeUs(), r.busBw(), r.algorithm() + "/" + r.protocol(),
                Double.NaN, Double.NaN, Double.NaN, r.bottleneck(), lastBom.nicPorts(), lastBom.switchPorts(),
                lastBom.cables(), capital, running, capital + running, c.powerKw(lastBom.gpus()));
    }

    private PointResult plan(long p, long d, Workload w, int hosts) throws InputException {
        ReportData.PlanRow r = PlanRows.row(space.report(), last, w.plan());
        CostModel c = space.cost();
        double capital = c.capital(lastBom);
        if (!r.fits()) {
            return new PointResult(p, d, w.name(), w.kind(), space.label(d), space.axisLabels(d), PointResult.NO_FIT,
                    r.notFitReason(), lastBom.gpus(), hosts, 0, Double.NaN, Double.NaN, "", Double.NaN, Double.NaN,
                    r.memoryGib(), "", lastBom.nicPorts(), lastBom.switchPorts(), lastBom.cables(), capital, Double.NaN,
                    Double.NaN, c.powerKw(lastBom.gpus()));
        }
        double running = c.running(lastBom.gpus(), c.runHours(r.tokensPerS()));
        return new PointResult(p, d, w.name(), w.kind(), space.label(d), space.axisLabels(d), PointResult.OK,
                r.computeSource(), lastBom.gpus(), hosts, 0, Double.NaN, Double.NaN, "", r.stepMs(), r.tokensPerS(),
                r.memoryGib(), stepShare(r), lastBom.nicPorts(), lastBom.switchPorts(), lastBom.cables(), capital,
                running, capital + running, c.powerKw(lastBom.gpus()));
    }

    /** @return the largest part of a step (compute, exposed communication, pipeline bubble) and its share */
    static String stepShare(ReportData.PlanRow r) {
        String part = "compute";
        double ms = r.computeMs();
        if (r.exposedMs() > ms) {
            part = "exposed communication";
            ms = r.exposedMs();
        }
        if (r.bubbleMs() > ms) {
            part = "pipeline bubble";
            ms = r.bubbleMs();
        }
        return String.format(Locale.ROOT, "%s %.0f%%", part, 100 * ms / r.stepMs());
    }

    private PointResult failed(long p, long d, Workload w, String reason, int gpus, int hosts, BillOfMaterials b) {
        return new PointResult(p, d, w.name(), w.kind(), space.label(d), space.axisLabels(d), PointResult.FAILED,
                reason, gpus, hosts, 0, Double.NaN, Double.NaN, "", Double.NaN, Double.NaN, Double.NaN, "",
                b.nicPorts(), b.switchPorts(), b.cables(), Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    private static String reason(InputException e) {
        List<InputProblem> ps = e.problems();
        return ps.stream().map(InputProblem::message).collect(Collectors.joining("; "));
    }
}
