package dev.collsim.validation.diagnose;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.validation.ingest.MeasurementReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * nccl-tests -I JSON with per-process times (keys of nccl-tests 2.19.6 src/util.cu): process 1 takes 2x the
 * others, so diagnose names a slow rank; with equal times it does not.
 */
class SlowProcessTest {

    private static String json(String p1) {
        return """
                {"args":["./build/all_reduce_perf"],"nccl_version":22803,
                 "config":{"devices":[
                   {"rank":0,"group":0,"pid":1,"hostname":"a","device":0,"device_hex":"0000:1b:00","device_info":"NVIDIA H100 80GB HBM3"},
                   {"rank":1,"group":0,"pid":2,"hostname":"b","device":0,"device_hex":"0000:1b:00","device_info":"NVIDIA H100 80GB HBM3"},
                   {"rank":2,"group":0,"pid":3,"hostname":"c","device":0,"device_hex":"0000:1b:00","device_info":"NVIDIA H100 80GB HBM3"}]},
                 "results":[{"size":1048576,"count":262144,"type":"float","redop":"sum","root":"    -1",
                   "out_of_place":{"time":100.0,"alg_bw":10.49,"bus_bw":13.98,"nwrong":0},
                   "out_of_place_per_iter":{"per_process_max_times_us":[[50,51,52],[%s],[50,50,51]]},
                   "in_place":{"time":100.0,"alg_bw":10.49,"bus_bw":13.98,"nwrong":0}}]}
                """.formatted(p1);
    }

    private static boolean slow(String p1) throws Exception {
        var ds = MeasurementReader.read("r.json", json(p1));
        return new Diagnoser().diagnose(ds, List.of()).get(0).findings().stream()
                .anyMatch(f -> f.kind() == Finding.Kind.SLOW_RANK_OR_HOST && f.message().contains("process 1"));
    }

    @Test
    void slowProcessIsNamed() throws Exception {
        assertTrue(slow("100,101,99"));
        assertTrue(!slow("50,52,51"));
    }
}
