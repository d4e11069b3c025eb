package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * nccl-tests output as launchers and log collectors print it, one prefix before every line, built from the 2x2 DGX
 * H100 file of the corpus (its 31 rows, 8 B .. 8 GiB): each reads as the file itself. Line 40 of the file holds the
 * 4 MiB row, out-of-place time 101.2 us, in-place 100.2 us. Prefix formats: Open MPI v4.1
 * {@code orte/mca/iof/base/iof_base_output.c} ({@code --timestamp-output} is {@code ctime()} then
 * {@code "[job,rank]<stdout>:"} or {@code "<stdout>:"}), MPICH/Intel MPI {@code -prepend-rank} ({@code "[rank] "}),
 * kubectl {@code logs --prefix [--timestamps]}, pdsh ({@code "host: "}), docker compose ({@code "svc-1  | "}),
 * journald ({@code "Mon DD HH:MM:SS host unit[pid]: "}), ANSI colours.
 */
class LaunchPrefixesTest {

    private static final Path SRC = Path.of("src/test/resources/data/A-allreduce-2x2xH100-dgx-ib.txt");

    private static List<String> body() throws Exception {
        return Files.readAllLines(SRC).stream().filter(l -> !l.startsWith("#@")).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"Sun Dec  6 12:48:27 2026[1,0]<stdout>:", "Sun Dec  6 12:48:27 2026<stdout>:", "[0] ",
        "[pod/nccl-test-launcher-x7k2p/mpi-launcher] ",
        "[pod/nccl-test-launcher-x7k2p/mpi-launcher] 2026-12-06T12:48:27.123456789Z ", "node01: ",
        "nccl-tests-1  | ", "Dec 06 12:48:27 node01 bash[1234]: ", "\u001B[36mnccl-1  |\u001B[0m "})
    void prefixedLinesReadAsTheFileItself(String prefix) throws Exception {
        List<String> lines = body();
        Dataset plain = MeasurementReader.read("plain.txt", String.join("\n", lines)).get(0);
        String text = lines.stream().map(l -> prefix + l).collect(Collectors.joining("\n"));
        Dataset d = MeasurementReader.read("prefixed.txt", text).get(0);
        assertEquals(4, d.nRanks());
        assertEquals(2, d.nHosts());
        assertEquals(31, d.points().size());
        PerfPoint p4m = d.points().get(19);
        assertEquals(4194304L, p4m.sizeBytes(), "line 40 of the file");
        assertEquals(101.2, p4m.outOfPlace().timeUs(), 0);
        assertEquals(100.2, p4m.inPlace().timeUs(), 0);
        assertEquals(plain.points().stream().map(p -> p.sizeBytes() + "=" + p.primary().timeUs()).toList(),
                d.points().stream().map(p -> p.sizeBytes() + "=" + p.primary().timeUs()).toList(), prefix);
    }

    /** A broken number in a prefixed row is reported at its column in the file, the prefix counted. */
    @Test
    void brokenRowNamesItsFileColumn() throws Exception {
        List<String> lines = body().stream().map(l -> "[3] " + l.replace("101.2   41.43", "1O1.2   41.43")).toList();
        InputException e = assertThrows(InputException.class,
                () -> MeasurementReader.read("bad.txt", String.join("\n", lines)));
        InputProblem p = e.problems().get(0);
        String row = lines.stream().filter(l -> l.contains("1O1.2")).findFirst().orElseThrow();
        assertEquals(lines.indexOf(row) + 1, p.line());
        assertEquals(row.indexOf("1O1.2") + 1, p.column(), p.toString());
        assertTrue(p.message().contains("1O1.2"), p.message());
    }

    /**
     * NCCL_DEBUG=INFO under a launcher that tags each chunk it forwards: nccl-tests prints the 4 MiB row (line 40 of
     * the file) in pieces (preamble up to the root column, then the times), NCCL's stderr line for the call lands
     * between them, and the launcher writes its tag before the NCCL chunk too, mid-line (Open MPI v4.1
     * {@code orte_iof_base_write_output}; MPICH {@code -prepend-rank}; the shape of NCCL issue 1453). The row is
     * rebuilt: 31 rows, 4 MiB at 101.2 us out of place, as in the file.
     */
    @ParameterizedTest
    @ValueSource(strings = {"|", "[0] |[0] ", "[1,0]<stdout>:|[1,0]<stderr>:",
        "Sun Dec  6 12:48:27 2026[1,0]<stdout>:|Sun Dec  6 12:48:27 2026[1,0]<stderr>:"})
    void rowBrokenByATaggedNcclLineIsRebuilt(String tags) throws Exception {
        String out = tags.split("\\|", -1)[0];
        String err = tags.split("\\|", -1)[1];
        String nccl = "node01:1462688:1462700 [0] NCCL INFO AllReduce: opCount 3 sendbuff 0x7f recvbuff 0x7f count "
                + "1048576 datatype 7 op 0 root 0 comm 0x55 [nranks=4] stream 0x56";
        List<String> text = new ArrayList<>();
        for (String l : body()) {
            if (l.startsWith("     4194304 ")) {
                int cut = l.indexOf("-1") + 2;
                text.add(out + l.substring(0, cut) + err + nccl);
                text.add(err + nccl);
                text.add(out + l.substring(cut));
            } else {
                text.add(out + l);
            }
        }
        Dataset d = MeasurementReader.read("broken.txt", String.join("\n", text)).get(0);
        assertEquals(31, d.points().size(), tags);
        PerfPoint p4m = d.points().get(19);
        assertEquals(4194304L, p4m.sizeBytes());
        assertEquals(101.2, p4m.outOfPlace().timeUs(), 0);
        assertEquals(100.2, p4m.inPlace().timeUs(), 0);
    }

    /**
     * nccl-tests 2.19.6's own lines around the table (src/util.cu: {@code unalign:} at the end of the nThread line,
     * line 625; {@code "# GPU memory usage : ... | ... | Total ..."}, line 834, whose '|' is no markdown table;
     * {@code "# error: ..."}, line 841, kept as a note at its line; {@code FAILED} after the average, line 778), as {@code kubectl logs --prefix
     * --timestamps} prints them: the 31 rows and the footer's 48.0299 GB/s (the file's footer) are read.
     */
    @Test
    void trailerLinesOfTheLatestReleaseUnderAPodPrefix() throws Exception {
        List<String> text = new ArrayList<>();
        for (String l : body()) {
            text.add(l.startsWith("# nThread") ? l + " unalign: 0" : l.startsWith("# Avg bus") ? l + " FAILED" : l);
        }
        text.add("# GPU memory usage     : Initialization 512.00 MiB | User-Allocated 4.00 GiB | Collective 0.00 B"
                + " | Total  4.50 GiB");
        text.add("#");
        text.add("# error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)");
        String pod = "[pod/nccl-test-launcher-x7k2p/mpi-launcher] 2026-12-06T12:48:27.123456789Z ";
        Dataset d = MeasurementReader.read("pod.txt", text.stream().map(l -> pod + l)
                .collect(Collectors.joining("\n"))).get(0);
        assertEquals(31, d.points().size());
        assertEquals(48.0299, d.avgBusBw(), 0);
        assertTrue(d.notes().stream().anyMatch(n -> n.line() == text.size()
                && n.text().contains("'unhandled cuda error (run with NCCL_DEBUG=INFO for details)'")), d.notes()
                .toString());
    }

    /** Two runs appended to one file ({@code tee -a}), one under pdsh's and one under -prepend-rank's prefix. */
    @Test
    void twoRunsUnderTwoPrefixesAreTwoDatasets() throws Exception {
        List<String> lines = body();
        String text = lines.stream().map(l -> "node01: " + l).collect(Collectors.joining("\n")) + "\n"
                + lines.stream().map(l -> "[0] " + l).collect(Collectors.joining("\n"));
        List<Dataset> ds = MeasurementReader.read("tee.txt", text);
        assertEquals(2, ds.size());
        for (Dataset d : ds) {
            assertEquals(31, d.points().size());
            assertEquals(101.2, d.points().get(19).outOfPlace().timeUs(), 0, "line 40 of the file");
        }
        assertEquals(40 - 9 + lines.size(), ds.get(1).points().get(19).line(), "the file's 9 '#@' lines are dropped");
    }
}
