/**
 * Fits the simulator's {@link dev.collsim.simulator.perf.PerformanceParameters} to measurements by weighted least
 * squares (Commons Math Levenberg-Marquardt), reports each fitted value with its standard error from the
 * covariance, the residuals and a hold-out check, refuses fits that do not converge or are ill-conditioned, and
 * reads and writes calibration profiles (YAML) that cite the data they were fitted on.
 */
package dev.collsim.validation.calibration;
