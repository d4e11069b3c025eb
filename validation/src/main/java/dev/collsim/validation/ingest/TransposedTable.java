package dev.collsim.validation.ingest;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.nccl.Collective;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A reduced table turned on its side: collectives as rows, sizes as columns, e.g.
 * <pre>
 * | busbw (GB/s) | 1M   | 16M   | 256M  |
 * |--------------|------|-------|-------|
 * | all_reduce   | 40.1 | 150.2 | 180.0 |
 * | all_gather   | 35.0 | 140.9 | 170.3 |
 * </pre>
 * Each row is read as its own size-by-quantity table by {@link MarkdownTableReader} (one dataset per collective, the
 * row's label as its claim, every point on the row's line). What the values are comes from the first header cell
 * ({@code busbw}, {@code algbw}, {@code time}, {@code ms}) or, for a bare cell, from the file saying it holds bus
 * bandwidth. Stateless.
 */
final class TransposedTable {

    /**
     * Largest header size below which the numbers are not taken for sizes, bytes: a table of node or GPU counts
     * ({@code | AllReduce | 2 | 4 | 8 |}) never reaches 1 KiB, a size sweep does.
     */
    private static final long MIN_LARGEST = 1024;

    private TransposedTable() {
    }

    /**
     * @param head  the header cells
     * @param block the table's lines (header, separator, rows)
     * @return true when every header cell after the first is a size (at least two, the largest at least 1 KiB) and
     *         every row names one collective
     */
    static boolean looks(List<String> head, List<String> block) {
        if (head.size() < 3 || block.size() < 3) {
            return false;
        }
        long largest = 0;
        for (int c = 1; c < head.size(); c++) {
            if (!isSize(head.get(c))) {
                return false;
            }
            largest = Math.max(largest, SizeLabel.parse(head.get(c)));
        }
        if (largest < MIN_LARGEST) {
            return false;
        }
        for (int r = 2; r < block.size(); r++) {
            if (collective(MarkdownTableReader.cells(block.get(r)).get(0)).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private static boolean isSize(String cell) {
        try {
            SizeLabel.parse(cell);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static Optional<Collective> collective(String label) {
        return Claims.single(Claims.words(label)).or(() -> Claims.parse(label.strip()));
    }

    static List<Dataset> read(String file, FileHeader header, RunContext ctx, List<String> block, int firstLine,
            String after, boolean bareIsBusBw) throws InputException {
        List<String> head = MarkdownTableReader.cells(block.get(0));
        String quantity = quantity(head.get(0), bareIsBusBw);
        if (quantity.isEmpty()) {
            throw new InputException(new InputProblem(file, firstLine, 1, head.get(0), "a table with sizes as columns"
                    + " and collectives as rows must say what its values are; found '" + head.get(0) + "', expected "
                    + "a first header cell naming busbw, algbw, time (us) or time (ms), or a file saying it holds bus "
                    + "bandwidth"));
        }
        List<Dataset> out = new ArrayList<>();
        for (int r = 2; r < block.size(); r++) {
            int line = firstLine + r;
            List<String> cells = MarkdownTableReader.cells(block.get(r));
            Collective c = collective(cells.get(0)).orElseThrow();
            List<String> rows = new ArrayList<>(List.of("| size | " + quantity + " |", "|---|---|"));
            for (int k = 1; k < head.size() && k < cells.size(); k++) {
                rows.add("| " + head.get(k) + " | " + cells.get(k) + " |");
            }
            RunContext rc = ctx.continuation();
            rc.log = ctx.log;
            rc.notes.addAll(ctx.notes);
            rc.weak.clear();
            rc.strong = null;
            rc.weak.add(new RunContext.Claim(c, line, "row label"));
            rc.title = (ctx.title.isEmpty() ? "" : ctx.title + " / ") + cells.get(0);
            for (Dataset d : MarkdownTableReader.read(file, header, rc, rows, line - 2, after)) {
                out.add(onLine(d, line));
            }
        }
        return out;
    }

    private static String quantity(String first, boolean bareIsBusBw) {
        String h = first.toLowerCase(Locale.ROOT);
        if (h.contains("algbw")) {
            return "algbw";
        }
        if (h.contains("busbw") || h.contains("bus bw") || h.contains("bus bandwidth")) {
            return "busbw";
        }
        if (h.contains("(ms)") || h.matches(".*\\bms\\b.*")) {
            return "time (ms)";
        }
        if (h.contains("time") || h.matches(".*\\b(us|µs)\\b.*")) {
            return "time (us)";
        }
        return bareIsBusBw ? "busbw" : "";
    }

    /** The row's points all sit on its one line. */
    private static Dataset onLine(Dataset d, int line) {
        List<PerfPoint> pts = d.points().stream().map(p -> new PerfPoint(p.row(), line)).toList();
        List<Note> notes = new ArrayList<>(d.notes());
        notes.add(new Note(line, "table with sizes as columns: this row (" + d.collective().testName()
                + ") read as its own table"));
        return new Dataset(d.file(), d.label(), line, d.kind(), d.collective(), d.dataType(), d.nRanks(), d.nHosts(),
                d.gpuModel(), d.ncclRelease(), d.env(), d.header(), d.ranks(), pts, d.avgBusBw(), d.summaryMaxBusBw(),
                d.log(), notes, d.launch(), d.rounding());
    }
}
