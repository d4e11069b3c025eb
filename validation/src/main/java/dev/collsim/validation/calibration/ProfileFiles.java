package dev.collsim.validation.calibration;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.topology.io.AtomicFiles;
import dev.collsim.validation.compare.PredictionBand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;

/**
 * Writes the shipped profiles of {@link ProfileBuilder}: one {@code KEY.yaml} per class with an accepted fit (the
 * {@link CalibrationProfile} fields, then {@code profileClass}, {@code band} and {@code provenance}: every dataset
 * with its bare, leave-one-out and in-sample median error, and the refused fits), and {@code INDEX.md} listing every
 * class, with or without a profile, and why not, and {@value #BANDS} with the bare model's band per class. Profiles of classes that no longer get one are deleted, so the
 * folder is exactly the command's output. Stateless.
 */
public final class ProfileFiles {

    /** The one command that writes the shipped profiles (repeated in every file it writes). */
    public static final String COMMAND = "collsim calibrate --profiles configs/calibration/auto -m "
            + "validation/src/test/resources/data";

    /** File of the bare model's bands per class, next to the profiles. */
    public static final String BANDS = "bare-model-bands.yaml";

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

    private ProfileFiles() {
    }

    /**
     * @param fits the classes
     * @param dir  output folder (created)
     * @return the files written, in order
     * @throws IOException when a file cannot be written or a stale one deleted
     */
    public static List<Path> write(List<ProfileBuilder.ClassFit> fits, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        for (ProfileBuilder.ClassFit f : fits) {
            if (f.profile().isPresent()) {
                Path p = dir.resolve(f.profileClass().key() + ".yaml");
                CalibrationProfile.write(f.profile().get(), extra(f), p);
                written.add(p);
            }
        }
        try (Stream<Path> old = Files.list(dir)) {
            for (Path p : old.filter(p -> p.toString().endsWith(".yaml") && !written.contains(p)
                    && !p.endsWith(BANDS)).toList()) {
                Files.delete(p);
            }
        }
        Path bands = dir.resolve(BANDS);
        AtomicFiles.write(bands, out -> YAML.writeValue(out, bands(fits)));
        Path index = dir.resolve("INDEX.md");
        AtomicFiles.write(index, out -> out.write(index(fits).getBytes(StandardCharsets.UTF_8)));
        written.add(bands);
        written.add(index);
        return written;
    }

    /**
     * The bare model's band per class and over every class ({@code all}), for clusters whose class has no profile:
     * per regime the {@value ProfileBuilder#BAND_PERCENTILE}th percentile of the bare model's residuals. A class
     * gets its own entry only with {@value ProfileBuilder#MIN_FILES} files or more, and takes {@code all}'s value in a
     * regime where it has no point.
     */
    private static ObjectNode bands(List<ProfileBuilder.ClassFit> fits) {
        ObjectNode o = F.objectNode();
        o.put("generatedBy", COMMAND);
        o.put("rule", String.format(Locale.ROOT, "%.0fth percentile (nearest rank) of the bare model's residuals "
                + "|predicted - measured| / predicted on the healthy datasets, per regime", ProfileBuilder.BAND_PERCENTILE));
        List<Series> all = new ArrayList<>();
        fits.forEach(f -> f.scores().forEach(s -> all.add(s.series())));
        PredictionBand every = ProfileBuilder.bandOf(all);
        o.set("all", band(every, all));
        ObjectNode classes = o.putObject("classes");
        for (ProfileBuilder.ClassFit f : fits) {
            if (f.files().size() >= ProfileBuilder.MIN_FILES) {
                classes.set(f.profileClass().key(), band(bareBand(f, every), f.scores().stream()
                        .map(ProfileBuilder.Score::series).toList()));
            }
        }
        return o;
    }

    /**
     * @param f     a class
     * @param every the bare band over every class
     * @return the bare band shipped for the class: its own with {@value ProfileBuilder#MIN_FILES} files or more (in
     *         a regime where it has no point, {@code every}'s), else {@code every}
     */
    static PredictionBand bareBand(ProfileBuilder.ClassFit f, PredictionBand every) {
        if (f.files().size() < ProfileBuilder.MIN_FILES) {
            return every;
        }
        List<Series> s = f.scores().stream().map(ProfileBuilder.Score::series).toList();
        PredictionBand b = f.bareBand();
        boolean small = s.stream().anyMatch(x -> Arrays.stream(x.sizes()).anyMatch(z -> z < AccuracyRunner.ONE_MIB));
        boolean large = s.stream().anyMatch(x -> Arrays.stream(x.sizes()).anyMatch(z -> z >= AccuracyRunner.ONE_MIB));
        return new PredictionBand(small ? b.belowMiBPercent() : every.belowMiBPercent(),
                large ? b.atLeastMiBPercent() : every.atLeastMiBPercent());
    }

    /**
     * The share of the healthy points inside the band of what the shipped files give their cluster: a class with a
     * profile counts its leave-one-out predictions in the profile's band (points of files the fit did not see); a
     * class without one counts the bare model in its shipped bare band (those bands are percentiles of the same
     * points, so that share is in-sample).
     *
     * @param fits the classes
     * @return one line
     */
    public static String coverage(List<ProfileBuilder.ClassFit> fits) {
        List<Series> all = new ArrayList<>();
        fits.forEach(f -> f.scores().forEach(s -> all.add(s.series())));
        PredictionBand every = ProfileBuilder.bandOf(all);
        double in = 0;
        int n = 0;
        for (ProfileBuilder.ClassFit f : fits) {
            List<Series> s = f.scores().stream().map(ProfileBuilder.Score::series).toList();
            int pts = s.stream().mapToInt(x -> x.calls().size()).sum();
            n += pts;
            in += pts * (f.profile().isPresent() ? f.looInside()
                    : Residuals.inside(s, x -> PerformanceParameters.DEFAULTS, bareBand(f, every)));
        }
        return String.format(Locale.ROOT, "Inside the band of the shipped choice (profile: leave-one-out predictions "
                + "in its band; no profile: bare model in its class band, in-sample): %d of %d points (%.1f %%).%n",
                Math.round(in), n, n == 0 ? 0 : 100 * in / n);
    }

    private static ObjectNode band(PredictionBand b, List<Series> s) {
        ObjectNode o = F.objectNode();
        o.put("belowMiBPercent", round(b.belowMiBPercent()));
        o.put("atLeastMiBPercent", round(b.atLeastMiBPercent()));
        o.put("datasets", s.size());
        o.put("points", s.stream().mapToInt(x -> x.calls().size()).sum());
        return o;
    }

    private static ObjectNode extra(ProfileBuilder.ClassFit f) {
        ObjectNode o = F.objectNode();
        o.put("profileClass", f.profileClass().key());
        o.put("profileLabel", f.profileClass().label());
        o.put("generatedBy", COMMAND);
        PredictionBand b = f.band().orElseThrow();
        ObjectNode band = o.putObject("band");
        band.put("rule", String.format(Locale.ROOT, "%.0fth percentile (nearest rank) of the leave-one-file-out "
                + "residuals |predicted - measured| / predicted, per regime", ProfileBuilder.BAND_PERCENTILE));
        band.put("belowMiBPercent", round(b.belowMiBPercent()));
        band.put("atLeastMiBPercent", round(b.atLeastMiBPercent()));
        band.put("leaveOneOutInsidePercent", round(100 * f.looInside()));
        band.put("inSampleInsidePercent", round(100 * f.inInside()));
        ObjectNode prov = o.putObject("provenance");
        prov.put("files", f.files().size());
        ObjectNode med = prov.putObject("medianOfDatasetMediansPercent");
        med.put("bare", round(medianOf(f, ProfileBuilder.Score::bare)));
        med.put("leaveOneOut", round(medianOf(f, ProfileBuilder.Score::loo)));
        med.put("inSample", round(medianOf(f, ProfileBuilder.Score::inSample)));
        ObjectNode every = prov.putObject("everySizeMedianOfDatasetMediansPercent");
        every.put("bare", round(medianOf(f, ProfileBuilder.Score::bareAll)));
        every.put("leaveOneOut", round(medianOf(f, ProfileBuilder.Score::looAll)));
        every.put("inSample", round(medianOf(f, ProfileBuilder.Score::inSampleAll)));
        ArrayNode ds = prov.putArray("datasets");
        for (ProfileBuilder.Score s : f.scores()) {
            ObjectNode d = ds.addObject();
            d.put("dataset", s.series().dataset().file() + ":" + s.series().dataset().line() + " ("
                    + s.series().dataset().label() + ")");
            d.put("points", s.series().calls().size());
            d.put("bareMedianPercent", round(s.bare()));
            d.put("leaveOneOutMedianPercent", round(s.loo()));
            d.put("inSampleMedianPercent", round(s.inSample()));
            d.put("everySizeMedianPercent", String.format(Locale.ROOT, "bare %.2f, leave-one-out %.2f, in-sample "
                    + "%.2f", s.bareAll(), s.looAll(), s.inSampleAll()));
            d.put("leaveOneOut", s.looNote());
        }
        ArrayNode refused = prov.putArray("refusedFits");
        f.fit().ifPresent(x -> x.refused().forEach(a -> refused.add(a.reasons())));
        return o;
    }

    /** @return the median over the class's datasets of a per-dataset figure (NaN ones left out), NaN when none */
    static double medianOf(ProfileBuilder.ClassFit f, ToDoubleFunction<ProfileBuilder.Score> g) {
        DescriptiveStatistics st = new DescriptiveStatistics();
        f.scores().stream().mapToDouble(g).filter(v -> !Double.isNaN(v)).forEach(st::addValue);
        return st.getN() == 0 ? Double.NaN : st.getPercentile(50);
    }

    private static double round(double v) {
        return Double.isNaN(v) ? Double.NaN : Math.round(v * 100) / 100.0;
    }

    /** @return the index: one row per class */
    public static String index(List<ProfileBuilder.ClassFit> fits) {
        StringBuilder sb = new StringBuilder("# Shipped calibration profiles\n\nWritten by `" + COMMAND + "` (do not "
                + "edit; re-run it after a model change). Errors: median over the class's datasets of each dataset's"
                + " median error of time at >= 1 MiB, percent; leave-one-out refits the profile without the scored "
                + "dataset's file. Band: per-regime half-width from the leave-one-out residuals.\n\n"
                + "| class | files | datasets | profile | bare % | leave-one-out % | in-sample % | every size: bare / LOO / "
                + "in-sample % | band < 1 MiB / >= 1 MiB % | inside band (LOO / in-sample) |\n"
                + "|---|---:|---:|---|---:|---:|---:|---|---|---|\n");
        for (ProfileBuilder.ClassFit f : fits) {
            String band = f.band().map(b -> String.format(Locale.ROOT, "%.1f / %.1f", b.belowMiBPercent(),
                    b.atLeastMiBPercent())).orElse("-");
            String inside = f.band().isPresent() ? String.format(Locale.ROOT, "%.0f %% / %.0f %%", 100 * f.looInside(),
                    100 * f.inInside()) : "-";
            String every = num(medianOf(f, ProfileBuilder.Score::bareAll)) + " / "
                    + num(medianOf(f, ProfileBuilder.Score::looAll)) + " / "
                    + num(medianOf(f, ProfileBuilder.Score::inSampleAll));
            sb.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %s | %s | %s | %s | %s | %s |%n",
                    f.profileClass().key(), f.files().size(), f.scores().size(),
                    f.profile().isPresent() ? f.profileClass().key() + ".yaml" : "none: " + f.why().replace("|", "/"),
                    num(medianOf(f, ProfileBuilder.Score::bare)), num(medianOf(f, ProfileBuilder.Score::loo)),
                    num(medianOf(f, ProfileBuilder.Score::inSample)), every, band, inside));
        }
        return sb.append(System.lineSeparator()).append(coverage(fits)).toString();
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }
}
