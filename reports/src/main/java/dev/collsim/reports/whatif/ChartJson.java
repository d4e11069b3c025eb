package dev.collsim.reports.whatif;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Small builders for Apache ECharts option objects (see https://echarts.apache.org/en/option.html): the parts every
 * interactive chart of the report shares. The {@code collsim} key of an option is read by the page script
 * ({@code report-charts.js}), not by ECharts: it names the axis formats ({@code bytes}, {@code ms}, {@code pct},
 * {@code gbps}, {@code us}, {@code gpus}). Stateless.
 */
final class ChartJson {

    static final ObjectMapper JSON = new ObjectMapper();

    private ChartJson() {
    }

    /**
     * @param title chart title
     * @param xFmt  x axis format name
     * @param yFmt  y axis format name
     * @return an option with title, scrolling legend (click toggles a series), zoom (box zoom in the toolbox, wheel,
     *         slider on x), item tooltips and a PNG save button
     */
    static ObjectNode base(String title, String xFmt, String yFmt) {
        ObjectNode o = JSON.createObjectNode();
        o.putObject("title").put("text", title).put("left", "center").putObject("textStyle").put("fontSize", 15);
        o.putObject("legend").put("type", "scroll").put("top", 28);
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
     * @param lo smallest positive value shown
     * @param hi largest value shown
     * @return true when the values span more than a factor 30, so a linear axis would flatten the small ones
     */
    static boolean needsLog(double lo, double hi) {
        return lo > 0 && hi / lo > 30;
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
