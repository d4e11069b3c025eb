package dev.collsim.validation.h200;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.validation.compare.ClusterGuess;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.compare.DatasetComparison;
import dev.collsim.validation.compare.PointComparison;
import dev.collsim.validation.compare.Regime;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.MeasurementReader;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * compare's algorithm and protocol check on the one real log that names NCCL's choice per size:
 * {@code nccl-info-allreduce.txt} of this machine (its table and log interleaved, see the ingest test), on the
 * machine's own topology dump. NCCL 2.28 logged {@code Algo RING proto LL} for every size from 8 B to 256 KiB (grep
 * "Bytes -> Algo" | sort -u); collsim's model of NCCL's tuning must choose the same.
 */
class H200x2LoggedChoicesTest {

    @Test
    void everySizeIsCheckedAgainstTheLog() throws Exception {
        Dataset d = MeasurementReader.read(H200x2Machine.DIR.resolve("nccl-info-allreduce.txt")).get(0);
        Topology topo = ClusterLoader.read("nccl-topo-dump.xml",
                Files.readString(H200x2Machine.DIR.resolve("nccl-topo-dump.xml")));
        DatasetComparison c = new Comparer(Optional.of(NcclVersion.parse("2.28")), PerformanceParameters.DEFAULTS, null)
                .compare(d, Optional.of(new ClusterGuess(topo, topo.gpus(), "nccl-topo-dump.xml", List.of())));
        assertEquals(6, c.algorithmChecked());
        for (PointComparison p : c.points()) {
            assertEquals("RING/LL", p.measuredAlgorithm() + "/" + p.measuredProtocol(), "size " + p.sizeBytes());
        }
        assertEquals(6, c.algorithmMatched());
    }

    /** A different protocol alone is a disagreement (the log says Ring/LL, the prediction Ring/LL128). */
    @Test
    void protocolAloneDisagrees() {
        PointComparison p = new PointComparison(4096, 10, 10, 10, 10, 0, 0, 1, 1, Regime.of(4096), "Ring", "LL128",
                "RING", "LL", 1);
        assertFalse(p.algorithmMismatch());
        assertTrue(p.protocolMismatch());
        assertTrue(p.choiceMismatch());
    }
}
