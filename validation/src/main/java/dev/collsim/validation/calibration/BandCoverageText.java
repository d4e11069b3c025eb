package dev.collsim.validation.calibration;

import dev.collsim.validation.compare.ErrorStats;
import dev.collsim.validation.compare.PredictionBand;
import dev.collsim.validation.compare.Regime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;

/**
 * The out-of-sample band check of {@link ClassBands} broken down per class, per regime (below 1 MiB, at 1 MiB and
 * more) and per dataset: where the shipped bands hold fewer than {@value ClassBands#MIN_OUT_OF_SAMPLE_PERCENT} % of
 * the points of files they were not made from, and how wide the bands are (the median factor over the points).
 * Stateless.
 */
public final class BandCoverageText {

    private BandCoverageText() {
    }

    /**
     * @param fits the classes
     * @return a markdown table, one row per class and a closing row over every class
     */
    public static String table(List<ProfileBuilder.ClassFit> fits) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "Inside the band out of sample, per class and"
                + " regime (each file's points against the band its class's rule makes without the file; the "
                + "factor is the shipped band's; datasets: those with fewer than %.0f %% of their points inside, "
                + "inside / points):%n%n| class | files | factor < 1 MiB / >= 1 MiB | inside < 1 MiB | "
                + "inside >= 1 MiB | inside | datasets below %.0f %% |%n|---|---:|---|---:|---:|---:|---|%n",
                ClassBands.MIN_OUT_OF_SAMPLE_PERCENT, ClassBands.MIN_OUT_OF_SAMPLE_PERCENT));
        List<Series> all = ClassBands.series(fits);
        BandCoverage total = BandCoverage.NONE;
        DescriptiveStatistics small = new DescriptiveStatistics();
        DescriptiveStatistics large = new DescriptiveStatistics();
        int files = 0;
        int below = 0;
        int datasets = 0;
        for (ProfileBuilder.ClassFit f : fits) {
            ClassBands.Entry e = ClassBands.of(f, all);
            List<Series> s = ClassBands.series(List.of(f));
            BandCoverage c = BandCoverage.sum(e.bySeries());
            total = total.plus(c);
            files += f.files().size();
            PredictionBand b = e.band();
            for (int i = 0; i < c.belowMiB(); i++) {
                small.addValue(b.factor(0));
            }
            for (int i = 0; i < c.atLeastMiB(); i++) {
                large.addValue(b.factor(Regime.ONE_MIB));
            }
            List<String> low = new ArrayList<>();
            for (int i = 0; i < e.bySeries().size(); i++) {
                BandCoverage d = e.bySeries().get(i);
                if (100 * d.share() < ClassBands.MIN_OUT_OF_SAMPLE_PERCENT) {
                    low.add(s.get(i).dataset().file() + ":" + s.get(i).dataset().line() + " " + d.inside() + "/"
                            + d.points());
                }
            }
            below += low.size();
            datasets += s.size();
            sb.append(String.format(Locale.ROOT, "| %s | %d | %.2f / %.2f | %s | %s | %s | %s |%n",
                    f.profileClass().key(), f.files().size(), b.factor(0), b.factor(Regime.ONE_MIB),
                    share(c, true), share(c, false),
                    BandCoverage.words(c.inside(), c.points()), low.isEmpty() ? "-" : String.join(", ", low)));
        }
        return sb.append(String.format(Locale.ROOT, "| every class | %d | median over the points %.2f / %.2f | "
                + "%s | %s | %s | %d of %d datasets |%n", files, ErrorStats.median(small), ErrorStats.median(large), share(total, true),
                share(total, false), BandCoverage.words(total.inside(), total.points()), below, datasets))
                .toString();
    }

    private static String share(BandCoverage c, boolean small) {
        return small ? BandCoverage.words(c.insideBelowMiB(), c.belowMiB())
                : BandCoverage.words(c.insideAtLeastMiB(), c.atLeastMiB());
    }
}
