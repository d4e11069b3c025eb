package dev.collsim.validation.ingest;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rows of one nccl-tests table that repeat a size (with its data type, redop and root): a table that runs one sweep
 * several times ({@code -N}, run_cycles) gets one warning naming the runs, any other repeat a warning per row. Both
 * rows stay and are compared. Stateless.
 */
final class RepeatedRows {

    private RepeatedRows() {
    }

    /**
     * Warns of a row whose size, data type, redop and root an earlier row of the same table already had: nccl-tests
     * prints each combination once per run ({@code -d all} and {@code -o all} repeat a size with another type or
     * redop), so a repeat is a second run pasted under the first. Both rows stay and are compared. Size 0 is left
     * out: sizes below nRanks x element size round down to it, as often as the sweep has them.
     */
    static void check(List<PerfPoint> rows, List<Note> notes) {
        int cycles = wholeCycles(rows);
        if (cycles > 1) {
            int period = rows.size() / cycles;
            notes.add(Note.warning(rows.get(period).line(), "the table's " + rows.size() + " rows are " + cycles
                    + " runs of the same " + period + " size(s) in the same order (the second from line "
                    + rows.get(period).line() + "): nccl-tests -N " + cycles + " (run_cycles) prints its cycles so,"
                    + " and runs pasted under one header look alike; every row is compared"));
            return;
        }
        Map<String, Integer> first = new HashMap<>();
        for (PerfPoint p : rows) {
            if (p.sizeBytes() == 0) {
                continue; // nccl-tests rounds sizes below nRanks x element size down to 0, as often as they come
            }
            String key = p.sizeBytes() + " " + p.type() + " " + p.redop() + " " + p.root();
            Integer at = first.putIfAbsent(key, p.line());
            if (at != null) {
                notes.add(Note.warning(p.line(), "size " + p.sizeBytes() + " (" + p.type() + ", " + p.redop()
                        + ", root " + p.root() + ") again at line " + p.line() + ", first at line " + at
                        + ": two runs in one table? both rows are compared; give each run its own header to compare"
                        + " them apart"));
            }
        }
    }

    /**
     * @return how many times the table's rows run through one sequence of sizes (with type, redop and root) from its
     *         first row on, as nccl-tests {@code -N} (run_cycles) prints them (NCCL tests 2.19.6 {@code
     *         src/common.cu}: the benchmark loop over sizes repeats run_cycles times under one header); 1 when they
     *         do not
     */
    static int wholeCycles(List<PerfPoint> rows) {
        List<String> keys = rows.stream().map(p -> p.sizeBytes() + " " + p.type() + " " + p.redop() + " " + p.root())
                .toList();
        if (keys.size() < 2) {
            return 1;
        }
        int period = keys.subList(1, keys.size()).indexOf(keys.get(0)) + 1;
        if (period < 1 || keys.size() % period != 0) {
            return 1;
        }
        for (int i = period; i < keys.size(); i++) {
            if (!keys.get(i).equals(keys.get(i % period))) {
                return 1;
            }
        }
        return keys.size() / period;
    }
}
