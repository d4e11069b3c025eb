package dev.collsim.reports.chart;

import java.awt.Color;
import java.awt.Shape;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.SeriesRenderingOrder;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Bus bandwidth against message size (log2 axis): one solid line per series, its physical bound as a dashed line
 * of the same colour, measured points as unfilled markers. A series whose numbers equal an earlier series' is drawn
 * with gapped long dashes and markers so that it stays visible on top of it, and its legend says which it equals. busbw as nccl-tests defines it (GB/s, 1e9 B/s).
 */
public final class BusBwChart {

    /** Marker of measured points, drawn unfilled: a 7 px square, in the plot and in the legend. */
    static final Shape MEASURED_SHAPE = new Rectangle2D.Double(-3.5, -3.5, 7, 7);

    private BusBwChart() {
    }

    /**
     * @param title     chart title
     * @param series    the sweeps, at least one
     * @param leavesOut footnote: what the model leaves out
     * @return the chart
     * @throws IllegalArgumentException on no series or an empty sweep
     */
    public static JFreeChart create(String title, List<SweepSeries> series, String leavesOut) {
        if (series.isEmpty() || series.stream().anyMatch(s -> s.points().isEmpty())) {
            throw new IllegalArgumentException("a bus bandwidth chart needs at least one non-empty series");
        }
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
        LegendItemCollection legend = new LegendItemCollection();
        boolean anyMeasured = false;
        int k = 0;
        int coinciding = 0;
        for (int i = 0; i < series.size(); i++) {
            SweepSeries s = series.get(i);
            int twin = twin(series, i);
            String name = twin < 0 ? s.name() : s.name() + " = " + series.get(twin).name();
            XYSeries pred = new XYSeries(s.name(), false, true);
            XYSeries bound = new XYSeries("bound: " + s.name(), false, true);
            for (SweepSeries.Point p : s.points()) {
                pred.add(p.sizeBytes(), p.busBw());
                bound.add(p.sizeBytes(), p.boundBusBw());
            }
            data.addSeries(pred);
            r.setSeriesPaint(k, ChartStyle.color(i));
            if (s.points().size() == 1) {
                // one size: no line to draw, so mark the point (and its bound below)
                r.setSeriesShapesVisible(k, true);
                r.setSeriesShapesVisible(k + 1, true);
            }
            if (twin < 0) {
                legend.add(new LegendItem(name, null, null, null, new Line2D.Double(-8, 0, 8, 0),
                        ChartStyle.line(2.2f), ChartStyle.color(i)));
                r.setSeriesStroke(k, ChartStyle.line(2.2f));
            } else {
                coinciding++;
                Shape m = ChartStyle.marker(coinciding);
                legend.add(new LegendItem(name, null, null, null, true, m, false, ChartStyle.color(i), true,
                        ChartStyle.color(i), ChartStyle.line(1f), true, new Line2D.Double(-8, 0, 8, 0),
                        ChartStyle.coincident(coinciding), ChartStyle.color(i)));
                r.setSeriesStroke(k, ChartStyle.coincident(coinciding));
                r.setSeriesShapesVisible(k, true);
                r.setSeriesShape(k, m);
                r.setSeriesShapesFilled(k, false);
            }
            k++;
            data.addSeries(bound);
            r.setSeriesPaint(k, ChartStyle.color(i));
            r.setSeriesStroke(k, ChartStyle.dashed(1.2f));
            k++;
            if (!s.measured().isEmpty()) {
                XYSeries meas = new XYSeries("measured: " + s.name(), false, true);
                s.measured().forEach(m -> meas.add(m.sizeBytes(), m.busBw()));
                data.addSeries(meas);
                r.setSeriesPaint(k, ChartStyle.color(i));
                r.setSeriesLinesVisible(k, false);
                r.setSeriesShapesVisible(k, true);
                r.setSeriesShape(k, MEASURED_SHAPE);
                r.setSeriesShapesFilled(k, false);
                anyMeasured = true;
                k++;
            }
        }
        NumberAxis y = new NumberAxis("busbw (GB/s)");
        if (coinciding > 0) {
            r.setDrawSeriesLineAsPath(true);
        }
        y.setAutoRangeIncludesZero(true);
        XYPlot plot = new XYPlot(data, ChartStyle.sizeAxis("size (bytes, log2)", 3), y, r);
        plot.setOutlinePaint(Color.GRAY);
        plot.setSeriesRenderingOrder(SeriesRenderingOrder.FORWARD);
        addKeyItems(legend, anyMeasured, coinciding > 0);
        plot.setFixedLegendItems(legend);
        JFreeChart chart = new JFreeChart(title, ChartStyle.TITLE, plot, true);
        return ChartStyle.finish(chart, leavesOut);
    }

    /** Appends the grey key entries (bound, measured markers, coinciding series) after the series entries. */
    private static void addKeyItems(LegendItemCollection legend, boolean anyMeasured, boolean anyCoinciding) {
        legend.add(new LegendItem("dashed: physical bound (same colour)", null, null, null,
                new Line2D.Double(-8, 0, 8, 0), ChartStyle.dashed(1.2f), Color.DARK_GRAY));
        if (anyMeasured) {
            // the same open square the plot draws for measured points
            legend.add(new LegendItem("open squares: measured", null, null, null, true, MEASURED_SHAPE, false,
                    Color.DARK_GRAY, true, Color.DARK_GRAY, ChartStyle.line(1f), false, new Line2D.Double(-8, 0, 8, 0),
                    ChartStyle.line(1f), Color.DARK_GRAY));
        }
        if (anyCoinciding) {
            legend.add(new LegendItem("A = B: A's numbers equal B's (drawn dashed with markers over it)", null, null,
                    null, new Line2D.Double(-8, 0, 8, 0), ChartStyle.coincident(1), Color.DARK_GRAY));
        }
    }

    /** @return the first earlier series whose predicted busbw equals series i's at the same sizes, or -1 */
    private static int twin(List<SweepSeries> series, int i) {
        SweepSeries s = series.get(i);
        for (int j = 0; j < i; j++) {
            SweepSeries o = series.get(j);
            if (o.points().size() == s.points().size()
                    && ChartStyle.same(o.points().stream().mapToDouble(p -> p.sizeBytes()).toArray(),
                            s.points().stream().mapToDouble(p -> p.sizeBytes()).toArray())
                    && ChartStyle.same(o.points().stream().mapToDouble(SweepSeries.Point::busBw).toArray(),
                            s.points().stream().mapToDouble(SweepSeries.Point::busBw).toArray())) {
                return j;
            }
        }
        return -1;
    }
}
