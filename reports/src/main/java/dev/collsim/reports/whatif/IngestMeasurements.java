package dev.collsim.reports.whatif;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.nccl.Collective;
import dev.collsim.reports.chart.SweepSeries;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.MeasurementReader;
import dev.collsim.validation.ingest.PerfPoint;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Measurements through the validation module's readers ({@link MeasurementReader}:
 * nccl-tests text of any version, reduced tables, collsim/nccl-tests JSON). Takes the dataset of the wanted
 * collective with the sweep's rank count (none is an input error naming both counts: a run of other ranks times
 * another communicator; a file without the collective is one naming the collectives it holds and where), and per size the best time of the out-of-place and in-place halves with its busbw.
 * Stateless.
 */
public final class IngestMeasurements implements MeasuredSeriesReader {

    @Override
    public List<SweepSeries.Measured> read(Path file, Collective collective, int nRanks) throws InputException {
        List<Dataset> sized = MeasurementReader.read(file).stream().filter(d -> !d.points().isEmpty()).toList();
        List<Dataset> all = sized.stream().filter(d -> d.collective() == collective).toList();
        if (all.isEmpty()) {
            throw new InputException(new InputProblem(file.toString(), sized.isEmpty() ? 0 : sized.get(0).line(), 0,
                    "sweeps.measured", "no " + collective.ncclName() + " measurements with sizes in this file"
                    + (sized.isEmpty() ? "" : "; it holds " + sized.stream().map(x -> x.collective().ncclName() + " ("
                    + x.nRanks() + " ranks, table at line " + x.line() + ")").distinct()
                    .collect(Collectors.joining(", ")) + "; allowed: a file measuring " + collective.ncclName()
                    + ", or a sweep of the file's collective")));
        }
        Dataset d = all.stream().filter(x -> x.nRanks() == nRanks).findFirst().orElseThrow(() -> new InputException(
                new InputProblem(file.toString(), all.get(0).line(), 0, collective.ncclName(), "measured on "
                        + all.stream().map(x -> x.nRanks() + " ranks (table at line " + x.line() + ")").distinct()
                                .collect(Collectors.joining(", ")) + ", but the sweep predicts " + nRanks + " ranks on"
                        + " the report's base cluster, so no point of the file times what is predicted; allowed: a"
                        + " measurement of " + nRanks + " ranks, or a base cluster (cluster:, and the sweep's gpus:)"
                        + " of the file's ranks")));
        List<SweepSeries.Measured> out = new ArrayList<>();
        for (PerfPoint p : d.points()) {
            double t = p.bestTimeUs();
            if (Double.isFinite(t) && t > 0) {
                out.add(new SweepSeries.Measured(p.sizeBytes(), t, p.peakBusBw()));
            }
        }
        out.sort(Comparator.comparingLong(SweepSeries.Measured::sizeBytes));
        return out;
    }
}
