package dev.collsim.reports.chart;

import java.awt.Color;
import java.text.DecimalFormat;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Time of one collective call (microseconds) against message size, both axes logarithmic (size log2, time log10):
 * the form nccl-tests users read the latency regime in, where busbw is near 0 on a linear axis and every size below
 * a few hundred KiB costs about the same few microseconds. One solid line per series, measured times as unfilled
 * squares of the series' colour.
 */
public final class TimeChart {

    private TimeChart() {
    }

    /**
     * @param title     chart title
     * @param series    the sweeps, at least one, every time &gt; 0
     * @param leavesOut footnote: what the model leaves out
     * @return the chart
     * @throws IllegalArgumentException on no series, an empty sweep or a time that is not positive
     */
    public static JFreeChart create(String title, List<SweepSeries> series, String leavesOut) {
        if (series.isEmpty() || series.stream().anyMatch(s -> s.points().isEmpty()
                || s.points().stream().anyMatch(p -> !(p.timeUs() > 0)))) {
            throw new IllegalArgumentException("a time chart needs at least one non-empty series with times > 0");
        }
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
        int k = 0;
        for (int i = 0; i < series.size(); i++) {
            SweepSeries s = series.get(i);
            XYSeries pred = new XYSeries(s.name(), false, true);
            s.points().forEach(p -> pred.add(p.sizeBytes(), p.timeUs()));
            data.addSeries(pred);
            r.setSeriesPaint(k, ChartStyle.color(i));
            r.setSeriesStroke(k, ChartStyle.line(2.2f));
            r.setSeriesShapesVisible(k, s.points().size() == 1);
            k++;
            if (!s.measured().isEmpty()) {
                XYSeries meas = new XYSeries("measured: " + s.name(), false, true);
                s.measured().stream().filter(m -> m.timeUs() > 0).forEach(m -> meas.add(m.sizeBytes(), m.timeUs()));
                data.addSeries(meas);
                r.setSeriesPaint(k, ChartStyle.color(i));
                r.setSeriesLinesVisible(k, false);
                r.setSeriesShapesVisible(k, true);
                r.setSeriesShape(k, BusBwChart.MEASURED_SHAPE);
                r.setSeriesShapesFilled(k, false);
                k++;
            }
        }
        LogAxis y = new LogAxis("time (us, log10)");
        y.setSmallestValue(1e-3);
        y.setTickUnit(new NumberTickUnit(1));
        y.setNumberFormatOverride(new DecimalFormat("#,##0.###"));
        y.setMinorTickMarksVisible(false);
        XYPlot plot = new XYPlot(data, ChartStyle.sizeAxis("size (bytes, log2)", 3), y, r);
        plot.setOutlinePaint(Color.GRAY);
        return ChartStyle.finish(new JFreeChart(title, ChartStyle.TITLE, plot, true), leavesOut);
    }
}
