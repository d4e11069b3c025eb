package dev.collsim.reports.plan;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The size and shape of a dense transformer: parameter count, hidden size and layer count.
 * This record is immutable.
 *
 * <p>When only the parameter count is given, the shape comes from a table of published models or, failing that,
 * from Kaplan et al. 2020 ("Scaling Laws for Neural Language Models", eq. 2.1): non-embedding parameters
 * {@code N ~= 12 * L * h^2}, with the aspect ratio {@code h / L = 128} that Kaplan et al. found near-optimal
 * (their Fig. 5 spans 50-250). Published shapes: GPT-3 175B h=12288 L=96 and GPT-3 13B h=5140 L=40
 * (Brown et al. 2020, Table 2.1); Llama 2 70B h=8192 L=80, 13B h=5120 L=40, 7B h=4096 L=32 (Touvron et al.
 * 2023, and their released configs); Llama 3 405B h=16384 L=126 and 8B h=4096 L=32 (Dubey et al. 2024, "The
 * Llama 3 Herd of Models", Table 3; Llama 3 70B has the Llama 2 70B shape, h=8192 L=80).
 *
 * @param params total parameter count (all experts included for a mixture-of-experts model), > 0
 * @param hidden hidden size h, > 0
 * @param layers transformer layers L, > 0
 */
public record ModelShape(long params, int hidden, int layers) {

    private static final Pattern SIZE = Pattern.compile("\\s*([0-9]*\\.?[0-9]+(?:[eE][0-9]+)?)\\s*([KMBT]?)\\s*");

    /** Published shapes: {params, hidden, layers}. Sources in the class javadoc. */
    private static final long[][] KNOWN = {
        {405_000_000_000L, 16384, 126},
        {175_000_000_000L, 12288, 96},
        {70_000_000_000L, 8192, 80},
        {13_000_000_000L, 5120, 40},
        {8_000_000_000L, 4096, 32},
        {7_000_000_000L, 4096, 32},
    };

    /** @throws IllegalArgumentException when a value is not positive */
    public ModelShape {
        if (params <= 0 || hidden <= 0 || layers <= 0) {
            throw new IllegalArgumentException("params, hidden and layers must be > 0, got " + params + ", "
                    + hidden + ", " + layers);
        }
    }

    /**
     * Parses a parameter count: {@code 70B}, {@code 175B}, {@code 1.3B}, {@code 350M}, {@code 1T}, {@code 7e9}
     * (K = 1e3, M = 1e6, B = 1e9, T = 1e12; case-insensitive).
     *
     * @param text the text
     * @return the count
     * @throws IllegalArgumentException naming the text and the allowed forms
     */
    public static long parseParams(String text) {
        Matcher m = SIZE.matcher(text == null ? "" : text.toUpperCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a parameter count; use a number with an"
                    + " optional K, M, B or T suffix (1e3, 1e6, 1e9, 1e12), e.g. 70B, 1.3B, 350M");
        }
        double v = Double.parseDouble(m.group(1));
        double scale = switch (m.group(2)) {
            case "K" -> 1e3;
            case "M" -> 1e6;
            case "B" -> 1e9;
            case "T" -> 1e12;
            default -> 1;
        };
        double n = v * scale;
        if (n < 1 || n > 1e16) {
            throw new IllegalArgumentException("'" + text + "': parameter count must be in [1, 1e16]");
        }
        return Math.round(n);
    }

    /**
     * Fewest parameters a model planned on a cluster plausibly has, 1e6 (collsim's threshold, not a published
     * figure): the smallest GPT-2, 117M parameters (Radford et al. 2019, table 2), is over 100 times more, and a
     * count below 1e6 is nearly always a forgotten suffix ({@code --params 70} for 70B).
     */
    public static final long MIN_PLAUSIBLE_PARAMS = 1_000_000L;

    /**
     * @param text a parameter count as the user wrote it
     * @return a warning when it parses to fewer than {@link #MIN_PLAUSIBLE_PARAMS}, naming the count and the count
     *         the user probably meant (the number with B, e.g. {@code did you mean 70B?}); empty otherwise or when
     *         the text does not parse (parsing reports that)
     */
    public static Optional<String> implausiblySmall(String text) {
        long n;
        try {
            n = parseParams(text);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (n >= MIN_PLAUSIBLE_PARAMS) {
            return Optional.empty();
        }
        String number = text.trim().replaceAll("[kKmMbBtT]$", "");
        return Optional.of(String.format(Locale.ROOT, "%s is %,d parameters, fewer than a model planned on a cluster"
                + " plausibly has (1e6); did you mean %sB? (suffixes K, M, B, T = 1e3, 1e6, 1e9, 1e12)", text.trim(),
                n, number));
    }

    /**
     * The shape of a model of {@code params} parameters: explicit {@code hidden}/{@code layers} win; otherwise a
     * published shape with the same parameter count; otherwise Kaplan's {@code 12 L h^2} with {@code h = 128 L},
     * h rounded to a multiple of 128.
     *
     * @param params parameter count, > 0
     * @param hidden hidden size, or 0 to derive
     * @param layers layer count, or 0 to derive
     * @return the shape
     * @throws IllegalArgumentException on a non-positive parameter count
     */
    public static ModelShape of(long params, int hidden, int layers) {
        if (params <= 0) {
            throw new IllegalArgumentException("params must be > 0, got " + params);
        }
        if (hidden > 0 && layers > 0) {
            return new ModelShape(params, hidden, layers);
        }
        for (long[] k : KNOWN) {
            if (k[0] == params && (hidden == 0 || hidden == k[1]) && (layers == 0 || layers == k[2])) {
                return new ModelShape(params, (int) k[1], (int) k[2]);
            }
        }
        if (hidden > 0) {
            return new ModelShape(params, hidden, (int) Math.max(1, Math.round(params / (12.0 * hidden * hidden))));
        }
        if (layers > 0) {
            int h = roundTo128(Math.sqrt(params / (12.0 * layers)));
            return new ModelShape(params, h, layers);
        }
        // 12 L h^2 = N with h = 128 L  =>  L = (N / (12 * 128^2))^(1/3)
        int l = (int) Math.max(1, Math.round(Math.cbrt(params / (12.0 * 128 * 128))));
        int h = roundTo128(Math.sqrt(params / (12.0 * l)));
        return new ModelShape(params, h, l);
    }

    private static int roundTo128(double h) {
        return (int) Math.max(128, Math.round(h / 128.0) * 128);
    }

    /** @return e.g. {@code 175B (h=12288, L=96)} */
    public String describe() {
        return formatParams(params) + " (h=" + hidden + ", L=" + layers + ")";
    }

    /**
     * @param n a parameter count
     * @return the short form: 175B, 1.3B, 350M
     */
    public static String formatParams(long n) {
        String[] suffix = {"", "K", "M", "B", "T"};
        double v = n;
        int i = 0;
        while (v >= 1000 && i < suffix.length - 1) {
            v /= 1000;
            i++;
        }
        String text = String.format(Locale.ROOT, "%.3g", v);
        if (text.contains(".")) {
            text = text.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return text + suffix[i];
    }
}
