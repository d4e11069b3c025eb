package dev.collsim.validation.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.IterationSpread;
import dev.collsim.validation.ingest.MeasurementReader;
import dev.collsim.validation.ingest.Note;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * nccl-tests' per-iteration output ({@code -I 1}): no public or collected file holds one, so the inputs are written
 * from nccl-tests 2.19.6 {@code src/util.cu} as it prints them (the text below was produced with the printf formats
 * of {@code writeResultHeader}, {@code writeBenchmarkLinePreamble}, {@code writeBenchmarkLineBody} and
 * {@code writePerIterReport}; the JSON with the keys of {@code writePerIterReport}'s JSON branch). The 2 MiB row's
 * out-of-place iterations run 30.20 to 95.00 us (cv 25 %), the other sizes within 1.2-2.1 %.
 */
class PerIterationTest {

    private static final String TEXT = """
            # nccl-tests version 2.19.6 nccl-headers=22803 nccl-library=22803
            # Collective test starting: all_reduce_perf
            # nThread 1 nGpus 2 minBytes 1048576 maxBytes 4194304 step: 2(factor) warmup iters: 1 iters: 20 agg iters: 1 validation: 1 graph: 0 unalign: 0
            # Per-Iteration Report: CUDA event timing; i_* uses max over process rows 
            #
            # Using devices
            #  Rank  0 Group  0 Pid   4242 on     node01 device  0 [0000:1b:00] NVIDIA H100 80GB HBM3
            #  Rank  1 Group  0 Pid   4242 on     node01 device  1 [0000:43:00] NVIDIA H100 80GB HBM3
            #
            #                                                                 out-of-place (+ per-iteration)                                in-place (+ per-iteration)
            #       size         count      type   redop    root     time   algbw   busbw  #wrong    i_min    i_max    i_p99    i_cv%     time   algbw   busbw  #wrong    i_min    i_max    i_p99    i_cv% 
            #        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)     (us)     (us)      (%)     (us)  (GB/s)  (GB/s)             (us)     (us)     (us)      (%) 
                 1048576        262144     float     sum      -1    20.00   52.43   52.43       0    19.50    21.00    20.90     2.10    20.10   52.17   52.17       0    19.60    21.20    21.00     2.30
                 2097152        524288     float     sum      -1    40.00   52.43   52.43       0    30.20    95.00    94.00    25.00    33.00   63.55   63.55       0    31.00    36.00    35.50     3.00
                 4194304       1048576     float     sum      -1    60.00   69.91   69.91       0    59.00    61.50    61.40     1.20    60.20   69.67   69.67       0    59.10    61.60    61.50     1.30
            # Out of bounds values : 0 OK
            # Avg bus bandwidth    : 59.3 
            #
            # Collective test concluded: all_reduce_perf
            """;

    private static final String JSON = """
            {"version":3,"args":["./build/all_reduce_perf","-I","1"],"nccl_version":22803,
             "config":{"nthreads":1,"ngpus":2,"per_iter_timing":"true","devices":[
               {"rank":0,"group":0,"pid":1,"hostname":"a","device":0,"device_hex":"0000:1b:00","device_info":"NVIDIA H100 80GB HBM3"},
               {"rank":1,"group":0,"pid":1,"hostname":"a","device":1,"device_hex":"0000:43:00","device_info":"NVIDIA H100 80GB HBM3"}]},
             "results":[
              {"size":1048576,"count":262144,"type":"float","redop":"sum","root":"    -1",
               "out_of_place":{"time":20.0,"alg_bw":52.43,"bus_bw":52.43,"nwrong":0},
               "out_of_place_per_iter":{"skipped_iterations":0,"min_us":19.5,"max_us":21.0,"avg_us":20.0,"p50_us":20.0,
                 "p95_us":20.8,"p99_us":20.9,"stdev_us":0.42,"cv_pct":2.1,"times_us":[19.5,20.0,21.0]},
               "in_place":{"time":20.1,"alg_bw":52.17,"bus_bw":52.17,"nwrong":0},
               "actual_iterations":20,"experiment_name":"AllReduce"},
              {"size":2097152,"count":524288,"type":"float","redop":"sum","root":"    -1",
               "out_of_place":{"time":40.0,"alg_bw":52.43,"bus_bw":52.43,"nwrong":0},
               "out_of_place_per_iter":{"skipped_iterations":0,"min_us":30.2,"max_us":95.0,"avg_us":40.0,"p50_us":31.0,
                 "p95_us":90.0,"p99_us":94.0,"stdev_us":10.0,"cv_pct":25.0,"times_us":[30.2,31.0,95.0]},
               "in_place":{"time":33.0,"alg_bw":63.55,"bus_bw":63.55,"nwrong":0},
               "actual_iterations":20,"experiment_name":"AllReduce"}],
             "out_of_bounds":{"count":0,"okay":"true"},"average_bus_bandwidth":{"bandwidth":55.1,"okay":"unchecked"}}
            """;

    /** 95.0 / 30.2 = 3.146 -> "x3.15". */
    private static final String EXPECTED = "per-iteration spread: at 2097152 B the iterations take 30.2 to 95.0 us"
            + " (x3.15, p99 94.0 us, cv 25.0 %%); 1 of %d sizes vary by cv >= 10 %%";

    /** The text table: three rows read with their times, one note on the 2 MiB row (line 14), one finding. */
    @Test
    void textColumnsNameTheSpread() throws Exception {
        List<Dataset> ds = MeasurementReader.read("ar-iter.txt", TEXT);
        Dataset d = ds.get(0);
        assertEquals(List.of(20.0, 40.0, 60.0), d.points().stream().map(p -> p.primary().timeUs()).toList());
        List<Note> spread = d.notes().stream().filter(n -> n.text().startsWith(IterationSpread.PREFIX)).toList();
        assertEquals(List.of(new Note(14, String.format(EXPECTED, 3))), spread);
        assertTrue(findings(ds).contains(Finding.Kind.ITERATION_SPREAD));
    }

    /** The -J JSON of the same run (two sizes): the same note, no line. */
    @Test
    void jsonPerIterNamesTheSpread() throws Exception {
        List<Dataset> ds = MeasurementReader.read("ar-iter.json", JSON);
        List<Note> spread = ds.get(0).notes().stream().filter(n -> n.text().startsWith(IterationSpread.PREFIX))
                .toList();
        assertEquals(List.of(new Note(0, String.format(EXPECTED, 2))), spread);
        assertTrue(findings(ds).contains(Finding.Kind.ITERATION_SPREAD));
    }

    /** Steady iterations (the 2 MiB row left out) earn no finding. */
    @Test
    void steadyRunsAreQuiet() throws Exception {
        String steady = TEXT.lines().filter(l -> !l.strip().startsWith("2097152")).reduce("", (a, b) -> a + b + "\n");
        assertTrue(!findings(MeasurementReader.read("ar-steady.txt", steady)).contains(Finding.Kind.ITERATION_SPREAD));
    }

    private static List<Finding.Kind> findings(List<Dataset> ds) {
        return new Diagnoser().diagnose(ds, List.of()).get(0).findings().stream().map(Finding::kind).toList();
    }
}
