package dev.collsim.reports.chart;

import dev.collsim.units.DataSize;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.awt.Shape;
import java.awt.geom.AffineTransform;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.DefaultDrawingSupplier;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.plot.ValueAxisPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.HorizontalAlignment;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.Range;

/**
 * The look shared by collsim charts: white background, light grid, a fixed colour-blind-safe palette (Okabe and Ito
 * 2008), byte-size axes on a log2 scale, and a footnote stating what the model leaves out.
 */
public final class ChartStyle {

    /** Okabe-Ito palette (Okabe and Ito 2008, "Color Universal Design"), darkest first. */
    public static final Paint[] PALETTE = {
        new Color(0, 114, 178), new Color(213, 94, 0), new Color(0, 158, 115), new Color(204, 121, 167),
        new Color(230, 159, 0), new Color(86, 180, 233), new Color(0, 0, 0), new Color(240, 228, 66),
    };

    /** Font for titles. */
    static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 16);
    /** Font for the footnote. */
    static final Font NOTE = new Font(Font.SANS_SERIF, Font.ITALIC, 11);
    /** Grid colour. */
    static final Color GRID = new Color(220, 220, 220);

    private ChartStyle() {
    }

    /** @return the i-th palette colour (wrapping) */
    public static Paint color(int i) {
        return PALETTE[Math.floorMod(i, PALETTE.length)];
    }

    /**
     * Applies the common look and adds the footnote.
     *
     * @param chart     the chart
     * @param leavesOut what the model behind the numbers leaves out (shown under the plot), or empty
     * @return the chart
     */
    static JFreeChart finish(JFreeChart chart, String leavesOut) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.setAntiAlias(true);
        chart.setTextAntiAlias(true);
        if (chart.getTitle() != null) {
            chart.getTitle().setFont(TITLE);
        }
        Plot plot = chart.getPlot();
        plot.setBackgroundPaint(Color.WHITE);
        if (plot instanceof XYPlot xy) {
            xy.setDomainGridlinePaint(GRID);
            xy.setRangeGridlinePaint(GRID);
        }
        if (leavesOut != null && !leavesOut.isBlank()) {
            TextTitle note = new TextTitle("Model leaves out: " + leavesOut, NOTE);
            note.setPosition(RectangleEdge.BOTTOM);
            note.setHorizontalAlignment(HorizontalAlignment.LEFT);
            note.setPaint(new Color(80, 80, 80));
            note.setMaximumLinesToDisplay(3);
            chart.addSubtitle(note);
        }
        return chart;
    }

    /** @return a log2 axis labelled with byte sizes (1K, 32M, 2G), one tick every {@code every} powers of two */
    static LogAxis sizeAxis(String label, int every) {
        LogAxis axis = new SinglePointLogAxis(label);
        axis.setBase(2);
        axis.setTickUnit(new NumberTickUnit(every));
        axis.setNumberFormatOverride(new BytesFormat());
        axis.setMinorTickMarksVisible(false);
        return axis;
    }

    /** @return a solid stroke of that width */
    static BasicStroke line(float width) {
        return new BasicStroke(width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND);
    }

    /** @return a dashed stroke of that width */
    static BasicStroke dashed(float width) {
        return new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f);
    }

    /**
     * Stroke for the n-th curve (n >= 1) that coincides with an earlier one: long dashes with gaps through which the
     * curve underneath shows, a different rhythm for each n.
     *
     * @param n 1 for the first coinciding curve, 2 for the second, ...
     * @return the stroke
     */
    static BasicStroke coincident(int n) {
        float dash = 4f + 5f * Math.floorMod(n - 1, 4);
        return new BasicStroke(2.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {dash, 6f},
                3f * n);
    }

    /**
     * Marker shape for the n-th coinciding curve: JFreeChart's standard series shapes (skipping the square), each
     * one larger than the previous (scale 1 + 0.5 n), so that hollow markers of several coinciding curves nest
     * instead of covering each other.
     *
     * @param n 1 for the first coinciding curve, ...
     * @return the shape
     */
    static Shape marker(int n) {
        Shape[] shapes = DefaultDrawingSupplier.createStandardSeriesShapes();
        double k = 1 + 0.5 * n;
        return AffineTransform.getScaleInstance(k, k)
                .createTransformedShape(shapes[1 + Math.floorMod(n - 1, shapes.length - 1)]);
    }

    /**
     * @param a    values of one curve
     * @param b    values of another, same length
     * @return true when every pair agrees to 1e-9 relative (the curves would be drawn on top of each other)
     */
    static boolean same(double[] a, double[] b) {
        if (a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (Math.abs(a[i] - b[i]) > 1e-9 * Math.max(Math.abs(a[i]), Math.abs(b[i]))) {
                return false;
            }
        }
        return true;
    }

    /** Formats axis values as byte sizes. */
    static final class BytesFormat extends NumberFormat {
        private static final long serialVersionUID = 1L;

        @Override
        public StringBuffer format(double number, StringBuffer toAppendTo, FieldPosition pos) {
            return toAppendTo.append(DataSize.formatRounded(number));
        }

        @Override
        public StringBuffer format(long number, StringBuffer toAppendTo, FieldPosition pos) {
            return toAppendTo.append(DataSize.formatRounded(number));
        }

        @Override
        public Number parse(String source, ParsePosition parsePosition) {
            return null;
        }
    }

    /**
     * A log axis that can auto-range over a single x value: JFreeChart 1.5's LogAxis refuses a range of length 0 ("A
     * positive range length is required"), which a sweep of one size or a one-point scaling curve gives; such an
     * axis spans half to twice the value.
     */
    private static final class SinglePointLogAxis extends LogAxis {
        private static final long serialVersionUID = 1L;

        SinglePointLogAxis(String label) {
            super(label);
        }

        @Override
        protected void autoAdjustRange() {
            if (getPlot() instanceof ValueAxisPlot vap) {
                Range r = vap.getDataRange(this);
                if (r != null && r.getLength() == 0 && r.getLowerBound() > 0) {
                    setRange(new Range(r.getLowerBound() / 2, r.getUpperBound() * 2), false, false);
                    return;
                }
            }
            super.autoAdjustRange();
        }
    }
}
