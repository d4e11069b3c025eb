package dev.collsim.validation.ingest;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.io.NumberField;
import dev.collsim.nccl.Collective;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a per-collective summary table ({@code | Collective | Nodes | Max BusBw GB/s | Avg BusBw GB/s |}) into
 * {@link DatasetKind#SUMMARY} datasets, one per row. GPUs per host come from the {@code #@ nodes_x_gpus} header
 * (first NxM). Package-private.
 */
final class SummaryTable {

    private SummaryTable() {
    }

    static List<Dataset> read(String file, FileHeader header, RunContext ctx, List<String> block, int firstLine,
            List<String> kinds) throws InputException {
        int ci = kinds.indexOf("COLLECTIVE");
        int ni = kinds.indexOf("NODES");
        int mi = kinds.indexOf("MAX_BUSBW");
        int ai = kinds.indexOf("AVG_BUSBW");
        int perHost = header.nodesXGpus().map(s -> s[1]).orElse(1);
        List<Dataset> out = new ArrayList<>();
        List<InputProblem> problems = new ArrayList<>();
        for (int r = 2; r < block.size(); r++) {
            int line = firstLine + r;
            List<String> cells = MarkdownTableReader.cells(block.get(r));
            try {
                Collective c = Collective.parse(cells.get(ci));
                int nodes = ni >= 0 ? (int) NumberField.wholeNumber(cells.get(ni), "nodes", 0, 1, 1 << 20) : 1;
                double max = MarkdownTableReader.number(cells.get(mi), "max busbw", 0);
                double avg = ai >= 0 ? MarkdownTableReader.number(cells.get(ai), "avg busbw", 0) : Double.NaN;
                List<Note> notes = new ArrayList<>(ctx.notes);
                notes.add(new Note(line, "summary only: max and average busbw over the sweep, no per-size rows"));
                NcclLog log = ctx.log.build();
                out.add(new Dataset(file, c.ncclName() + " " + nodes + " hosts", line, DatasetKind.SUMMARY, c, null,
                        nodes * perHost, nodes, header.text("hardware"), DatasetAssembler.release(ctx, log, header),
                        DatasetAssembler.env(header, ctx, log), header, List.of(), List.of(), avg, max, log, notes));
            } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                problems.add(new InputProblem(file, line, 0, "summary row", "cannot read '" + block.get(r).strip()
                        + "': " + e.getMessage()));
            }
        }
        if (!problems.isEmpty()) {
            throw new InputException(problems);
        }
        return out;
    }
}
