package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.perf.PerfJson;
import dev.collsim.perf.PerfResult;
import dev.collsim.perf.PerfRow;
import dev.collsim.perf.PerfRun;
import dev.collsim.perf.RunConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * nccl-tests {@code -C 1} tables, hand-made in nccl-tests 2.19.6's format ({@code src/util.cu writeResultHeader}
 * heads both time columns "cputime"; {@code writeBenchmarkLineBody} prints time %7s, algbw and busbw %6s of
 * {@code getFloatStr}, two decimals). The GPU times behind the rows are chosen by hand, algbw = size / time / 1e3
 * (GB/s from bytes and microseconds, {@code src/all_reduce.cu AllReduceGetBw}: baseBw = count x typesize / 1e9 / sec)
 * printed to two decimals, busbw = algbw x 2 x 7 / 8; the cputime cells are the host's enqueue time, unrelated. The
 * reader must give back size / printed algbw, not the cputime.
 */
class CpuTimeTest {

    private static final String HEAD = """
            # Collective test starting: all_reduce_perf
            # nThread 1 nGpus 8 minBytes 8 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
            #
            # Using devices
            #  Rank  0 Group  0 Pid 1 on h device  0 [0000:18:00] NVIDIA H100 80GB HBM3
            #  Rank  1 Group  0 Pid 1 on h device  1 [0000:2a:00] NVIDIA H100 80GB HBM3
            #  Rank  2 Group  0 Pid 1 on h device  2 [0000:3a:00] NVIDIA H100 80GB HBM3
            #  Rank  3 Group  0 Pid 1 on h device  3 [0000:5d:00] NVIDIA H100 80GB HBM3
            #  Rank  4 Group  0 Pid 1 on h device  4 [0000:9a:00] NVIDIA H100 80GB HBM3
            #  Rank  5 Group  0 Pid 1 on h device  5 [0000:ab:00] NVIDIA H100 80GB HBM3
            #  Rank  6 Group  0 Pid 1 on h device  6 [0000:ba:00] NVIDIA H100 80GB HBM3
            #  Rank  7 Group  0 Pid 1 on h device  7 [0000:db:00] NVIDIA H100 80GB HBM3
            #
            #                                                              out-of-place                       in-place
            #       size         count      type   redop    root  cputime   algbw   busbw  #wrong  cputime   algbw   busbw  #wrong
            #        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)
            """;

    /**
     * Line 15 is the header (14 lines above it: 4, 8 rank lines, 2); its cputime column starts at 55: "# %10s  %12s
     * %8s  %6s  %6s  " is 2 + 10 + 2 + 12 + 2 + 8 + 2 + 6 + 2 + 6 + 2 = 54 characters. The rows are lines 17 to 20.
     */
    private static final int HEADER_LINE = 15;

    /**
     * 8 B at a GPU time of 20 us: algbw 0.0004 prints 0.00, no time; 8192 B at 25 us: algbw 0.32768 prints 0.33,
     * busbw 0.57344 prints 0.57; 1 MiB at 20 us: 52.4288 prints 52.43, busbw 91.7504 prints 91.75; 1 GiB at 5000 us:
     * 214.748 prints 214.75, busbw 375.809 prints 375.81.
     */
    private static final String ROWS = """
                       8             2     float     sum      -1     4.10    0.00    0.00       0     4.05    0.00    0.00       0
                    8192          2048     float     sum      -1     4.31    0.33    0.57       0     4.22    0.33    0.57       0
                 1048576        262144     float     sum      -1     5.12   52.43   91.75       0     5.02   52.43   91.75       0
              1073741824     268435456     float     sum      -1     7.90  214.75  375.81       0     7.88  214.75  375.81       0
            # Out of bounds values : 0 OK
            # Avg bus bandwidth    : 116.032
            """;

    @Test
    void timesAreSizeOverThePrintedAlgbw() throws Exception {
        List<Dataset> ds = NcclTestsTextReader.read("c.txt", HEAD + ROWS);
        assertEquals(1, ds.size());
        Dataset d = ds.get(0);
        assertEquals(3, d.points().size(), "the 8 B row, algbw 0.00, has no time and is dropped");
        // 8192 / 0.33 = 24824.24 ns; 1048576 / 52.43 = 20000 - 24 / 52.43 = 19999.542 ns;
        // 1073741824 / 214.75 = 5000000 - 8176 / 214.75 = 4999961.93 ns
        double[] expected = {24.82424, 19.99954, 4999.96193};
        for (int i = 0; i < 3; i++) {
            assertEquals(expected[i], d.points().get(i).outOfPlace().timeUs(), 1e-4, "out-of-place " + i);
            assertEquals(expected[i], d.points().get(i).inPlace().timeUs(), 1e-4, "in-place " + i);
        }
        assertEquals(18, d.points().get(0).line());
        assertEquals(8, d.nRanks());
        Note n = d.notes().stream().filter(x -> x.text().startsWith(Note.CPU_TIME)).findFirst().orElseThrow();
        assertEquals(HEADER_LINE, n.line());
        assertTrue(n.text().contains("1 row(s) whose algbw is printed as 0 dropped (the first at line 17)"), n::text);
    }

    /**
     * 0.33 stands for [0.325, 0.335): the time can be 0.005 / 0.325 = 1.54 % longer than 8192 / 0.33; 52.43 bounds
     * it by 0.005 / 52.425 = 0.0095 %, under the 1 % from which a point is singled out, so quiet from 1 MiB.
     */
    @Test
    void thePrintedDecimalsBoundTheDerivedTime() throws Exception {
        PrintedRounding r = NcclTestsTextReader.read("c.txt", HEAD + ROWS).get(0).rounding();
        assertTrue(r.present());
        assertEquals(0.005 / 0.325, r.worstFraction(), 1e-12);
        assertEquals(8192, r.worstBytes());
        assertEquals(18, r.worstLine());
        assertEquals(1048576, r.quietFromBytes());
    }

    /** A table timed on the GPU (header "time") keeps its time column and carries no -C note. */
    @Test
    void aGpuTimedTableIsReadAsPrinted() throws Exception {
        Dataset d = NcclTestsTextReader.read("t.txt", (HEAD + ROWS).replace("cputime", "   time")).get(0);
        assertEquals(4, d.points().size());
        assertEquals(5.12, d.points().get(2).outOfPlace().timeUs(), 0);
        assertTrue(d.notes().stream().noneMatch(x -> x.text().startsWith(Note.CPU_TIME)));
        assertTrue(!d.rounding().present());
    }

    /** Every algbw printed as 0.00: no time can be had, the table is refused at its first cputime column. */
    @Test
    void aTableWithNoAlgbwIsRefusedAtItsCputimeColumn() {
        String rows = ROWS.lines().filter(l -> l.contains("     8             2") || l.startsWith("#"))
                .reduce("", (a, b) -> a + b + "\n");
        InputException e = assertThrows(InputException.class, () -> NcclTestsTextReader.read("c.txt", HEAD + rows));
        assertEquals(1, e.problems().size(), e::getMessage);
        InputProblem p = e.problems().get(0);
        assertEquals(HEADER_LINE, p.line());
        assertEquals(55, p.column());
        assertEquals("time", p.field());
        assertTrue(p.message().startsWith("found 'cputime' (nccl-tests -C 1") && p.message().contains("allowed: time"),
                p.message());
    }

    /**
     * -J JSON keys the -C 1 time "cpu_time" (2.19.6 src/util.cu writeBenchmarkLineBody) and writes alg_bw with %lf:
     * 1048576 / 99.86 = 10500.46 ns, 1048576 / 103.82 = 10099.94 ns; a result whose alg_bw is 0 is dropped.
     */
    @Test
    void cpuTimeJsonTakesItsTimesFromAlgBw() throws Exception {
        Dataset d = MeasurementReader.read("c.json", """
                {"nccl_version":22809,"config":{"nthreads":1,"ngpus":2,"devices":[
                   {"rank":0,"group":0,"pid":5,"hostname":"h0","device":0,"device_hex":"0000:1b:00","device_info":"NVIDIA H200"},
                   {"rank":1,"group":0,"pid":5,"hostname":"h0","device":1,"device_hex":"0000:43:00","device_info":"NVIDIA H200"}]},
                 "args":["./build/all_reduce_perf","-C","1"],
                 "results":[{"size":8,"count":2,"type":"float","redop":"sum","root":"    -1",
                   "out_of_place":{"cpu_time":3.0,"alg_bw":0.000000,"bus_bw":0.000000,"nwrong":0},
                   "in_place":{"cpu_time":3.0,"alg_bw":0.000000,"bus_bw":0.000000,"nwrong":0}},
                  {"size":1048576,"count":262144,"type":"float","redop":"sum","root":"    -1",
                   "out_of_place":{"cpu_time":3.2,"alg_bw":99.860000,"bus_bw":99.860000,"nwrong":0},
                   "in_place":{"cpu_time":3.1,"alg_bw":103.820000,"bus_bw":103.820000,"nwrong":0}}]}
                """).get(0);
        assertEquals(1, d.points().size());
        assertEquals(10.50046, d.points().get(0).outOfPlace().timeUs(), 1e-5);
        assertEquals(10.09994, d.points().get(0).inPlace().timeUs(), 1e-5);
        assertTrue(d.notes().stream().anyMatch(x -> x.text().startsWith(Note.CPU_TIME)), () -> d.notes().toString());
        assertTrue(d.notes().stream().anyMatch(x -> x.isWarning() && x.text().contains("results[0]")),
                () -> d.notes().toString());
    }

    /**
     * A collsim run written with -C 1 -J ({@link PerfJson} keys its times cpu_time, as nccl-tests does) is read as
     * nccl-tests' -C 1 JSON is: each time is size / alg_bw, 1048576 B / 99.86 GB/s = 10500.46 ns, not the 3.2 us of
     * host enqueue time, and compare's assumptions say so.
     */
    @Test
    void collsimRunWithCpuTimeIsReadFromAlgBw() throws Exception {
        PerfRow row = new PerfRow("all_reduce", "float", "sum", -1, 2, 1048576, 262144,
                new PerfResult(3.2, 99.86, 99.86, 0L), new PerfResult(3.1, 103.82, 103.82, 0L), null);
        PerfRun run = new PerfRun("collsim-run", "all_reduce", 2,
                new RunConfig(1, 2, 1048576, 1048576, 2, 0, 5, 20, 1, 1, 0, 0, 1, 0, true), List.of(row), 101.84, 0,
                null, List.of());
        Dataset d = MeasurementReader.read("run.json", PerfJson.toJson(run)).get(0);
        assertEquals(DatasetKind.COLLSIM_RUN_JSON, d.kind());
        assertEquals(10.50046, d.points().get(0).outOfPlace().timeUs(), 1e-5);
        assertEquals(10.09994, d.points().get(0).inPlace().timeUs(), 1e-5);
        assertTrue(d.notes().stream().anyMatch(x -> x.text().startsWith(Note.CPU_TIME)), () -> d.notes().toString());
    }
}
