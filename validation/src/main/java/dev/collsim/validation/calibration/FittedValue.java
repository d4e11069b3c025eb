package dev.collsim.validation.calibration;

/**
 * One fitted parameter.
 *
 * @param name    PerformanceParameters field name
 * @param value   fitted value (in the field's unit)
 * @param sigma   standard error from the covariance of the fit (same unit)
 * @param initial the value the fit started from
 * @param atBound true when the fit ended at the edge of the allowed range
 */
public record FittedValue(String name, double value, double sigma, double initial, boolean atBound) {
}
