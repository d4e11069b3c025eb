package dev.collsim.validation.compare;

import java.util.Collection;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;

/**
 * Summary of absolute percentage errors (percent), computed with Commons Math {@link DescriptiveStatistics}
 * (its default percentile estimator, R-6 / Excel-style interpolation).
 *
 * @param n      number of points
 * @param median median error, percent
 * @param p90    90th percentile, percent
 * @param max    largest error, percent
 */
public record ErrorStats(int n, double median, double p90, double max) {

    /** Statistics of no point: NaN everywhere. */
    public static final ErrorStats NONE = new ErrorStats(0, Double.NaN, Double.NaN, Double.NaN);

    /**
     * @param errors absolute percentage errors, percent
     * @return their statistics, or {@link #NONE} when empty
     */
    public static ErrorStats of(Collection<Double> errors) {
        if (errors.isEmpty()) {
            return NONE;
        }
        DescriptiveStatistics s = new DescriptiveStatistics();
        errors.forEach(s::addValue);
        return new ErrorStats(errors.size(), median(s), s.getPercentile(90), s.getMax());
    }

    /**
     * The one median of validation's error figures (a dataset's error, the median over datasets, a measured time):
     * Commons Math's default estimator, the middle value, or the mean of the two middle ones for an even count.
     *
     * @param values the values, in any unit (left unchanged)
     * @return their median, in the values' unit; NaN when there is none
     */
    public static double median(DescriptiveStatistics values) {
        return values.getN() == 0 ? Double.NaN : values.getPercentile(50);
    }

    /**
     * @param values the values, in any unit
     * @return their median ({@link #median(DescriptiveStatistics)}), in the values' unit; NaN when there is none
     */
    public static double median(Collection<Double> values) {
        DescriptiveStatistics s = new DescriptiveStatistics();
        values.forEach(s::addValue);
        return median(s);
    }
}
