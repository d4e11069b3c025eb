package dev.collsim.reports.whatif;

import dev.collsim.io.InputException;
import dev.collsim.nccl.Collective;
import dev.collsim.reports.chart.SweepSeries;
import java.nio.file.Path;
import java.util.List;

/** Reads measured points of one collective from a measurement file (nccl-tests output, collsim run JSON). */
@FunctionalInterface
public interface MeasuredSeriesReader {

    /**
     * @param file       the file
     * @param collective the collective wanted
     * @param nRanks     the sweep's rank count (a dataset with the same count is preferred)
     * @return the measured points, by size
     * @throws InputException when the file cannot be read or holds no such collective
     */
    List<SweepSeries.Measured> read(Path file, Collective collective, int nRanks) throws InputException;
}
