package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.nccl.Collective;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reduced tables with collectives as rows and sizes as columns. No public file of the corpus has one, so the inputs
 * are written here in the layout such summaries use (a markdown table, a first header cell naming the quantity).
 */
class TransposedTableTest {

    private static final String TABLE = """
            ## 8 GPUs, one host
            | busbw (GB/s) | 1M | 16M | 256M |
            |---|---|---|---|
            | all_reduce | 40.0 | 150.0 | 180.0 |
            | all_gather | 35.0 | 140.0 | 170.0 |
            """;

    /**
     * Two datasets, one per row. all_reduce on 8 ranks at 1 MiB: busbw 40 GB/s, algbw = 40 / (2 x 7/8) = 22.857 GB/s,
     * time = 1048576 B / 22.857e9 B/s = 45.875 us. all_gather at 16 MiB: algbw = 140 / (7/8) = 160 GB/s, time =
     * 16777216 / 160e9 = 104.858 us.
     */
    @Test
    void eachRowIsItsOwnDataset() throws Exception {
        List<Dataset> ds = MeasurementReader.read("summary.md", TABLE);
        assertEquals(2, ds.size());
        Dataset ar = ds.get(0);
        Dataset ag = ds.get(1);
        assertEquals(Collective.ALL_REDUCE, ar.collective());
        assertEquals(Collective.ALL_GATHER, ag.collective());
        assertEquals(8, ar.nRanks());
        assertEquals(List.of(1048576L, 16777216L, 268435456L), ar.points().stream().map(PerfPoint::sizeBytes).toList());
        assertEquals(45.875, ar.points().get(0).primary().timeUs(), 1e-3);
        assertEquals(104.858, ag.points().get(1).primary().timeUs(), 1e-3);
        assertEquals(4, ar.line());
        assertTrue(ag.points().stream().allMatch(p -> p.line() == 5));
    }

    /** Columns of node counts (1, 2, 4: no size reaches 1 KiB) are not taken for sizes: the file has no table. */
    @Test
    void nodeCountsAreNotSizes() {
        String t = "| Collective | 1 | 2 | 4 |\n|---|---|---|---|\n| AllReduce | 24.2 | 23.6 | 23.1 |\n";
        assertThrows(InputException.class, () -> MeasurementReader.read("nodes.md", t));
    }

    /** Values that say nothing of what they are (no busbw/algbw/time anywhere) are refused with the header cell. */
    @Test
    void unnamedValuesAreRefused() {
        String t = "| GPUs: 8 | 1M | 16M |\n|---|---|---|\n| all_reduce | 40.0 | 150.0 |\n";
        InputException e = assertThrows(InputException.class, () -> MeasurementReader.read("x.md", t));
        assertTrue(e.getMessage().contains("must say what its values are"), e.getMessage());
    }
}
