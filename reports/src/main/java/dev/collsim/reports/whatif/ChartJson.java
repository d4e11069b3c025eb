package dev.collsim.reports.whatif;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * Small builders for Apache ECharts option objects (see https://echarts.apache.org/en/option.html): the parts every
 * interactive chart of the report shares. The {@code collsim} key of an option is read by the page script
 * ({@code report-charts.js}), not by ECharts: it names the axis formats ({@code bytes}, {@code ms}, {@code pct},
 * {@code gbps}, {@code us}, {@code gpus}). Stateless.
 */
final class ChartJson {

    static final ObjectMapper JSON = new ObjectMapper();

    /**
     * ECharts 5's default series colours (the {@code color} list of its global defaults, echarts 5.3.1
     * {@code src/model/globalDefault.ts}); set explicitly so a bound line can take its variant's colour.
     */
    static final List<String> PALETTE = List.of("#5470c6", "#91cc75", "#fac858", "#ee6666", "#73c0de", "#3ba272",
            "#fc8452", "#9a60b4", "#ea7ccc");

    /** Width (px) the legend is laid out for: a 900 px laptop window less the page margins. */
    static final double LEGEND_WIDTH_PX = 820;

    /** Average width (px) of one character of a 12 px sans-serif legend label, for the row estimate. */
    static final double CHAR_PX = 6.6;

    /** Height (px) of one legend row (12 px label and item gap). */
    static final int LEGEND_ROW_PX = 22;

    private ChartJson() {
    }

    /**
     * @param title chart title
     * @param xFmt  x axis format name
     * @param yFmt  y axis format name
     * @return an option with title, legend (wrapping over rows; see {@link #legendRows}) (click toggles a series), zoom (box zoom in the toolbox, wheel,
     *         slider on x), item tooltips and a PNG save button
     */
    static ObjectNode base(String title, String xFmt, String yFmt) {
        ObjectNode o = JSON.createObjectNode();
        o.putObject("title").put("text", title).put("left", "center").putObject("textStyle").put("fontSize", 15);
        o.putObject("legend").put("type", "plain").put("top", 28).put("left", 10).put("right", 10);
        ObjectNode grid = o.putObject("grid").put("left", 20).put("right", 40).put("top", 78).put("bottom", 62);
        grid.put("containLabel", true);
        ObjectNode feature = o.putObject("toolbox").put("right", 10).putObject("feature");
        feature.putObject("dataZoom").put("filterMode", "none");
        feature.putObject("restore");
        feature.putObject("saveAsImage").put("title", "PNG");
        ArrayNode zoom = o.putArray("dataZoom");
        zoom.addObject().put("type", "inside").put("xAxisIndex", 0).put("filterMode", "none");
        zoom.addObject().put("type", "slider").put("xAxisIndex", 0).put("filterMode", "none").put("height", 18)
                .put("bottom", 6);
        o.putObject("tooltip").put("trigger", "item").put("confine", true);
        o.putObject("collsim").put("x", xFmt).put("y", yFmt);
        return o;
    }

    /**
     * @param name     axis title
     * @param log      logarithmic when true
     * @param logBase  base of the log axis (2 for sizes and GPU counts, 10 for bandwidth)
     * @param min      lower end
     * @param max      upper end
     * @return a value or log axis spanning [min, max]
     */
    static ObjectNode axis(String name, boolean log, int logBase, double min, double max) {
        ObjectNode a = JSON.createObjectNode().put("type", log ? "log" : "value").put("name", name)
                .put("nameLocation", "middle").put("nameGap", 30).put("min", min).put("max", max);
        if (log) {
            a.put("logBase", logBase);
        }
        a.putObject("splitLine").put("show", true);
        return a;
    }

    /**
     * Moves the axis title above the axis' top end, horizontal and left-aligned, so no tick label width can push it
     * off the canvas (a rotated title beside the tick labels is cut when the labels are short).
     *
     * @param axis a y axis from {@link #axis}
     * @return the axis
     */
    static ObjectNode nameOnTop(ObjectNode axis) {
        axis.put("nameLocation", "end").put("nameGap", 14);
        axis.putObject("nameTextStyle").put("align", "left").put("color", "#333").put("fontSize", 12);
        return axis;
    }

    /**
     * Rows a legend of these entries takes at {@link #LEGEND_WIDTH_PX}: entries are packed left to right, each
     * 25 px icon + 5 px gap + {@link #CHAR_PX} per character + 10 px item gap (ECharts' legend defaults).
     *
     * @param names legend entries in order
     * @return rows, at least 1
     */
    static int legendRows(List<String> names) {
        int rows = 1;
        double x = 0;
        for (String n : names) {
            double w = 25 + 5 + CHAR_PX * n.length() + 10;
            if (x > 0 && x + w > LEGEND_WIDTH_PX) {
                rows++;
                x = 0;
            }
            x += w;
        }
        return rows;
    }

    /**
     * Legend icon of a dashed line: three 6 px dashes (an SVG path, ECharts' {@code path://} icon form), so a bound's
     * legend entry shows the dashed line the chart draws rather than the line series' default symbol.
     */
    static final String DASHED_ICON = "path://M0,6h6v2h-6z M9,6h6v2h-6z M18,6h6v2h-6z";

    /** Legend icon of a solid line with no marker, for a line series drawn without symbols. */
    static final String SOLID_ICON = "path://M0,6h24v2h-24z";

    /**
     * Sets the legend's entries and makes room above the plot for its rows and the y axis title.
     *
     * @param o      an option from {@link #base}
     * @param names  legend entries in order
     * @param icons  legend icon per entry whose series' default icon is not what the chart draws
     *               ({@link #DASHED_ICON}, {@link #SOLID_ICON}); other entries keep ECharts' icon (line and marker)
     */
    static void legend(ObjectNode o, List<String> names, Map<String, String> icons) {
        ArrayNode data = o.withObject("/legend").putArray("data");
        for (String n : names) {
            ObjectNode e = data.addObject().put("name", n);
            if (icons.containsKey(n)) {
                e.put("icon", icons.get(n));
            }
        }
        o.withObject("/grid").put("top", 28 + LEGEND_ROW_PX * legendRows(names) + 34);
    }

    /** @return the power of 10 at or below v (v &gt; 0) */
    static double floor10(double v) {
        return Math.pow(10, Math.floor(Math.log10(v)));
    }

    /** @return the power of 10 at or above v (v &gt; 0) */
    static double ceil10(double v) {
        return Math.pow(10, Math.ceil(Math.log10(v)));
    }
}
