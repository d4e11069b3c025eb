package dev.collsim.reports.whatif;

import dev.collsim.io.InputException;
import dev.collsim.reports.cluster.SimulatorResolver;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import java.nio.file.Path;

/** Test fixture: a report of one AllReduce sweep, 1 MiB..8 GiB, on the 1-host dgx-h100 catalog cluster. */
final class DgxH100Sweep {

    private DgxH100Sweep() {
    }

    /**
     * @param measured extra sweep keys, e.g. {@code "    measured: FILE\n"} (a file of src/test/resources/measured),
     *                 or empty
     * @return the report's data
     * @throws InputException on a bad spec
     */
    static ReportData run(String measured) throws InputException {
        ReportSpec spec = ReportSpecReader.read("m.yaml", """
                cluster: dgx-h100
                sweeps:
                  - collective: allreduce
                    min: 1M
                    max: 8G
                """ + measured, Path.of("src", "test", "resources", "measured").toAbsolutePath());
        return new ReportRunner(new SimulatorResolver(), new IngestMeasurements(), null).run(spec);
    }
}
