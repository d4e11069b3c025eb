package dev.collsim.validation.tune;

import dev.collsim.units.DataSize;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The table for people, one row per line of the tuner plugin's file ({@link TuneResult#lines()}, {@link LineCover}),
 * so the table and the file cannot disagree: the line's selection bytes (as the file's {@code min_bytes..max_bytes}),
 * the swept nccl-tests sizes inside it as nccl-tests prints them in its size column (max of send and receive bytes:
 * AllGather and ReduceScatter round each rank's count down to 16 bytes, nccl-tests 2.19.6 {@code
 * AllGatherGetCollByteCount}; a line between two swept sizes shows the size it was read at, explained in {@link #notes}), NCCL's choice,
 * collsim's choice (with {@code on k ch} where a channel count is forced through the tuner plugin), predicted gain
 * (smallest..largest over the line's points, percent of NCCL's choice's predicted time; an advised line's points all
 * change NCCL's choice to its target, {@link LineCover}) against the band of the same points, the advice
 * (what the file's line sets), and measured evidence where some exists. Both the command and the report print it.
 */
public final class TuneTable {

    /** Column names, in order. */
    public static final List<String> COLUMNS = List.of("collective", "bytes", "sizes", "NCCL's choice",
            "collsim's choice", "predicted gain", "band", "advice", "measured");

    /** The advice cell of a line that restates NCCL's own choice. */
    public static final String KEEP = "keep NCCL's choice";

    private TuneTable() {
    }

    /**
     * @param r the tuning result
     * @return one row per line of the tuner plugin's file, in its order, cells in {@link #COLUMNS} order
     */
    public static List<List<String>> rows(TuneResult r) {
        List<List<String>> out = new ArrayList<>();
        for (ConfigLine line : r.lines()) {
            List<TunePoint> swept = swept(r, line);
            // a line no swept size falls in: its gain over every size read in it, which shows how far it passes the band
            TuneRange g = new TuneRange(line.collective(), swept.isEmpty() ? line.read() : swept);
            TunePoint first = g.points().get(0);
            TunePoint last = g.points().get(g.points().size() - 1);
            String sizes = swept.isEmpty() ? DataSize.format(line.at().bytes())
                    : DataSize.format(first.bytes()) + ".." + DataSize.format(last.bytes());
            String best = g.points().stream().map(p -> p.bestAlgorithm().ncclName() + "/" + p.bestProtocol().ncclName()
                    + (p.forcedChannels() > 0 ? " on " + p.forcedChannels() + " ch" : "")).distinct()
                    .collect(Collectors.joining(", "));
            String nccl = g.points().stream().map(p -> p.ncclAlgorithm().ncclName() + "/" + p.ncclProtocol().ncclName())
                    .distinct().collect(Collectors.joining(", "));
            String gain = Math.abs(g.maxGainPercent() - g.minGainPercent()) < 0.05
                    ? String.format(Locale.ROOT, "%.1f %%", g.maxGainPercent())
                    : String.format(Locale.ROOT, "%.1f-%.1f %%", g.minGainPercent(), g.maxGainPercent());
            TunePoint.Target t = line.target();
            out.add(List.of(line.collective().ncclName(), line.minBytes() + ".." + line.maxBytes(), sizes, nccl, best,
                    gain, g.points().stream().map(p -> String.format(Locale.ROOT, "%.1f %%",
                            r.band().percentAt(p.sizeBytes()))).distinct().collect(Collectors.joining(", ")),
                    line.advised() ? "use " + t.algorithm().ncclName() + "/" + t.protocol().ncclName()
                            + (t.channels() > 0 ? " on " + t.channels() + " channels" : "") : KEEP, evidence(g)));
        }
        return out;
    }

    /** @return the swept points of the line's collective inside its selection bytes */
    private static List<TunePoint> swept(TuneResult r, ConfigLine line) {
        return r.points().stream().filter(p -> p.collective() == line.collective()
                && p.bytes() >= line.minBytes() && p.bytes() <= line.maxBytes()).toList();
    }

    /**
     * @param r the tuning result
     * @return one note per line of the file that no swept size falls in, naming the line and the size its sizes cell
     *         shows (the size it was read at, between two swept sizes); printed after the table, not in a cell
     */
    public static List<String> notes(TuneResult r) {
        List<String> out = new ArrayList<>();
        for (ConfigLine line : r.lines()) {
            if (swept(r, line).isEmpty()) {
                out.add(line.collective().ncclName() + " bytes " + line.minBytes() + ".." + line.maxBytes()
                        + ": no swept size falls in this line; its sizes cell is the size it was read at, "
                        + DataSize.format(line.at().bytes()) + ", between two swept sizes");
            }
        }
        return out;
    }

    /**
     * @param g a range
     * @return {@code measured gain a..b % at k of n sizes} where both NCCL's choice and collsim's best were measured,
     *         else {@code NCCL's choice measured at k of n sizes}, else {@code -}
     */
    static String evidence(TuneRange g) {
        int n = g.points().size();
        double[] gains = g.points().stream().mapToDouble(TunePoint::measuredGainPercent).filter(v -> !Double.isNaN(v))
                .toArray();
        if (gains.length > 0) {
            double lo = Arrays.stream(gains).min().orElse(0);
            double hi = Arrays.stream(gains).max().orElse(0);
            return (Math.abs(hi - lo) < 0.05 ? String.format(Locale.ROOT, "measured gain %.1f %%", hi)
                    : String.format(Locale.ROOT, "measured gain %.1f..%.1f %%", lo, hi))
                    + " at " + gains.length + " of " + n + " sizes";
        }
        long k = g.points().stream().filter(p -> p.measuredNcclUs() > 0).count();
        return k > 0 ? "NCCL's choice measured at " + k + " of " + n + " sizes" : "-";
    }

    /**
     * @param r the tuning result
     * @return the table as fixed-width text lines, header first
     */
    public static List<String> text(TuneResult r) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(COLUMNS);
        rows.addAll(rows(r));
        int[] w = new int[COLUMNS.size()];
        for (List<String> row : rows) {
            for (int i = 0; i < w.length - 1; i++) {
                w[i] = Math.max(w[i], row.get(i).length());
            }
        }
        List<String> out = new ArrayList<>();
        for (List<String> row : rows) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < w.length; i++) {
                b.append(i == w.length - 1 ? row.get(i) : String.format(Locale.ROOT, "%-" + w[i] + "s  ", row.get(i)));
            }
            out.add(b.toString().stripTrailing());
        }
        notes(r).forEach(n -> out.add("# " + n));
        return out;
    }
}
