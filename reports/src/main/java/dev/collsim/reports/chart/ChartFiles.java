package dev.collsim.reports.chart;

import java.awt.Rectangle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.svg.SVGGraphics2D;

/**
 * Renders charts to PNG bytes and SVG text, headless (no display needed: sets {@code java.awt.headless=true}
 * before AWT loads). Stateless and thread-safe.
 */
public final class ChartFiles {

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private ChartFiles() {
    }

    /**
     * @param chart  the chart
     * @param width  pixels
     * @param height pixels
     * @return PNG bytes
     * @throws UncheckedIOException never in practice (writes to memory)
     */
    public static byte[] png(JFreeChart chart, int width, int height) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ChartUtils.writeChartAsPNG(out, chart, width, height);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * @param chart  the chart
     * @param width  SVG user units (pixels)
     * @param height SVG user units
     * @return the SVG document text (an {@code <svg>} element, embeddable inline in HTML)
     */
    public static String svg(JFreeChart chart, int width, int height) {
        SVGGraphics2D g2 = new SVGGraphics2D(width, height);
        chart.draw(g2, new Rectangle(0, 0, width, height));
        return g2.getSVGElement();
    }
}
