package dev.collsim.reports.chart;

import java.awt.Color;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.StackedBarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;

/** Step time split into compute, pipeline bubble and exposed communication by kind: one stacked bar per variant. */
public final class StepBreakdownChart {

    private StepBreakdownChart() {
    }

    /**
     * @param title     chart title
     * @param bars      per bar label (variant), its parts in milliseconds in stacking order; a bar with no parts is an
     *                  empty row whose label says why (a variant that does not fit)
     * @param leavesOut footnote
     * @param axis      the time axis in ms, {min, max, tick interval}, as the interactive chart draws it (a minimum
     *                  above 0 cuts the compute bar every variant shares, and the axis title says so)
     * @return the chart
     * @throws IllegalArgumentException on no bars
     */
    public static JFreeChart create(String title, Map<String, LinkedHashMap<String, Double>> bars, String leavesOut,
            double[] axis) {
        if (bars.isEmpty()) {
            throw new IllegalArgumentException("a step breakdown needs at least one bar");
        }
        Set<String> parts = new LinkedHashSet<>();
        // a part that is zero in every bar (no pipeline bubble at pp=1) is left out of the legend
        bars.values().forEach(m -> m.forEach((k, v) -> {
            if (v != 0) {
                parts.add(k);
            }
        }));
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (Map.Entry<String, LinkedHashMap<String, Double>> bar : bars.entrySet()) {
            for (String part : parts) {
                data.addValue(bar.getValue().getOrDefault(part, 0.0), part, bar.getKey());
            }
        }
        StackedBarRenderer r = new StackedBarRenderer();
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        r.setMaximumBarWidth(0.12);
        int i = 0;
        for (String part : parts) {
            r.setSeriesPaint(i, part.startsWith("compute") ? new Color(150, 150, 150) : ChartStyle.color(i - 1));
            i++;
        }
        CategoryAxis x = new CategoryAxis(null);
        x.setMaximumCategoryLabelLines(3);
        NumberAxis y = new NumberAxis(axis[0] > 0 ? String.format(Locale.ROOT, "time per step (ms); the axis starts at"
                + " %,.0f ms, so the compute bar is cut", axis[0]) : "time per step (ms)");
        y.setRange(axis[0], axis[1] + axis[2] / 4); // room for the last tick's label at the right edge
        y.setTickUnit(new NumberTickUnit(axis[2]));
        CategoryPlot plot = new CategoryPlot(data, x, y, r);
        plot.setOrientation(PlotOrientation.HORIZONTAL);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(ChartStyle.GRID);
        plot.setOutlinePaint(Color.GRAY);
        return ChartStyle.finish(new JFreeChart(title, ChartStyle.TITLE, plot, true), leavesOut);
    }
}
