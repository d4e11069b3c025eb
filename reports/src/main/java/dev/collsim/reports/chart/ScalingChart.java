package dev.collsim.reports.chart;

import java.awt.Color;
import java.text.DecimalFormat;
import java.util.Arrays;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.SeriesRenderingOrder;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Scaling efficiency (compute / step time, 1 = perfect scaling) against GPU count on a log2 axis. A curve equal to
 * an earlier one is drawn with gapped long dashes and its own markers, and named "A = B" in the legend.
 */
public final class ScalingChart {

    private ScalingChart() {
    }

    /**
     * One curve.
     *
     * @param name   legend text
     * @param points {gpus, efficiency} pairs by increasing GPU count
     */
    public record Curve(String name, List<double[]> points) {
    }

    /**
     * @param title     chart title
     * @param curves    at least one curve with points
     * @param leavesOut footnote
     * @return the chart
     * @throws IllegalArgumentException on no curves
     */
    public static JFreeChart create(String title, List<Curve> curves, String leavesOut) {
        if (curves.isEmpty() || curves.stream().allMatch(c -> c.points().isEmpty())) {
            throw new IllegalArgumentException("a scaling chart needs at least one point");
        }
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
        double maxGpus = 1;
        double minGpus = Double.MAX_VALUE;
        int coinciding = 0;
        for (int i = 0; i < curves.size(); i++) {
            int twin = -1;
            for (int j = 0; j < i && twin < 0; j++) {
                if (ChartStyle.same(flat(curves.get(j)), flat(curves.get(i)))) {
                    twin = j;
                }
            }
            XYSeries s = new XYSeries(twin < 0 ? curves.get(i).name() : curves.get(i).name() + " = "
                    + curves.get(twin).name(), false, true);
            for (double[] p : curves.get(i).points()) {
                s.add(p[0], p[1] * 100);
                maxGpus = Math.max(maxGpus, p[0]);
                minGpus = Math.min(minGpus, p[0]);
            }
            data.addSeries(s);
            r.setSeriesPaint(i, ChartStyle.color(i));
            r.setSeriesStroke(i, ChartStyle.line(2f));
            if (twin >= 0) {
                coinciding++;
                r.setSeriesStroke(i, ChartStyle.coincident(coinciding));
                r.setSeriesShape(i, ChartStyle.marker(coinciding));
                r.setSeriesShapesFilled(i, false);
            }
        }
        XYSeries perfect = new XYSeries("perfect scaling", false, true);
        perfect.add(minGpus / 2, 100);
        perfect.add(maxGpus * 2, 100);
        data.addSeries(perfect);
        int k = curves.size();
        r.setSeriesPaint(k, Color.DARK_GRAY);
        r.setSeriesStroke(k, ChartStyle.dashed(1f));
        r.setSeriesShapesVisible(k, false);
        LogAxis x = new LogAxis("GPUs (log2)");
        x.setBase(2);
        x.setTickUnit(new NumberTickUnit(1));
        x.setNumberFormatOverride(new DecimalFormat("#,##0"));
        x.setMinorTickMarksVisible(false);
        x.setRange(minGpus / 1.25, maxGpus * 1.25);
        NumberAxis y = new NumberAxis("scaling efficiency (%)");
        y.setRange(0, 105);
        XYPlot plot = new XYPlot(data, x, y, r);
        plot.setSeriesRenderingOrder(SeriesRenderingOrder.FORWARD);
        plot.setOutlinePaint(Color.GRAY);
        return ChartStyle.finish(new JFreeChart(title, ChartStyle.TITLE, plot, true), leavesOut);
    }

    /** @return the curve's gpus and efficiencies, interleaved */
    private static double[] flat(Curve c) {
        return c.points().stream().flatMapToDouble(p -> Arrays.stream(p, 0, 2)).toArray();
    }
}
