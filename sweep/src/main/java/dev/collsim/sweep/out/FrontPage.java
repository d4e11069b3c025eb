package dev.collsim.sweep.out;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.collsim.reports.whatif.EchartsLibrary;
import dev.collsim.sweep.point.PointResult;
import dev.collsim.sweep.spec.DesignSpace;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The sweep's HTML page: the cheapest design per target, and per workload an Apache ECharts scatter of cost against
 * time of every design, with the Pareto front drawn as a line (the library inlined from its webjar by
 * {@link EchartsLibrary}, so the page needs no network). Stateless.
 */
public final class FrontPage {

    private static final ObjectMapper JSON = new ObjectMapper();

    private FrontPage() {
    }

    /**
     * @param space   the design space
     * @param rows    every point
     * @param fronts  the front per workload
     * @param targets the cheapest design per target
     * @param summary summary lines (points, failures, rate)
     * @return the page
     */
    public static String html(DesignSpace space, List<PointResult> rows, Map<String, List<PointResult>> fronts,
            List<TargetResult> targets, List<String> summary) {
        String cur = space.cost().currency();
        StringBuilder h = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>")
                .append(esc(space.report().title())).append("</title>\n<style>body{font-family:sans-serif;margin:2em}"
                + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}"
                + ".chart{width:900px;height:480px}</style>\n<script>").append(EchartsLibrary.script())
                .append("</script></head><body>\n<h1>").append(esc(space.report().title())).append("</h1>\n<p>");
        summary.forEach(s -> h.append(esc(s)).append("<br>\n"));
        h.append("</p>\n<h2>Cheapest design per target</h2>\n<table><tr><th>target</th><th>bounds</th><th>designs"
                + " meeting it</th><th>cheapest design</th><th>workload</th><th>cost (").append(cur)
                .append(")</th><th>time</th></tr>\n");
        for (TargetResult t : targets) {
            h.append("<tr><td>").append(esc(t.target())).append("</td><td>").append(esc(t.bounds())).append("</td><td>")
                    .append(t.meeting()).append("</td><td>").append(esc(t.design())).append("</td><td>")
                    .append(esc(t.workload())).append("</td><td>").append(num(t.cost())).append("</td><td>")
                    .append(num(t.time())).append("</td></tr>\n");
        }
        h.append("</table>\n");
        if (!targets.isEmpty() && !targets.get(0).backends().isEmpty()) {
            h.append("<p>The grid varies the backend (").append(esc(targets.get(0).backends())).append("): a design"
                    + " meets a target only when it meets it under every backend, and its row shows its slower"
                    + " backend's figures.</p>\n");
        }
        h.append("<h2>Cost against time, per workload</h2>\n<p>Each dot is a design; the line is the Pareto"
                + " front (no design is both cheaper and faster). Plans: step time in ms; collectives: time per call"
                + " in microseconds.</p>\n");
        int k = 0;
        for (Map.Entry<String, List<PointResult>> e : fronts.entrySet()) {
            String id = "c" + k++;
            h.append("<h3>").append(esc(e.getKey())).append("</h3><div class=chart id=").append(id).append("></div>\n")
                    .append("<script>echarts.init(document.getElementById('").append(id).append("')).setOption(")
                    .append(option(e.getKey(), rows, e.getValue(), cur)).append(");</script>\n");
        }
        return h.append("</body></html>\n").toString();
    }

    /**
     * @return the ECharts option of one workload's chart (JSON with one function, the tooltip formatter), keys in a fixed
     *         order
     */
    static String option(String workload, List<PointResult> rows, List<PointResult> front, String cur) {
        List<List<Object>> all = new ArrayList<>();
        String unit = "ms";
        for (PointResult r : rows) {
            if (r.workload().equals(workload) && r.ok() && Double.isFinite(r.cost()) && Double.isFinite(r.time())) {
                all.add(List.of(r.cost(), r.time(), r.label()));
                unit = "plan".equals(r.kind()) ? "ms" : "us";
            }
        }
        List<List<Object>> line = front.stream().map(r -> List.<Object>of(r.cost(), r.time(), r.label())).toList();
        // built as a tree, not with Map.of (whose key order is salted per JVM): the page is the same from run to run
        ObjectNode o = JSON.createObjectNode();
        o.putObject("tooltip").put("trigger", "item");
        o.putObject("legend").putArray("data").add("designs").add("Pareto front");
        o.putObject("xAxis").put("type", "value").put("name", "cost (" + cur + ")").put("scale", true);
        o.putObject("yAxis").put("type", "value").put("name", "time (" + unit + ")").put("scale", true);
        ArrayNode series = o.putArray("series");
        ObjectNode designs = series.addObject().put("name", "designs").put("type", "scatter").put("symbolSize", 4);
        designs.set("data", JSON.valueToTree(all));
        designs.putObject("itemStyle").put("color", "#9aa5b1");
        ObjectNode pareto = series.addObject().put("name", "Pareto front").put("type", "line").put("step", "end")
                .put("symbolSize", 7);
        pareto.set("data", JSON.valueToTree(line));
        pareto.putObject("itemStyle").put("color", "#d62728");
        try {
            // the tooltip shows the design's label (third value of each point)
            return JSON.writeValueAsString(o).replace("</", "<\\/")
                    .replace("\"trigger\":\"item\"", "\"trigger\":\"item\",\"formatter\":function(p){return "
                            + "p.value[2]+'<br>cost '+p.value[0].toPrecision(6)+', time '+p.value[1].toPrecision(6)}");
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String num(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "-";
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
