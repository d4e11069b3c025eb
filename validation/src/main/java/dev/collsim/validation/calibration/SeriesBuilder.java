package dev.collsim.validation.calibration;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.InvalidRequestException;
import dev.collsim.simulator.PreparedCall;
import dev.collsim.validation.compare.ClusterGuess;
import dev.collsim.validation.compare.ClusterGuesser;
import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.compare.RunSettings;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.DatasetKind;
import dev.collsim.validation.ingest.PerfPoint;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Prepares datasets for fitting: cluster (given or guessed), the simulator's prepared calls, measured times. */
public final class SeriesBuilder {

    private SeriesBuilder() {
    }

    /**
     * @param d        the dataset
     * @param cluster  the cluster, or empty to guess it from the dataset
     * @param comparer supplies the model (NCCL version)
     * @return the series, or empty when the dataset has no per-size times or no cluster can be built
     */
    public static Optional<Series> of(Dataset d, Optional<ClusterGuess> cluster, Comparer comparer) {
        return of(d, cluster, comparer, Set.of());
    }

    /**
     * As {@link #of(Dataset, Optional, Comparer)} without the given points (accuracy and calibrate leave out
     * {@link Comparer#leftOut}, as compare's statistics do).
     *
     * @param leaveOut points of {@code d} to leave out
     * @return the series, or empty when no point is left
     */
    public static Optional<Series> of(Dataset d, Optional<ClusterGuess> cluster, Comparer comparer,
            Set<PerfPoint> leaveOut) {
        if (d.kind() == DatasetKind.SUMMARY || d.kind() == DatasetKind.FOOTER_ONLY) {
            return Optional.empty();
        }
        Optional<ClusterGuess> c = cluster.isPresent() ? cluster : ClusterGuesser.guess(d);
        List<PerfPoint> pts = Comparer.usable(d).stream().filter(p -> !leaveOut.contains(p)).toList();
        if (c.isEmpty() || pts.isEmpty()) {
            return Optional.empty();
        }
        try {
            Map<String, String> settings = new LinkedHashMap<>(d.env());
            RunSettings.modelSettings(d, c.get(), cluster.isEmpty(), settings);
            List<PreparedCall> pm = comparer.model(d, c.get(), NcclSettings.modelled(settings), pts);
            double[] t = pts.stream().mapToDouble(p -> p.primary().timeUs()).toArray();
            long[] s = pts.stream().mapToLong(PerfPoint::sizeBytes).toArray();
            return Optional.of(new Series(d, pm, t, s));
        } catch (InvalidRequestException e) {
            return Optional.empty();
        }
    }
}
