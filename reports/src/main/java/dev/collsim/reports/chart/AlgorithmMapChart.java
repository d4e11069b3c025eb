package dev.collsim.reports.chart;

import dev.collsim.units.DataSize;
import java.awt.Color;
import java.awt.Paint;
import java.awt.Rectangle;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.LookupPaintScale;
import org.jfree.chart.renderer.xy.XYBlockRenderer;
import org.jfree.data.xy.DefaultXYZDataset;

/**
 * Which algorithm/protocol is predicted for each (message size, nRanks): a grid of coloured cells, size on a log2
 * axis, one row per rank count.
 */
public final class AlgorithmMapChart {

    private AlgorithmMapChart() {
    }

    /**
     * One cell.
     *
     * @param sizeBytes nccl-tests size (a power of two gives aligned cells)
     * @param nRanks    ranks
     * @param choice    the predicted choice, e.g. {@code Ring/LL128}
     */
    public record Cell(long sizeBytes, int nRanks, String choice) {
    }

    /**
     * @param title     chart title
     * @param cells     the cells, at least one
     * @param leavesOut footnote
     * @return the chart
     * @throws IllegalArgumentException on no cells or a non-positive size
     */
    public static JFreeChart create(String title, List<Cell> cells, String leavesOut) {
        if (cells.isEmpty() || cells.stream().anyMatch(c -> c.sizeBytes() <= 0)) {
            throw new IllegalArgumentException("an algorithm map needs at least one cell with size > 0");
        }
        List<String> choices = cells.stream().map(Cell::choice).distinct().sorted().toList();
        List<Integer> ranks = new ArrayList<>(new TreeSet<>(cells.stream().map(Cell::nRanks).toList()));
        double[][] xyz = new double[3][cells.size()];
        for (int i = 0; i < cells.size(); i++) {
            Cell c = cells.get(i);
            xyz[0][i] = Math.log(c.sizeBytes()) / Math.log(2);
            xyz[1][i] = ranks.indexOf(c.nRanks());
            xyz[2][i] = choices.indexOf(c.choice());
        }
        DefaultXYZDataset data = new DefaultXYZDataset();
        data.addSeries("choice", xyz);
        LookupPaintScale scale = new LookupPaintScale(0, Math.max(1, choices.size()), Color.LIGHT_GRAY);
        LegendItemCollection legend = new LegendItemCollection();
        for (int i = 0; i < choices.size(); i++) {
            Paint p = ChartStyle.color(i);
            scale.add(i, p);
            legend.add(new LegendItem(choices.get(i), null, null, null, new Rectangle(-6, -6, 12, 12), p));
        }
        double[] xs = Arrays.stream(xyz[0]).distinct().sorted().toArray();
        double step = 1.0;
        for (int i = 1; i < xs.length; i++) {
            step = i == 1 ? xs[1] - xs[0] : Math.min(step, xs[i] - xs[i - 1]);
        }
        XYBlockRenderer r = new XYBlockRenderer();
        r.setBlockWidth(step);
        r.setBlockHeight(1.0);
        r.setPaintScale(scale);
        NumberAxis x = new NumberAxis("size (bytes, log2)");
        x.setTickUnit(new NumberTickUnit(xs.length > 1 ? Math.max(1, Math.round(3 / step)) * step : 1));
        x.setNumberFormatOverride(new Log2BytesFormat());
        double minX = Arrays.stream(xyz[0]).min().orElse(0);
        double maxX = Arrays.stream(xyz[0]).max().orElse(1);
        x.setRange(minX - step / 2, maxX + step / 2);
        String[] rankLabels = ranks.stream().map(n -> n + " ranks").toArray(String[]::new);
        SymbolAxis y = new SymbolAxis("nRanks", rankLabels);
        y.setRange(-0.5, ranks.size() - 0.5);
        y.setGridBandsVisible(false);
        XYPlot plot = new XYPlot(data, x, y, r);
        plot.setFixedLegendItems(legend);
        plot.setOutlinePaint(Color.GRAY);
        return ChartStyle.finish(new JFreeChart(title, ChartStyle.TITLE, plot, true), leavesOut);
    }

    /** Formats an axis value v as the byte size 2^v. */
    static final class Log2BytesFormat extends NumberFormat {
        private static final long serialVersionUID = 1L;

        @Override
        public StringBuffer format(double number, StringBuffer to, FieldPosition pos) {
            return to.append(DataSize.formatRounded(Math.pow(2, Math.rint(number))));
        }

        @Override
        public StringBuffer format(long number, StringBuffer to, FieldPosition pos) {
            return format((double) number, to, pos);
        }

        @Override
        public Number parse(String source, ParsePosition pos) {
            return null;
        }
    }
}
