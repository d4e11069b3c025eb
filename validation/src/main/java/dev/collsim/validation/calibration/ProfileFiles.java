package dev.collsim.validation.calibration;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.collsim.topology.io.AtomicFiles;
import dev.collsim.validation.compare.ErrorStats;
import dev.collsim.validation.compare.PredictionBand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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

    /** The band rule in words ({@link PooledBand}). */
    static final String RULE = String.format(Locale.ROOT, "per regime the %.0fth percentile of the residuals "
            + "|ln(measured / predicted)| with each of the class's K files weighing 1 / (K + 1) and the files of every "
            + "class together the last 1 / (K + 1); band [predicted / factor, predicted x factor], factor = 1 + "
            + "percent / 100", ProfileBuilder.BAND_PERCENTILE);

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
     * @return the files of the output, in order (a file that already held the same bytes is left untouched,
     *         {@link AtomicFiles#writeIfChanged}, so re-running the command after no model change changes no file)
     * @throws IOException when a file cannot be written or a stale one deleted
     */
    public static List<Path> write(List<ProfileBuilder.ClassFit> fits, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        List<Series> all = ClassBands.series(fits);
        for (ProfileBuilder.ClassFit f : fits) {
            if (f.profile().isPresent()) {
                Path p = dir.resolve(f.profileClass().key() + ".yaml");
                CalibrationProfile.write(f.profile().get(), extra(f, ClassBands.of(f, all)), p);
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
        AtomicFiles.writeIfChanged(bands, out -> YAML.writeValue(out, bands(fits)));
        Path index = dir.resolve("INDEX.md");
        AtomicFiles.writeIfChanged(index, out -> out.write(index(fits).getBytes(StandardCharsets.UTF_8)));
        written.add(bands);
        written.add(index);
        return written;
    }

    /**
     * The bare model's band per class and over every class ({@code all}), for clusters whose class has no profile
     * ({@link ClassBands}, {@link PooledBand}); every class with a file gets its own entry (a cluster of a class
     * with none gets {@code all}).
     */
    private static ObjectNode bands(List<ProfileBuilder.ClassFit> fits) {
        ObjectNode o = F.objectNode();
        o.put("generatedBy", COMMAND);
        o.put("rule", RULE + " (bare model)");
        List<Series> all = ClassBands.series(fits);
        o.set("all", band(ClassBands.everyClass(all), all));
        ObjectNode classes = o.putObject("classes");
        for (ProfileBuilder.ClassFit f : fits) {
            if (f.files().size() >= ProfileBuilder.MIN_FILES && f.profile().isPresent()) {
                // the bare model's own band of a class with a profile (--calibration none); its profile has its own
                classes.set(f.profileClass().key(), band(ClassBands.bareBand(f, all), ClassBands.series(List.of(f))));
            } else if (!f.files().isEmpty()) {
                ClassBands.Entry e = ClassBands.of(f, all);
                ObjectNode c = band(e.band(), ClassBands.series(List.of(f)));
                c.put("outOfSampleInsidePercent", round(100 * e.outOfSample()));
                classes.set(f.profileClass().key(), c);
            }
        }
        return o;
    }

    /**
     * The share of the healthy points inside the band shipped with their class's choice ({@link ClassBands}), out of
     * sample (each file against the band the rule makes without it) and in sample.
     *
     * @param fits the classes
     * @return one line
     */
    public static String coverage(List<ProfileBuilder.ClassFit> fits) {
        List<Series> all = ClassBands.series(fits);
        double out = 0;
        double in = 0;
        int n = 0;
        int wide = 0;
        for (ProfileBuilder.ClassFit f : fits) {
            int pts = Residuals.points(ClassBands.series(List.of(f)));
            ClassBands.Entry e = ClassBands.of(f, all);
            n += pts;
            out += pts * e.outOfSample();
            in += pts * e.inSample();
            wide += e.band().wide() ? pts : 0;
        }
        // a point inside a band of factor 14 is no sign of an accurate prediction: the share in wide bands is said
        return String.format(Locale.ROOT, "Inside the band of the shipped choice, out of sample (each file against "
                + "the band made without it; profile: leave-one-out predictions; no profile: the bare model): %d of %d "
                + "points (%.1f %%); in sample (the bands as shipped, made with every file): %d (%.1f %%). %d of the %d"
                + " points are of classes whose band is wide (a factor above %s): inside such a band says little of"
                + " the prediction.%n", Math.round(out), n, n == 0 ? 0 : 100 * out / n, Math.round(in),
                n == 0 ? 0 : 100 * in / n, wide, n, num(1 + PredictionBand.WIDE_PERCENT / 100));
    }

    private static ObjectNode band(PredictionBand b, List<Series> s) {
        ObjectNode o = F.objectNode();
        o.put("belowMiBPercent", PredictionBand.stored(b.belowMiBPercent()));
        o.put("atLeastMiBPercent", PredictionBand.stored(b.atLeastMiBPercent()));
        if (b.wide()) {
            o.put("note", b.wideNote().trim());
        }
        o.put("datasets", s.size());
        o.put("points", s.stream().mapToInt(x -> x.calls().size()).sum());
        return o;
    }

    private static ObjectNode extra(ProfileBuilder.ClassFit f, ClassBands.Entry e) {
        ObjectNode o = F.objectNode();
        o.put("profileClass", f.profileClass().key());
        o.put("profileLabel", f.profileClass().label());
        o.put("generatedBy", COMMAND);
        PredictionBand b = e.band();
        ObjectNode band = o.putObject("band");
        band.put("rule", RULE + " (the class's leave-one-file-out predictions; every class: the bare model)");
        band.put("belowMiBPercent", PredictionBand.stored(b.belowMiBPercent()));
        band.put("atLeastMiBPercent", PredictionBand.stored(b.atLeastMiBPercent()));
        band.put("leaveOneOutInsidePercent", round(100 * e.outOfSample()));
        band.put("leaveOneOutInsideRule", "out of sample: each file's leave-one-out predictions against the band made "
                + "without the file");
        band.put("inSampleInsidePercent", round(100 * e.inSample()));
        if (b.wide()) {
            band.put("note", b.wideNote().trim());
        }
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
        prov.put("leaveOneOutMinusInSamplePoints", round(f.looGap()));
        prov.put("leaveOneOutRule", looRule(f));
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
        return ErrorStats.median(st);
    }

    private static double round(double v) {
        return Double.isNaN(v) ? Double.NaN : Math.round(v * 100) / 100.0;
    }

    /** @return the index: one row per class */
    public static String index(List<ProfileBuilder.ClassFit> fits) {
        StringBuilder sb = new StringBuilder("# Shipped calibration profiles\n\nWritten by `" + COMMAND + "` (do not "
                + "edit; re-run it after a model change). Errors: median over the class's datasets of each dataset's"
                + " median error of time at >= 1 MiB, percent; leave-one-out refits the profile without the scored "
                + "dataset's file; LOO rule: leave-one-out within " + num(ProfileBuilder.LOO_GAP_POINTS) + " points of "
                + "in-sample (reported, not enforced). Band: per regime below 1 MiB / at >= 1 MiB, [predicted / factor, "
                + "predicted x factor], " + RULE + ", of the leave-one-out residuals (profile) or the bare model's "
                + "(bare); inside band: out of sample (each file against the "
                + "band made without it) / in sample; wide: a regime's factor above "
                + num(1 + PredictionBand.WIDE_PERCENT / 100) + ".\n\n"
                + "| class | files | datasets | profile | bare % | leave-one-out % | in-sample % | LOO rule | every size: "
                + "bare / LOO / in-sample % | band < 1 MiB / >= 1 MiB | inside band (out of sample / in sample) |\n"
                + "|---|---:|---:|---|---:|---:|---:|---|---|---|---|\n");
        List<Series> all = ClassBands.series(fits);
        for (ProfileBuilder.ClassFit f : fits) {
            ClassBands.Entry e = ClassBands.of(f, all);
            PredictionBand b = e.band();
            String band = (f.profile().isPresent() ? "" : "bare: ") + PredictionBand.words(b.belowMiBPercent())
                    + " / " + PredictionBand.words(b.atLeastMiBPercent()) + (b.wide() ? " (wide)" : "");
            String inside = String.format(Locale.ROOT, "%.0f %% / %.0f %%%s", 100 * e.outOfSample(), 100 * e.inSample(),
                    b.wide() ? " of a wide band" : "");
            String every = num(medianOf(f, ProfileBuilder.Score::bareAll)) + " / "
                    + num(medianOf(f, ProfileBuilder.Score::looAll)) + " / "
                    + num(medianOf(f, ProfileBuilder.Score::inSampleAll));
            sb.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    f.profileClass().key(), f.files().size(), f.scores().size(),
                    f.profile().isPresent() ? f.profileClass().key() + ".yaml" : "none: " + f.why().replace("|", "/"),
                    num(medianOf(f, ProfileBuilder.Score::bare)), num(medianOf(f, ProfileBuilder.Score::loo)),
                    num(medianOf(f, ProfileBuilder.Score::inSample)), looRule(f), every, band, inside));
        }
        return sb.append(System.lineSeparator()).append(coverage(fits)).toString();
    }

    /**
     * @param f a class
     * @return the leave-one-out rule for it in words: "-" without a leave-one-out figure, else the gap and
     *         whether it is within {@value ProfileBuilder#LOO_GAP_POINTS} points
     */
    static String looRule(ProfileBuilder.ClassFit f) {
        double gap = f.looGap();
        if (Double.isNaN(gap)) {
            return "-";
        }
        return String.format(Locale.ROOT, "%+.1f: %s", gap, gap <= ProfileBuilder.LOO_GAP_POINTS ? "holds" : "fails");
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }
}
