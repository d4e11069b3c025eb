package dev.collsim.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.CollGeometry;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.SizeSweep;
import dev.collsim.perf.NcclTestsRows;
import dev.collsim.perf.PerfRow;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The executor's sweep and topology-model's {@link CollGeometry} against nccl-tests' printed columns. */
class CollGeometryTest {

    /**
     * The size and count columns nccl-tests printed on the H200 for the sweep -b 8 -e 1G -f 4 (one rank, float)
     * must come out of the sweep and the geometry, including AllGather's and AllToAll's rounding of small sizes to 0.
     */
    @ParameterizedTest
    @CsvSource({"all_reduce", "all_gather", "reduce_scatter", "broadcast", "alltoall", "sendrecv"})
    void sizeAndCountColumnsMatchNcclTests(String coll) throws IOException {
        List<PerfRow> rows = NcclTestsRows.readAll(NcclTestsTableTest.lines("nccl-tests-" + coll + "-1gpu.txt"));
        List<Long> sizes = new SizeSweep(8, 1L << 30, 1 << 20, 4).sizes();
        assertEquals(rows.size(), sizes.size());
        for (int i = 0; i < sizes.size(); i++) {
            CollGeometry g = CollGeometry.of(Collective.parse(coll), sizes.get(i) / 4, 4, 1);
            assertEquals(rows.get(i).size(), g.sizeBytes(4), "size at " + sizes.get(i));
            assertEquals(rows.get(i).count(), g.paramCount(), "count at " + sizes.get(i));
        }
    }
}
