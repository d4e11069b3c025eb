package dev.collsim.validation.ingest;

import dev.collsim.perf.NcclTestsLayout;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The spread of per-iteration times that nccl-tests prints with {@code -I 1} (nccl-tests 2.19.6 {@code src/util.cu
 * writePerIterReport}: in the text table {@code i_min i_max i_p99 i_cv%} after each half, in {@code -J} JSON
 * {@code out_of_place_per_iter.min_us/max_us/p99_us/cv_pct}; times are the maximum over the processes of each
 * iteration). The size with the largest coefficient of variation is named when it is at least {@link #CV_PERCENT}
 * or its slowest iteration takes at least {@link #MAX_OVER_MIN} times its fastest. Stateless.
 */
public final class IterationSpread {

    /**
     * Coefficient of variation (stdev / mean of the iteration times) from which the spread is named, percent: collsim's
     * threshold (a steady collective on dedicated GPUs repeats within a few percent), not a figure of nccl-tests.
     */
    public static final double CV_PERCENT = 10;
    /** Slowest over fastest iteration from which the spread is named: collsim's threshold. */
    public static final double MAX_OVER_MIN = 2;
    /** The note's first words, for the checks that look for it. */
    public static final String PREFIX = "per-iteration spread";

    private IterationSpread() {
    }

    /**
     * One size's per-iteration summary (out-of-place half).
     *
     * @param sizeBytes size, bytes
     * @param minUs     fastest iteration, microseconds
     * @param maxUs     slowest iteration, microseconds
     * @param p99Us     99th percentile, microseconds
     * @param cvPercent coefficient of variation, percent
     * @param line      source line, 0 for JSON
     */
    public record Sample(long sizeBytes, double minUs, double maxUs, double p99Us, double cvPercent, int line) {
    }

    /**
     * @param layout the table's columns
     * @param text   a row of an nccl-tests -I table
     * @param size   its size, bytes
     * @param line   its line
     * @return the row's out-of-place i_min, i_max, i_p99 and i_cv%; empty without those columns or numbers in them
     */
    static Optional<Sample> fromRow(NcclTestsLayout layout, String text, long size, int line) {
        int cv = layout.index("i_cv%");
        String[] tok = text.strip().split("\\s+");
        if (cv < 0 || cv >= tok.length) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Sample(size, Double.parseDouble(tok[layout.index("i_min")]),
                    Double.parseDouble(tok[layout.index("i_max")]), Double.parseDouble(tok[layout.index("i_p99")]),
                    Double.parseDouble(tok[cv]), line));
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            return Optional.empty();
        }
    }

    /**
     * @param samples one per size
     * @return a note naming the widest spread, empty when every size is steady (or there are no samples)
     */
    static Optional<Note> note(List<Sample> samples) {
        Optional<Sample> worst = samples.stream().filter(s -> Double.isFinite(s.cvPercent()))
                .max(Comparator.comparingDouble(Sample::cvPercent));
        if (worst.isEmpty()) {
            return Optional.empty();
        }
        Sample w = worst.get();
        double ratio = w.minUs() > 0 ? w.maxUs() / w.minUs() : Double.NaN;
        if (w.cvPercent() < CV_PERCENT && !(ratio >= MAX_OVER_MIN)) {
            return Optional.empty();
        }
        long noisy = samples.stream().filter(s -> s.cvPercent() >= CV_PERCENT).count();
        return Optional.of(new Note(w.line(), String.format(Locale.ROOT, "%s: at %d B the iterations take %.1f to "
                + "%.1f us (x%.2f, p99 %.1f us, cv %.1f %%); %d of %d sizes vary by cv >= %.0f %%", PREFIX,
                w.sizeBytes(), w.minUs(), w.maxUs(), ratio, w.p99Us(), w.cvPercent(), noisy, samples.size(),
                CV_PERCENT)));
    }
}
