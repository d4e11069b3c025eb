package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.collsim.nccl.Collective;
import org.junit.jupiter.api.Test;

/** nccl-tests -J JSON (keys of nccl-tests 2.19.6 src/util.cu) and collsim run JSON (executor's PerfRun keys). */
class JsonMeasurementReaderTest {

    @Test
    void ncclTestsJson() throws Exception {
        String json = """
                {"version":2,"start_time":"2026-01-01 00:00:00","args":["./build/all_gather_perf","-b","8"],
                 "env":["NCCL_ALGO=Ring","PATH=/bin"],"nccl_version":22803,
                 "config":{"nthreads":1,"ngpus":2,"devices":[
                   {"rank":0,"group":0,"pid":5,"hostname":"h0","device":0,"device_hex":"0000:1b:00","device_info":"NVIDIA H200"},
                   {"rank":1,"group":0,"pid":5,"hostname":"h0","device":1,"device_hex":"0000:43:00","device_info":"NVIDIA H200"}]},
                 "results":[{"size":1048576,"count":131072,"type":"float","redop":"none","root":"    -1",
                   "out_of_place":{"time":10.5,"alg_bw":99.86,"bus_bw":49.93,"nwrong":0},
                   "in_place":{"time":10.1,"alg_bw":103.82,"bus_bw":51.91,"nwrong":null},
                   "actual_iterations":20,"experiment_name":"all_gather"}],
                 "average_bus_bandwidth":{"bandwidth":50.92,"okay":"unchecked"}}
                """;
        Dataset d = MeasurementReader.read("r.json", json).get(0);
        assertEquals(Collective.ALL_GATHER, d.collective());
        assertEquals(2, d.nRanks());
        assertEquals("2.28.3", d.ncclRelease().text());
        assertEquals("Ring", d.env().get("NCCL_ALGO"));
        assertEquals(10.5, d.points().get(0).outOfPlace().timeUs(), 0);
        assertNull(d.points().get(0).inPlace().wrong());
        assertEquals(50.92, d.avgBusBw(), 0);
        assertEquals(DatasetKind.NCCL_TESTS_JSON, d.kind());
        assertEquals(new LaunchShape(1, 2, 0, 0), d.launch(), "no iterations in config: timed calls not said");
    }

    /**
     * The timed calls per run come from the {@code config} object, {@code iterations} x {@code aggregated_iterations}
     * (nccl-tests 2.19.6 {@code src/util.cu} writes them from -n and -m; collsim run's RunConfig has the same keys):
     * -n 5 -m 3 is 15 calls, -n 50 without aggregated_iterations 50, -n 0 (which nccl-tests does not refuse) not said,
     * and a product beyond an int (65536 x 65536 = 2^32) not said.
     */
    @Test
    void timedCallsFromConfig() throws Exception {
        assertEquals(new LaunchShape(1, 8, 0, 15), launchOf("\"iterations\":5,\"aggregated_iterations\":3"));
        assertEquals(new LaunchShape(1, 8, 0, 50), launchOf("\"iterations\":50"));
        assertEquals(new LaunchShape(1, 8, 0, 0), launchOf("\"iterations\":0,\"aggregated_iterations\":1"));
        assertEquals(new LaunchShape(1, 8, 0, 0), launchOf("\"iterations\":65536,\"aggregated_iterations\":65536"));
        assertEquals(46340 * 46340, LaunchShape.timedCalls(46340, 46340), "2147395600 still fits an int");
        String run = """
                {"tool":"collsim-run","collective":"all_reduce","n_ranks":1,
                 "config":{"nthreads":1,"ngpus":1,"iterations":40,"aggregated_iterations":2,"graph":0},
                 "results":[{"collective":"all_reduce","type":"float","redop":"sum","root":-1,"n_ranks":1,
                   "size":1024,"count":256,"out_of_place":{"time":5.0,"alg_bw":0.2,"bus_bw":0.0,"nwrong":0},
                   "in_place":null}],
                 "average_bus_bandwidth":0.0,"out_of_bounds":0,"metadata":{"gpus":[]},"errors":[]}
                """;
        assertEquals(new LaunchShape(1, 1, 0, 80), MeasurementReader.read("run.json", run).get(0).launch());
    }

    /**
     * @param config {@code config} fields of an nccl-tests {@code -J} result besides nthreads 1, ngpus 8, graph 0 and
     *               one device, e.g. {@code "iterations":20}
     * @return the launch shape the reader takes from that one-result file
     */
    static LaunchShape launchOf(String config) throws Exception {
        String json = """
                {"args":["./build/all_reduce_perf","-g","8"],"nccl_version":22803,
                 "config":{"nthreads":1,"ngpus":8,%s,"graph":0,"devices":[
                   {"rank":0,"group":0,"pid":5,"hostname":"h0","device":0,"device_hex":"0","device_info":"NVIDIA H100"}]},
                 "results":[{"size":1024,"count":256,"type":"float","redop":"sum","root":"    -1",
                   "out_of_place":{"time":30.5,"alg_bw":0.03,"bus_bw":0.06,"nwrong":0},"in_place":null,
                   "actual_iterations":20,"experiment_name":"all_reduce"}]}
                """.formatted(config);
        return MeasurementReader.read("r.json", json).get(0).launch();
    }

    @Test
    void collsimRunJson() throws Exception {
        String json = """
                {"tool":"collsim-run","collective":"all_reduce","n_ranks":1,"config":{},
                 "results":[{"collective":"all_reduce","type":"float","redop":"sum","root":-1,"n_ranks":1,
                   "size":536870912,"count":134217728,
                   "out_of_place":{"time":255.7,"alg_bw":2099.6,"bus_bw":0.0,"nwrong":0},"in_place":null}],
                 "average_bus_bandwidth":0.0,"out_of_bounds":0,
                 "metadata":{"nccl_version":"2.28.3","nccl_env":{"NCCL_NVLS_ENABLE":"0"},"hostnames":["h"],
                   "gpus":[{"rank":0,"hostname":"h","pid":1,"device":0,"bus_id":"0000:1b:00.0","name":"NVIDIA H200"}],
                   "nccl_log":["h:1:1 [0] NCCL INFO 16 coll channels, 0 collnet channels, 0 nvls channels, 16 p2p channels, 16 p2p channels per peer"]},
                 "errors":[]}
                """;
        Dataset d = MeasurementReader.read("run.json", json).get(0);
        assertEquals(DatasetKind.COLLSIM_RUN_JSON, d.kind());
        assertEquals("0", d.env().get("NCCL_NVLS_ENABLE"));
        assertEquals(255.7, d.points().get(0).outOfPlace().timeUs(), 0);
        assertEquals(16, d.log().lastChannelCounts().orElseThrow().coll());
        assertEquals("NVIDIA H200", d.gpuModel());
        // collsim run --sweep-env writes an array of runs, one per setting
        String two = "[" + json.replace("\"nccl_log\"", "\"settings\":\"NCCL_ALGO=Ring\",\"nccl_log\"") + ","
                + json + "]";
        var ds = MeasurementReader.read("sweep.json", two);
        assertEquals(2, ds.size());
        assertEquals("Ring", ds.get(0).env().get("NCCL_ALGO"));
        assertEquals("collsim run 1 (NCCL_ALGO=Ring)", ds.get(0).label());
    }
}
