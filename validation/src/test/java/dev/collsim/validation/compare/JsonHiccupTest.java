package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.diagnose.Diagnoser;
import dev.collsim.validation.diagnose.Finding;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.MeasurementReader;
import dev.collsim.validation.ingest.PerfPoint;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * nccl-tests {@code -J} writes its whole JSON on one line (nccl-tests 2.19.6 {@code src/util.cu}: {@code jsonKey},
 * {@code jsonStartObject} print no newline), so no line tells its results apart. A one-off hiccup must leave out
 * that one point, not every point: compare's statistics left out all 5 rows of such a file and printed "-". Rows are
 * those of the DGX H100 2x2 file (lines 29-33: 4 KiB to 64 KiB), whose 16 KiB out-of-place time 291.4 us is 11.8x
 * its in-place 24.76 us (line 31), diagnose's halves rule (more than 2x).
 */
class JsonHiccupTest {

    private static String row(long size, double oop, double ip, double oopBus, double ipBus) {
        return "{\"size\":" + size + ",\"count\":" + size / 4 + ",\"type\":\"float\",\"redop\":\"sum\",\"root\":\"    -1\","
                + "\"out_of_place\":{\"time\":" + oop + ",\"alg_bw\":0,\"bus_bw\":" + oopBus + ",\"nwrong\":0},"
                + "\"in_place\":{\"time\":" + ip + ",\"alg_bw\":0,\"bus_bw\":" + ipBus + ",\"nwrong\":0}}";
    }

    private static final String ONE_LINE = "{\"version\":1,\"args\":[\"./build/all_reduce_perf\",\"-b\",\"4K\",\"-e\",\"64K\","
            + "\"-f\",\"2\"],\"nccl_version\":22005,\"config\":{\"nthreads\":1,\"ngpus\":2,\"devices\":["
            + "{\"rank\":0,\"group\":0,\"pid\":1,\"hostname\":\"node01\",\"device\":0,\"device_hex\":\"0000:1b:00\","
            + "\"device_info\":\"NVIDIA H100 80GB HBM3\"},"
            + "{\"rank\":1,\"group\":0,\"pid\":1,\"hostname\":\"node01\",\"device\":1,\"device_hex\":\"0000:43:00\","
            + "\"device_info\":\"NVIDIA H100 80GB HBM3\"},"
            + "{\"rank\":2,\"group\":0,\"pid\":2,\"hostname\":\"node02\",\"device\":0,\"device_hex\":\"0000:1b:00\","
            + "\"device_info\":\"NVIDIA H100 80GB HBM3\"},"
            + "{\"rank\":3,\"group\":0,\"pid\":2,\"hostname\":\"node02\",\"device\":1,\"device_hex\":\"0000:43:00\","
            + "\"device_info\":\"NVIDIA H100 80GB HBM3\"}]},\"results\":["
            + String.join(",", row(4096, 19.19, 18.84, 0.32, 0.33), row(8192, 20.21, 19.61, 0.61, 0.63),
                    row(16384, 291.4, 24.76, 0.08, 0.99), row(32768, 29.22, 29.55, 1.68, 1.66),
                    row(65536, 39.91, 40.58, 2.46, 2.42)) + "]}";

    @Test
    void oneHiccupLeavesOutOnePointOfAOneLineJsonFile() throws Exception {
        Dataset d = MeasurementReader.read("ar.json", ONE_LINE).get(0);
        assertEquals(5, d.points().size());
        List<PerfPoint> left = Comparer.leftOut(d);
        assertEquals(1, left.size(), left.toString());
        assertEquals(16384, left.get(0).sizeBytes());
        DatasetComparison c = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null).compare(d,
                Optional.empty());
        assertEquals(List.of(16384L), c.leftOut().stream().map(PointComparison::sizeBytes).toList());
        assertEquals(4, c.overall().n(), "every row but the hiccup counts");
    }

    /** Its evidence names the point by size and times, not by a line the file does not have. */
    @Test
    void theHiccupsEvidenceNamesThePoint() throws Exception {
        Dataset d = MeasurementReader.read("ar.json", ONE_LINE).get(0);
        List<Finding> f = Diagnoser.hiccups(d);
        assertEquals(1, f.size());
        assertTrue(f.get(0).message().startsWith("out-of-place 291.4 us at 16384 bytes is 11.8x the in-place 24.8 us"),
                f.get(0).message());
        assertEquals("ar.json: size 16384 B: out-of-place 291.40 us, busbw 0.08 GB/s; in-place 24.76 us, busbw 0.99 GB/s",
                f.get(0).evidence().get(0).toString());
    }
}
