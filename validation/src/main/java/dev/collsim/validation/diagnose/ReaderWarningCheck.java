package dev.collsim.validation.diagnose;

import dev.collsim.validation.ingest.Note;
import java.util.ArrayList;
import java.util.List;

/**
 * The readers' warnings ({@link Note#isWarning()}) as findings, so that diagnose never says "no problem found" about
 * a file whose reader dropped rows or met an error: an {@code NCCL WARN} line inside a results table (the run hit an
 * error, e.g. {@code Cuda failure}, while the table was printed) is a problem; any other warning (a row with a
 * negative time, dropped) says the data cannot be fully trusted.
 */
final class ReaderWarningCheck implements Check {

    @Override
    public List<Finding> run(Subject s) {
        List<Finding> out = new ArrayList<>();
        for (Note n : s.dataset().warnings()) {
            String text = n.text().substring(Note.WARNING.length());
            if (text.contains("NCCL WARN")) {
                out.add(s.finding(Finding.Kind.NCCL_WARN, Finding.Severity.PROBLEM, text, List.of(s.at(n.line()))));
            } else {
                out.add(s.finding(Finding.Kind.INCONSISTENT_DATA, Finding.Severity.WARNING, text,
                        List.of(s.at(n.line()))));
            }
        }
        return out;
    }
}
