package dev.collsim.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.perf.NcclTestsRows;
import dev.collsim.perf.PerfRow;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * The table text must be byte-identical to nccl-tests 2.19.6's own output: the expected lines are nccl-tests'
 * real output on the lent H200 (test resources {@code nccl-tests/*-1gpu.txt}, copied from the device session's
 * record), and every row, the header and the footer are re-printed from the parsed values and compared.
 */
class NcclTestsTableTest {

    static List<String> lines(String name) throws IOException {
        try (InputStream in = NcclTestsTableTest.class.getResourceAsStream("/nccl-tests/" + name)) {
            return Arrays.asList(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"all_reduce", "all_gather", "reduce_scatter", "broadcast", "alltoall", "sendrecv"})
    void rowsHeaderAndFooterMatchNcclTests(String coll) throws IOException {
        List<String> lines = lines("nccl-tests-" + coll + "-1gpu.txt");
        List<PerfRow> rows = NcclTestsRows.readAll(lines);
        assertEquals(14, rows.size());
        List<String> tableLines = lines.stream().filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        for (int i = 0; i < rows.size(); i++) {
            PerfRow r = rows.get(i);
            String printed = NcclTestsTable.rowPreamble(r.size(), r.count(), r.type(), r.redop(), r.root())
                    + NcclTestsTable.rowBody(r.outOfPlace()) + NcclTestsTable.rowBody(r.inPlace());
            assertEquals(tableLines.get(i), printed, "row " + i);
        }
        int h = lines.indexOf("# Using devices");
        String header = String.join("\n", lines.subList(h + 1, h + 5)) + "\n";
        assertEquals(header, NcclTestsTable.resultHeader(false));
        int f = indexStartingWith(lines, "# Out of bounds values");
        double avg = Double.parseDouble(lines.get(f + 1).replaceAll(".*: ", "").trim());
        String footer = String.join("\n", lines.subList(f, f + 6)) + "\n";
        assertEquals(footer, NcclTestsTable.footer(0, avg, coll + "_perf", ""));
    }

    @ParameterizedTest
    @ValueSource(strings = {"all_reduce"})
    void runLineMatchesNcclTests(String coll) throws IOException {
        List<String> lines = lines("nccl-tests-" + coll + "-1gpu.txt");
        RunOptions o = new RunOptions();
        new CommandLine(o).parseArgs(coll, "-b", "8", "-e", "1G", "-f", "4", "-g", "1", "-w", "5", "-n", "50");
        String report = NcclTestsTable.deviceReport("x", 22803, 22803, coll + "_perf", o.toSpec(), List.of());
        String[] ours = report.split("\n");
        int s = indexStartingWith(lines, "# nThread");
        assertEquals(lines.get(s), ours[2]);
        assertEquals(lines.get(s - 1), ours[1]);
        assertEquals("#", ours[3]);
        assertEquals("# Using devices", ours[4]);
    }

    private static int indexStartingWith(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        throw new AssertionError("no line starting with " + prefix);
    }
}
