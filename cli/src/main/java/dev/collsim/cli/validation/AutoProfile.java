package dev.collsim.cli.validation;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.validation.calibration.ProfileSelector;
import dev.collsim.validation.compare.Comparer;

/** The comparer of a shipped-profile choice ({@link ProfileSelector}): its parameters and band, or the bare model. */
final class AutoProfile {

    private AutoProfile() {
    }

    /**
     * @param v      NCCL release to model
     * @param choice the selector's choice
     * @return a comparer with the profile's parameters and band (its 95 % covariance band when the file has no
     *         band), or the bare model with the uncalibrated band
     */
    static Comparer comparer(NcclVersion v, ProfileSelector.Choice choice) {
        return choice.calibration().map(cal -> choice.band().map(b -> Comparer.withBand(v, cal.parameters(), b))
                .orElseGet(() -> new Comparer(v, cal.parameters(), cal::sigmaUs)))
                .orElseGet(() -> new Comparer(v, PerformanceParameters.DEFAULTS, null));
    }
}
