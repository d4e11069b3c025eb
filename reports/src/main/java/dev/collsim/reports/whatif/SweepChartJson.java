package dev.collsim.reports.whatif;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * ECharts options for the collective sweeps: busbw against size per variant (log size axis; log busbw axis when the
 * values span more than a factor 30), each variant's size-independent hardware bound as a dashed line (variants with
 * the same bound named together on one label), the measured points, and predicted against measured time. Every
 * point carries its numbers for the tooltip. Stateless.
 */
final class SweepChartJson {

    /** Bounds closer than this relative difference are drawn as one labelled line (0.05 %). */
    static final double SAME_BOUND = 5e-4;

    private SweepChartJson() {
    }

    /**
     * @param title   chart title
     * @param rows    the sweep rows of one collective and data type, every variant
     * @param measured measured points of the base variant for that collective (may be empty)
     * @return the option
     */
    static ObjectNode busBw(String title, List<ReportData.SweepRow> rows, List<ReportData.MeasuredRow> measured) {
        Map<String, List<ReportData.SweepRow>> byVariant = new LinkedHashMap<>();
        rows.forEach(r -> byVariant.computeIfAbsent(r.variant(), k -> new ArrayList<>()).add(r));
        long minSize = rows.stream().mapToLong(ReportData.SweepRow::sizeBytes).min().orElse(1);
        long maxSize = rows.stream().mapToLong(ReportData.SweepRow::sizeBytes).max().orElse(1);
        double lo = rows.stream().mapToDouble(ReportData.SweepRow::busBw).filter(v -> v > 0).min().orElse(1);
        double hi = rows.stream().mapToDouble(r -> Math.max(r.busBw(), hardwareBound(rows, r.variant()))).max()
                .orElse(1);
        for (ReportData.MeasuredRow m : measured) {
            lo = m.measuredBusBw() > 0 ? Math.min(lo, m.measuredBusBw()) : lo;
            hi = Math.max(hi, m.measuredBusBw());
        }
        boolean log = ChartJson.needsLog(lo, hi);
        ObjectNode o = ChartJson.base(title, "bytes", "gbps");
        o.set("xAxis", ChartJson.axis("message size (bytes)", true, 2, minSize, maxSize));
        o.set("yAxis", ChartJson.axis("busbw (GB/s)" + (log ? ", log scale" : ""), log, 10,
                log ? ChartJson.floor10(lo) : 0, log ? ChartJson.ceil10(hi * 1.05) : hi * 1.1).put("nameGap", 55));
        ArrayNode series = o.putArray("series");
        for (Map.Entry<String, List<ReportData.SweepRow>> v : byVariant.entrySet()) {
            series.add(curve(v.getKey(), v.getValue()));
        }
        List<String> names = new ArrayList<>(byVariant.keySet());
        for (String name : names) {
            series.add(boundLine(name, rows, names, minSize, maxSize));
        }
        if (!measured.isEmpty()) {
            series.add(measuredPoints(measured));
        }
        return o;
    }

    private static ObjectNode curve(String variant, List<ReportData.SweepRow> rows) {
        ObjectNode s = ChartJson.JSON.createObjectNode().put("name", variant).put("type", "line")
                .put("showSymbol", true).put("symbolSize", 5);
        ArrayNode data = s.putArray("data");
        for (ReportData.SweepRow r : rows) {
            ObjectNode p = data.addObject();
            p.putArray("value").add(r.sizeBytes()).add(r.busBw());
            p.putObject("tip").put("variant", variant).put("ranks", r.nRanks()).put("size", r.sizeBytes())
                    .put("time us", r.timeUs()).put("algbw GB/s", r.algBw()).put("busbw GB/s", r.busBw())
                    .put("bound of the chosen algorithm GB/s", r.boundBusBw())
                    .put("algorithm", r.algorithm() + "/" + r.protocol()).put("channels", r.nChannels())
                    .put("bottleneck", r.bottleneck()).put("backend", r.backend());
        }
        return s;
    }

    /**
     * The hardware bound of a variant, independent of size: the highest bound over the algorithms the sweep chose
     * for it (each row's bound is that of its chosen algorithm, so it steps where the choice changes).
     *
     * @return GB/s, or 0 when no row has a finite bound
     */
    static double hardwareBound(List<ReportData.SweepRow> rows, String variant) {
        return rows.stream().filter(r -> r.variant().equals(variant) && Double.isFinite(r.boundBusBw()))
                .mapToDouble(ReportData.SweepRow::boundBusBw).max().orElse(0);
    }

    private static ObjectNode boundLine(String variant, List<ReportData.SweepRow> rows, List<String> names,
            long minSize, long maxSize) {
        double b = hardwareBound(rows, variant);
        List<String> same = names.stream().filter(n -> Math.abs(hardwareBound(rows, n) - b) <= SAME_BOUND * b)
                .toList();
        ObjectNode s = ChartJson.JSON.createObjectNode().put("name", variant).put("type", "line")
                .put("symbol", "circle").put("symbolSize", 1).put("z", 1);
        s.putObject("labelLayout").put("moveOverlap", "shiftY");
        s.putObject("lineStyle").put("type", "dashed").put("width", 1.5);
        String label = String.format(Locale.ROOT, "bound %.1f GB/s", b);
        String who = same.size() > 1 ? String.join(" = ", same) : variant;
        ArrayNode data = s.putArray("data");
        for (long x : new long[] {minSize, maxSize}) {
            ObjectNode p = data.addObject();
            boolean right = names.stream().map(n -> hardwareBound(rows, n)).filter(o -> o > b * (1 + SAME_BOUND))
                    .distinct().count() % 2 == 0;
            if (x == (right ? maxSize : minSize) && same.get(0).equals(variant)) {
                p.putObject("label").put("show", true).put("position", "top").put("align", right ? "right" : "left")
                        .put("formatter", label + ": " + who).put("fontSize", 10)
                        .put("backgroundColor", "rgba(255,255,255,0.8)");
            }
            p.putArray("value").add(x).add(b);
            p.putObject("tip").put("hardware bound of", variant).put("busbw GB/s", b)
                    .put("independent of size", "highest bound over the algorithms chosen in the sweep")
                    .put("coincides with", same.size() > 1 ? who : "no other variant");
        }
        return s;
    }

    private static ObjectNode measuredPoints(List<ReportData.MeasuredRow> measured) {
        String file = Path.of(measured.get(0).source()).getFileName().toString();
        ObjectNode s = ChartJson.JSON.createObjectNode().put("name", "measured: " + file).put("type", "scatter")
                .put("symbol", "emptyRect").put("symbolSize", 9).put("z", 5);
        ArrayNode data = s.putArray("data");
        for (ReportData.MeasuredRow m : measured) {
            ObjectNode p = data.addObject();
            p.putArray("value").add(m.sizeBytes()).add(m.measuredBusBw());
            p.putObject("tip").put("measured on", m.variant()).put("file", file).put("size", m.sizeBytes())
                    .put("measured time us", m.measuredUs()).put("predicted time us", m.predictedUs())
                    .put("busbw GB/s", m.measuredBusBw()).put("error % (+ = predicted slower)", m.errorPct());
        }
        return s;
    }

    /**
     * @param title    chart title
     * @param measured every measured point
     * @param band     relative band drawn around y = x (0.2 = 20 %)
     * @return predicted against measured time, log-log, with y = x and the band as dashed lines
     */
    static ObjectNode predictedVsMeasured(String title, List<ReportData.MeasuredRow> measured, double band) {
        double lo = measured.stream().mapToDouble(m -> Math.min(m.measuredUs(), m.predictedUs())).min().orElse(1);
        double hi = measured.stream().mapToDouble(m -> Math.max(m.measuredUs(), m.predictedUs())).max().orElse(1);
        double a = ChartJson.floor10(lo);
        double z = ChartJson.ceil10(hi);
        ObjectNode o = ChartJson.base(title, "us", "us");
        o.set("xAxis", ChartJson.axis("measured time (us), log scale", true, 10, a, z));
        o.set("yAxis", ChartJson.axis("predicted time (us), log scale", true, 10, a, z));
        ArrayNode series = o.putArray("series");
        Map<String, ArrayNode> groups = new LinkedHashMap<>();
        for (ReportData.MeasuredRow m : measured) {
            String name = m.collective() + " (" + Path.of(m.source()).getFileName() + ")";
            ArrayNode data = groups.computeIfAbsent(name, k -> {
                ObjectNode s = series.addObject().put("name", k).put("type", "scatter").put("symbol", "emptyRect")
                        .put("symbolSize", 9);
                return s.putArray("data");
            });
            ObjectNode p = data.addObject();
            p.putArray("value").add(m.measuredUs()).add(m.predictedUs());
            p.putObject("tip").put("collective", m.collective()).put("size", m.sizeBytes())
                    .put("measured time us", m.measuredUs()).put("predicted time us", m.predictedUs())
                    .put("error % (+ = predicted slower)", m.errorPct());
        }
        double[][] lines = {{1, 1}, {1 - band, 1 - band}, {1 + band, 1 + band}};
        String[] names = {"predicted = measured", "-" + Math.round(band * 100) + " %", "+" + Math.round(band * 100)
                + " %"};
        for (int i = 0; i < lines.length; i++) {
            ObjectNode s = series.addObject().put("name", names[i]).put("type", "line").put("symbol", "none");
            s.putObject("lineStyle").put("type", i == 0 ? "solid" : "dashed").put("color", "#888");
            s.putArray("data").add(ChartJson.JSON.createArrayNode().add(a).add(a * lines[i][0]))
                    .add(ChartJson.JSON.createArrayNode().add(z).add(z * lines[i][1]));
        }
        return o;
    }
}
