package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Real outputs of the executor and of nccl-tests on the lent H200 (data/device, committed by the executor's
 * helper): one rank, where count = size for every collective, and nccl-tests -d all -o all tables.
 */
class ExecutorOutputTest {

    private static final Path DEVICE = Path.of("../data/device");

    /** 1-rank all_gather (line 8 says all_gather_perf; 2 MiB row at line 26: 6.51 us out-of-place). */
    @Test
    void oneRankAllGatherText() throws Exception {
        Dataset d = MeasurementReader.read(DEVICE.resolve("h200-collsim-all_gather.txt")).get(0);
        assertEquals(Collective.ALL_GATHER, d.collective());
        assertEquals(1, d.nRanks());
        PerfPoint p = d.points().stream().filter(x -> x.line() == 26).findFirst().orElseThrow();
        assertEquals(2097152L, p.sizeBytes());
        assertEquals(6.51, p.outOfPlace().timeUs(), 0);
    }

    /** The same run as collsim run JSON. */
    @Test
    void oneRankAllGatherJson() throws Exception {
        Dataset d = MeasurementReader.read(DEVICE.resolve("h200-collsim-all_gather.json")).get(0);
        assertEquals(DatasetKind.COLLSIM_RUN_JSON, d.kind());
        assertEquals(Collective.ALL_GATHER, d.collective());
        assertTrue(d.points().stream().anyMatch(p -> p.sizeBytes() == 2097152L));
    }

    /** -d all -o all: 232 rows of 58 (type, op) pairs become 58 datasets. */
    @Test
    void allTypesAndOpsSplit() throws Exception {
        List<Dataset> ds = MeasurementReader.read(DEVICE.resolve("h200-all_reduce-all-types-ops.txt"));
        assertEquals(58, ds.size());
        assertEquals(232, ds.stream().mapToInt(d -> d.points().size()).sum());
        assertTrue(ds.get(0).label().endsWith("[int8 sum]"), ds.get(0).label());
    }
}
