package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Table rows whose columns a launcher's tag splits: nccl-tests prints a row in pieces (v2.13.9 {@code src/common.cu}
 * lines 602, 555/557 and 605: size..root, then each half's columns, then the newline) and {@code mpirun --tag-output}
 * writes {@code "[1,0]<stdout>:"} before each piece, as in runs 1 and 2 of the p5 EKS file of the corpus (run 3 of the
 * same file prints its rows whole). Expected values are the file's printed numbers.
 */
class TaggedRowPiecesTest {

    private static final Path SRC = Path.of(
            "src/test/resources/data/A-allreduce-2x8xH100-aws-p5-eks-efa-mpi-operator-nccl2.22-2.20-tuner.txt");

    private static List<String> lines() throws Exception {
        return Files.readAllLines(SRC);
    }

    /** The file's three runs: 2 hosts x 8 ranks, 8 B .. 16 GiB (32 sizes) each, whether a row is split or not. */
    @Test
    void splitRowsReadAsTheirPrintedNumbers() throws Exception {
        List<Dataset> ds = MeasurementReader.read(SRC.getFileName().toString(), String.join("\n", lines()));
        assertEquals(3, ds.size());
        for (Dataset d : ds) {
            assertEquals(16, d.nRanks());
            assertEquals(2, d.nHosts());
            assertEquals(32, d.points().size());
            assertEquals(8L, d.points().get(0).sizeBytes());
            assertEquals(17179869184L, d.points().get(31).sizeBytes());
        }
        // run 1, 8 B row: "-1[1,0]<stdout>:    85.70 ... 0[1,0]<stdout>:    74.97"
        assertEquals(85.70, ds.get(0).points().get(0).outOfPlace().timeUs(), 0);
        assertEquals(74.97, ds.get(0).points().get(0).inPlace().timeUs(), 0);
        // run 1, 16 GiB row: out-of-place 66023 us, busbw 487.90; in-place 65990 us
        assertEquals(66023, ds.get(0).points().get(31).outOfPlace().timeUs(), 0);
        assertEquals(487.90, ds.get(0).points().get(31).outOfPlace().busBw(), 0);
        assertEquals(65990, ds.get(0).points().get(31).inPlace().timeUs(), 0);
        // run 3 (rows not split), 8 B row: 65.43 us out of place
        assertEquals(65.43, ds.get(2).points().get(0).outOfPlace().timeUs(), 0);
    }

    /**
     * The same run under MPICH's {@code -prepend-rank} tag ({@code "[0] "}, the shape of NCCL issue 1453's table):
     * run 1's lines with each Open MPI tag replaced, at the line's start and between columns; the rows read alike.
     */
    @Test
    void prependRankTagsBetweenColumnsAreRemovedToo() throws Exception {
        List<String> run1 = lines().stream().dropWhile(l -> !l.startsWith("### run 1"))
                .takeWhile(l -> !l.startsWith("### run 2")).toList();
        String text = run1.stream().map(l -> l.replace("[1,0]<stdout>:", "[0] ")).collect(Collectors.joining("\n"));
        Dataset d = MeasurementReader.read("prepend-rank.txt", text).get(0);
        assertEquals(32, d.points().size());
        assertEquals(85.70, d.points().get(0).outOfPlace().timeUs(), 0);
        assertEquals(74.97, d.points().get(0).inPlace().timeUs(), 0);
        assertEquals(487.90, d.points().get(31).outOfPlace().busBw(), 0);
    }
}
