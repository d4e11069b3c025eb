package dev.collsim.validation.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.MeasurementReader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A run that stops at small sizes says nothing about bandwidth: collsim's 2x H200 INFO-log run (AllReduce 8 B ..
 * 256 KiB, NV18 between the GPUs) peaks at 9.92 busbw GB/s only because 256 KiB is latency-bound; the same machine's
 * 8 B .. 8 GiB nccl-tests run (nccl-tests-all_reduce.txt)
 * reaches 344.13 GB/s busbw at 8 GiB. No "NVLink not used" for it.
 */
class LatencyBoundRunTest {

    private static final Path DIR = Path.of("../data/device/h200x2-2026-11-29");

    @Test
    void smallSizesAloneAreNotJudgedOnBandwidth() throws Exception {
        List<Dataset> ds = MeasurementReader.read(DIR.resolve("nccl-info-allreduce.txt"));
        assertEquals(262144L, ds.get(0).largest().orElseThrow().sizeBytes());
        List<Finding.Kind> kinds = new Diagnoser().diagnose(ds, List.of()).get(0).findings().stream()
                .map(Finding::kind).toList();
        assertTrue(!kinds.contains(Finding.Kind.NVLINK_NOT_USED) && !kinds.contains(Finding.Kind.FAR_BELOW_BOUND),
                kinds.toString());
    }
}
