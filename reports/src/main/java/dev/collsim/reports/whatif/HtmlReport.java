package dev.collsim.reports.whatif;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.collsim.units.DataSize;
import dev.collsim.validation.compare.ErrorStats;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The report as one self-contained HTML page, viewable with no network: styles and the charting library (Apache
 * ECharts, {@link EchartsLibrary}) inline, every chart interactive (zoom, tooltips with every number, legend toggles)
 * from its JSON options ({@link InteractiveCharts}) with links to its PNG and SVG next to the page; the algorithm map
 * as a base64 PNG; tables of the key numbers (scrolling sideways inside their box on a narrow window); and what the
 * model leaves out. Stateless.
 */
public final class HtmlReport {

    private static final String CSS = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;"
            + "max-width:1400px;color:#222;padding:0 1em}h1{margin-bottom:.2em}h2{border-bottom:1px solid #ccc;"
            + "padding-bottom:.2em;margin-top:2em}table{border-collapse:collapse;margin:.8em 0;font-size:.85em;"
            + "display:block;max-width:100%;overflow-x:auto}th,td{border:1px solid #ddd;padding:.25em .5em;"
            + "text-align:right}td:not(.l){white-space:nowrap}td.w{max-width:28em;min-width:12em}div.chart{width:100%;height:520px}"
            + "th{background:#f3f3f3}td.l,th.l{text-align:left}img{max-width:100%;border:1px solid #eee}"
            + ".note{color:#555;font-style:italic;font-size:.9em}.meta{color:#666}figure{margin:1em 0}"
            + "figcaption{color:#444;font-size:.9em}.keep{font-weight:bold}pre{white-space:pre-wrap;"
            + "overflow-wrap:anywhere;max-width:100%}"
            + "@media(max-width:1000px){div.chart{height:460px}table{font-size:.75em}th,td{padding:.2em .3em}"
            + "td.w{min-width:9em}}";

    /**
     * A cell that reads as a number (optionally signed, with a unit or a range: {@code 372.2 GB/s}, {@code 77.5%},
     * {@code 0.0-1.1 %}, {@code 8..128K}, {@code -}); such cells are right-aligned, text is left-aligned.
     */
    private static final Pattern NUMERIC = Pattern.compile("-|[-+]?[0-9][0-9.,]*(\\.\\.[0-9][0-9.,]*|-[0-9.]+)?"
            + "\\s*[KMGT]?(B|%|ms|us|GB/s)?");

    /** The note under the variants table: what its calibration column means. */
    static final String CALIBRATION_LEGEND = "calibration: the performance parameters a variant is predicted with."
            + " \"-\": no calibration profile ships for the variant's cluster class (configs/calibration/auto), so the"
            + " bare model (PerformanceParameters.DEFAULTS) and its class's band are used; \"auto: KEY.yaml\": the"
            + " profile shipped for class KEY; \"none\": the bare model, asked for (--calibration none or the variant's"
            + " 'calibration: none'); a file name: the profile or parameters file the spec or --calibration names."
            + " \"band A\": the band of the choice, spelled once under the table (Bands: ...)."
            + " Band (shipped choices): 95 % of measured times fell within [predicted / factor, predicted x factor]"
            + " per size regime (configs/calibration/auto/INDEX.md); \"(wide)\": a factor above 2, where a measured"
            + " time inside the band says little of the prediction.";

    private HtmlReport() {
    }

    /**
     * @return each distinct band of the variants' calibrations, in row order, with its letter (A, B, ...): the
     *         variants table names a band by its letter and spells it once, under the table
     */
    static Map<String, String> bandLetters(List<ReportData.VariantRow> rows) {
        Map<String, String> letters = new LinkedHashMap<>();
        for (ReportData.VariantRow v : rows) {
            if (!v.calibrationBand().isEmpty() && !letters.containsKey(v.calibrationBand())) {
                int n = letters.size();
                letters.put(v.calibrationBand(), n < 26 ? String.valueOf((char) ('A' + n)) : Integer.toString(n + 1));
            }
        }
        return letters;
    }

    /** @return a row's calibration cell: its label, and the letter of its band ({@link #bandLetters}) */
    static String calibrationCell(ReportData.VariantRow v, Map<String, String> bands) {
        String band = v.calibrationBand();
        return v.calibrationLabel() + (band.isEmpty() ? "" : ", band " + bands.get(band));
    }

    /** @return the note under the variants table that spells each band once */
    static String bandsNote(Map<String, String> bands) {
        return "Bands: " + bands.entrySet().stream().map(e -> e.getValue() + ": " + e.getKey())
                .collect(Collectors.joining("; ")) + ".";
    }

    /** Writes the variants table, the legend of its calibration column and the note that spells its bands. */
    private static void variants(StringBuilder h, ReportData d) {
        h.append("<h2>Variants</h2>\n");
        String hostsWord = ReportData.VariantRow.hostsWord(d.variants());
        boolean mixed = hostsWord.contains("/");
        h.append("<table><tr><th class=l>variant</th><th class=l>cluster</th><th>").append(hostsWord)
                .append("</th><th>GPUs</th><th class=l>changes from the base</th><th class=l>NCCL settings</th><th class=l>calibration</th>"
                + "<th class=l>backend</th></tr>\n");
        Map<String, String> bands = bandLetters(d.variants());
        for (ReportData.VariantRow v : d.variants()) {
            h.append("<tr><td class=l>").append(esc(v.variant())).append("</td><td class=l>").append(esc(v.cluster()))
                    .append("</td><td>").append(v.hostsText(mixed)).append("</td><td>").append(v.gpus()).append("</td><td class=l>")
                    .append(esc(v.changes())).append("</td><td class=l>").append(esc(v.ncclEnv().isEmpty() ? "defaults"
                    : v.ncclEnv())).append("</td><td class=l>").append(esc(calibrationCell(v, bands)))
                    .append("</td><td class=l>").append(esc(v.backend())).append("</td></tr>\n");
        }
        h.append("</table>\n<p class=note>").append(esc(CALIBRATION_LEGEND)).append("</p>\n");
        if (!bands.isEmpty()) {
            h.append("<p class=note>").append(esc(bandsNote(bands))).append("</p>\n");
        }
    }

    /**
     * @param d       the numbers
     * @param charts  the charts, in order
     * @param pngs    PNG bytes per chart stem
     * @param files   relative paths of the data files written next to the page (CSV, JSON)
     * @param created creation time text
     * @return the HTML document
     */
    public static String render(ReportData d, List<ReportCharts.Named> charts, Map<String, byte[]> pngs,
            List<String> files, String created) {
        Map<String, ObjectNode> live = InteractiveCharts.build(d);
        StringBuilder h = new StringBuilder(64 * 1024);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(esc(d.title()))
                .append("</title><style>").append(CSS).append("</style></head><body>\n");
        h.append("<h1>").append(esc(d.title())).append("</h1>\n<p class=\"meta\">collsim what-if report from <code>")
                .append(esc(d.specFile())).append("</code>, ").append(esc(created)).append(". Predictions, not"
                + " measurements, unless a section says measured.</p>\n");
        h.append("<h2>Summary</h2>\n");
        table(h, ReportSummary.table(d));
        h.append("<p class=note>Model leaves out, in the busbw and algorithm columns: ")
                .append(esc(ReportRunner.SWEEP_LEAVES_OUT)).append(". In the step columns: ")
                .append(esc(ReportRunner.PLAN_LEAVES_OUT)).append(".</p>\n");
        variants(h, d);
        for (ReportData.VariantRow v : d.variants()) {
            if (!v.network().isEmpty()) {
                h.append("<p class=note>Network of ").append(esc(v.variant())).append(": ").append(esc(v.network()))
                        .append("</p>\n");
            }
        }
        if (!d.sweeps().isEmpty()) {
            h.append("<h2>Collectives</h2>\n");
            charts.stream().filter(c -> c.stem().startsWith("busbw-")).forEach(c -> {
                figure(h, c, pngs, live);
                String time = "time-" + c.stem().substring("busbw-".length());
                charts.stream().filter(t -> t.stem().equals(time)).forEach(t -> figure(h, t, pngs, live));
                sweepTable(h, d.sweeps().stream().filter(r -> InteractiveCharts.busBwStem(r).equals(c.stem()))
                        .toList());
            });
        }
        if (!d.measured().isEmpty()) {
            h.append("<h2>Predicted vs measured</h2>\n");
            charts.stream().filter(c -> c.stem().equals("predicted-vs-measured"))
                    .forEach(c -> figure(h, c, pngs, live));
            ErrorStats st = ErrorStats.of(d.measured().stream().map(m -> Math.abs(m.errorPct())).toList());
            h.append(String.format(Locale.ROOT, "<p>%d points; absolute error of time median %.1f%%, p90 %.1f%%,"
                    + " max %.1f%% (as <code>collsim compare</code> computes them).</p>%n", st.n(), st.median(),
                    st.p90(), st.max()));
        }
        if (!d.algorithmMap().isEmpty()) {
            h.append("<h2>Algorithm choice</h2>\n");
            charts.stream().filter(c -> c.stem().equals("algorithm-map")).forEach(c -> figure(h, c, pngs, live));
        }
        d.tuning().html(h);
        if (!d.plans().isEmpty()) {
            h.append("<h2>Training step plans</h2>\n");
            planSection(h, d, charts, pngs, live);
        }
        h.append("<h2>What the model leaves out</h2>\n<ul>");
        d.leavesOut().forEach(s -> h.append("<li>").append(esc(s)).append("</li>"));
        h.append("</ul>\n<h2>Files</h2>\n<p>Every number is in ");
        for (int i = 0; i < files.size(); i++) {
            h.append(i == 0 ? "" : ", ").append("<a href=\"").append(esc(files.get(i))).append("\">")
                    .append(esc(files.get(i))).append("</a>");
        }
        h.append("; each chart is also in <code>charts/</code> as PNG and SVG.</p>\n");
        if (!live.isEmpty()) {
            h.append("<script>").append(EchartsLibrary.script()).append("</script>\n<script>")
                    .append(EchartsLibrary.pageScript()).append("</script>\n");
        }
        h.append("</body></html>\n");
        return h.toString();
    }

    /**
     * The plan table's note on its headroom column (the column header's tooltip says the same): plan's "overlap
     * headroom" line ({@code StepCompute.headroomUs}) in the table's words.
     */
    static final String HEADROOM_NOTE = "Headroom: the overlappable communication (gradient reduction, parameter"
            + " gather) the compute windows could still take before the step grows; beyond it each ms adds a ms to"
            + " the step (0 at overlap 0: nothing hides).";

    private static void planSection(StringBuilder h, ReportData d, List<ReportCharts.Named> charts,
            Map<String, byte[]> pngs, Map<String, ObjectNode> live) {
        List<String> plans = d.plans().stream().map(ReportData.PlanRow::plan).distinct().toList();
        for (int i = 0; i < plans.size(); i++) {
            String plan = plans.get(i);
            List<ReportData.PlanRow> rows = d.plans().stream().filter(p -> p.plan().equals(plan)).toList();
            h.append("<h3>").append(esc(plan)).append("</h3>\n<p>").append(esc(rows.get(0).job())).append("</p>\n");
            h.append("<table><tr><th class=l>variant</th><th>compute ms</th><th>bubble ms</th><th>comm ms</th>"
                    + "<th>exposed ms</th><th title='overlappable communication the compute windows could still take"
                    + " before the step grows'>headroom ms</th><th>step ms</th><th>vs base</th><th>tokens/s</th>"
                    + "<th>efficiency</th><th>MFU</th><th class=l>memory per GPU</th></tr>\n");
            double baseStep = rows.get(0).stepMs();
            for (ReportData.PlanRow r : rows) {
                h.append("<tr><td class=l>").append(esc(r.variant() + ReportSummary.dpNote(d, r))).append("</td>");
                if (!r.fits()) {
                    boolean memory = !Double.isNaN(r.memoryGib());
                    h.append("<td class=l colspan=").append(memory ? 10 : 11).append(">").append(esc(r.notFitReason()))
                            .append("</td>").append(memory ? "<td class=l>" + esc(r.memoryText()) + "</td>" : "")
                            .append("</tr>\n");
                    continue;
                }
                String vs = r == rows.get(0) ? "base" : String.format(Locale.ROOT, "%+,.1f ms<br>(%+.2f %%)",
                        r.stepMs() - baseStep, (r.stepMs() - baseStep) / baseStep * 100);
                h.append(String.format(Locale.ROOT, "<td>%.1f</td><td>%.1f</td><td>%.1f</td><td>%.1f</td><td>%s</td>"
                        + "<td>%.1f</td><td>%s</td><td>%,.0f</td><td>%.1f%%</td><td>%s</td><td class=l>%s</td></tr>%n",
                        r.computeMs(), r.bubbleMs(), r.commMs(), r.exposedMs(), Double.isNaN(r.headroomMs()) ? "-"
                        : String.format(Locale.ROOT, "%.1f", r.headroomMs()), r.stepMs(), vs, r.tokensPerS(),
                        r.efficiency() * 100,
                        Double.isNaN(r.mfu()) ? "-" : String.format(Locale.ROOT, "%.3f", r.mfu()),
                        esc(r.memoryText())));
            }
            h.append("</table>\n<p class=note>Compute: ").append(esc(rows.stream().filter(ReportData.PlanRow::fits).findFirst()
                    .map(ReportData.PlanRow::computeSource).orElse("-")))
                    .append(". ").append(HEADROOM_NOTE).append(" Model leaves out: ")
                    .append(esc(ReportRunner.PLAN_LEAVES_OUT)).append(".</p>\n");
            rows.stream().filter(r -> !r.idleGpus().isEmpty()).forEach(r -> h.append("<p class=note>")
                    .append(esc(r.variant())).append(": ").append(esc(r.idleGpus())).append(".</p>\n"));
            String stem = "step-" + (i + 1);
            charts.stream().filter(c -> c.stem().equals(stem)).forEach(c -> figure(h, c, pngs, live));
            String base = rows.get(0).variant();
            // the group's host count in the base variant's words (trays of a rack-scale type, as plan prints it)
            boolean baseTrays = d.variants().stream().filter(v -> v.variant().equals(base))
                    .anyMatch(ReportData.VariantRow::trays);
            h.append("<p>Collectives of one step on <b>").append(esc(base)).append("</b> (under each kind, how its"
                    + " size and count are derived):</p>\n<table><tr><th class=l>kind</th><th>group</th><th>ranks</th>"
                    + "<th>" + (baseTrays ? "trays" : "hosts") + "</th><th>bytes/call</th><th>calls</th><th>us/call</th><th>ms/step</th>"
                    + "<th>exposed ms</th><th>busbw GB/s</th><th class=l>algorithm</th><th class=l>bottleneck</th>"
                    + "</tr>\n");
            d.planComms().stream().filter(c -> c.plan().equals(plan) && c.variant().equals(base)).forEach(c ->
                    h.append(String.format(Locale.ROOT, "<tr><td class=\"l w\">%s<br><span class=note>%s</span></td>"
                            + "<td>%s</td><td>%d</td><td>%d</td><td>%s</td><td>%,d</td><td>%,.1f</td><td>%,.2f</td>"
                            + "<td>%,.2f</td><td>%.1f</td><td class=l>%s</td><td class=\"l w\">%s</td></tr>%n",
                            esc(c.kind()), esc(c.formula()), c.group(), c.nRanks(), c.hosts(),
                            DataSize.formatRounded(c.sizeBytes()), c.calls(), c.perCallUs(), c.totalMs(), c.exposedMs(),
                            c.busBw(), esc(c.choice()), esc(c.bottleneck()))));
            h.append("</table>\n");
            String sstem = "scaling-" + (i + 1);
            charts.stream().filter(c -> c.stem().equals(sstem)).forEach(c -> figure(h, c, pngs, live));
            List<ReportData.TargetRow> targets = d.targets().stream().filter(t -> t.plan().equals(plan)).toList();
            if (!targets.isEmpty()) {
                h.append("<table><tr><th class=l>variant</th><th>target tokens/s</th><th>smallest GPU count</th>"
                        + "<th>tokens/s there</th><th class=l>note</th></tr>\n");
                for (ReportData.TargetRow t : targets) {
                    h.append(String.format(Locale.ROOT, "<tr><td class=l>%s</td><td>%,.0f</td><td>%s</td><td>%s</td>"
                            + "<td class=l>%s</td></tr>%n", esc(t.variant()), t.target(),
                            t.gpus() == null ? "-" : String.valueOf(t.gpus()),
                            t.tokensPerS() == null ? "-" : String.format(Locale.ROOT, "%,.0f",
                                    t.tokensPerS()), esc(t.note())));
                }
                h.append("</table>\n");
            }
        }
    }

    /**
     * One collective's rows at the sweep's smallest size times powers of 64 (8 B, 512 B, 32K, ... for {@code min: 8};
     * 1K, 64K, 4M, ... for {@code min: 1K}) and each variant's largest size; the note lists those sizes.
     */
    static void sweepTable(StringBuilder h, List<ReportData.SweepRow> rows) {
        if (rows.isEmpty()) {
            return;
        }
        TreeSet<Long> shown = new TreeSet<>();
        h.append("<table><tr><th class=l>variant</th><th>ranks</th><th>size</th><th>time us</th><th>busbw GB/s</th>"
                + "<th>bound GB/s</th><th class=l>algorithm</th><th>channels</th><th class=l>bottleneck</th>"
                + "<th class=l>backend</th></tr>\n");
        long smallest = rows.stream().mapToLong(ReportData.SweepRow::sizeBytes).filter(b -> b > 0).min().orElse(1);
        for (ReportData.SweepRow r : rows) {
            if (!smallestTimes64(r.sizeBytes(), smallest) && r.sizeBytes() != maxSize(rows, r)) {
                continue;
            }
            shown.add(r.sizeBytes());
            h.append(String.format(Locale.ROOT, "<tr><td class=l>%s</td><td>%d</td><td>%s</td><td>%,.1f</td>"
                    + "<td>%.1f</td><td>%.1f</td><td class=l>%s/%s</td><td>%d</td><td class=\"l w\">%s</td>"
                    + "<td class=l>%s</td></tr>%n", esc(r.variant()), r.nRanks(), DataSize.format(r.sizeBytes()),
                    r.timeUs(), r.busBw(), r.boundBusBw(), r.algorithm(), r.protocol(), r.nChannels(),
                    esc(r.bottleneck()), r.backend()));
        }
        h.append("</table>\n<p class=note>").append(esc(rows.get(0).collective() + " " + rows.get(0).dataType()))
                .append(", sizes shown: ").append(esc(String.join(", ", shown.stream().map(DataSize::format)
                .toList()))).append(" (").append(DataSize.format(smallest))
                .append(smallest % 1024 == 0 ? "" : " B").append(" times powers of 64, and each variant's largest); every size is in"
                + " data/sweeps.csv and in the chart's tooltips. Model leaves out: ")
                .append(esc(ReportRunner.SWEEP_LEAVES_OUT)).append(".</p>\n");
    }

    /** @return true when {@code size} is {@code smallest} x 64^k for some k >= 0 (both bytes, smallest > 0) */
    static boolean smallestTimes64(long size, long smallest) {
        if (size <= 0 || size % smallest != 0) {
            return false;
        }
        long ratio = size / smallest;
        return Long.bitCount(ratio) == 1 && Long.numberOfTrailingZeros(ratio) % 6 == 0;
    }

    private static long maxSize(List<ReportData.SweepRow> rows, ReportData.SweepRow r) {
        return rows.stream().filter(s -> s.variant().equals(r.variant())).mapToLong(ReportData.SweepRow::sizeBytes)
                .max().orElse(-1);
    }

    private static void figure(StringBuilder h, ReportCharts.Named c, Map<String, byte[]> pngs,
            Map<String, ObjectNode> live) {
        ObjectNode option = live.get(c.stem());
        if (option != null) {
            String id = "opt-" + c.stem();
            h.append("<figure><div class=chart id=\"chart-").append(c.stem()).append("\" data-option-id=\"")
                    .append(id).append("\" role=img aria-label=\"").append(esc(c.caption())).append("\"></div>")
                    .append("<script type=\"application/json\" id=\"").append(id).append("\">")
                    .append(json(option)).append("</script><figcaption>").append(esc(c.caption()));
            if (option.hasNonNull("notes") && !option.get("notes").asText().isEmpty()) {
                h.append(" Not drawn: ").append(esc(option.get("notes").asText())).append('.');
            }
            h.append(" Drag a box with the zoom tool or scroll to zoom; click a legend entry to hide a series. (<a"
                    + " href=\"charts/").append(c.stem()).append(".png\">PNG</a>, <a href=\"charts/").append(c.stem())
                    .append(".svg\">SVG</a>)</figcaption></figure>\n");
            return;
        }
        h.append("<figure><img alt=\"").append(esc(c.caption())).append("\" src=\"data:image/png;base64,")
                .append(Base64.getEncoder().encodeToString(pngs.get(c.stem()))).append("\"><figcaption>")
                .append(esc(c.caption())).append(" (<a href=\"charts/").append(c.stem()).append(".svg\">SVG</a>)")
                .append("</figcaption></figure>\n");
    }

    /** A table whose text cells are left-aligned and number cells right-aligned ({@link #align}). */
    private static void table(StringBuilder h, List<List<String>> rows) {
        h.append("<table>");
        for (int k = 0; k < rows.size(); k++) {
            h.append("<tr>");
            for (int i = 0; i < rows.get(k).size(); i++) {
                String tag = k == 0 ? "th" : "td";
                String cls = k == 0 ? headerAlign(rows, i) : align(rows.get(k).get(i));
                h.append('<').append(tag).append(cls).append('>').append(esc(rows.get(k).get(i))).append("</")
                        .append(tag).append('>');
            }
            h.append("</tr>\n");
        }
        h.append("</table>\n");
    }

    /** @return {@code ""} (right-aligned) for a cell that reads as a number, else {@code " class=l"} */
    static String align(String cell) {
        return NUMERIC.matcher(cell.trim()).matches() ? "" : " class=l";
    }

    /** @return the header's alignment: that of most of the column's body cells (numbers right, text left) */
    static String headerAlign(List<List<String>> rows, int col) {
        long text = rows.stream().skip(1).filter(r -> col < r.size() && !align(r.get(col)).isEmpty()).count();
        return text * 2 > rows.size() - 1 ? " class=l" : "";
    }

    /** @return the option as JSON safe inside a script element ({@code </} written as {@code <\/}) */
    private static String json(ObjectNode option) {
        try {
            return ChartJson.JSON.writeValueAsString(option).replace("</", "<\\/");
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the text with HTML's special characters escaped */
    static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("\"", "&quot;");
    }
}
