package dev.collsim.validation.compare;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.validation.ingest.MeasurementReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CmpScratchTest {
    @Test
    void dump() throws Exception {
        Comparer c = new Comparer(NcclVersion.DEFAULT, PerformanceParameters.DEFAULTS, null);
        long t0 = System.nanoTime();
        for (Path p : Files.list(Path.of("src/test/resources/data")).sorted().toList()) {
            for (var d : MeasurementReader.read(p)) {
                DatasetComparison dc = c.compare(d, Optional.empty());
                System.out.printf("%-60.60s %-30.30s n=%-3d %s med>=1M=%.1f all=%.1f p90=%.1f %s%n", d.file(), d.label(), d.nRanks(),
                        dc.compared() ? "OK " : "NO ", dc.atLeast1MiB().median(), dc.overall().median(), dc.overall().p90(), dc.reason());
            }
        }
        System.out.println("ms " + (System.nanoTime() - t0) / 1e6);
    }
}
