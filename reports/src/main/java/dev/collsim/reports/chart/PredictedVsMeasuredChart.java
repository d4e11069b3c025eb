package dev.collsim.reports.chart;

import java.awt.Color;
import java.text.DecimalFormat;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Predicted against measured time on log-log axes, with the y = x line and a band of +-{@code band} relative error:
 * points inside the band are predictions within that error.
 */
public final class PredictedVsMeasuredChart {

    private PredictedVsMeasuredChart() {
    }

    /**
     * One compared point.
     *
     * @param series      legend group (dataset or variant)
     * @param measuredUs  measured time, microseconds, > 0
     * @param predictedUs predicted time, microseconds, > 0
     */
    public record Pair(String series, double measuredUs, double predictedUs) {
    }

    /**
     * @param title     chart title
     * @param pairs     points, at least one, all times > 0
     * @param band      relative error band, e.g. 0.2 for +-20%
     * @param leavesOut footnote
     * @return the chart
     * @throws IllegalArgumentException on no points, a non-positive time or a band outside (0, 1)
     */
    public static JFreeChart create(String title, List<Pair> pairs, double band, String leavesOut) {
        if (pairs.isEmpty() || pairs.stream().anyMatch(p -> !(p.measuredUs() > 0 && p.predictedUs() > 0))) {
            throw new IllegalArgumentException("needs at least one pair, with times > 0");
        }
        if (!(band > 0 && band < 1)) {
            throw new IllegalArgumentException("band must be in (0, 1), got " + band);
        }
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(false, true);
        double lo = Double.MAX_VALUE;
        double hi = 0;
        List<String> names = pairs.stream().map(Pair::series).distinct().toList();
        for (int i = 0; i < names.size(); i++) {
            XYSeries s = new XYSeries(names.get(i), false, true);
            for (Pair p : pairs) {
                if (p.series().equals(names.get(i))) {
                    s.add(p.measuredUs(), p.predictedUs());
                }
            }
            data.addSeries(s);
            r.setSeriesPaint(i, ChartStyle.color(i));
        }
        for (Pair p : pairs) {
            lo = Math.min(lo, Math.min(p.measuredUs(), p.predictedUs()));
            hi = Math.max(hi, Math.max(p.measuredUs(), p.predictedUs()));
        }
        lo /= 1.5;
        hi *= 1.5;
        int k = names.size();
        String pct = String.format(Locale.ROOT, "%.0f%%", band * 100);
        double[] factors = {1, 1 + band, 1 - band};
        String[] labels = {"y = x", "+" + pct, "-" + pct};
        for (int j = 0; j < 3; j++) {
            XYSeries line = new XYSeries(labels[j], false, true);
            line.add(lo, lo * factors[j]);
            line.add(hi, hi * factors[j]);
            data.addSeries(line);
            r.setSeriesLinesVisible(k + j, true);
            r.setSeriesShapesVisible(k + j, false);
            r.setSeriesPaint(k + j, j == 0 ? Color.DARK_GRAY : Color.GRAY);
            r.setSeriesStroke(k + j, j == 0 ? ChartStyle.line(1.2f) : ChartStyle.dashed(1f));
        }
        LogAxis x = new LogAxis("measured time (us)");
        LogAxis y = new LogAxis("predicted time (us)");
        for (LogAxis a : new LogAxis[] {x, y}) {
            a.setSmallestValue(1e-3);
            a.setTickUnit(new NumberTickUnit(1));
            a.setNumberFormatOverride(new DecimalFormat("#,##0.###"));
            a.setMinorTickMarksVisible(false);
        }
        x.setRange(lo, hi);
        y.setRange(lo, hi);
        XYPlot plot = new XYPlot(data, x, y, r);
        plot.setOutlinePaint(Color.GRAY);
        return ChartStyle.finish(new JFreeChart(title, ChartStyle.TITLE, plot, true), leavesOut);
    }
}
