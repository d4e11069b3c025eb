package dev.collsim.validation.ingest;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One nccl-tests table's rows as datasets, one per data type, op and root: nccl-tests {@code -d all}, {@code -o all}
 * and {@code -r all} print the rows of every combination under one header, so each combination becomes its own dataset
 * titled by it ({@code [float sum root 0]}) and without the footer (whose average is over all of them); a table of one
 * combination keeps the run's title and footer. Stateless.
 */
final class TypeOpRootTables {

    private TypeOpRootTables() {
    }

    /**
     * @param file       file name for problems
     * @param header     the file's header
     * @param ctx        the run's context
     * @param rows       the table's rows, in file order, at least one
     * @param tableLine  the line of the table's header
     * @param avg        the footer's average bus bandwidth, NaN when none
     * @param tableNotes the table's notes
     * @param out        where the datasets go
     * @param problems   where a dataset's problems go (the others are still assembled)
     */
    static void assemble(String file, FileHeader header, RunContext ctx, List<PerfPoint> rows, int tableLine,
            double avg, List<Note> tableNotes, List<Dataset> out, List<InputProblem> problems) {
        Map<String, List<PerfPoint>> groups = new LinkedHashMap<>();
        for (PerfPoint r : rows) {
            groups.computeIfAbsent(r.type() + " " + r.redop() + " " + r.root(), k -> new ArrayList<>()).add(r);
        }
        for (var g : groups.entrySet()) {
            RunContext c = ctx;
            if (groups.size() > 1) {
                // nccl-tests -d all / -o all / -r all print one table for every type, op and root
                c = ctx.continuation();
                c.log = ctx.log;
                c.notes.addAll(ctx.notes);
                PerfPoint first = g.getValue().get(0);
                c.title = (ctx.title.isEmpty() ? "table at line " + tableLine : ctx.title) + " [" + first.type()
                        + (first.redop() == null || first.redop().isEmpty() ? "" : " " + first.redop())
                        + (first.root() == Integer.MIN_VALUE || first.root() < 0 ? "" : " root " + first.root()) + "]";
            }
            try {
                out.add(DatasetAssembler.assemble(file, header, c, List.copyOf(g.getValue()), tableLine,
                        DatasetKind.NCCL_TESTS_TABLE, groups.size() > 1 ? Double.NaN : avg, tableNotes));
            } catch (InputException e) {
                problems.addAll(e.problems());
            }
        }
    }
}
