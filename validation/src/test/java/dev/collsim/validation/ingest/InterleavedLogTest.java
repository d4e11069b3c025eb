package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.nccl.Collective;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The one real file whose table and NCCL INFO log were written into one file at once:
 * {@code data/device/h200x2-2026-11-29/nccl-info-allreduce.txt} (collsim's executor, AllReduce 8 B .. 1 MiB x8 on 2
 * H200, NCCL 2.28.3, NCCL_DEBUG_SUBSYS=INIT,GRAPH,TUNING). Its table pieces land inside NCCL lines four times: the
 * preamble ({@code # collsim run ...} .. units line) after {@code Protocol | LL | LL128} (line 285), the 8 B row's
 * size..root after {@code ... Algo RING pro} (line 12345), its two halves plus the 64 and 512 rows and the 4096 row's
 * out-of-place half after {@code AllReduce:} (lines 12390-12393), the 4096 row's in-place half, the 32768 and 262144
 * rows and the footer after {@code Algo RING } (lines 12438-12446).
 */
class InterleavedLogTest {

    private static final Path FILE = Path.of("../data/device/h200x2-2026-11-29/nccl-info-allreduce.txt");

    /**
     * Six rows, 8 B to 256 KiB by x8 (the preamble says minBytes 8 maxBytes 1048576 step 8; 2 MiB is past the end);
     * each row's out-of-place and in-place time as the file spells them once the pieces are put together:
     * 8 B 25.47/23.60 us (line 12345 + 12390), 64 B 94.10/24.02, 512 B 27.88/23.18, 4096 B 22.64 (line 12393) /
     * 29.70 (line 12438), 32768 B 24.01/22.58, 262144 B 31.69/26.43; footer 1.78087 GB/s.
     */
    @Test
    void everyRowIsRebuilt() throws Exception {
        List<Dataset> ds = MeasurementReader.read(FILE);
        assertEquals(1, ds.size());
        Dataset d = ds.get(0);
        assertEquals(Collective.ALL_REDUCE, d.collective());
        assertEquals(2, d.nRanks());
        assertEquals(List.of(8L, 64L, 512L, 4096L, 32768L, 262144L),
                d.points().stream().map(PerfPoint::sizeBytes).toList());
        double[][] times = {{25.47, 23.60}, {94.10, 24.02}, {27.88, 23.18}, {22.64, 29.70}, {24.01, 22.58},
            {31.69, 26.43}};
        for (int i = 0; i < times.length; i++) {
            PerfPoint p = d.points().get(i);
            assertEquals(times[i][0], p.row().outOfPlace().timeUs(), 1e-9, "out-of-place " + p.sizeBytes());
            assertEquals(times[i][1], p.row().inPlace().timeUs(), 1e-9, "in-place " + p.sizeBytes());
        }
        assertEquals(12345, d.points().get(0).line());
        assertEquals(1.78087, d.avgBusBw(), 1e-9);
        assertTrue(d.notes().stream().anyMatch(n -> n.text().contains("4 NCCL line(s) and table row(s) broken")), d.notes().toString());
    }

    /**
     * NCCL's per-call choices for the run's sizes, including the lines broken by table pieces (8 B at line 12345,
     * 4096 B at 12393 and 12438) and the 32768 and 262144 B lines written after the table's footer: every size is
     * Ring/LL in this file (grep "Bytes -> Algo" | sort -u gives only RING proto LL).
     */
    @Test
    void choicesOfEverySizeStayWithTheRun() throws Exception {
        Dataset d = MeasurementReader.read(FILE).get(0);
        Map<Long, String> bySize = d.log().choices().stream().collect(Collectors.toMap(NcclLog.AlgoChoice::bytes,
                c -> c.algorithm() + "/" + c.protocol(), (a, b) -> a.equals(b) ? a : a + "|" + b, TreeMap::new));
        for (long size : List.of(8L, 64L, 512L, 4096L, 32768L, 262144L)) {
            assertEquals("RING/LL", bySize.get(size), "size " + size);
        }
        assertEquals("2.28.3+cuda13.0", d.log().version());
    }
}
