package dev.collsim.validation.compare;

import dev.collsim.validation.diagnose.Diagnoser;
import dev.collsim.validation.diagnose.Finding;
import dev.collsim.validation.ingest.Dataset;
import java.util.List;
import java.util.Locale;

/**
 * Renders comparisons as plain text tables. Per point: measured and predicted time (us), the signed error
 * {@code err % = (predicted - measured) / measured x 100} on time (+ = collsim predicts slower than measured, i.e.
 * pessimistic; - = faster, optimistic), and measured and predicted busbw in GB/s (nccl-tests' definition). The
 * statistics (median, p90, max) are of the absolute error. A point that diagnose calls a one-off hiccup
 * ({@link Diagnoser#hiccups}) is named under the dataset ({@code hiccup (diagnose, line N): ...}) and its row ends
 * with {@code hiccup}: its error is the run's, not the model's, so the statistics leave it out and say how many and
 * which they left out ({@code |error| of time (%), 1 hiccup left out (16384 B): ...}). The statistics are
 * {@link DatasetComparison}'s own ({@link Comparer#leftOut}), the ones {@code --max-median-error} and the accuracy
 * table count: with the default parameters its cells are the {@code at >= 1 MiB} and {@code below 1 MiB} medians.
 */
public final class ComparisonText {

    private ComparisonText() {
    }

    /**
     * @param comparisons the comparisons
     * @param withPoints  true to list every point
     * @return the text
     */
    public static String render(List<DatasetComparison> comparisons, boolean withPoints) {
        StringBuilder sb = new StringBuilder();
        for (DatasetComparison c : comparisons) {
            Dataset d = c.dataset();
            sb.append(d.id()).append('\n');
            sb.append(String.format(Locale.ROOT, "  %s, %d rank%s%s%n", d.collective().testName(), d.nRanks(),
                    d.nRanks() == 1 ? "" : "s",
                    c.cluster() == null ? "" : ", cluster " + c.cluster().source()));
            String net = logNetwork(d);
            if (!net.isEmpty()) {
                sb.append("  network from the INFO log: ").append(net).append('\n');
            }
            if (!c.compared()) {
                sb.append("  not compared: ").append(c.reason()).append("\n\n");
                continue;
            }
            for (String a : c.cluster().assumptions()) {
                sb.append("  assumed: ").append(a).append('\n');
            }
            Comparer.zeroRows(d).ifPresent(z -> sb.append("  left out: ").append(z).append('\n'));
            if (d.rounding().present()) {
                sb.append("  rounding: ").append(d.rounding().text()).append('\n');
            }
            for (Finding f : Diagnoser.hiccups(d)) {
                int line = f.evidence().get(0).line();
                sb.append("  hiccup (diagnose").append(line > 0 ? ", line " + line : "").append("): ")
                        .append(f.message()).append('\n');
            }
            if (withPoints) {
                points(sb, c);
            }
            String left = Comparer.leftOutText(c.leftOut().stream().map(PointComparison::sizeBytes).toList());
            sb.append("  |error| of time (%)").append(left.isEmpty() ? "" : ", " + left).append(": all ")
                    .append(stats(c.overall()));
            for (Regime r : Regime.values()) {
                sb.append(" | ").append(r.label()).append(": ").append(stats(c.byRegime().getOrDefault(r,
                        ErrorStats.NONE)));
            }
            sb.append("\n  at >= 1 MiB: ").append(stats(c.atLeast1MiB())).append(" | below 1 MiB: ")
                    .append(stats(c.below1MiB()));
            // a wide band (factor above 2) holds nearly any point: say so before the count reads like validation
            boolean wide = c.points().stream().anyMatch(p -> p.highUs() > p.predictedUs()
                    * (1 + PredictionBand.WIDE_PERCENT / 100) * (1 + 1e-9));
            sb.append(String.format(Locale.ROOT, "%n  inside the band: %d of %d points%s%s (%s)", c.insideBand(),
                    c.keptPoints(), c.leftOut().isEmpty() ? "" : " (hiccups left out, as above)", wide ? ", but the band is wide, so being inside says little of the prediction;"
                    + " the errors above do" : "", c.band()));
            sb.append(Double.isFinite(c.physicalBoundBusBw())
                    ? String.format(Locale.ROOT, "%n  physical busbw bound (the best busbw the links allow at their"
                    + " physical speeds): %.1f GB/s%s; algorithm check: ",
                    c.physicalBoundBusBw(), c.boundFor().isEmpty() ? "" : " " + c.boundFor())
                    : String.format(Locale.ROOT, "%n  physical busbw bound: N/A (one rank: no link is crossed); "
                    + "algorithm check: "));
            sb.append(c.algorithmChecked() == 0 ? "the log does not name NCCL's choices (NCCL_DEBUG_SUBSYS=TUNING)"
                    : c.algorithmMatched() + " of " + c.algorithmChecked()
                    + " points agree with the log's algorithm and protocol");
            sb.append("\n\n");
        }
        return sb.toString();
    }

    /** Appends the per-point table; a point the statistics leave out as a hiccup ends with "hiccup". */
    private static void points(StringBuilder sb, DatasetComparison c) {
        boolean band = c.points().stream().anyMatch(p -> p.highUs() > p.predictedUs());
        boolean calibrated = c.band().contains("95");
        sb.append(String.format(Locale.ROOT, "  %14s %13s %13s %8s %16s %16s  %-16s%s%n", "size (B)",
                "measured(us)", "predicted(us)", "err %", "meas busbw(GB/s)", "pred busbw(GB/s)", "algo/proto",
                !band ? "" : calibrated ? "  95% band (us)" : "  band (us)"));
        for (int i = 0; i < c.points().size(); i++) {
            PointComparison p = c.points().get(i);
            sb.append(String.format(Locale.ROOT, "  %14d %13.2f %13.2f %+8.1f %16.2f %16.2f  %-16s",
                    p.sizeBytes(), p.measuredUs(), p.predictedUs(), p.errorPercent(), p.measuredBusBw(),
                    p.predictedBusBw(), p.algorithm() + "/" + p.protocol()));
            if (band) {
                sb.append(String.format(Locale.ROOT, "  [%.2f, %.2f]", p.lowUs(), p.highUs()));
            }
            if (p.choiceMismatch()) {
                sb.append("  log says ").append(p.measuredAlgorithm()).append('/').append(p.measuredProtocol());
            }
            if (c.leftOutIndices().contains(i)) {
                sb.append("  hiccup");
            }
            sb.append('\n');
        }
    }

    /** @return what the run's NCCL INFO lines say about the network and channels, empty when nothing */
    static String logNetwork(Dataset d) {
        String net = d.log().net().describe();
        String ch = d.log().lastChannelCounts().map(c -> "channels " + c.coll() + " coll, "
                + (c.collnet() >= 0 ? c.collnet() + " collnet, " : "") + c.nvls() + " nvls, " + c.p2p() + " p2p (line "
                + c.line() + ")").orElse("");
        return net.isEmpty() ? ch : ch.isEmpty() ? net : net + "; " + ch;
    }

    private static String stats(ErrorStats s) {
        if (s.n() == 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "n=%d median %.1f p90 %.1f max %.1f", s.n(), s.median(), s.p90(), s.max());
    }
}
