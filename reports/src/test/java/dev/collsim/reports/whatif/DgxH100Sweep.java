package dev.collsim.reports.whatif;

import dev.collsim.io.InputException;
import dev.collsim.reports.cluster.SimulatorResolver;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import java.nio.file.Path;

/** Test fixture: a report of one sweep (AllReduce unless named), 1 MiB..8 GiB, on the 1-host dgx-h100 catalog cluster. */
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
        return run("allreduce", measured);
    }

    /**
     * @param collective the sweep's collective, e.g. {@code allgather}
     * @param measured   extra sweep keys, as {@link #run(String)} takes them
     * @return the report's data
     * @throws InputException on a bad spec
     */
    static ReportData run(String collective, String measured) throws InputException {
        ReportSpec spec = ReportSpecReader.read("m.yaml", """
                cluster: dgx-h100
                sweeps:
                  - collective: %s
                    min: 1M
                    max: 8G
                """.formatted(collective) + measured, Path.of("src", "test", "resources", "measured").toAbsolutePath());
        return new ReportRunner(new SimulatorResolver(), new IngestMeasurements(), null).run(spec);
    }
}
