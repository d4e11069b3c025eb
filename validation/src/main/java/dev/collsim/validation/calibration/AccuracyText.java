package dev.collsim.validation.calibration;

import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.compare.PredictionBand;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Renders the accuracy table (markdown, so it can go into a README as is). Columns "fitted" and "refused fits"
 * show the {@link FitLadder} attempts of the leave-one-out calibration: the accepted set with its values, and each
 * refused set with its short reasons ({@link FitAcceptance.Refusal#reason()}, {@link CalibrationException#reason()}).
 */
public final class AccuracyText {

    /** Marks a calibrated value that is the uncalibrated one because every fit was refused. */
    public static final String REFUSED_MARK = "\u2020";

    private AccuracyText() {
    }

    /**
     * @param rows the rows
     * @return a markdown table, a legend of its marks and labels, a summary of the single-host NVLink target set and
     *         the {@link AccuracySummary} of the healthy datasets
     */
    public static String render(List<AccuracyRow> rows) {
        return render(rows, List.of());
    }

    /**
     * @param rows       the rows
     * @param withoutRow the datasets without a row and why ({@link AccuracyRunner#withoutRows}), listed under the
     *                   table
     * @return as {@link #render(List)}, with a line naming the datasets without a row when there are any
     */
    public static String render(List<AccuracyRow> rows, List<String> withoutRow) {
        return render(rows, withoutRow, "");
    }

    /**
     * @param rows       the rows
     * @param withoutRow as {@link #render(List, List)}
     * @param folder     the folder (or folders, comma-separated) the datasets' {@code FILE:LINE} names are in, as
     *                   the user gave it; empty to name none
     * @return as {@link #render(List, List)}; with a folder, a heading line naming it (and how {@code compare -m}
     *         takes a row's dataset) before the table, and the folder in the dataset column's header
     */
    public static String render(List<AccuracyRow> rows, List<String> withoutRow, String folder) {
        StringBuilder sb = new StringBuilder();
        if (!folder.isEmpty()) {
            sb.append("Datasets are FILE:LINE in ").append(folder).append(" (compare one with: collsim compare -m ")
                    .append(folder.contains(", ") ? "FOLDER" : folder).append("/FILE:LINE)\n\n");
        }
        sb.append("| dataset" + (folder.isEmpty() ? "" : " (in " + folder.replace("|", "/") + ")")
                + " | collective / GPU / hosts | pts >= 1 MiB | uncalibrated median % | calibrated (LOO) median % "
                + "| fitted (LOO) | refused fits | note | pts < 1 MiB | uncalibrated < 1 MiB median % (signed) |\n");
        sb.append("|---|---|---:|---:|---:|---|---|---|---:|---:|\n");
        int target = 0;
        int unc10 = 0;
        int cal5 = 0;
        int calN = 0;
        int refused = 0;
        int none = 0;
        int bare = 0;
        for (AccuracyRow r : rows) {
            sb.append(String.format(Locale.ROOT, "| %s:%d %s | %s | %d | %s | %s | %s | %s | %s | %d | %s |%n",
                    r.dataset().file(), r.dataset().line(), shorten(r.dataset().label()), r.hardwareClass(),
                    r.points1MiB(), num(r.uncalibrated()), num(r.calibrated()) + (r.refused() ? " " + REFUSED_MARK
                    : ""), fitted(r), refusedFits(r), r.note().replace("|", "/"), r.pointsSmall(), small(r)));
            if (r.targetSet() && !Double.isNaN(r.uncalibrated()) && r.points1MiB() > 0) {
                target++;
                unc10 += r.uncalibrated() <= 10 ? 1 : 0;
                if (r.refused()) {
                    refused++;
                } else if (r.note().equals(AccuracyRunner.NOT_CALIBRATED)) {
                    bare++;
                } else if (Double.isNaN(r.calibrated())) {
                    none++;
                } else {
                    calN++;
                    cal5 += r.calibrated() <= 5 ? 1 : 0;
                }
            }
        }
        List<String> left = rows.stream().filter(r -> !r.leftOutSizes().isEmpty()).map(r -> r.dataset().file() + ":"
                + r.dataset().line() + " " + shorten(r.dataset().label()) + ": " + Comparer.leftOutText(
                r.leftOutSizes())).toList();
        if (!left.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "%nLeft out of every median (one-off hiccups diagnose finds from the "
                    + "measured times alone; compare leaves out the same), %d dataset(s): %s.%n", left.size(),
                    String.join("; ", left).replace("|", "/")));
        }
        if (!withoutRow.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "%nNot in the table (nothing per size to compare), %d dataset(s): %s.%n",
                    withoutRow.size(), String.join("; ", withoutRow).replace("|", "/")));
        }
        // the legend of the calibrated columns, which --calibration none leaves empty on every row
        boolean fitted = rows.stream().anyMatch(r -> !r.note().equals(AccuracyRunner.NOT_CALIBRATED));
        sb.append(!fitted ? "" : String.format(Locale.ROOT, "%n%s calibrated value is the uncalibrated one: every fit on the other "
                + "datasets was refused. Fitted: launch = launchOverheadUs (us), latScale = latencyScale, effSimple/"
                + "effLL128/effLL = bwEfficiency*, capSimple = perChannelCapSimple (GB/s), netStep = netStepUs "
                + "(us), effNet = bwEfficiencyNet, stream = the socket class's streamGBps (GB/s); all = every "
                + "parameter but nvlsBwScale, bwEfficiencyNet and stream (fitted only when named); all-net = all with effNet for effSimple (the profiles of network classes).%n",
                REFUSED_MARK));
        sb.append(String.format(Locale.ROOT, "%nSingle-host NVLink datasets: %d; uncalibrated median <= 10%%: %d of %d; "
                + "calibrated median <= 5%%: %d of %d with an accepted fit (%d with every fit refused, %d with no "
                + "other dataset to fit on%s).%n", target, unc10, target, cal5, calN, refused, none,
                bare == 0 ? "" : ", " + bare + " " + AccuracyRunner.NOT_CALIBRATED));
        sb.append(System.lineSeparator()).append(AccuracySummary.of(rows).render());
        PredictionBand band = AccuracySummary.band(rows);
        sb.append(String.format(Locale.ROOT, "Uncalibrated band (median over the healthy datasets of their median error;"
                + " the typical error collsim quotes where no calibration applies): below 1 MiB %.1f %%, at >= 1 MiB %.1f %%.%n", PredictionBand.stored(band.belowMiBPercent()),
                PredictionBand.stored(band.atLeastMiBPercent())));
        return sb.toString();
    }

    /** @return the accepted set's values, "refused", or "-" when nothing was fitted */
    private static String fitted(AccuracyRow r) {
        if (r.fit().isEmpty()) {
            return "-";
        }
        return r.fit().get().accepted().map(c -> c.fitted().stream()
                .map(v -> String.format(Locale.ROOT, "%s %.3g", FitParameter.ofField(v.name()).label(), v.value()))
                .collect(Collectors.joining(", "))).orElse("refused");
    }

    /** @return the refused attempts with their short reasons, or "-" */
    private static String refusedFits(AccuracyRow r) {
        List<FitLadder.Attempt> refused = r.fit().map(FitLadder.Outcome::refused).orElse(List.of());
        return refused.isEmpty() ? "-" : refused.stream().map(FitLadder.Attempt::reasons)
                .collect(Collectors.joining("; ")).replace("|", "/");
    }

    /**
     * @return the dataset's label in brackets, cut to 40 characters; a label that ends in a series name (a table of
     *         several series, {@code TITLE / SERIES} as the markdown reader names them) keeps the series whole (up to
     *         40 characters), so the rows of one table's series differ
     */
    static String shorten(String s) {
        String t = s.replace("|", "/");
        if (t.length() <= 40) {
            return "(" + t + ")";
        }
        int cut = t.lastIndexOf(" / ");
        String series = cut < 0 ? "" : t.substring(cut + 3);
        if (series.isEmpty() || series.length() > 40) {
            return "(" + t.substring(0, 40) + "...)";
        }
        String head = t.substring(0, cut);
        return "(" + (head.length() > 40 ? head.substring(0, 40) + "..." : head) + " / " + series + ")";
    }

    /**
     * @return the median error below 1 MiB with its signed median in brackets ({@code 27.2 (-27.2)}: the model is
     *         fast there), or "-" without such points
     */
    static String small(AccuracyRow r) {
        return Double.isNaN(r.uncalibratedSmall()) ? "-" : num(r.uncalibratedSmall()) + " ("
                + String.format(Locale.ROOT, "%+.1f", r.signedSmall()) + ")";
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }
}
