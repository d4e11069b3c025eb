package dev.collsim.cli.validation;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.validation.calibration.ProfileSelector;
import dev.collsim.validation.compare.Comparer;
import java.util.Optional;

/** The comparer of a shipped-profile choice ({@link ProfileSelector}): its parameters and band, or the bare model. */
final class AutoProfile {

    private AutoProfile() {
    }

    /**
     * @param v      NCCL release to model every dataset with, or empty for each file's own
     * @param choice the selector's choice
     * @return a comparer with the profile's parameters and band (its 95 % covariance band when the file has no
     *         band), or the bare model with the uncalibrated band
     */
    static Comparer comparer(Optional<NcclVersion> v, ProfileSelector.Choice choice) {
        return choice.calibration().map(cal -> choice.band().map(b -> Comparer.withBand(v, cal.parameters(), b,
                PROFILE_BAND)).orElseGet(() -> new Comparer(v, cal.parameters(), cal::sigmaUs)))
                .orElseGet(() -> bare(v, choice));
    }

    /**
     * @param v      NCCL release to model every dataset with, or empty for each file's own
     * @param choice the selector's choice for the run's cluster (only its bare-model band is used)
     * @return the bare model with the class's bare band, or the uncalibrated band when none is shipped
     */
    static Comparer bare(Optional<NcclVersion> v, ProfileSelector.Choice choice) {
        ProfileSelector.Choice b = choice.calibration().isPresent() ? ProfileSelector.bare(choice.profileClass())
                : choice;
        return b.band().map(x -> Comparer.withBand(v, PerformanceParameters.DEFAULTS, x, BARE_BAND))
                .orElseGet(() -> new Comparer(v, PerformanceParameters.DEFAULTS, null));
    }

    /** Where a shipped profile's band comes from. */
    static final String PROFILE_BAND = "the profile's band (95th percentile of its leave-one-out residuals)";
    /** Where a {@code calibrate -o} profile's band comes from ({@link CalibrateCommand#BAND_RULE}). */
    static final String FIT_BAND = "the profile's band (95th percentile of its own fit's residuals)";
    /** Where the bare model's band comes from. */
    static final String BARE_BAND = "the bare model's band (95th percentile of its residuals on the cluster class's"
            + " public datasets)";
}
