package dev.collsim.validation.calibration;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.validation.compare.ErrorStats;
import dev.collsim.simulator.PreparedCall;
import java.util.List;

/**
 * The result of a fit: parameters, their uncertainties and covariance, residuals, hold-out check, and the data it
 * was fitted on. Immutable.
 *
 * @param parameters  the full parameter set with the fitted values in place
 * @param generation  GPU generation whose per-channel cap was fitted
 * @param fitted      fitted values with standard errors
 * @param covariance  covariance of the fitted values (row/column order of {@code fitted}, their units squared)
 * @param notes       parameters left at their start value and why, bounds reached
 * @param residuals   absolute percentage errors of the fitted model on all fitted points
 * @param holdTrain   errors on the training half of the hold-out check (percent)
 * @param holdTest    errors on the held-out half (percent)
 * @param sources     data fitted on ({@code file:line (label)}, points)
 * @param nPoints     number of points fitted
 * @param evaluations Levenberg-Marquardt steps of the accepted fit (each evaluates the residuals and, by central
 *                    differences, their Jacobian: 1 + 2 x fitted parameters passes of the model over the points)
 */
public record Calibration(PerformanceParameters parameters, GpuGeneration generation, List<FittedValue> fitted,
        double[][] covariance, List<String> notes, ErrorStats residuals, ErrorStats holdTrain, ErrorStats holdTest,
        List<String> sources, int nPoints, int evaluations) {

    /** Copies. */
    public Calibration {
        fitted = List.copyOf(fitted);
        notes = List.copyOf(notes);
        sources = List.copyOf(sources);
        covariance = covariance.clone();
    }

    /**
     * Standard deviation of a predicted time from the parameters' covariance (delta method: g' C g, g the
     * gradient of the time by central differences).
     *
     * @param call the prepared call of the point
     * @return the standard deviation, microseconds
     */
    public double sigmaUs(PreparedCall call) {
        int p = fitted.size();
        double[] g = new double[p];
        for (int k = 0; k < p; k++) {
            FitParameter fp = FitParameter.ofField(fitted.get(k).name());
            double v = fitted.get(k).value();
            double h = Math.max(1e-6, Math.abs(v) * 1e-4);
            double up = call.timeUs(fp.with(parameters, generation, v + h));
            double dn = call.timeUs(fp.with(parameters, generation, v - h));
            g[k] = (up - dn) / (2 * h);
        }
        double var = 0;
        for (int a = 0; a < p; a++) {
            for (int b = 0; b < p; b++) {
                var += g[a] * covariance[a][b] * g[b];
            }
        }
        return Math.sqrt(Math.max(0, var));
    }
}
