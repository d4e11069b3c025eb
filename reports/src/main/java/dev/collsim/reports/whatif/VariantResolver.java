package dev.collsim.reports.whatif;

import dev.collsim.io.InputException;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.VariantSpec;

/** Builds a variant's cluster and predictor from the spec (the CLI supplies the implementation). */
@FunctionalInterface
public interface VariantResolver {

    /**
     * @param spec    the report spec (base cluster name, folder for relative files)
     * @param variant the variant
     * @return the cluster and predictor
     * @throws InputException when the base cluster or the variant's changes cannot be applied (located at the
     *                        variant in the spec)
     */
    ResolvedVariant resolve(ReportSpec spec, VariantSpec variant) throws InputException;

    /**
     * What joins a calibration label to its band ({@code auto: KEY.yaml; band factor ...}): the variants table shows
     * the part before it on each row and the band once, under the table ({@link ReportData.VariantRow#calibrationBand}).
     */
    String BAND = "; band ";

    /**
     * @param variant a variant already {@link #resolve resolved}
     * @return the calibration the variant's predictor uses, for the report's variants table: the spec's
     *         {@code calibration} value, a shipped profile chosen for it, or "" for the bare model; a band the choice
     *         carries follows {@link #BAND}
     */
    default String calibrationLabel(VariantSpec variant) {
        return variant.calibration() == null ? "" : variant.calibration();
    }
}
