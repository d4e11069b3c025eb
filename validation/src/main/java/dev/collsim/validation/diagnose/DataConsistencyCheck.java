package dev.collsim.validation.diagnose;

import dev.collsim.nccl.BusBandwidth;
import dev.collsim.perf.PerfResult;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.DatasetKind;
import dev.collsim.validation.ingest.Note;
import dev.collsim.validation.ingest.PerfPoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Numbers that contradict each other: busbw/algbw must equal nccl-tests' bus bandwidth factor for the run's rank
 * count, algbw must equal size/time (nccl-tests 2.19.6 {@code doc/PERFORMANCE.md}), and the readers' notes about
 * a count column or a claimed collective that the rows contradict.
 */
final class DataConsistencyCheck implements Check {

    @Override
    public List<Finding> run(Subject s) {
        List<Finding> out = new ArrayList<>();
        Dataset d = s.dataset();
        for (Note n : d.notes()) {
            if (n.text().contains("does not match size") || n.text().startsWith(Note.CLAIM_CONTRADICTED)) {
                out.add(s.finding(Finding.Kind.INCONSISTENT_DATA, Finding.Severity.WARNING, n.text(),
                        List.of(s.at(n.line()))));
                break;
            }
        }
        if (d.kind() == DatasetKind.REDUCED_TABLE || d.nRanks() < 2) {
            return out;
        }
        double f = BusBandwidth.factor(d.collective(), d.nRanks());
        for (PerfPoint p : d.points()) {
            PerfResult t = p.primary();
            if (t.algBw() >= 5 && Math.abs(t.busBw() / t.algBw() - f) / f > 0.02) {
                double r = t.busBw() / t.algBw();
                int implied = BusBandwidth.ranksForFactor(d.collective(), r);
                out.add(s.finding(Finding.Kind.INCONSISTENT_DATA, Finding.Severity.WARNING, String.format(Locale.ROOT,
                        "busbw/algbw = %.4f but nccl-tests' factor for %s on %d ranks is %.4f%s: the rank count "
                                + "or the columns are wrong", r, d.collective().testName(), d.nRanks(), f,
                        implied > 0 ? "; the ratio fits " + implied + " ranks" : ""), List.of(s.at(p))));
                break;
            }
        }
        for (PerfPoint p : d.points()) {
            PerfResult t = p.primary();
            // below 1 us a time printed with two decimals is too coarse for 3 %, but not for a factor of 2
            if (t.hasTime() && t.timeUs() > 0 && t.algBw() >= 1) {
                double alg = BusBandwidth.algBw(p.sizeBytes(), t.timeUs());
                if (Math.abs(alg - t.algBw()) / t.algBw() > (t.timeUs() >= 1 ? 0.03 : 1.0)) {
                    double x = alg / t.algBw();
                    out.add(s.finding(Finding.Kind.INCONSISTENT_DATA, Finding.Severity.WARNING,
                            String.format(Locale.ROOT, "algbw %.2f GB/s does not equal size/time = %.2f GB/s%s",
                                    t.algBw(), alg, x > 100 || x < 0.01 ? String.format(Locale.ROOT, " (%.3g x: is the"
                                    + " time column in another unit than nccl-tests' microseconds?)", x) : ""),
                            List.of(s.at(p))));
                    break;
                }
            }
        }
        return out;
    }
}
