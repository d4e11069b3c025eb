package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The busbw chart's JSON on a sweep built by hand, every expected number worked out below from the inputs (not read
 * from the code's output).
 */
class SweepChartJsonTest {

    private static ReportData.SweepRow row(String variant, long size, double busBw, double bound, String algo) {
        return new ReportData.SweepRow(variant, "AllReduce", "float", 8, size, 1, busBw, busBw, bound, algo, "Simple",
                16, -1, "links", "analytical");
    }

    /**
     * Variants A, B, C at 1 KiB and 1 MiB, D (one rank, no finite bound):
     * <pre>
     *   A: Tree bound 300 at 1K, Ring bound 400 at 1M -> hardware bound max(300, 400) = 400.0 GB/s
     *   B: bound 400.1 -> |400.1 - 400| = 0.1 <= 5e-4 x 400 = 0.2: same line as A
     *   C: bound 400.3 -> 0.3 > 0.2: a line of its own
     *   D: bound +Infinity (one rank): no line
     * </pre>
     */
    private static List<ReportData.SweepRow> rows() {
        List<ReportData.SweepRow> r = new ArrayList<>();
        r.add(row("A", 1024, 1.5, 300, "Tree"));
        r.add(row("A", 1 << 20, 350, 400, "Ring"));
        r.add(row("B", 1024, 2, 400.1, "Ring"));
        r.add(row("B", 1 << 20, 360, 400.1, "Ring"));
        r.add(row("C", 1024, 3, 400.3, "Ring"));
        r.add(row("C", 1 << 20, 380, 400.3, "Ring"));
        r.add(row("D", 1024, 1.0, Double.POSITIVE_INFINITY, "Ring"));
        r.add(row("D", 1 << 20, 5.0, Double.POSITIVE_INFINITY, "Ring"));
        return r;
    }

    private static JsonNode series(ObjectNode o, String name) {
        for (JsonNode s : o.get("series")) {
            if (s.get("name").asText().equals(name)) {
                return s;
            }
        }
        throw new AssertionError("no series " + name + " in " + o.get("series"));
    }

    @Test
    void boundPerVariantIsTheHighestOverTheChosenAlgorithms() {
        assertEquals(400.0, SweepChartJson.hardwareBound(rows(), "A"), 1e-12);
        assertEquals(400.3, SweepChartJson.hardwareBound(rows(), "C"), 1e-12);
        assertEquals(0.0, SweepChartJson.hardwareBound(rows(), "D"), 0.0, "no finite bound");
    }

    @Test
    void coincidingBoundsAreOneLineNamedTogetherInTheLegend() {
        ObjectNode o = SweepChartJson.busBw("t", rows(), List.of());
        // 4 curves + 2 bound lines (A = B, C); D has none
        assertEquals(6, o.get("series").size());
        JsonNode ab = series(o, "bound 400.0 GB/s: A = B");
        JsonNode c = series(o, "bound 400.3 GB/s: C");
        // a line from the smallest to the largest size at the bound, in the colour of its first variant's curve
        assertEquals(1024, ab.at("/data/0/value/0").asLong());
        assertEquals(1 << 20, ab.at("/data/1/value/0").asLong());
        assertEquals(400.0, ab.at("/data/1/value/1").asDouble(), 1e-12);
        assertEquals(400.3, c.at("/data/0/value/1").asDouble(), 1e-12);
        assertEquals("dashed", ab.at("/lineStyle/type").asText());
        assertEquals(series(o, "A").get("color"), ab.get("color"));
        assertEquals(series(o, "C").get("color"), c.get("color"));
        assertEquals("#5470c6", ab.get("color").asText(), "A is the first variant: ECharts' first colour");
        assertEquals("#fac858", c.get("color").asText(), "C is the third variant: ECharts' third colour");
        // no label on the plot (labels of close bounds overlapped); the legend names them, with a dashed icon
        assertTrue(ab.at("/data/0/label").isMissingNode() && ab.at("/data/1/label").isMissingNode());
        List<String> legend = new ArrayList<>();
        o.at("/legend/data").forEach(e -> legend.add(e.get("name").asText()));
        assertEquals(List.of("A", "B", "C", "D", "bound 400.0 GB/s: A = B", "bound 400.3 GB/s: C"), legend);
        assertEquals(ChartJson.DASHED_ICON, o.at("/legend/data/4/icon").asText());
        assertFalse(o.at("/legend/data/0").has("icon"), "a curve keeps its line-and-marker icon");
    }

    /**
     * The busbw axis is linear from 0 even when the values span more than a factor 30 (here 1.0 to 400.3): the
     * size-independent bound lines then sit apart in proportion to their values, where a log axis over 8 B .. 8 GiB
     * put every bound in its top decade. The size axis stays log 2.
     */
    @Test
    void sizeAxisIsLogAndTheBusBwAxisLinearOverAWideSpan() {
        ObjectNode o = SweepChartJson.busBw("t", rows(), List.of());
        // x: sizes 1 KiB .. 1 MiB on a log 2 axis
        assertEquals("log", o.at("/xAxis/type").asText());
        assertEquals(2, o.at("/xAxis/logBase").asInt());
        assertEquals(1024, o.at("/xAxis/min").asDouble(), 0);
        assertEquals(1 << 20, o.at("/xAxis/max").asDouble(), 0);
        // y: smallest busbw 1.0 (D at 1K), largest value 400.3 (C's bound): linear from 0, open top
        assertEquals("value", o.at("/yAxis/type").asText());
        assertEquals(0, o.at("/yAxis/min").asDouble(), 0);
        assertTrue(o.at("/yAxis/max").isMissingNode());
        assertEquals("busbw (GB/s)", o.at("/yAxis/name").asText());
        assertEquals("end", o.at("/yAxis/nameLocation").asText(), "title above the axis, never cut at the left");
        assertEquals("bytes", o.at("/collsim/x").asText());
        assertEquals("gbps", o.at("/collsim/y").asText());
    }

    @Test
    void aNarrowRangeGetsALinearAxisFromZeroWithAnOpenTop() {
        // busbw 100 and 200, bound 250: 250 / 100 = 2.5 <= 30 -> linear from 0; ECharts picks the top tick
        List<ReportData.SweepRow> rows = List.of(row("A", 1024, 100, 250, "Ring"), row("A", 2048, 200, 250, "Ring"));
        ObjectNode o = SweepChartJson.busBw("t", rows, List.of());
        assertEquals("value", o.at("/yAxis/type").asText());
        assertEquals(0, o.at("/yAxis/min").asDouble(), 0);
        assertTrue(o.at("/yAxis/max").isMissingNode(), "a fixed max printed an odd last tick (866.3)");
        assertEquals("busbw (GB/s)", o.at("/yAxis/name").asText());
    }

    @Test
    void measuredPointsAreNamedByTheFileBaseName() {
        ReportData.MeasuredRow m = new ReportData.MeasuredRow("A", "AllReduce", "/data/runs/h100-table.txt", 1 << 20,
                10, 11, 300, 10);
        ObjectNode o = SweepChartJson.busBw("t", rows(), List.of(m));
        JsonNode s = series(o, "measured: h100-table.txt");
        assertEquals("scatter", s.get("type").asText());
        assertEquals("emptyRect", s.get("symbol").asText());
        assertEquals(300, s.at("/data/0/value/1").asDouble(), 0);
        assertEquals("h100-table.txt", s.at("/data/0/tip/file").asText());
        assertFalse(o.toString().contains("/data/runs"), "no absolute path in the chart");
    }

    @Test
    void predictedVsMeasuredLegendIconsAreTheLinesDrawn() {
        ReportData.MeasuredRow m = new ReportData.MeasuredRow("A", "AllReduce", "/x/f.txt", 1 << 20, 20, 300, 1, 5);
        ObjectNode o = SweepChartJson.predictedVsMeasured("t", List.of(m), 0.2);
        // times 20 and 300 us: axes from 10^1 = 10 to 10^3 = 1000, both log 10
        assertEquals(10, o.at("/xAxis/min").asDouble(), 0);
        assertEquals(1000, o.at("/yAxis/max").asDouble(), 0);
        assertEquals("AllReduce (f.txt)", o.at("/series/0/name").asText());
        assertEquals(ChartJson.SOLID_ICON, o.at("/legend/data/1/icon").asText(), "predicted = measured");
        assertEquals(ChartJson.DASHED_ICON, o.at("/legend/data/2/icon").asText(), "-20 %");
        assertEquals("#888888", o.at("/series/1/color").asText(), "the legend takes the grey of the line");
        // the -20 % line: from (10, 10 x 0.8 = 8) to (1000, 1000 x 0.8 = 800)
        assertEquals(8, o.at("/series/2/data/0/1").asDouble(), 1e-12);
        assertEquals(800, o.at("/series/2/data/1/1").asDouble(), 1e-12);
    }

    @Test
    void legendRowsPackEntriesIntoTheLaptopWidth() {
        // each 50-character entry: 25 + 5 + 6.6 x 50 + 10 = 370 px; two fit 820 px (740), a third does not (1110):
        // 10 entries -> 5 rows, and the plot starts below them: 28 + 22 x 5 + 34 = 172 px
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            names.add(String.valueOf((char) ('a' + i)).repeat(50));
        }
        assertEquals(5, ChartJson.legendRows(names));
        assertEquals(1, ChartJson.legendRows(List.of("A", "B")));
        ObjectNode o = ChartJson.base("t", "bytes", "gbps");
        ChartJson.legend(o, names, Map.of());
        assertEquals(172, o.at("/grid/top").asInt());
    }

    /**
     * The time chart draws each row's time, not its busbw, on log axes: sizes 1 KiB .. 1 MiB (log2), times from
     * {@link #timed}: 12.5 us at 1 KiB and 2,000 us at 1 MiB for A, 20 us and 1,500 us for B, measured 40 us at
     * 1 MiB (below both: the y axis still spans it). y spans the powers of 10 around them: floor10(12.5) = 10 and
     * ceil10(2000) = 10,000.
     */
    @Test
    void timeChartIsLogLogAndDrawsTheTimes() {
        List<ReportData.SweepRow> rows = List.of(timed("A", 1024, 12.5, 0.08), timed("A", 1 << 20, 2000, 0.5),
                timed("B", 1024, 20, 0.05), timed("B", 1 << 20, 1500, 0.7));
        ReportData.MeasuredRow m = new ReportData.MeasuredRow("A", "AllReduce", "/x/meas.txt", 1 << 20, 40, 2000, 26,
                4900);
        ObjectNode o = SweepChartJson.time("t", rows, List.of(m));
        assertEquals("log", o.get("xAxis").get("type").asText());
        assertEquals(2, o.get("xAxis").get("logBase").asInt());
        assertEquals("log", o.get("yAxis").get("type").asText());
        assertEquals(10, o.get("yAxis").get("logBase").asInt());
        assertEquals(10.0, o.get("yAxis").get("min").asDouble(), 1e-12);
        assertEquals(10_000.0, o.get("yAxis").get("max").asDouble(), 1e-12);
        assertEquals("us", o.get("collsim").get("y").asText());
        JsonNode a = series(o, "A").get("data");
        assertEquals(12.5, a.get(0).get("value").get(1).asDouble(), 0.0);
        assertEquals(2000.0, a.get(1).get("value").get(1).asDouble(), 0.0);
        assertEquals(1500.0, series(o, "B").get("data").get(1).get("value").get(1).asDouble(), 0.0);
        assertEquals(40.0, series(o, "measured: meas.txt").get("data").get(0).get("value").get(1).asDouble(), 0.0);
    }

    /** A row with its time and a busbw unlike it, so a chart drawing busbw instead of time is caught. */
    private static ReportData.SweepRow timed(String variant, long size, double timeUs, double busBw) {
        return new ReportData.SweepRow(variant, "AllReduce", "float", 8, size, timeUs, busBw, busBw, 500, "Ring",
                "Simple", 16, -1, "links", "analytical");
    }

    /**
     * Variants A, B, C, D in that order: hollow symbols emptyCircle, emptyRect, emptyTriangle, emptyDiamond, sizes
     * 5 + 2 x (4 - 1 - index) = 11, 9, 7, 5 pixels, so coinciding curves show as nested symbols.
     */
    @Test
    void everyVariantHasItsOwnSymbolLargerTheEarlierItIs() {
        ObjectNode o = SweepChartJson.busBw("t", rows(), List.of());
        String[] names = {"A", "B", "C", "D"};
        String[] symbols = {"emptyCircle", "emptyRect", "emptyTriangle", "emptyDiamond"};
        int[] sizes = {11, 9, 7, 5};
        for (int i = 0; i < names.length; i++) {
            JsonNode s = series(o, names[i]);
            assertEquals(symbols[i], s.get("symbol").asText(), names[i]);
            assertEquals(sizes[i], s.get("symbolSize").asInt(), names[i]);
        }
    }
}
