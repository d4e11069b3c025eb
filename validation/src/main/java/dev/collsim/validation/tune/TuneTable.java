package dev.collsim.validation.tune;

import dev.collsim.units.DataSize;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The table for people, one row per {@link TuneRange}: nccl-tests size range, NCCL's choice, collsim's choice
 * (with {@code on k ch} where a channel count is forced through the tuner plugin),
 * predicted gain (smallest..largest over the range, percent of NCCL's choice's predicted time) against the band,
 * the advice, and measured evidence where some exists. Both the command and the report print it.
 */
public final class TuneTable {

    /** Column names, in order. */
    public static final List<String> COLUMNS = List.of("collective", "sizes", "NCCL's choice", "collsim's choice",
            "predicted gain", "band", "advice", "measured");

    private TuneTable() {
    }

    /**
     * @param r the tuning result
     * @return one row per range, cells in {@link #COLUMNS} order
     */
    public static List<List<String>> rows(TuneResult r) {
        List<List<String>> out = new ArrayList<>();
        for (TuneRange g : r.ranges()) {
            TunePoint first = g.points().get(0);
            TunePoint last = g.points().get(g.points().size() - 1);
            String best = g.points().stream().map(p -> p.bestAlgorithm().ncclName() + "/" + p.bestProtocol().ncclName()
                    + (p.forcedChannels() > 0 ? " on " + p.forcedChannels() + " ch" : "")).distinct()
                    .collect(Collectors.joining(", "));
            String gain = Math.abs(g.maxGainPercent() - g.minGainPercent()) < 0.05
                    ? String.format(Locale.ROOT, "%.1f %%", g.maxGainPercent())
                    : String.format(Locale.ROOT, "%.1f-%.1f %%", g.minGainPercent(), g.maxGainPercent());
            out.add(List.of(g.collective().ncclName(),
                    DataSize.format(first.sizeBytes()) + ".." + DataSize.format(last.sizeBytes()),
                    g.ncclAlgorithm().ncclName() + "/" + g.ncclProtocol().ncclName(), best, gain,
                    String.format(Locale.ROOT, "%.1f %%", r.band().percent()),
                    g.recommended() ? "use " + g.algorithm().ncclName() + "/" + g.protocol().ncclName()
                            + (g.channels() > 0 ? " on " + g.channels() + " channels" : "")
                            : "keep NCCL's choice", evidence(g)));
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
        return out;
    }
}
