package dev.collsim.executor;

import dev.collsim.perf.NcclTestsRows;
import dev.collsim.perf.PerfResult;
import dev.collsim.perf.PerfRow;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Prints an nccl-tests table and collsim's table of the same run side by side with their differences, and checks
 * the executor's accuracy targets: at sizes >= 64 MiB the bandwidth within 2 % of nccl-tests' (busbw, or algbw
 * when busbw is 0, as for AllReduce on one rank), at sizes <= 8 KiB the time within 1 us.
 *
 * <p>Usage: {@code CompareMain NCCL_TESTS_OUTPUT... -- COLLSIM_OUTPUT...} (or one file each without
 * {@code --}). With several runs per side, each number is the median over that side's runs (the machine's own
 * run-to-run noise at small sizes is several microseconds; medians of alternating runs compare the tools, not
 * the noise). Exit code 0 when every target holds, 4 when one does not, 2 on bad arguments.
 */
public final class CompareMain {

    /** Sizes at and above this are checked for bandwidth, bytes (64 MiB). */
    public static final long BW_FROM = 64L << 20;
    /** Sizes at and below this are checked for time, bytes (8 KiB). */
    public static final long TIME_UP_TO = 8L << 10;
    /** Allowed relative bandwidth difference. */
    public static final double BW_TOL = 0.02;
    /** Allowed time difference, microseconds. */
    public static final double TIME_TOL_US = 1.0;

    private CompareMain() {
    }

    /** @param args two files */
    public static void main(String[] args) throws IOException {
        int sep = Arrays.asList(args).indexOf("--");
        List<String> a = sep < 0 ? (args.length == 2 ? List.of(args[0]) : List.of())
                : Arrays.asList(args).subList(0, sep);
        List<String> b = sep < 0 ? (args.length == 2 ? List.of(args[1]) : List.of())
                : Arrays.asList(args).subList(sep + 1, args.length);
        if (a.isEmpty() || b.isEmpty()) {
            System.err.println("usage: compare-tables NCCL_TESTS_OUTPUT... -- COLLSIM_OUTPUT...");
            System.exit(2);
        }
        for (String f : concat(a, b)) {
            if (!Files.isRegularFile(Path.of(f))) {
                System.err.println("compare-tables: no such file: " + f);
                System.exit(2);
            }
        }
        System.out.println("# median of " + a.size() + " nccl-tests run(s) vs median of " + b.size() + " collsim run(s)");
        System.exit(compare(medianOf(a), medianOf(b), System.out) == 0 ? 0 : 4);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static List<PerfRow> medianOf(List<String> files) throws IOException {
        List<List<PerfRow>> runs = new ArrayList<>();
        for (String f : files) {
            runs.add(NcclTestsRows.readAll(Files.readAllLines(Path.of(f))));
        }
        return median(runs);
    }

    /**
     * Row-by-row median over runs of the same table (rows matched by position; runs with fewer rows limit the
     * result). #wrong is the maximum, so one wrong run shows.
     *
     * @param runs tables of the same sweep
     * @return the median table
     */
    public static List<PerfRow> median(List<List<PerfRow>> runs) {
        int n = runs.stream().mapToInt(List::size).min().orElse(0);
        List<PerfRow> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            final int k = i;
            List<PerfRow> same = runs.stream().map(r -> r.get(k)).toList();
            PerfRow f = same.get(0);
            out.add(new PerfRow(f.collective(), f.type(), f.redop(), f.root(), f.nRanks(), f.size(), f.count(),
                    medianHalf(same.stream().map(PerfRow::outOfPlace).toList()),
                    medianHalf(same.stream().map(PerfRow::inPlace).toList()), null));
        }
        return out;
    }

    private static PerfResult medianHalf(List<PerfResult> rs) {
        Long wrong = rs.stream().map(PerfResult::wrong).filter(Objects::nonNull).max(Long::compare)
                .orElse(null);
        return new PerfResult(med(rs.stream().mapToDouble(PerfResult::timeUs).toArray()),
                med(rs.stream().mapToDouble(PerfResult::algBw).toArray()),
                med(rs.stream().mapToDouble(PerfResult::busBw).toArray()), wrong);
    }

    /**
     * @param v values
     * @return the median (mean of the two middle values for an even count)
     */
    public static double med(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }

    /**
     * @param ref  nccl-tests' rows
     * @param ours collsim's rows
     * @param out  where the side-by-side table goes
     * @return the number of target violations; 1 when either side has no rows (nothing compared is not a pass:
     *         a wrong nccl-tests folder or a failed run leaves a table with no rows)
     */
    public static int compare(List<PerfRow> ref, List<PerfRow> ours, PrintStream out) {
        if (ref.isEmpty() || ours.isEmpty()) {
            out.println("# nothing to compare: nccl-tests gave " + ref.size() + " row(s), collsim " + ours.size()
                    + " (look at the run's output files: wrong nccl-tests folder, or a run that failed?)");
            return 1;
        }
        out.printf(Locale.ROOT, "%12s %6s | %9s %9s %8s | %9s %9s %7s | %9s %9s %8s | %s%n", "size", "half",
                "nt_us", "cs_us", "d_us", "nt_GB/s", "cs_GB/s", "d_%", "nt_busbw", "cs_busbw", "wrong", "target");
        int bad = 0;
        int n = Math.min(ref.size(), ours.size());
        if (ref.size() != ours.size()) {
            out.println("# note: row counts differ (nccl-tests " + ref.size() + ", collsim " + ours.size() + ")");
        }
        for (int i = 0; i < n; i++) {
            PerfRow a = ref.get(i);
            PerfRow b = ours.get(i);
            if (a.size() != b.size()) {
                out.println("# row " + i + ": sizes differ (" + a.size() + " vs " + b.size() + ")");
                bad++;
                continue;
            }
            bad += line(out, a.size(), "oop", a.outOfPlace(), b.outOfPlace());
            bad += line(out, a.size(), "ip", a.inPlace(), b.inPlace());
        }
        out.println(bad == 0 ? "# all targets met" : "# " + bad + " target(s) missed");
        return bad;
    }

    private static int line(PrintStream out, long size, String half, PerfResult a, PerfResult b) {
        double dUs = b.timeUs() - a.timeUs();
        boolean useBus = a.busBw() > 0;
        double ra = useBus ? a.busBw() : a.algBw();
        double rb = useBus ? b.busBw() : b.algBw();
        double dPct = ra == 0 ? 0 : 100.0 * (rb - ra) / ra;
        String target = "";
        int bad = 0;
        if (size >= BW_FROM && half.equals("oop")) {
            boolean ok = Math.abs(dPct) <= BW_TOL * 100;
            target = (useBus ? "busbw" : "algbw") + " within 2%: " + (ok ? "ok" : "MISSED");
            bad += ok ? 0 : 1;
        } else if (size <= TIME_UP_TO) {
            boolean ok = Math.abs(dUs) <= TIME_TOL_US;
            target = "time within 1 us: " + (ok ? "ok" : "MISSED");
            bad += ok ? 0 : 1;
        }
        out.printf(Locale.ROOT, "%12d %6s | %9.2f %9.2f %+8.2f | %9.1f %9.1f %+7.2f | %9.1f %9.1f %8s | %s%n",
                size, half, a.timeUs(), b.timeUs(), dUs, a.algBw(), b.algBw(), dPct, a.busBw(), b.busBw(),
                (a.wrong() == null ? "N/A" : a.wrong()) + "/" + (b.wrong() == null ? "N/A" : b.wrong()), target);
        return bad;
    }
}
