package dev.collsim.validation.diagnose;

import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.IterationSpread;
import dev.collsim.validation.ingest.Note;
import java.util.ArrayList;
import java.util.List;

/**
 * Wide per-iteration spread in nccl-tests' -I output (text columns i_min/i_max/i_p99/i_cv% or the JSON
 * {@code *_per_iter} objects), as the readers note it ({@link IterationSpread}): the mean time of such a size hides
 * iterations much slower than the others.
 */
final class IterationSpreadCheck implements Check {

    @Override
    public List<Finding> run(Subject s) {
        Dataset d = s.dataset();
        List<Finding> out = new ArrayList<>();
        for (Note n : d.notes()) {
            if (n.text().startsWith(IterationSpread.PREFIX)) {
                out.add(s.finding(Finding.Kind.ITERATION_SPREAD, Finding.Severity.WARNING, n.text()
                        + ": the mean time hides slow iterations; look for other load on the GPUs, NICs or fabric, "
                        + "clock changes, or a slow process (nccl-tests -J keeps every process's times)",
                        List.of(n.line() > 0 ? s.at(n.line()) : new Finding.Evidence(d.file(), 0,
                                "out_of_place_per_iter"))));
            }
        }
        return out;
    }
}
