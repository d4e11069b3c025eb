package dev.collsim.reports.whatif;

import dev.collsim.reports.chart.AlgorithmMapChart;
import dev.collsim.reports.chart.BusBwChart;
import dev.collsim.reports.chart.PredictedVsMeasuredChart;
import dev.collsim.reports.chart.ScalingChart;
import dev.collsim.reports.chart.StepBreakdownChart;
import dev.collsim.reports.chart.SweepSeries;
import dev.collsim.reports.chart.TimeChart;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;

/** Builds the report's charts from its numbers. Stateless. */
public final class ReportCharts {

    private ReportCharts() {
    }

    /**
     * A chart with its file stem and a caption.
     *
     * @param stem    file name without extension, e.g. {@code busbw-allreduce}
     * @param caption one sentence for the HTML report
     * @param chart   the chart
     */
    public record Named(String stem, String caption, JFreeChart chart) {
    }

    /**
     * @param d the report's numbers
     * @return every chart the data supports, in report order
     */
    public static List<Named> build(ReportData d) {
        List<Named> out = new ArrayList<>();
        Map<String, List<ReportData.SweepRow>> byKey = new LinkedHashMap<>();
        for (ReportData.SweepRow r : d.sweeps()) {
            byKey.computeIfAbsent(r.collective() + " " + r.dataType(), k -> new ArrayList<>()).add(r);
        }
        String base = d.variants().isEmpty() ? "" : d.variants().get(0).variant();
        for (Map.Entry<String, List<ReportData.SweepRow>> e : byKey.entrySet()) {
            Map<String, List<SweepSeries.Point>> perVariant = new LinkedHashMap<>();
            Map<String, Integer> ranks = new LinkedHashMap<>();
            for (ReportData.SweepRow r : e.getValue()) {
                perVariant.computeIfAbsent(r.variant(), k -> new ArrayList<>()).add(new SweepSeries.Point(
                        r.sizeBytes(), r.timeUs(), r.busBw(), SweepChartJson.hardwareBound(e.getValue(), r.variant()),
                        r.algorithm(), r.protocol()));
                ranks.put(r.variant(), r.nRanks());
            }
            String coll = e.getValue().get(0).collective();
            List<SweepSeries> series = new ArrayList<>();
            for (Map.Entry<String, List<SweepSeries.Point>> v : perVariant.entrySet()) {
                List<SweepSeries.Measured> meas = new ArrayList<>();
                if (v.getKey().equals(base)) {
                    d.measured().stream().filter(m -> m.collective().equals(coll)).forEach(m -> meas.add(
                            new SweepSeries.Measured(m.sizeBytes(), m.measuredUs(), m.measuredBusBw())));
                }
                series.add(new SweepSeries(v.getKey() + " (" + ranks.get(v.getKey()) + " ranks)", v.getValue(),
                        meas));
            }
            String stem = InteractiveCharts.busBwStem(e.getValue().get(0));
            out.add(new Named(stem, "Predicted bus bandwidth of " + e.getKey() + " against size for every variant;"
                    + " dashed lines: each variant's hardware bound from its GPU and NIC links and its fabric's leaf"
                    + " uplinks (oversubscription, traffic between leaves), independent of size (the highest bound of"
                    + " the algorithms chosen in the sweep; ECMP collisions and protocol overheads are not in it);"
                    + " variants sharing a bound are drawn once and named together in its legend entry.",
                    BusBwChart.create(e.getKey() + ": busbw by variant", series, ReportRunner.SWEEP_LEAVES_OUT)));
            boolean measured = series.stream().anyMatch(x -> !x.measured().isEmpty());
            out.add(new Named(InteractiveCharts.timeStem(e.getValue().get(0)), "Predicted time of one " + e.getKey()
                    + " call against size for every variant, both axes logarithmic, as nccl-tests users read the"
                    + " latency regime (small sizes, where busbw is near 0)" + (measured ? "; open squares: measured"
                    + " times." : "."),
                    TimeChart.create(e.getKey() + ": time by variant", series, ReportRunner.SWEEP_LEAVES_OUT)));
        }
        if (!d.measured().isEmpty()) {
            List<PredictedVsMeasuredChart.Pair> pairs = d.measured().stream().map(m ->
                    new PredictedVsMeasuredChart.Pair(m.collective() + " " + Path.of(m.source()).getFileName(),
                            m.measuredUs(), m.predictedUs())).toList();
            out.add(new Named("predicted-vs-measured", "Predicted against measured time on the base cluster;"
                    + " points between the dashed lines are within 20%.", PredictedVsMeasuredChart.create(
                    "Predicted vs measured (" + base + ")", pairs, 0.2, ReportRunner.SWEEP_LEAVES_OUT)));
        }
        if (!d.algorithmMap().isEmpty()) {
            List<AlgorithmMapChart.Cell> cells = d.algorithmMap().stream()
                    .map(c -> new AlgorithmMapChart.Cell(c.sizeBytes(), c.nRanks(), c.choice())).toList();
            String coll = d.algorithmMap().get(0).collective();
            out.add(new Named("algorithm-map", "Algorithm and protocol predicted for each size and rank count on the"
                    + " base cluster (ranks = the first N GPUs).", AlgorithmMapChart.create(coll
                    + ": predicted algorithm/protocol (" + base + ")", cells, ReportRunner.SWEEP_LEAVES_OUT)));
        }
        List<String> plans = d.plans().stream().map(ReportData.PlanRow::plan).distinct().toList();
        for (int i = 0; i < plans.size(); i++) {
            String plan = plans.get(i);
            Map<String, LinkedHashMap<String, Double>> bars = stepBars(d, plan);
            if (bars.values().stream().anyMatch(b -> !b.isEmpty())) {
                out.add(new Named("step-" + (i + 1), "Step time of plan '" + plan + "' split into compute, pipeline"
                        + " bubble and the communication left exposed after overlap, per variant.",
                        StepBreakdownChart.create("Step time: " + plan, bars, ReportRunner.PLAN_LEAVES_OUT,
                                PlanChartJson.stepAxis(d.plans().stream().filter(p -> p.plan().equals(plan)).toList()))));
            }
            Map<String, List<double[]>> curves = new LinkedHashMap<>();
            d.scaling().stream().filter(s -> s.plan().equals(plan)).forEach(s -> curves.computeIfAbsent(s.variant(),
                    k -> new ArrayList<>()).add(new double[] {s.gpus(), s.efficiency()}));
            if (!curves.isEmpty()) {
                List<ScalingChart.Curve> list = curves.entrySet().stream()
                        .map(c -> new ScalingChart.Curve(c.getKey(), c.getValue())).toList();
                out.add(new Named("scaling-" + (i + 1), "Scaling efficiency (compute / step time) of plan '" + plan
                        + "' as data parallelism grows with the global batch fixed.",
                        ScalingChart.create("Scaling efficiency: " + plan, list, ReportRunner.PLAN_LEAVES_OUT)));
            }
        }
        return out;
    }

    /**
     * @return per variant of the plan, its step time split into compute, bubble and exposed comm (ms); a variant that
     *         does not fit has no parts and its reason in its label
     */
    private static Map<String, LinkedHashMap<String, Double>> stepBars(ReportData d, String plan) {
        Map<String, LinkedHashMap<String, Double>> bars = new LinkedHashMap<>();
        List<ReportData.PlanRow> rows = d.plans().stream().filter(p -> p.plan().equals(plan)).toList();
        for (ReportData.PlanRow r : rows) {
            if (!r.fits()) {
                bars.put(r.variant() + " (" + r.notFitReason() + ")", new LinkedHashMap<>());
                continue;
            }
            LinkedHashMap<String, Double> parts = new LinkedHashMap<>();
            parts.put("compute", r.computeMs());
            parts.put("pipeline bubble", r.bubbleMs());
            for (ReportData.PlanCommRow c : d.planComms()) {
                if (c.plan().equals(plan) && c.variant().equals(r.variant())) {
                    parts.merge(c.kind() + " (exposed)", c.exposedMs(), Double::sum);
                }
            }
            bars.put(PlanChartJson.barLabel(d, r, rows.get(0)), parts);
        }
        return bars;
    }
}
