package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.reports.cluster.SimulatorResolver;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Sizes NCCL discards are not timed: an all_gather of 64-256 B on the default cluster's 32 ranks has 0 float
 * elements per rank (nccl-tests rounds each rank's share down to 16 B, so 32 x 16 = 512 B is the smallest size that
 * runs; NCCL's src/enqueue.cc discards empty collectives), where the report used to time each as a full call.
 */
class EmptyCallsReportTest {

    @Test
    void discardedSizesAreLeftOut() throws InputException {
        ReportSpec spec = ReportSpecReader.read("empty.yaml", """
                cluster: default
                sweeps:
                  - collective: allgather
                    min: 64
                    max: 1K
                algorithm-map: {collective: allgather, min: 64, max: 1K}
                """, Path.of("."));
        ReportData d = new ReportRunner(new SimulatorResolver(null), null, ProgressListener.NONE).run(spec);
        List<Long> base = d.sweeps().stream().filter(r -> r.variant().equals(d.variants().get(0).variant()))
                .map(ReportData.SweepRow::sizeBytes).toList();
        assertEquals(List.of(512L, 1024L), base);
        // the map's cells too: n ranks x 16 B is the smallest all_gather that runs (2: 32 B; 32: 512 B)
        for (ReportData.AlgoCellRow c : d.algorithmMap()) {
            assertTrue(c.sizeBytes() >= 16L * c.nRanks(), c.toString());
        }
        assertEquals(List.of(64L, 128L, 256L, 512L, 1024L), d.algorithmMap().stream().filter(c -> c.nRanks() == 2)
                .map(ReportData.AlgoCellRow::sizeBytes).toList());
        assertEquals(List.of(512L, 1024L), d.algorithmMap().stream().filter(c -> c.nRanks() == 32)
                .map(ReportData.AlgoCellRow::sizeBytes).toList());
    }
}
