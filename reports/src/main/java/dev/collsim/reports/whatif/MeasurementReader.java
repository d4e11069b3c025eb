package dev.collsim.reports.whatif;

import dev.collsim.io.InputException;
import dev.collsim.nccl.Collective;
import dev.collsim.reports.chart.SweepSeries;
import java.nio.file.Path;
import java.util.List;

/** Reads measured points of one collective from a measurement file (nccl-tests output, collsim run JSON). */
@FunctionalInterface
public interface MeasurementReader {

    /**
     * @param file       the file
     * @param collective the collective wanted
     * @return the measured points, by size (out-of-place column)
     * @throws InputException when the file cannot be read or holds no such collective
     */
    List<SweepSeries.Measured> read(Path file, Collective collective) throws InputException;
}
