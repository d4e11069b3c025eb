package dev.collsim.validation.calibration;

import dev.collsim.validation.compare.Comparer;
import dev.collsim.validation.ingest.Dataset;
import java.util.List;
import java.util.Optional;

/**
 * One line of the accuracy table.
 *
 * @param dataset       the dataset
 * @param hardwareClass its class (GPU and single- or multi-host), the leave-one-out grouping
 * @param points1MiB    points of 1 MiB and more
 * @param uncalibrated  median APE of time at >= 1 MiB with the default parameters, percent (NaN: not compared)
 * @param calibrated    median APE with the parameters {@link FitLadder} accepted on the other datasets of the
 *                      class, percent; the uncalibrated value when every fit was refused; NaN when nothing was
 *                      fitted
 * @param fit           the fit attempts on the other datasets of the class, empty when none was made
 * @param note          why a column is empty, or what the calibration used
 * @param pointsSmall   points below 1 MiB (the latency and mid-size regime)
 * @param uncalibratedSmall median APE of time below 1 MiB with the default parameters, percent (NaN: none)
 * @param signedSmall   median signed error of time below 1 MiB with the default parameters, percent: positive where
 *                      the model predicts the call slower than measured, negative where faster (NaN: none)
 * @param leftOutSizes  sizes (bytes, ascending) of the points no median of the row counts: the one-off hiccups
 *                      diagnose finds from the measured times alone ({@link Comparer#leftOut}), which compare's
 *                      statistics leave out too; empty when none
 */
public record AccuracyRow(Dataset dataset, String hardwareClass, int points1MiB, double uncalibrated,
        double calibrated, Optional<FitLadder.Outcome> fit, String note, int pointsSmall,
        double uncalibratedSmall, double signedSmall, List<Long> leftOutSizes) {

    /** Copies. */
    public AccuracyRow {
        leftOutSizes = List.copyOf(leftOutSizes);
    }

    /** A row that leaves no point out. */
    public AccuracyRow(Dataset dataset, String hardwareClass, int points1MiB, double uncalibrated, double calibrated,
            Optional<FitLadder.Outcome> fit, String note, int pointsSmall, double uncalibratedSmall,
            double signedSmall) {
        this(dataset, hardwareClass, points1MiB, uncalibrated, calibrated, fit, note, pointsSmall, uncalibratedSmall,
                signedSmall, List.of());
    }

    /** @return true for single-host NVLink datasets (the accuracy target's set) */
    public boolean targetSet() {
        return hardwareClass.endsWith("1 host") && !hardwareClass.contains("PCIe ");
    }

    /** @return true when fits were tried and every one was refused (calibrated is then the uncalibrated value) */
    public boolean refused() {
        return fit.isPresent() && fit.get().accepted().isEmpty();
    }
}
