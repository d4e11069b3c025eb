package dev.collsim.validation.calibration;

import java.util.Arrays;

/**
 * The arithmetic the derivation tests of a per-file figure share: the median of the files' values, and the range that
 * median takes when each file in turn is left out (the leave-one-out check of docs/accuracy.md). Stateless.
 */
public final class FileMedians {

    private FileMedians() {
    }

    /** @return the median of v (the mean of the two middle values for an even count) */
    public static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /** @return {lowest, highest} median of v with one value left out, over every value; v has 2 or more values */
    public static double[] leaveOneOutRange(double[] v) {
        double lo = Double.MAX_VALUE;
        double hi = -Double.MAX_VALUE;
        for (int out = 0; out < v.length; out++) {
            double[] rest = new double[v.length - 1];
            for (int i = 0, k = 0; i < v.length; i++) {
                if (i != out) {
                    rest[k++] = v[i];
                }
            }
            lo = Math.min(lo, median(rest));
            hi = Math.max(hi, median(rest));
        }
        return new double[] {lo, hi};
    }
}
