package dev.collsim.validation.ingest;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.io.NumberField;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.perf.PerfResult;
import dev.collsim.perf.PerfRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads tables that authors reduced from nccl-tests output and published as markdown: size with busbw only
 * (vendor benchmark pages), size with time/algbw/busbw, several series side by side ("Stock (SHM)" versus
 * "Patched (P2P)", "Group A" versus "Group B"), and per-collective summaries (max/avg busbw). Each series becomes a
 * {@link Dataset} of kind {@link DatasetKind#REDUCED_TABLE} (or {@link DatasetKind#SUMMARY}).
 *
 * <p>Missing quantities are derived with nccl-tests' definitions (2.19.6 {@code doc/PERFORMANCE.md}):
 * algbw = busbw / factor(n), time = size / algbw. A column's meaning comes from its header ({@code algbw},
 * {@code busbw}, {@code time}, {@code ms}); a bare GB/s column is read as busbw only when the file's header or the
 * line after the table says the table holds bus bandwidth. Tables without a size or collective column (system
 * specification tables) are skipped. A table with sizes as columns and collectives as rows is read row by row
 * ({@link TransposedTable}).
 */
final class MarkdownTableReader {

    private enum Kind { SIZE, ALGBW, BUSBW, TIME_US, TIME_MS, IGNORE, COLLECTIVE, NODES, MAX_BUSBW, AVG_BUSBW }

    private record Column(Kind kind, String series) {
    }

    private MarkdownTableReader() {
    }

    static List<Dataset> read(String file, FileHeader header, RunContext ctx, List<String> block, int firstLine,
            String after) throws InputException {
        List<String> head = cells(block.get(0));
        String context = (header.text("format") + " " + header.text("health") + " " + header.text("command") + " "
                + after).toLowerCase(Locale.ROOT);
        boolean bareIsBusBw = context.contains("busbw") || context.contains("bus bandwidth");
        if (TransposedTable.looks(head, block)) {
            return TransposedTable.read(file, header, ctx, block, firstLine, after, bareIsBusBw);
        }
        List<Column> cols = new ArrayList<>();
        for (String h : head) {
            cols.add(classify(h, bareIsBusBw));
        }
        if (cols.stream().anyMatch(c -> c != null && c.kind() == Kind.COLLECTIVE) && cols.stream().anyMatch(c -> c != null && c.kind() == Kind.MAX_BUSBW)) {
            return SummaryTable.read(file, header, ctx, block, firstLine, cols.stream()
                    .map(c -> c == null ? "UNRECOGNISED" : c.kind().name()).toList());
        }
        if (cols.isEmpty() || cols.get(0) == null || cols.get(0).kind() != Kind.SIZE) {
            ctx.notes.add(new Note(firstLine, "table without a size column skipped: | " + String.join(" | ", head) + " |"));
            return List.of();
        }
        for (int c = 1; c < cols.size(); c++) {
            if (cols.get(c) == null) {
                throw new InputException(new InputProblem(file, firstLine, 0, "column " + (c + 1),
                        "'" + head.get(c) + "' has no recognisable quantity; expected a header naming algbw, busbw, "
                                + "time (us/ms), or a GB/s column in a table the file says holds bus bandwidth"));
            }
        }
        Collective collective = collective(file, header, ctx, firstLine);
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        Map<String, List<Integer>> seriesLines = new LinkedHashMap<>();
        List<InputProblem> problems = new ArrayList<>();
        for (int r = 2; r < block.size(); r++) {
            int line = firstLine + r;
            List<String> cells = cells(block.get(r));
            long size;
            try {
                size = SizeLabel.parse(cells.get(0));
            } catch (IllegalArgumentException e) {
                problems.add(new InputProblem(file, line, 0, head.get(0), e.getMessage()));
                continue;
            }
            Map<String, double[]> perSeries = new LinkedHashMap<>();
            for (int c = 1; c < cols.size() && c < cells.size(); c++) {
                Column col = cols.get(c);
                if (col.kind() == Kind.IGNORE || cells.get(c).isBlank()) {
                    continue;
                }
                double v;
                try {
                    v = number(cells.get(c), head.get(c), block.get(r).indexOf(cells.get(c)) + 1);
                } catch (NumberField.Refused e) {
                    problems.add(e.at(file, line));
                    continue;
                }
                double[] vals = perSeries.computeIfAbsent(col.series(), k -> row(size));
                switch (col.kind()) {
                    case ALGBW -> bandwidth(vals, 1, v, cells.get(c));
                    case BUSBW -> bandwidth(vals, 2, v, cells.get(c));
                    case TIME_US -> vals[3] = unitTime(cells.get(c), v, false);
                    case TIME_MS -> vals[3] = unitTime(cells.get(c), v, true);
                    default -> { }
                }
            }
            perSeries.forEach((k, v) -> {
                series.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
                seriesLines.computeIfAbsent(k, x -> new ArrayList<>()).add(line);
            });
        }
        if (!problems.isEmpty()) {
            throw new InputException(problems);
        }
        List<Dataset> out = new ArrayList<>();
        for (var e : series.entrySet()) {
            out.add(build(file, header, ctx, firstLine, collective, e.getKey(), e.getValue(),
                    seriesLines.get(e.getKey())));
        }
        return out;
    }

    /** @return a row's values: size, algbw, busbw, time, then half a printed unit of algbw and of busbw */
    private static double[] row(long size) {
        return new double[] {size, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN};
    }

    /** Sets algbw (at 1) or busbw (at 2) and, three places on, half a unit of its last printed decimal. */
    private static void bandwidth(double[] row, int at, double v, String cell) {
        row[at] = v;
        row[at + 3] = PrintedRounding.halfUnit(cell);
    }

    private static Dataset build(String file, FileHeader header, RunContext ctx, int firstLine, Collective c,
            String seriesName, List<double[]> vals, List<Integer> lines) throws InputException {
        int n = RunRanks.knownRanks(ctx, ctx.log.build(), header);
        if (n < 1) {
            for (double[] v : vals) {
                if (v[1] > 1 && v[2] > 1) {
                    n = BusBandwidth.ranksForFactor(c, v[2] / v[1]);
                }
            }
        }
        if (n < 1) {
            throw new InputException(new InputProblem(file, firstLine, 0, "nRanks", "cannot tell how many ranks "
                    + "this table measured: give '(N GPUs)' in its title or a single NxM in #@ nodes_x_gpus"));
        }
        double factor = BusBandwidth.factor(c, n);
        List<PerfPoint> points = new ArrayList<>();
        double[] bounds = new double[vals.size()];
        long[] sizes = new long[vals.size()];
        for (int i = 0; i < vals.size(); i++) {
            double[] v = vals.get(i);
            long size = (long) v[0];
            double alg = v[1];
            double bus = v[2];
            double time = v[3];
            sizes[i] = size;
            bounds[i] = !Double.isNaN(time) ? Double.NaN : !Double.isNaN(alg) ? PrintedRounding.timeBound(alg, v[4])
                    : PrintedRounding.timeBound(bus, v[5]);
            if (Double.isNaN(alg) && !Double.isNaN(bus) && factor > 0) {
                alg = BusBandwidth.algBwFromBusBw(c, n, bus);
            }
            if (Double.isNaN(alg) && !Double.isNaN(time) && time > 0) {
                alg = BusBandwidth.algBw(size, time);
            }
            if (Double.isNaN(bus) && !Double.isNaN(alg)) {
                bus = BusBandwidth.busBw(c, n, alg);
            }
            if (alg > 0) {
                time = BusBandwidth.timeUs(size, alg);
            }
            if (Double.isNaN(alg) || Double.isNaN(bus)) {
                continue;
            }
            points.add(new PerfPoint(new PerfRow(c.testName(), "", null, Integer.MIN_VALUE, n, size, -1, null,
                    new PerfResult(time, alg, bus, null), null), lines.get(i)));
        }
        String label = ctx.title.isEmpty() ? seriesName : ctx.title + (seriesName.isEmpty() ? "" : " / " + seriesName);
        List<Note> notes = new ArrayList<>(ctx.notes);
        PrintedRounding rounding = PrintedRounding.of(bounds, sizes, lines.stream().mapToInt(Integer::intValue)
                .toArray());
        notes.add(new Note(firstLine, "reduced table: times derived from algbw (or busbw) with nccl-tests' definitions"
                + (rounding.present() ? "; " + rounding.text() : "")));
        NcclLog log = ctx.log.build();
        int hosts = header.nodesXGpus().isPresent() && !header.hasSeveralShapes() ? header.nodesXGpus().get()[0] : 0;
        Map<String, String> env = DatasetAssembler.env(header, ctx, log);
        RunEnv.collect(seriesName, env);
        return new Dataset(file, label.isEmpty() ? "table at line " + firstLine : label, firstLine,
                DatasetKind.REDUCED_TABLE, c, null, n, hosts, header.text("hardware"),
                DatasetAssembler.release(ctx, log, header), env, header, List.of(), points, Double.NaN, Double.NaN,
                log, notes, ctx.launch(header), rounding);
    }

    static Collective collective(String file, FileHeader header, RunContext ctx, int line) throws InputException {
        Optional<Collective> c = Claims.single(ctx.weakSet());
        if (c.isEmpty() && ctx.strong != null) {
            c = Optional.of(ctx.strong.collective());
        }
        if (c.isEmpty()) {
            c = Claims.single(Claims.perfBinaries(header.text("command")));
        }
        if (c.isEmpty()) {
            c = Claims.single(Claims.words(file.replaceAll(".*/", "").split("-(?=\\d)")[0]));
        }
        if (c.isEmpty()) {
            throw new InputException(new InputProblem(file, line, 0, "collective", "cannot tell which collective "
                    + "this table measured; name it in the section title or the #@ command header"));
        }
        return c.get();
    }

    private static Column classify(String header, boolean bareIsBusBw) {
        String h = header.toLowerCase(Locale.ROOT).replace("**", "").strip();
        String series = header.replaceAll("(?i)\\b(algbw|busbw|bus ?bw|time|avg|ms|us|µs)\\b", "")
                .replaceAll("(?i)\\(?gb/s\\)?", "").replaceAll("(?i)\\(bytes\\)", "").strip();
        if (h.contains("improvement") || h.contains("δ") || h.contains("Δ") || h.contains("delta") || h.equals("%")) {
            return new Column(Kind.IGNORE, "");
        }
        if (h.startsWith("size") || h.startsWith("message")) {
            return new Column(Kind.SIZE, "");
        }
        if (h.equals("collective")) {
            return new Column(Kind.COLLECTIVE, "");
        }
        if (h.equals("nodes") || h.equals("hosts")) {
            return new Column(Kind.NODES, "");
        }
        if (h.startsWith("max busbw")) {
            return new Column(Kind.MAX_BUSBW, "");
        }
        if (h.startsWith("avg busbw")) {
            return new Column(Kind.AVG_BUSBW, "");
        }
        if (h.contains("algbw")) {
            return new Column(Kind.ALGBW, series);
        }
        if (h.contains("busbw") || h.contains("bus bw")) {
            return new Column(Kind.BUSBW, series);
        }
        if (h.contains(" ms") || h.startsWith("ms") || h.contains("(ms)")) {
            return new Column(Kind.TIME_MS, series);
        }
        if (h.contains("time")) {
            return new Column(Kind.TIME_US, series);
        }
        if (bareIsBusBw) {
            return new Column(Kind.BUSBW, series);
        }
        return null;
    }

    private static double unitTime(String cell, double v, boolean headerSaysMs) {
        String c = cell.toLowerCase(Locale.ROOT);
        if (c.contains("ms")) {
            return v * 1e3;
        }
        if (c.contains("µs") || c.contains("us")) {
            return v;
        }
        return headerSaysMs ? v * 1e3 : v;
    }

    /**
     * @param cell   a table cell, bold marks and units ({@code GB/s}, {@code us}, {@code ms}, {@code %}) allowed
     * @param field  the column's header, for the message
     * @param column 1-based column of the cell in its line, 0 when unknown
     * @return the number, finite ({@code NaN}, {@code nan}, {@code Infinity} and {@code inf} are refused alike)
     * @throws NumberField.Refused when the cell is not one finite number
     */
    static double number(String cell, String field, int column) {
        String t = cell.replace("**", "").replaceAll("(?i)(gb/s|µs|us|ms|%)", "").replace("−", "-").strip();
        return NumberField.finite(t, field, column);
    }

    static List<String> cells(String line) {
        String t = line.strip();
        if (t.startsWith("|")) {
            t = t.substring(1);
        }
        if (t.endsWith("|")) {
            t = t.substring(0, t.length() - 1);
        }
        List<String> out = new ArrayList<>();
        for (String c : t.split("\\|", -1)) {
            out.add(c.strip());
        }
        return out;
    }
}
