package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import dev.collsim.io.InputException;
import dev.collsim.nccl.DataType;
import dev.collsim.validation.ingest.NcclTestsPrinter.Family;
import dev.collsim.validation.ingest.NcclTestsPrinter.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every nccl-tests release family's text output, as {@link NcclTestsPrinter} writes it from that release's format
 * strings (tag, file and line cited there), for every collective the release has: the reader must get the
 * collective, rank and host counts, sizes, counts and times. Expected sizes and counts come from nccl-tests'
 * getCollByteCount rules ({@link NcclTestsPrinter#sizeCount}), times from the made-up line
 * {@link NcclTestsPrinter#timeUs} within the printed precision, ranks and hosts from the run's shape.
 */
class NcclTestsFormatsTest {

    private static final String GPU = "NVIDIA H100 80GB HBM3";

    /** The collectives of each family: src/*.cu of its tag (gather.cu first in v2.11.0, hypercube in v2.10.0). */
    static List<String> collectives(Family f) {
        List<String> c = new ArrayList<>(List.of("all_reduce", "all_gather", "broadcast", "reduce", "reduce_scatter"));
        if (f.atLeast(Family.V2_10)) {
            c.addAll(List.of("alltoall", "sendrecv", "scatter"));
        }
        if (f.atLeast(Family.V2_13_0)) {
            c.add("gather");
        }
        return c;
    }

    static Stream<Arguments> everyCollective() {
        List<Arguments> a = new ArrayList<>();
        for (Family f : Family.values()) {
            for (String c : collectives(f)) {
                a.add(Arguments.of(f, c));
            }
        }
        return a.stream();
    }

    /**
     * 2 hosts x 8 GPUs, one process per GPU (mpirun -np 16 -g 1), float, sum, checked, with the command line when the
     * release prints no 'Collective test starting' (so gather and scatter, which no table tells apart, are named).
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyCollective")
    void everyFamilyAndCollective(Family f, String coll) throws Exception {
        Run r = new Run(f, coll, 2, 8, false, List.of("float"), List.of("sum"), true, false, 0, true);
        List<Dataset> ds = NcclTestsTextReader.read(coll + ".txt", NcclTestsPrinter.print(r));
        assertEquals(1, ds.size(), () -> names(ds));
        check(r, ds.get(0), "float");
    }

    /**
     * The same runs with nothing but nccl-tests' own output (no command line): the collective then comes from the
     * 'Collective test starting' line (v2.16.7+) or from the table's columns (redop, root, size = n x count x 4).
     * Gather and scatter print the same columns, so they are left to the named case above.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyCollective")
    void outputAlone(Family f, String coll) throws Exception {
        if (!f.atLeast(Family.V2_16_7) && (coll.equals("gather") || coll.equals("scatter"))) {
            return;
        }
        Run r = new Run(f, coll, 2, 8, false, List.of("float"), List.of("sum"), true, false, 0, false);
        List<Dataset> ds = NcclTestsTextReader.read(coll + ".txt", NcclTestsPrinter.print(r));
        assertEquals(1, ds.size(), () -> names(ds));
        if (f == Family.V2_13_0 && coll.equals("alltoall")) {
            // v2.13.0 prints alltoall as all_gather: blank op, root -1, count = size / (16 x 4), factor 15/16 and the
            // in-place half checked (common.cu:532 tests datacheck; from v2.13.1 reportErrors gives alltoall N/A)
            assertEquals(Collective.ALL_GATHER, ds.get(0).collective());
            assertTrue(ds.get(0).notes().stream().anyMatch(n -> n.text().contains("all_gather or alltoall")),
                    () -> ds.get(0).notes().toString());
            return;
        }
        check(r, ds.get(0), "float");
    }

    static Stream<Family> families() {
        return Stream.of(Family.values());
    }

    /** -g 8: one process drives 8 GPUs of one host (one Pid on every rank line): 8 ranks, 1 host. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void oneProcessEightGpus(Family f) throws Exception {
        Run r = new Run(f, "all_reduce", 1, 8, true, List.of("float"), List.of("sum"), true, false, 0, false);
        Dataset d = NcclTestsTextReader.read("g8.txt", NcclTestsPrinter.print(r)).get(0);
        check(r, d, "float");
    }

    /**
     * -d all, -o all, -c 0, -z 1 and -G 10 at once: one table holds a block of rows per type and op, each block a
     * dataset (3 types x 4 ops for all_reduce), every half N/A.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void allTypesAllOpsUncheckedBlocking(Family f) throws Exception {
        List<String> types = List.of(f == Family.V2_0 ? "char" : "int8", "float", "double");
        Run r = new Run(f, "all_reduce", 4, 4, false, types, List.of("sum", "prod", "max", "min"), false, true,
                f.atLeast(Family.V2_13_0) ? 10 : 0, false);
        List<Dataset> ds = NcclTestsTextReader.read("all.txt", NcclTestsPrinter.print(r));
        assertEquals(12, ds.size(), () -> names(ds));
        for (int i = 0; i < 12; i++) {
            check(r, ds.get(i), types.get(i / 4));
            assertEquals(List.of("sum", "prod", "max", "min").get(i % 4), ds.get(i).points().get(0).redop());
            for (PerfPoint p : ds.get(i).points()) {
                assertNull(p.outOfPlace().wrong(), "-c 0 prints N/A");
                assertNull(p.inPlace().wrong(), "-c 0 prints N/A");
            }
        }
    }

    /** -d all for a collective without redop (all_gather): a dataset per type. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void allTypesWithoutRedop(Family f) throws Exception {
        List<String> types = List.of("float", "double");
        Run r = new Run(f, "all_gather", 2, 4, true, types, List.of("sum"), true, false, 0, false);
        List<Dataset> ds = NcclTestsTextReader.read("ag.txt", NcclTestsPrinter.print(r));
        assertEquals(2, ds.size(), () -> names(ds));
        check(r, ds.get(0), "float");
        check(r, ds.get(1), "double");
    }

    /**
     * -C 1 (report_cputime, v2.19.6 util.cu:743): both halves' time columns are headed {@code %7s} of "cputime";
     * that time is the host's enqueue time (common.cu BenchTime), but algbw is the GPU time's, so the reader gives
     * each row the time the printer chose for it (20 us + 1 us per 50 KB, the same table headed "time"), to within
     * what the printed algbw's two decimals allow (0.005 / (algbw - 0.005) of it) and the printed time's 0.005 us;
     * rows whose algbw prints as 0.00 (none in this table) would be dropped.
     */
    @Test
    void cputimeTableTakesTheGpuTimeFromAlgbw() throws Exception {
        Run r = new Run(Family.V2_19_6, "all_reduce", 2, 8, false, List.of("float"), List.of("sum"), true, false, 0,
                false);
        String gpu = NcclTestsPrinter.print(r);
        String text = gpu.replace("     time   algbw", "  cputime   algbw");
        assertEquals(2, text.split("cputime", -1).length - 1, "both halves renamed");
        List<PerfPoint> printed = NcclTestsTextReader.read("t.txt", gpu).get(0).points();
        List<PerfPoint> read = NcclTestsTextReader.read("c.txt", text).get(0).points();
        List<PerfPoint> timed = printed.stream().filter(p -> p.outOfPlace().algBw() > 0.005).toList();
        assertEquals(timed.size(), read.size());
        assertTrue(read.size() >= 2, "rows above 0.00 GB/s");
        for (int i = 0; i < read.size(); i++) {
            double t = timed.get(i).outOfPlace().timeUs();
            double alg = timed.get(i).outOfPlace().algBw();
            assertEquals(t, read.get(i).outOfPlace().timeUs(), t * 0.005 / (alg - 0.005) + 0.005, "row " + i);
        }
    }

    /**
     * hypercube_perf (v2.10.0+ src/hypercube.cu) is no collective collsim models: named by the command line or by
     * 'Collective test starting' (v2.16.7+), its table is refused with the line that names it, not read as the
     * all_gather its columns resemble (blank op, root -1, size = n x count).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void hypercubeIsRefused(Family f) {
        if (!f.atLeast(Family.V2_10)) {
            return;
        }
        Run r = new Run(f, "hypercube", 2, 8, false, List.of("float"), List.of("sum"), true, false, 0, true);
        String text = NcclTestsPrinter.print(r);
        InputException e = assertThrows(InputException.class, () -> NcclTestsTextReader.read("hc.txt", text));
        assertEquals(1, e.problems().size(), e::getMessage);
        String cited = text.split("\n")[e.problems().get(0).line() - 1];
        assertTrue(cited.contains("hypercube_perf"), "the cited line names it: " + cited);
        assertTrue(e.getMessage().contains("found hypercube_perf"), e::getMessage);
        assertTrue(e.getMessage().contains("allowed: all_reduce"), e::getMessage);
    }

    static void check(Run r, Dataset d, String type) {
        String what = r.family().tag + " " + r.coll() + " " + type + ": " + d.label() + " " + d.notes();
        assertEquals(Collective.parse(r.coll()), d.collective(), what);
        assertEquals(r.ranks(), d.nRanks(), what);
        assertEquals(r.hosts(), d.nHosts(), what);
        assertEquals(GPU, d.gpuModel(), what);
        assertEquals(DataType.parse(type), d.dataType(), what);
        assertEquals(NcclTestsPrinter.REQUESTED.length, d.points().size(), what);
        int word = NcclTestsPrinter.wordSize(type);
        for (int i = 0; i < d.points().size(); i++) {
            PerfPoint p = d.points().get(i);
            long[] sc = NcclTestsPrinter.sizeCount(r.coll(), NcclTestsPrinter.REQUESTED[i], word, r.ranks());
            assertEquals(sc[0], p.sizeBytes(), what);
            assertEquals(sc[1], p.count(), what);
            double t = NcclTestsPrinter.timeUs(sc[0]);
            // printed as %7.2f below 100 us, %7.1f below 10 ms: within 0.005 us or 0.05 us
            assertEquals(t, p.outOfPlace().timeUs(), 0.051, what);
            assertEquals(t, p.inPlace().timeUs(), 0.051, what);
            double alg = sc[0] / 1e3 / t;
            assertEquals(alg, p.outOfPlace().algBw(), 0.0051, what);
            assertEquals(alg * NcclTestsPrinter.busFactor(r.coll(), r.ranks()), p.outOfPlace().busBw(), 0.0051, what);
        }
        assertTrue(d.warnings().isEmpty(), () -> what + " warnings " + d.warnings());
    }

    private static String names(List<Dataset> ds) {
        return ds.stream().map(d -> d.label() + " " + d.collective()).toList().toString();
    }
}
