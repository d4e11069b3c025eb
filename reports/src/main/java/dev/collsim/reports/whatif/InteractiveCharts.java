package dev.collsim.reports.whatif;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's interactive charts as Apache ECharts options, keyed by the same file stems as {@link ReportCharts}
 * (whose PNG and SVG files stay for papers and CI). The algorithm map has no interactive form and keeps its PNG.
 * Stateless.
 */
public final class InteractiveCharts {

    private InteractiveCharts() {
    }

    /**
     * @param d the report's numbers
     * @return options per chart stem, in report order
     */
    public static Map<String, ObjectNode> build(ReportData d) {
        Map<String, ObjectNode> out = new LinkedHashMap<>();
        Map<String, List<ReportData.SweepRow>> byKey = new LinkedHashMap<>();
        for (ReportData.SweepRow r : d.sweeps()) {
            byKey.computeIfAbsent(r.collective() + " " + r.dataType(), k -> new ArrayList<>()).add(r);
        }
        String base = d.variants().isEmpty() ? "" : d.variants().get(0).variant();
        for (Map.Entry<String, List<ReportData.SweepRow>> e : byKey.entrySet()) {
            String coll = e.getValue().get(0).collective();
            List<ReportData.MeasuredRow> meas = d.measured().stream()
                    .filter(m -> m.collective().equals(coll) && m.variant().equals(base)).toList();
            out.put(busBwStem(e.getValue().get(0)), SweepChartJson.busBw(e.getKey() + ": busbw by variant", e.getValue(), meas));
            out.put(timeStem(e.getValue().get(0)), SweepChartJson.time(e.getKey() + ": time by variant", e.getValue(),
                    meas));
        }
        if (!d.measured().isEmpty()) {
            out.put("predicted-vs-measured", SweepChartJson.predictedVsMeasured("Predicted vs measured (" + base
                    + ")", d.measured(), 0.2));
        }
        List<String> plans = d.plans().stream().map(ReportData.PlanRow::plan).distinct().toList();
        for (int i = 0; i < plans.size(); i++) {
            String plan = plans.get(i);
            if (d.plans().stream().anyMatch(r -> r.plan().equals(plan) && r.fits())) {
                out.put("step-" + (i + 1), PlanChartJson.stepBars("Step time: " + plan, d, plan));
            }
            if (d.scaling().stream().anyMatch(s -> s.plan().equals(plan))) {
                out.put("scaling-" + (i + 1), PlanChartJson.scaling("Scaling efficiency: " + plan, d, plan));
            }
        }
        return out;
    }

    /** @return the stem of the busbw chart of the row's collective and data type, e.g. busbw-allreduce-bfloat16 */
    static String busBwStem(ReportData.SweepRow r) {
        return ("busbw-" + r.collective() + " " + r.dataType()).toLowerCase(Locale.ROOT).replace(' ', '-');
    }

    /** @return the stem of the time chart of the row's collective and data type, e.g. time-allreduce-bfloat16 */
    static String timeStem(ReportData.SweepRow r) {
        return "time-" + busBwStem(r).substring("busbw-".length());
    }
}
