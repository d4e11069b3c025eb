package dev.collsim.validation.calibration;

import java.util.List;
import java.util.Locale;

/** Renders the accuracy table (markdown, so it can go into a README as is). */
public final class AccuracyText {

    private AccuracyText() {
    }

    /**
     * @param rows the rows
     * @return a markdown table plus a summary of the single-host NVLink target set
     */
    public static String render(List<AccuracyRow> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append("| dataset | hardware class | pts >= 1 MiB | uncalibrated median % | calibrated (LOO) median % | note |\n");
        sb.append("|---|---|---:|---:|---:|---|\n");
        int target = 0;
        int unc10 = 0;
        int cal5 = 0;
        int calN = 0;
        for (AccuracyRow r : rows) {
            sb.append(String.format(Locale.ROOT, "| %s:%d %s | %s | %d | %s | %s | %s |%n", r.dataset().file(),
                    r.dataset().line(), shorten(r.dataset().label()), r.hardwareClass(), r.points1MiB(),
                    num(r.uncalibrated()), num(r.calibrated()), r.note().replace("|", "/")));
            if (r.targetSet() && !Double.isNaN(r.uncalibrated()) && r.points1MiB() > 0) {
                target++;
                unc10 += r.uncalibrated() <= 10 ? 1 : 0;
                if (!Double.isNaN(r.calibrated())) {
                    calN++;
                    cal5 += r.calibrated() <= 5 ? 1 : 0;
                }
            }
        }
        sb.append(String.format(Locale.ROOT, "%nSingle-host NVLink datasets: %d; uncalibrated median <= 10%%: %d of %d; "
                + "calibrated median <= 5%%: %d of %d (the others had no calibration).%n", target, unc10, target,
                cal5, calN));
        return sb.toString();
    }

    private static String shorten(String s) {
        String t = s.replace("|", "/");
        return t.length() > 40 ? "(" + t.substring(0, 40) + "...)" : "(" + t + ")";
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }
}
