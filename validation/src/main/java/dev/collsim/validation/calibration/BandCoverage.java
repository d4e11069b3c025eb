package dev.collsim.validation.calibration;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.compare.PredictionBand;
import dev.collsim.validation.compare.Regime;
import java.util.List;
import java.util.Locale;

/**
 * How many of a set of points lie inside a band, per regime (below 1 MiB, at 1 MiB and more: the regimes of
 * {@link PredictionBand}).
 *
 * @param insideBelowMiB   points below 1 MiB inside the band
 * @param belowMiB         points below 1 MiB
 * @param insideAtLeastMiB points of 1 MiB and more inside the band
 * @param atLeastMiB       points of 1 MiB and more
 */
public record BandCoverage(int insideBelowMiB, int belowMiB, int insideAtLeastMiB, int atLeastMiB) {

    /** No point. */
    public static final BandCoverage NONE = new BandCoverage(0, 0, 0, 0);

    /**
     * @param s    a series
     * @param p    the parameters it is predicted with
     * @param band the band its points are checked against
     * @return its points inside the band, per regime
     */
    public static BandCoverage of(Series s, PerformanceParameters p, PredictionBand band) {
        int[] c = new int[4];
        for (int i = 0; i < s.calls().size(); i++) {
            int at = s.sizes()[i] >= Regime.ONE_MIB ? 2 : 0;
            c[at + 1]++;
            c[at] += band.holds(s.calls().get(i).timeUs(p), s.measuredUs()[i], s.sizes()[i]) ? 1 : 0;
        }
        return new BandCoverage(c[0], c[1], c[2], c[3]);
    }

    /** @return the sum of the coverages */
    public static BandCoverage sum(List<BandCoverage> cs) {
        return cs.stream().reduce(NONE, BandCoverage::plus);
    }

    /** @return the points of both */
    public BandCoverage plus(BandCoverage o) {
        return new BandCoverage(insideBelowMiB + o.insideBelowMiB, belowMiB + o.belowMiB,
                insideAtLeastMiB + o.insideAtLeastMiB, atLeastMiB + o.atLeastMiB);
    }

    /** @return points inside, both regimes */
    public int inside() {
        return insideBelowMiB + insideAtLeastMiB;
    }

    /** @return points, both regimes */
    public int points() {
        return belowMiB + atLeastMiB;
    }

    /** @return the share inside, 0..1 (0 without a point) */
    public double share() {
        return points() == 0 ? 0 : (double) inside() / points();
    }

    /** @return "IN/N (P %)", or "-" without a point */
    public static String words(int in, int n) {
        return n == 0 ? "-" : String.format(Locale.ROOT, "%d/%d (%.0f %%)", in, n, 100.0 * in / n);
    }
}
