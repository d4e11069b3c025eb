package dev.collsim.reports.whatif;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * ECharts options for the training plans: the step time of each variant as stacked horizontal bars (compute,
 * pipeline bubble when any variant has one, exposed communication per kind) on an axis that starts near the shared
 * compute time ({@link #stepAxis}) so differences of a fraction of a percent show, every variant listed, those that do
 * not fit with the reason, each label giving the step time and its difference from the base; and scaling efficiency
 * against GPU count. Stateless.
 */
final class PlanChartJson {

    private PlanChartJson() {
    }

    /**
     * @param title chart title
     * @param d     the report's numbers
     * @param plan  the plan's name
     * @return the option
     */
    static ObjectNode stepBars(String title, ReportData d, String plan) {
        List<ReportData.PlanRow> rows = d.plans().stream().filter(r -> r.plan().equals(plan)).toList();
        Map<String, double[]> parts = new LinkedHashMap<>();
        parts.put("compute", new double[rows.size()]);
        parts.put("pipeline bubble", new double[rows.size()]);
        for (int i = 0; i < rows.size(); i++) {
            ReportData.PlanRow r = rows.get(i);
            if (!r.fits()) {
                continue;
            }
            parts.get("compute")[i] = r.computeMs();
            parts.get("pipeline bubble")[i] = r.bubbleMs();
            for (ReportData.PlanCommRow c : d.planComms()) {
                if (c.plan().equals(plan) && c.variant().equals(r.variant())) {
                    parts.computeIfAbsent(c.kind() + " (exposed)", k -> new double[rows.size()])[i] += c.exposedMs();
                }
            }
        }
        ObjectNode o = ChartJson.base(title, "ms", "none");
        o.remove("dataZoom");
        o.putObject("tooltip").put("trigger", "axis").put("confine", true).putObject("axisPointer")
                .put("type", "shadow");
        double[] range = stepAxis(rows);
        ObjectNode x = ChartJson.axis(range[0] > 0 ? String.format(Locale.ROOT, "step time (ms); the axis starts at"
                + " %,.0f ms, so the compute bar is cut", range[0]) : "step time (ms)", false, 10, range[0], range[1]);
        o.set("xAxis", x.put("interval", range[2]));
        ArrayNode cats = o.putObject("yAxis").put("type", "category").put("inverse", true).putArray("data");
        for (ReportData.PlanRow r : rows) {
            cats.add(barLabel(d, r, rows.get(0)));
        }
        o.withObject("/grid").put("left", 10);
        ArrayNode series = o.putArray("series");
        List<String> legend = new ArrayList<>();
        for (Map.Entry<String, double[]> p : parts.entrySet()) {
            if (Arrays.stream(p.getValue()).allMatch(v -> v == 0)) {
                continue; // e.g. no pipeline bubble at pp=1: not a legend entry
            }
            legend.add(p.getKey());
            ObjectNode s = series.addObject().put("name", p.getKey()).put("type", "bar").put("stack", "step")
                    .put("barMaxWidth", 26);
            ArrayNode data = s.putArray("data");
            for (double v : p.getValue()) {
                data.add(v);
            }
        }
        ChartJson.legend(o, legend, Map.of());
        List<String> notes = new ArrayList<>();
        rows.stream().filter(r -> !r.fits()).forEach(r -> notes.add(r.variant() + ": " + r.notFitReason()));
        o.put("notes", String.join("; ", notes));
        return o;
    }

    /**
     * @param d    the report's numbers
     * @param r    a plan row
     * @param base the base variant's row of the same plan
     * @return the bar's label: variant (and its dp when it differs from the base's), step time and the difference
     *         from the base, e.g. {@code 32 hosts at dp=16: 3458.4 ms (-85.61 %)}; for a row that does not fit,
     *         {@code 1 host: does not fit} (the reason is in the table and the note under the chart: a long label
     *         squeezed the bars to a third of a 900 px window)
     */
    static String barLabel(ReportData d, ReportData.PlanRow r, ReportData.PlanRow base) {
        if (!r.fits()) {
            return r.variant() + ": does not fit";
        }
        return String.format(Locale.ROOT, "%s%s: %.1f ms%s", r.variant(), ReportSummary.dpNote(d, r), r.stepMs(),
                r == base ? " (base)" : String.format(Locale.ROOT, " (%+.2f %%)",
                (r.stepMs() - base.stepMs()) / base.stepMs() * 100));
    }

    /**
     * The step-time axis: it starts at the largest multiple of the tick interval at or below the smallest compute
     * time of the fitting variants (compute is the part every variant shares, so cutting it shows the differences in
     * exposed communication at a readable scale) and ends at the multiple at or above the longest step; the interval
     * is 1, 2 or 5 times a power of ten, the first giving at most 6 ticks over [smallest compute, longest step].
     *
     * @param rows the plan's rows (those that do not fit are ignored)
     * @return {min, max, interval} in ms
     */
    static double[] stepAxis(List<ReportData.PlanRow> rows) {
        double lo = rows.stream().filter(ReportData.PlanRow::fits).mapToDouble(ReportData.PlanRow::computeMs).min()
                .orElse(0);
        double hi = rows.stream().filter(ReportData.PlanRow::fits).mapToDouble(ReportData.PlanRow::stepMs).max()
                .orElse(1);
        double span = Math.max(hi - lo, hi * 1e-3);
        double interval = niceInterval(span / 6);
        return new double[] {Math.floor(lo / interval) * interval, Math.ceil(hi / interval) * interval, interval};
    }

    /** @return the smallest of 1, 2, 5 times a power of ten at or above v (v &gt; 0) */
    static double niceInterval(double v) {
        double p = ChartJson.floor10(v);
        for (double m : new double[] {1, 2, 5}) {
            if (m * p >= v * (1 - 1e-12)) {
                return m * p;
            }
        }
        return 10 * p;
    }

    /**
     * @param title  chart title
     * @param d      the report's numbers
     * @param plan   the plan's name
     * @return scaling efficiency (percent) against GPU count (log 2 axis), one line per variant
     */
    static ObjectNode scaling(String title, ReportData d, String plan) {
        List<ReportData.ScalingRow> rows = d.scaling().stream().filter(s -> s.plan().equals(plan)).toList();
        double lo = rows.stream().mapToDouble(ReportData.ScalingRow::gpus).min().orElse(1);
        double hi = rows.stream().mapToDouble(ReportData.ScalingRow::gpus).max().orElse(1);
        ObjectNode o = ChartJson.base(title, "gpus", "pct");
        o.set("xAxis", ChartJson.axis("GPUs", true, 2, lo, hi));
        o.set("yAxis", ChartJson.nameOnTop(ChartJson.axis("scaling efficiency (%)", false, 10, 0, 100)));
        ArrayNode series = o.putArray("series");
        Map<String, ArrayNode> byVariant = new LinkedHashMap<>();
        for (ReportData.ScalingRow r : rows) {
            ArrayNode data = byVariant.computeIfAbsent(r.variant(), k -> series.addObject().put("name", k)
                    .put("type", "line").put("symbolSize", 5).putArray("data"));
            ObjectNode p = data.addObject();
            p.putArray("value").add(r.gpus()).add(r.efficiency() * 100);
            p.putObject("tip").put("variant", r.variant()).put("GPUs", r.gpus())
                    .put("data-parallel degree", r.dp())
                    .put("step ms", r.stepMs()).put("tokens/s", r.tokensPerS()).put("efficiency %", r.efficiency() * 100);
        }
        ChartJson.legend(o, new ArrayList<>(byVariant.keySet()), Map.of());
        return o;
    }
}
