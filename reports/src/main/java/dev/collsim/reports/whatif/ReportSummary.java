package dev.collsim.reports.whatif;

import dev.collsim.units.DataSize;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The short per-variant summary printed on the terminal and at the top of the HTML report: for the first sweep,
 * busbw at its largest size and the algorithm chosen (with "on N ranks" when the sweep ran on fewer ranks than the
 * variant's GPUs column, a sweep's {@code gpus} key); for the first plan, step time, tokens/s and scaling
 * efficiency; the backend that timed each variant; a "note" column when a variant's numbers all equal the base's (so
 * the row does not look like a bug).
 * Stateless.
 */
public final class ReportSummary {

    /** The data-parallel degree in a job's description ({@code TrainingJob#describe}: {@code ", dp=16 tp=8"}). */
    private static final Pattern DP = Pattern.compile("dp=[0-9]+");

    private ReportSummary() {
    }

    /**
     * @param d the report's numbers
     * @return header row then one row per variant, all cells as text
     */
    public static List<List<String>> table(ReportData d) {
        List<List<String>> rows = new ArrayList<>();
        ReportData.SweepRow firstSweep = d.sweeps().isEmpty() ? null : d.sweeps().get(0);
        String plan = d.plans().isEmpty() ? null : d.plans().get(0).plan();
        List<String> header = new ArrayList<>(List.of("variant", "GPUs"));
        long largest = 0;
        if (firstSweep != null) {
            String key = firstSweep.collective() + firstSweep.dataType();
            largest = d.sweeps().stream().filter(r -> (r.collective() + r.dataType()).equals(key))
                    .mapToLong(ReportData.SweepRow::sizeBytes).max().orElse(0);
            header.add(firstSweep.collective() + " busbw @" + DataSize.format(largest));
            header.add("algorithm");
        }
        if (plan != null) {
            header.addAll(List.of("step (" + plan + ")", "tokens/s", "efficiency"));
        }
        header.add("backend");
        rows.add(header);
        List<String> notes = d.variants().stream().map(v -> sameAsBaseNote(d, v)).toList();
        boolean anyNote = notes.stream().anyMatch(n -> !n.isEmpty());
        if (anyNote) {
            header.add("note");
        }
        for (ReportData.VariantRow v : d.variants()) {
            List<String> row = new ArrayList<>(List.of(v.variant(), String.valueOf(v.gpus())));
            if (firstSweep != null) {
                final long size = largest;
                ReportData.SweepRow r = d.sweeps().stream().filter(s -> s.variant().equals(v.variant())
                        && s.collective().equals(firstSweep.collective()) && s.dataType().equals(firstSweep.dataType())
                        && s.sizeBytes() == size).findFirst().orElse(null);
                row.add(r == null ? "-" : String.format(Locale.ROOT, "%.1f GB/s", r.busBw())
                        + (r.nRanks() == v.gpus() ? "" : " on " + r.nRanks() + " ranks"));
                row.add(r == null ? "-" : r.algorithm() + "/" + r.protocol());
            }
            if (plan != null) {
                ReportData.PlanRow p = d.plans().stream().filter(x -> x.variant().equals(v.variant())
                        && x.plan().equals(plan)).findFirst().orElse(null);
                if (p == null || !p.fits()) {
                    row.addAll(List.of("does not fit", "-", "-"));
                } else {
                    row.add(String.format(Locale.ROOT, "%.1f ms", p.stepMs()) + dpNote(d, p));
                    row.add(String.format(Locale.ROOT, "%,.0f", p.tokensPerS()));
                    row.add(String.format(Locale.ROOT, "%.1f%%", p.efficiency() * 100));
                }
            }
            row.add(v.backend());
            if (anyNote) {
                row.add(notes.get(rows.size() - 1));
            }
            rows.add(row);
        }
        return rows;
    }

    /**
     * The lines printed under the terminal table, which has no room for them: what its efficiency column is, and why
     * a variant's first plan does not fit (the table says only "does not fit"; the page's plan table and
     * {@code plans.csv} say why too). Variants with the same reason share one line.
     *
     * @param d the report's numbers
     * @return the lines, none without a plan
     */
    public static List<String> notes(ReportData d) {
        if (d.plans().isEmpty()) {
            return List.of();
        }
        String plan = d.plans().get(0).plan();
        List<String> out = new ArrayList<>();
        out.add("efficiency: compute time / step time of \"" + plan + "\" (collsim plan's scaling efficiency; 100% ="
                + " no pipeline bubble, no exposed communication)");
        Map<String, List<String>> why = new LinkedHashMap<>();
        for (ReportData.VariantRow v : d.variants()) {
            d.plans().stream().filter(p -> p.variant().equals(v.variant()) && p.plan().equals(plan) && !p.fits())
                    .findFirst().ifPresent(p -> why.computeIfAbsent(p.notFitReason(), k -> new ArrayList<>())
                            .add("\"" + v.variant() + "\""));
        }
        why.forEach((reason, variants) -> out.add(String.join(", ", variants) + ": " + reason));
        return out;
    }

    /**
     * @return {@code " at dp=16"} when the variant ran the plan at another data-parallel degree than the base (a
     *         variant that sets {@code hosts} scales it), else empty
     */
    static String dpNote(ReportData d, ReportData.PlanRow p) {
        String base = d.plans().stream().filter(x -> x.plan().equals(p.plan())).findFirst().map(ReportData.PlanRow::job)
                .orElse(p.job());
        Matcher mine = DP.matcher(p.job());
        Matcher theirs = DP.matcher(base);
        return mine.find() && theirs.find() && !mine.group().equals(theirs.group()) ? " at " + mine.group() : "";
    }

    /**
     * @param d the report's numbers
     * @param v a variant
     * @return "same as base ..." when v is not the base and the rows this table shows (every size of the first
     *         sweep's collective, the first plan) have the same predicted times as the base's (to 1e-9 relative),
     *         with the likely reason (for a fabric change timed by the analytical backend: that it holds each
     *         collective to the leaf uplinks but does not see ECMP collisions), and the other sweeps' collectives
     *         whose times differ from the base's ({@link #otherSweeps}); empty otherwise
     */
    public static String sameAsBaseNote(ReportData d, ReportData.VariantRow v) {
        if (d.variants().isEmpty() || d.variants().get(0).equals(v)) {
            return "";
        }
        String base = d.variants().get(0).variant();
        String key = d.sweeps().isEmpty() ? "" : d.sweeps().get(0).collective() + " " + d.sweeps().get(0).dataType();
        String plan = d.plans().isEmpty() ? "" : d.plans().get(0).plan();
        List<ReportData.SweepRow> sweep = d.sweeps().stream()
                .filter(r -> (r.collective() + " " + r.dataType()).equals(key)).toList();
        List<ReportData.SweepRow> mine = sweep.stream().filter(r -> r.variant().equals(v.variant())).toList();
        List<ReportData.SweepRow> theirs = sweep.stream().filter(r -> r.variant().equals(base)).toList();
        List<ReportData.PlanRow> plans = d.plans().stream().filter(r -> r.plan().equals(plan)).toList();
        List<ReportData.PlanRow> myPlans = plans.stream().filter(r -> r.variant().equals(v.variant())).toList();
        List<ReportData.PlanRow> basePlans = plans.stream().filter(r -> r.variant().equals(base)).toList();
        if (mine.isEmpty() && myPlans.isEmpty() || mine.size() != theirs.size() || myPlans.size() != basePlans.size()) {
            return "";
        }
        for (int i = 0; i < mine.size(); i++) {
            ReportData.SweepRow a = mine.get(i);
            ReportData.SweepRow b = theirs.get(i);
            if (a.sizeBytes() != b.sizeBytes() || a.nRanks() != b.nRanks() || !a.collective().equals(b.collective())
                    || !close(a.timeUs(), b.timeUs())) {
                return "";
            }
        }
        for (int i = 0; i < myPlans.size(); i++) {
            ReportData.PlanRow a = myPlans.get(i);
            ReportData.PlanRow b = basePlans.get(i);
            if (a.fits() != b.fits() || a.fits() && !close(a.stepMs(), b.stepMs())) {
                return "";
            }
        }
        String what = (v.changes() + " " + v.cluster()).toLowerCase(Locale.ROOT);
        String held = heldBy(mine) + otherSweeps(d, v, base, key);
        if ((what.contains("oversubscri") || what.contains("fat-tree")) && v.backend().equals("analytical")) {
            return "same as base" + what(key, plan) + ": the fabric's leaf uplinks do not limit these sizes" + held
                    + "; link sharing above the leaves (ECMP collisions) is timed with 'backend: flow'";
        }
        if (v.backend().startsWith("flow")) {
            return "same as base" + what(key, plan) + ": the flow simulation finds that the fabric does not limit"
                    + held;
        }
        return "same as base" + what(key, plan) + ": the model predicts no difference for this change" + held;
    }

    /** @return {@code "; at 8G both are held by B"} from the largest size's bottleneck, or empty when none is named */
    private static String heldBy(List<ReportData.SweepRow> rows) {
        ReportData.SweepRow top = rows.stream().max(Comparator.comparingLong(ReportData.SweepRow::sizeBytes))
                .orElse(null);
        if (top == null || top.bottleneck() == null || top.bottleneck().isBlank() || top.bottleneck().equals("-")) {
            return "";
        }
        return "; at " + ReportRunner.size(top.sizeBytes()) + " both are held by " + top.bottleneck();
    }

    /**
     * The sweeps after the first whose predicted times differ from the base's, so that a "same as base" note does
     * not hide them (a 2:1 fabric that leaves AllReduce alone can slow AllToAll).
     *
     * @return {@code "; differs: AllToAll (1.63x the base's time at 256M)"}, one entry per differing collective
     *         and data type, at the size where the variant's time is furthest from the base's (by the ratio of times,
     *         either way), or empty when every other sweep matches the base
     */
    static String otherSweeps(ReportData d, ReportData.VariantRow v, String base, String first) {
        Map<String, ReportData.SweepRow> baseRows = new HashMap<>();
        for (ReportData.SweepRow r : d.sweeps()) {
            if (r.variant().equals(base)) {
                baseRows.put(r.collective() + " " + r.dataType() + " " + r.sizeBytes() + " " + r.nRanks(), r);
            }
        }
        Map<String, ReportData.SweepRow[]> worst = new LinkedHashMap<>();
        for (ReportData.SweepRow r : d.sweeps()) {
            String key = r.collective() + " " + r.dataType();
            ReportData.SweepRow b = baseRows.get(key + " " + r.sizeBytes() + " " + r.nRanks());
            if (!r.variant().equals(v.variant()) || key.equals(first) || b == null || close(r.timeUs(), b.timeUs())) {
                continue;
            }
            ReportData.SweepRow[] w = worst.get(key);
            double ratio = Math.abs(Math.log(r.timeUs() / b.timeUs()));
            if (w == null || ratio > Math.abs(Math.log(w[0].timeUs() / w[1].timeUs()))) {
                worst.put(key, new ReportData.SweepRow[] {r, b});
            }
        }
        StringBuilder sb = new StringBuilder();
        for (ReportData.SweepRow[] w : worst.values()) {
            sb.append(sb.length() == 0 ? "; differs: " : ", ").append(w[0].collective()).append(String.format(
                    Locale.ROOT, " (%.2fx the base's time at %s)", w[0].timeUs() / w[1].timeUs(),
                    DataSize.format(w[0].sizeBytes())));
        }
        return sb.toString();
    }

    private static String what(String sweep, String plan) {
        return " (" + (sweep.isEmpty() ? "" : sweep.split(" ")[0] + " all sizes")
                + (sweep.isEmpty() || plan.isEmpty() ? "" : ", ") + (plan.isEmpty() ? "" : "step") + ")";
    }

    private static boolean close(double a, double b) {
        return a == b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
    }

    /**
     * @param table rows from {@link #table}
     * @return the rows as aligned plain text (columns padded), one line per row, header underlined
     */
    public static String text(List<List<String>> table) {
        int cols = table.get(0).size();
        int[] w = new int[cols];
        for (List<String> r : table) {
            for (int i = 0; i < cols; i++) {
                w[i] = Math.max(w[i], r.get(i).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < table.size(); k++) {
            List<String> r = table.get(k);
            for (int i = 0; i < cols; i++) {
                String cell = r.get(i);
                boolean left = i == 0 || i == 3 && cell.contains("/") || table.get(0).get(i).equals("note")
                        || table.get(0).get(i).equals("backend");
                sb.append(i == 0 ? "" : "  ").append(left ? pad(cell, w[i], true) : pad(cell, w[i], false));
            }
            while (sb.length() > 0 && sb.charAt(sb.length() - 1) == ' ') {
                sb.setLength(sb.length() - 1);
            }
            sb.append('\n');
            if (k == 0) {
                for (int i = 0; i < cols; i++) {
                    sb.append(i == 0 ? "" : "  ").append("-".repeat(w[i]));
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    private static String pad(String s, int w, boolean left) {
        String fill = " ".repeat(Math.max(0, w - s.length()));
        return left ? s + fill : fill + s;
    }
}
