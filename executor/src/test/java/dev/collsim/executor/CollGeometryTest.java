package dev.collsim.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.SizeSweep;
import dev.collsim.perf.PerfRow;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CollGeometryTest {

    /**
     * The size and count columns nccl-tests printed on the H200 for the sweep -b 8 -e 1G -f 4 (one rank, float)
     * must come out of the sweep and the geometry, including AllGather's and AllToAll's rounding of small sizes to 0.
     */
    @ParameterizedTest
    @CsvSource({"all_reduce", "all_gather", "reduce_scatter", "broadcast", "alltoall", "sendrecv"})
    void sizeAndCountColumnsMatchNcclTests(String coll) throws IOException {
        List<PerfRow> rows = NcclTestsText.parse(NcclTestsTableTest.lines("nccl-tests-" + coll + "-1gpu.txt"), coll, 1);
        List<Long> sizes = new SizeSweep(8, 1L << 30, 1 << 20, 4).sizes();
        assertEquals(rows.size(), sizes.size());
        for (int i = 0; i < sizes.size(); i++) {
            CollGeometry g = CollGeometry.of(Collective.parse(coll), sizes.get(i) / 4, 4, 1);
            assertEquals(rows.get(i).size(), g.sizeBytes(4), "size at " + sizes.get(i));
            assertEquals(rows.get(i).count(), g.paramCount(), "count at " + sizes.get(i));
        }
    }

    /**
     * Hand-worked: 1 GiB AllReduce on 8 ranks in 1 s: algbw = 2^30 / 1e9 = 1.073741824 GB/s, busbw x 2*7/8 =
     * 1.879048192 (nccl-tests doc/PERFORMANCE.md). AllGather of 1 GiB total on 8 ranks: count = 2^30/4/8 = 2^25
     * floats per rank, algbw counts all 8 ranks' data = 1.073741824, busbw x 7/8 = 0.939524096.
     */
    @Test
    void bandwidthDefinitions() {
        CollGeometry ar = CollGeometry.of(Collective.ALL_REDUCE, (1L << 30) / 4, 4, 8);
        assertEquals(1.073741824, ar.algBw(Collective.ALL_REDUCE, 4, 8, 1.0), 1e-12);
        assertEquals(1.879048192, ar.busBw(Collective.ALL_REDUCE, 4, 8, 1.0), 1e-12);
        CollGeometry ag = CollGeometry.of(Collective.ALL_GATHER, (1L << 30) / 4, 4, 8);
        assertEquals(1L << 25, ag.paramCount());
        assertEquals(1L << 30, ag.sizeBytes(4));
        assertEquals(1.073741824, ag.algBw(Collective.ALL_GATHER, 4, 8, 1.0), 1e-12);
        assertEquals(0.939524096, ag.busBw(Collective.ALL_GATHER, 4, 8, 1.0), 1e-12);
        // ReduceScatter in place: rank r's output starts r x count elements into the receive buffer
        CollGeometry rs = CollGeometry.of(Collective.REDUCE_SCATTER, 1000, 4, 8);
        assertEquals(124, rs.paramCount()); // 1000/8 = 125, rounded down to a multiple of 16 B = 4 floats
        assertEquals(124, rs.recvInplaceOffset());
        assertEquals(992, rs.sendCount());
    }
}
