package dev.collsim.reports.whatif;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * ECharts options for the collective sweeps: busbw against size per variant (log size axis; linear busbw axis from 0,
 * as the PNG draws it, so the bound lines stay apart: on a log busbw axis over 8 B .. 8 GiB, 7 decades, every bound
 * fell in the top decade), each variant's size-independent hardware bound as a dashed line in the variant's
 * colour (variants with the same bound drawn once and named together in its legend entry, so no label can overlap
 * another), the measured points, and predicted against measured time. Every
 * point carries its numbers for the tooltip; and the same sweeps as time against size on log-log axes ({@link #time}),
 * where the small sizes can be read. Stateless.
 */
final class SweepChartJson {

    /** Bounds closer than this relative difference are drawn as one labelled line (0.05 %). */
    static final double SAME_BOUND = 5e-4;

    /** Colour of measured points: black, no variant's (the palette has none), so they are not read as a variant. */
    static final String MEASURED_COLOR = "#222222";

    private SweepChartJson() {
    }

    /**
     * @param title   chart title
     * @param rows    the sweep rows of one collective and data type, every variant
     * @param measured measured points of the base variant for that collective (may be empty)
     * @return the option
     */
    static ObjectNode busBw(String title, List<ReportData.SweepRow> rows, List<ReportData.MeasuredRow> measured) {
        Map<String, List<ReportData.SweepRow>> byVariant = byVariant(rows);
        long minSize = rows.stream().mapToLong(ReportData.SweepRow::sizeBytes).min().orElse(1);
        long maxSize = rows.stream().mapToLong(ReportData.SweepRow::sizeBytes).max().orElse(1);
        double hi = rows.stream().mapToDouble(r -> Math.max(r.busBw(), hardwareBound(rows, r.variant()))).max()
                .orElse(1);
        for (ReportData.MeasuredRow m : measured) {
            hi = Math.max(hi, m.measuredBusBw());
        }
        ObjectNode o = ChartJson.base(title, "bytes", "gbps");
        o.set("xAxis", ChartJson.axis("message size (bytes)", true, 2, minSize, maxSize));
        ObjectNode y = ChartJson.axis("busbw (GB/s)", false, 10, 0, hi);
        y.remove("max"); // ECharts rounds the top up to a tick; a fixed max would print an odd last label
        o.set("yAxis", ChartJson.nameOnTop(y));
        ArrayNode series = o.putArray("series");
        List<String> names = new ArrayList<>(byVariant.keySet());
        List<String> legend = new ArrayList<>(names);
        for (int i = 0; i < names.size(); i++) {
            series.add(curve(names.get(i), byVariant.get(names.get(i)), color(i), i, names.size()));
        }
        Map<String, String> icons = new HashMap<>();
        for (BoundGroup g : boundGroups(rows, names)) {
            series.add(boundLine(g, minSize, maxSize));
            legend.add(g.label());
            icons.put(g.label(), ChartJson.DASHED_ICON);
        }
        if (!measured.isEmpty()) {
            ObjectNode m = measuredPoints(measured);
            series.add(m);
            legend.add(m.get("name").asText());
        }
        ChartJson.legend(o, legend, icons);
        return o;
    }

    /**
     * @param title    chart title
     * @param rows     the sweep rows of one collective and data type, every variant
     * @param measured measured points of the base variant for that collective (may be empty)
     * @return time (us) against size per variant, both axes logarithmic (size log2, time log10 from the power of 10
     *         at or below the shortest time to the one at or above the longest), measured times as open squares:
     *         the latency regime a linear busbw axis flattens to 0 stays readable
     */
    static ObjectNode time(String title, List<ReportData.SweepRow> rows, List<ReportData.MeasuredRow> measured) {
        Map<String, List<ReportData.SweepRow>> byVariant = byVariant(rows);
        long minSize = rows.stream().mapToLong(ReportData.SweepRow::sizeBytes).min().orElse(1);
        long maxSize = rows.stream().mapToLong(ReportData.SweepRow::sizeBytes).max().orElse(1);
        double lo = rows.stream().mapToDouble(ReportData.SweepRow::timeUs).filter(t -> t > 0).min().orElse(1);
        double hi = rows.stream().mapToDouble(ReportData.SweepRow::timeUs).max().orElse(1);
        for (ReportData.MeasuredRow m : measured) {
            lo = m.measuredUs() > 0 ? Math.min(lo, m.measuredUs()) : lo;
            hi = Math.max(hi, m.measuredUs());
        }
        ObjectNode o = ChartJson.base(title, "bytes", "us");
        o.set("xAxis", ChartJson.axis("message size (bytes)", true, 2, minSize, maxSize));
        o.set("yAxis", ChartJson.nameOnTop(ChartJson.axis("time (us), log scale", true, 10, ChartJson.floor10(lo),
                ChartJson.ceil10(hi))));
        ArrayNode series = o.putArray("series");
        List<String> names = new ArrayList<>(byVariant.keySet());
        List<String> legend = new ArrayList<>(names);
        for (int i = 0; i < names.size(); i++) {
            ObjectNode s = curve(names.get(i), byVariant.get(names.get(i)), color(i), i, names.size());
            s.get("data").forEach(p -> ((ArrayNode) p.get("value")).set(1, p.get("tip").get("time us")));
            series.add(s);
        }
        if (!measured.isEmpty()) {
            ObjectNode m = measuredPoints(measured);
            m.get("data").forEach(p -> ((ArrayNode) p.get("value")).set(1, p.get("tip").get("measured time us")));
            series.add(m);
            legend.add(m.get("name").asText());
        }
        ChartJson.legend(o, legend, Map.of());
        return o;
    }

    /** @return the rows of each variant, variants in the order they first appear */
    private static Map<String, List<ReportData.SweepRow>> byVariant(List<ReportData.SweepRow> rows) {
        Map<String, List<ReportData.SweepRow>> out = new LinkedHashMap<>();
        rows.forEach(r -> out.computeIfAbsent(r.variant(), k -> new ArrayList<>()).add(r));
        return out;
    }

    private static String color(int i) {
        return ChartJson.PALETTE.get(i % ChartJson.PALETTE.size());
    }

    /**
     * @param index the variant's place, from 0
     * @param count variants on the chart
     * @return symbol size, pixels: 5 for the last variant, 2 more for each earlier one, at most 15
     */
    static int symbolSize(int index, int count) {
        return Math.min(15, 5 + 2 * (count - 1 - index));
    }

    /** Hollow symbols, one per variant in turn, so that variants whose curves coincide stay told apart. */
    static final List<String> SYMBOLS = List.of("emptyCircle", "emptyRect", "emptyTriangle", "emptyDiamond",
            "emptyRoundRect", "emptyPin");

    /**
     * A variant's curve: its own hollow symbol, and a symbol the larger the earlier the variant, so that where curves
     * coincide (the same prediction) the later, smaller symbols sit inside the earlier ones and every variant shows.
     */
    private static ObjectNode curve(String variant, List<ReportData.SweepRow> rows, String color, int index,
            int count) {
        ObjectNode s = ChartJson.JSON.createObjectNode().put("name", variant).put("type", "line")
                .put("showSymbol", true).put("symbol", SYMBOLS.get(index % SYMBOLS.size()))
                .put("symbolSize", symbolSize(index, count)).put("color", color);
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

    /**
     * Variants whose hardware bounds coincide (within {@link #SAME_BOUND} of the group's first), drawn as one line.
     *
     * @param busBw    the first member's bound, GB/s
     * @param variants the members, in variant order
     * @param color    line colour: that of the first member's curve
     */
    record BoundGroup(double busBw, List<String> variants, String color) {

        /** @return the legend entry, e.g. {@code bound 516.7 GB/s: base = NCCL_ALGO=Ring} */
        String label() {
            return String.format(Locale.ROOT, "bound %.1f GB/s: %s", busBw, String.join(" = ", variants));
        }
    }

    /**
     * @param rows  the sweep rows
     * @param names the variants in order
     * @return one group per distinct bound, in order of the first variant having it; variants without a finite
     *         bound (one rank) are in no group
     */
    static List<BoundGroup> boundGroups(List<ReportData.SweepRow> rows, List<String> names) {
        List<BoundGroup> groups = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            double b = hardwareBound(rows, names.get(i));
            if (b <= 0) {
                continue;
            }
            BoundGroup g = groups.stream().filter(x -> Math.abs(x.busBw() - b) <= SAME_BOUND * x.busBw())
                    .findFirst().orElse(null);
            if (g == null) {
                groups.add(new BoundGroup(b, new ArrayList<>(List.of(names.get(i))), color(i)));
            } else {
                g.variants().add(names.get(i));
            }
        }
        return groups.stream().map(g -> new BoundGroup(g.busBw(), List.copyOf(g.variants()), g.color())).toList();
    }

    /** A dashed line across the sizes, named in the legend (no label on the plot, so labels never overlap). */
    private static ObjectNode boundLine(BoundGroup g, long minSize, long maxSize) {
        ObjectNode s = ChartJson.JSON.createObjectNode().put("name", g.label()).put("type", "line")
                .put("symbol", "circle").put("symbolSize", 1).put("z", 1).put("color", g.color());
        s.putObject("lineStyle").put("type", "dashed").put("width", 1.5);
        String who = String.join(" = ", g.variants());
        ArrayNode data = s.putArray("data");
        for (long x : new long[] {minSize, maxSize}) {
            ObjectNode p = data.addObject();
            p.putArray("value").add(x).add(g.busBw());
            p.putObject("tip").put("hardware bound of", who).put("busbw GB/s", g.busBw())
                    .put("independent of size", "highest bound over the algorithms chosen in the sweep");
        }
        return s;
    }

    private static ObjectNode measuredPoints(List<ReportData.MeasuredRow> measured) {
        String file = Path.of(measured.get(0).source()).getFileName().toString();
        ObjectNode s = ChartJson.JSON.createObjectNode().put("name", "measured: " + file).put("type", "scatter")
                .put("symbol", "emptyRect").put("symbolSize", 9).put("z", 5).put("color", MEASURED_COLOR);
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
        o.set("yAxis", ChartJson.nameOnTop(ChartJson.axis("predicted time (us), log scale", true, 10, a, z)));
        ArrayNode series = o.putArray("series");
        Map<String, ArrayNode> groups = new LinkedHashMap<>();
        for (ReportData.MeasuredRow m : measured) {
            String name = m.collective() + " (" + Path.of(m.source()).getFileName() + ")";
            ArrayNode data = groups.computeIfAbsent(name, k -> {
                ObjectNode s = series.addObject().put("name", k).put("type", "scatter").put("symbol", "emptyRect")
                        .put("symbolSize", 9).put("color", color(groups.size()));
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
            // the series colour (not only the line's) so the legend icon is the grey line the chart draws
            ObjectNode s = series.addObject().put("name", names[i]).put("type", "line").put("symbol", "none")
                    .put("color", "#888888");
            s.putObject("lineStyle").put("type", i == 0 ? "solid" : "dashed");
            s.putArray("data").add(ChartJson.JSON.createArrayNode().add(a).add(a * lines[i][0]))
                    .add(ChartJson.JSON.createArrayNode().add(z).add(z * lines[i][1]));
        }
        List<String> legend = new ArrayList<>();
        series.forEach(x -> legend.add(x.get("name").asText()));
        ChartJson.legend(o, legend, Map.of(names[0], ChartJson.SOLID_ICON, names[1], ChartJson.DASHED_ICON,
                names[2], ChartJson.DASHED_ICON));
        return o;
    }
}
