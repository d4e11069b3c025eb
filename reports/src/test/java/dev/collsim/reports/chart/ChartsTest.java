package dev.collsim.reports.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.junit.jupiter.api.Test;

/**
 * Every chart renders headless to a PNG of the asked size with more than background in it, and to an SVG that
 * carries the title and the "what the model leaves out" footnote. The PNGs are also written to
 * {@code target/chart-preview/} to be opened and looked at.
 */
class ChartsTest {

    private static final Path PREVIEW = Path.of("target", "chart-preview");

    private static void check(String name, JFreeChart chart, String title) throws IOException {
        byte[] png = ChartFiles.png(chart, 900, 560);
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(png));
        assertEquals(900, img.getWidth());
        assertEquals(560, img.getHeight());
        Set<Integer> colours = new HashSet<>();
        for (int x = 150; x < 750; x += 3) {
            for (int y = 100; y < 420; y += 3) {
                colours.add(img.getRGB(x, y));
            }
        }
        assertTrue(colours.size() > 4, name + ": the plot area is (nearly) blank");
        String svg = ChartFiles.svg(chart, 900, 560);
        assertTrue(svg.startsWith("<svg"), name);
        assertTrue(svg.contains(title), name + ": title missing from SVG");
        assertTrue(svg.contains("Model leaves out"), name + ": footnote missing from SVG");
        Files.createDirectories(PREVIEW);
        Files.write(PREVIEW.resolve(name + ".png"), png);
    }

    @Test
    void busBw() throws IOException {
        List<SweepSeries> series = new ArrayList<>();
        double[] plateau = {180, 90};
        for (int v = 0; v < 2; v++) {
            List<SweepSeries.Point> pts = new ArrayList<>();
            for (long s = 8; s <= (8L << 30); s *= 2) {
                double t = 20 + s / (plateau[v] * 1000 / 1.75);
                pts.add(new SweepSeries.Point(s, t, s / (t * 1000) * 1.75, plateau[v] * 1.1, "Ring", "Simple"));
            }
            List<SweepSeries.Measured> m = v == 0 ? List.of(new SweepSeries.Measured(1L << 20, 40, 45),
                    new SweepSeries.Measured(1L << 30, 6500, 160)) : List.of();
            series.add(new SweepSeries(v == 0 ? "NIC 400 Gb/s" : "NIC 200 Gb/s", pts, m));
        }
        check("busbw", BusBwChart.create("AllReduce busbw, 4 hosts x 8 GPUs", series, "contention with other jobs"),
                "AllReduce busbw");
        assertThrows(IllegalArgumentException.class, () -> BusBwChart.create("x", List.of(), ""));
    }

    /**
     * The legend's key for measured points shows what the plot draws: the same unfilled square (before, a filled
     * circle stood for open squares).
     */
    @Test
    void measuredLegendSymbolIsTheDrawnMarker() {
        List<SweepSeries.Point> pts = List.of(new SweepSeries.Point(1L << 20, 40, 50, 400, "Ring", "Simple"),
                new SweepSeries.Point(1L << 30, 5000, 300, 400, "Ring", "Simple"));
        JFreeChart chart = BusBwChart.create("t", List.of(new SweepSeries("base", pts,
                List.of(new SweepSeries.Measured(1L << 30, 6500, 160)))), "x");
        XYPlot plot = chart.getXYPlot();
        XYLineAndShapeRenderer r = (XYLineAndShapeRenderer) plot.getRenderer();
        // series 0 predicted, 1 its bound, 2 the measured points
        assertEquals(BusBwChart.MEASURED_SHAPE, r.getSeriesShape(2));
        assertEquals(Boolean.FALSE, r.getSeriesShapesFilled(2));
        LegendItem key = null;
        for (int i = 0; i < plot.getLegendItems().getItemCount(); i++) {
            if (plot.getLegendItems().get(i).getLabel().contains("measured")) {
                key = plot.getLegendItems().get(i);
            }
        }
        assertTrue(key != null && key.isShapeVisible() && !key.isShapeFilled() && key.isShapeOutlineVisible());
        assertEquals(BusBwChart.MEASURED_SHAPE, key.getShape());
    }

    /**
     * A sweep of a single size (min = max) draws: before, the log size axis refused its zero-length range and the
     * report ended with an internal error. The one point must be marked in the series' colour inside the plot.
     */
    @Test
    void busBwOfOneSize() throws IOException {
        List<SweepSeries.Point> pts = List.of(new SweepSeries.Point(1L << 30, 5000, 300, 330, "Ring", "Simple"));
        JFreeChart chart = BusBwChart.create("AllReduce busbw at 1 GiB", List.of(new SweepSeries("base", pts,
                List.of())), "contention with other jobs");
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(ChartFiles.png(chart, 900, 560)));
        int colour = ((Color) ChartStyle.color(0)).getRGB();
        int marked = 0;
        for (int x = 100; x < 800; x++) {
            for (int y = 60; y < 440; y++) {
                if (img.getRGB(x, y) == colour) {
                    marked++;
                }
            }
        }
        assertTrue(marked > 5, "the single point is not drawn (" + marked + " pixels of its colour)");
    }

    /**
     * A third series with exactly the first one's numbers: before, it was drawn under the first and no pixel of its
     * colour (palette entry 2, Okabe-Ito bluish green 0,158,115) was left; now it must show (hollow markers and
     * gapped dashes drawn over the first) and the legend must say which series it equals.
     */
    @Test
    void coincidingSeriesStaysVisible() throws IOException {
        List<SweepSeries> series = new ArrayList<>();
        for (int v = 0; v < 3; v++) {
            double plateau = v == 1 ? 90 : 180;
            List<SweepSeries.Point> pts = new ArrayList<>();
            for (long s = 8; s <= (8L << 30); s *= 4) {
                double t = 20 + s / (plateau * 1000 / 1.75);
                pts.add(new SweepSeries.Point(s, t, s / (t * 1000) * 1.75, 400, "Ring", "Simple"));
            }
            series.add(new SweepSeries(new String[] {"base", "NIC 200 Gb/s", "fat-tree"}[v], pts, List.of()));
        }
        JFreeChart chart = BusBwChart.create("AllReduce busbw, twins", series, "fabric oversubscription");
        check("busbw-twins", chart, "AllReduce busbw, twins");
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(ChartFiles.png(chart, 900, 560)));
        int green = 0;
        for (int x = 80; x < 880; x++) {
            for (int y = 40; y < 430; y++) {
                int rgb = img.getRGB(x, y);
                int r = rgb >> 16 & 0xff;
                int g = rgb >> 8 & 0xff;
                int b = rgb & 0xff;
                if (Math.abs(r - 0) < 40 && Math.abs(g - 158) < 40 && Math.abs(b - 115) < 40) {
                    green++;
                }
            }
        }
        assertTrue(green > 50, "the coinciding series is hidden: " + green + " pixels of its colour");
        assertTrue(ChartFiles.svg(chart, 900, 560).contains("fat-tree = base"), "legend names the twin");
    }

    @Test
    void predictedVsMeasured() throws IOException {
        List<PredictedVsMeasuredChart.Pair> pairs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            double m = 10 * Math.pow(2, i * 0.8);
            pairs.add(new PredictedVsMeasuredChart.Pair(i % 2 == 0 ? "DGX A100" : "2x8 H100", m, m * (0.85 + 0.3 * (i % 3) / 2)));
        }
        check("predicted-vs-measured", PredictedVsMeasuredChart.create("Predicted vs measured", pairs, 0.2,
                "launch jitter"), "Predicted vs measured");
    }

    @Test
    void algorithmMap() throws IOException {
        List<AlgorithmMapChart.Cell> cells = new ArrayList<>();
        for (int n : new int[] {8, 16, 32, 64, 128, 256}) {
            for (long s = 1024; s <= (1L << 32); s *= 2) {
                String c = s < 64 * 1024 ? "Tree/LL" : s < (8L << 20) * (n / 8) ? "Tree/LL128" : "Ring/Simple";
                cells.add(new AlgorithmMapChart.Cell(s, n, c));
            }
        }
        check("algorithm-map", AlgorithmMapChart.create("AllReduce algorithm choice", cells, "NCCL tuner plugins"),
                "AllReduce algorithm choice");
    }

    @Test
    void stepBreakdown() throws IOException {
        Map<String, LinkedHashMap<String, Double>> bars = new LinkedHashMap<>();
        for (String v : new String[] {"base: 4 x DGX H100, 8x400G rail", "NIC 200 Gb/s", "2:1 fat-tree"}) {
            LinkedHashMap<String, Double> parts = new LinkedHashMap<>();
            parts.put("compute", 900.0);
            parts.put("pipeline bubble", 120.0);
            parts.put("TP activation AllReduce", 80.0);
            parts.put("DP gradient AllReduce", v.startsWith("NIC") ? 300.0 : 150.0);
            bars.put(v, parts);
        }
        check("step-breakdown", StepBreakdownChart.create("Step time, 70B", bars, "activation recomputation",
                new double[] {0, 1400, 200}), "Step time, 70B");
        // the axis the interactive chart uses (PlanChartJson.stepAxis: compute 900 shared, longest step
        // 900 + 120 + 80 + 300 = 1400, tick 100): the PNG starts there too, and says so
        JFreeChart cut = StepBreakdownChart.create("Step time, 70B", bars, "activation recomputation",
                new double[] {900, 1400, 100});
        NumberAxis y = (NumberAxis) ((CategoryPlot) cut.getPlot()).getRangeAxis();
        assertEquals(900, y.getLowerBound(), 0);
        assertEquals(1400 + 100 / 4.0, y.getUpperBound(), 0, "a quarter tick past the last, for its label");
        assertEquals(100, y.getTickUnit().getSize(), 0);
        assertTrue(y.getLabel().contains("the axis starts at 900 ms"), y.getLabel());
        check("step-breakdown-cut", cut, "Step time, 70B");
    }

    @Test
    void scaling() throws IOException {
        List<ScalingChart.Curve> curves = new ArrayList<>();
        for (int v = 0; v < 2; v++) {
            List<double[]> pts = new ArrayList<>();
            for (int g = 8; g <= 1024; g *= 2) {
                pts.add(new double[] {g, 1 / (1 + (v + 1) * 0.02 * Math.log(g))});
            }
            curves.add(new ScalingChart.Curve(v == 0 ? "rail-optimized" : "2:1 fat-tree", pts));
        }
        check("scaling", ScalingChart.create("Scaling efficiency", curves, "stragglers"), "Scaling efficiency");
    }
}
