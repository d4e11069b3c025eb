package dev.collsim.validation.calibration;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * The accuracy gate's rule: a summary regresses when it compares fewer healthy datasets than recorded, when its
 * median of medians rises by more than {@link #MEDIAN_SLACK} points, or when any "within" count falls by more than
 * {@link #COUNT_SLACK} dataset. The recorded figures live in {@code accuracy-gate.properties} (test resources),
 * written from {@code collsim accuracy}'s summary line; a change that improves the model records its new figures
 * there.
 */
final class AccuracyGate {

    /** Percentage points the median of medians may rise before it is a regression (run-to-run noise is 0). */
    static final double MEDIAN_SLACK = 0.5;
    /** Datasets a "within" count may lose before it is a regression (one dataset crossing a threshold edge). */
    static final int COUNT_SLACK = 1;

    private AccuracyGate() {
    }

    /** @return the bare model's figures recorded in {@code accuracy-gate.properties} */
    static AccuracySummary recorded() {
        return recorded("");
    }

    /**
     * @param prefix "" for the bare model's figures, {@code "choice."} for those with the shipped profile choice
     *               ({@link AccuracySummary#withChoice})
     * @return the figures recorded in {@code accuracy-gate.properties} under that prefix
     */
    static AccuracySummary recorded(String prefix) {
        Properties p = properties();
        return new AccuracySummary(intOf(p, prefix + "healthy"),
                Double.parseDouble(p.getProperty(prefix + "medianOfMedians")), intOf(p, prefix + "within3"),
                intOf(p, prefix + "within10"), intOf(p, prefix + "healthySmall"), intOf(p, prefix + "smallWithin15"));
    }

    /**
     * @return the out-of-sample share of measured points inside their class's band as recorded
     *         ({@code bandsOutOfSample}, 0-1)
     */
    static double recordedBandShare() {
        return Double.parseDouble(properties().getProperty("bandsOutOfSample"));
    }

    private static Properties properties() {
        Properties p = new Properties();
        try (InputStream in = AccuracyGate.class.getResourceAsStream("/accuracy-gate.properties")) {
            if (in == null) {
                throw new IllegalStateException("accuracy-gate.properties missing from the test resources");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    /** @return one line per regression of {@code now} against {@code recorded}; empty when none */
    static List<String> regressions(AccuracySummary recorded, AccuracySummary now) {
        List<String> out = new ArrayList<>();
        if (now.healthy() < recorded.healthy()) {
            out.add("healthy datasets compared: " + now.healthy() + " < recorded " + recorded.healthy());
        }
        if (!(now.medianOfMedians() <= recorded.medianOfMedians() + MEDIAN_SLACK)) {
            out.add(String.format(Locale.ROOT, "median of medians >= 1 MiB: %.2f %% > recorded %.2f %% + %.1f",
                    now.medianOfMedians(), recorded.medianOfMedians(), MEDIAN_SLACK));
        }
        count(out, "within 3 %", now.within3(), recorded.within3());
        count(out, "within 10 %", now.within10(), recorded.within10());
        count(out, "below 1 MiB within 15 %", now.smallWithin15(), recorded.smallWithin15());
        return out;
    }

    private static void count(List<String> out, String what, int now, int recorded) {
        if (now < recorded - COUNT_SLACK) {
            out.add(what + ": " + now + " < recorded " + recorded + " - " + COUNT_SLACK);
        }
    }

    private static int intOf(Properties p, String key) {
        return Integer.parseInt(p.getProperty(key).trim());
    }
}
