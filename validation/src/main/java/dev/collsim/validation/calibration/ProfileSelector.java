package dev.collsim.validation.calibration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.collsim.io.InputException;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.validation.compare.PredictionBand;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * Picks the shipped calibration profile of a cluster: {@code configs/calibration/auto/KEY.yaml} on the class path
 * (the repository's {@code configs} folder is packaged as resources), KEY being the cluster's {@link ProfileClass}.
 * The files are written by {@code collsim calibrate --profiles configs/calibration/auto -m DATA} ({@link
 * ProfileBuilder}); a class without a file (too few healthy public datasets, or every fit refused) gets the bare
 * model. Stateless.
 */
public final class ProfileSelector {

    /** Class-path folder of the shipped profiles (the repository's {@code configs/calibration/auto}). */
    public static final String DIR = "configs/calibration/auto";

    /** The line every command prints when the bare model is asked for ({@code --calibration none}). */
    public static final String NONE_LINE = "calibration: none (bare model)";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private ProfileSelector() {
    }

    /**
     * The choice for one cluster.
     *
     * @param profileClass the cluster's class
     * @param calibration  the shipped profile, empty for the bare model
     * @param band         the profile's band (empty with the bare model or a profile without one)
     * @param line         one line for the user: the file used and what it was fitted on, or why the bare model
     */
    public record Choice(ProfileClass profileClass, Optional<Calibration> calibration, Optional<PredictionBand> band,
            String line) {
    }

    /**
     * @param t the cluster
     * @return the shipped profile of its class, or the bare model with the reason
     * @throws IllegalStateException when a shipped file is broken (a build defect, not user input)
     */
    public static Choice select(Topology t) {
        return select(ProfileClass.of(t));
    }

    /**
     * @param t     the cluster
     * @param ranks the communicator's GPUs: the class is that of the NCCL nodes they span ({@link
     *              ProfileClass#ofRanks}); empty for every host
     * @return the shipped profile of that class, or the bare model with the reason
     */
    public static Choice select(Topology t, Collection<Gpu> ranks) {
        return select(ProfileClass.ofRanks(t, ranks));
    }

    private static Choice select(ProfileClass c) {
        return select(c, resource(DIR + "/" + c.key() + ".yaml"), resource(DIR + "/" + ProfileFiles.BANDS));
    }

    /**
     * @param c    the class
     * @param text  the shipped file's text, empty when there is none
     * @param bands the shipped bare-model bands ({@link ProfileFiles#BANDS}), empty when there are none
     * @return the choice
     */
    static Choice select(ProfileClass c, Optional<String> text, Optional<String> bands) {
        String file = DIR + "/" + c.key() + ".yaml";
        if (text.isEmpty()) {
            Optional<PredictionBand> band = bands.flatMap(b -> bareBand(b, c.key()));
            return new Choice(c, Optional.empty(), band, "calibration: none shipped for " + c.key() + " ("
                    + c.label() + "; see " + DIR + "/INDEX.md); bare model" + band.map(b -> ", band " + b.regimes()
                    + b.wideNote()).orElse(""));
        }
        CalibrationProfile.Loaded l;
        try {
            l = CalibrationProfile.load(file, text.get());
        } catch (InputException e) {
            throw new IllegalStateException("shipped profile " + file + " is broken: " + e.getMessage(), e);
        }
        Calibration cal = l.calibration();
        String band = l.band().map(b -> "; band " + b.regimes() + b.wideNote()).orElse("");
        return new Choice(c, Optional.of(cal), l.band(), "calibration: " + file + " (" + c.label() + "; fitted on "
                + cal.sources().size() + " dataset(s), " + cal.nPoints() + " points" + band
                + "); --calibration none for the bare model");
    }

    /**
     * @param c a class
     * @return the bare model's choice for it (its shipped bare band, no profile), as when no profile is shipped
     */
    public static Choice bare(ProfileClass c) {
        return select(c, Optional.empty(), resource(DIR + "/" + ProfileFiles.BANDS));
    }

    /**
     * A profile the user names for a cluster of another class: its {@code profileClass} (a shipped profile) or else
     * its {@code generation} (every {@code collsim calibrate} profile) differs from the cluster's
     * ({@link ProfileClass#of(Topology)}). A parameters file names neither and is never flagged.
     *
     * @param file    the profile's text
     * @param cluster the cluster it is applied to
     * @return the mismatch in words ({@code fitted for CLASS (LABEL); this cluster is CLASS (LABEL)}), else empty
     */
    public static Optional<String> mismatch(String file, Topology cluster) {
        JsonNode root;
        try {
            root = YAML.readTree(file);
        } catch (IOException e) {
            return Optional.empty(); // the reader of the parameters reports a broken file
        }
        if (root == null || !root.isObject()) {
            return Optional.empty();
        }
        ProfileClass c = ProfileClass.of(cluster);
        String own = c.key() + " (" + c.label() + ")";
        String cls = root.path("profileClass").asText("");
        if (!cls.isEmpty()) {
            return cls.equals(c.key()) ? Optional.empty() : Optional.of("fitted for " + cls + " ("
                    + root.path("profileLabel").asText("") + "); this cluster is " + own);
        }
        // a profile of calibrate records NCCL's table index (GpuGeneration: AMPERE for sm80-89, Ada's L40S
        // included), not the architecture of the class key (ada-...), so the two are compared as indexes
        String gen = root.path("generation").asText("");
        Topology probe = cluster.hostTemplate().orElse(cluster);
        GpuGeneration ours = GpuGeneration.of(probe.gpus().stream().mapToInt(Gpu::sm).min().orElse(0));
        return gen.isEmpty() || gen.equalsIgnoreCase(ours.name()) ? Optional.empty()
                : Optional.of("fitted on GPUs of NCCL's " + gen.toUpperCase(Locale.ROOT) + " tables; this cluster's"
                        + " are of its " + ours.name() + " tables (" + own + ")");
    }

    /**
     * @return the bare model's shipped band over every class ({@code all} of {@link ProfileFiles#BANDS}), empty when
     *         none is shipped
     */
    public static Optional<PredictionBand> bareBandOverEveryClass() {
        return resource(DIR + "/" + ProfileFiles.BANDS).flatMap(b -> bareBand(b, ""));
    }

    /** @return the class's bare band from the bands file, else its {@code all} band, else empty */
    static Optional<PredictionBand> bareBand(String yaml, String key) {
        JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (IOException e) {
            throw new IllegalStateException("shipped " + ProfileFiles.BANDS + " is broken: " + e.getMessage(), e);
        }
        JsonNode b = root.path("classes").path(key);
        b = b.isObject() ? b : root.path("all");
        if (!b.isObject()) {
            return Optional.empty();
        }
        return Optional.of(new PredictionBand(b.path("belowMiBPercent").asDouble(), b.path("atLeastMiBPercent")
                .asDouble()));
    }

    private static Optional<String> resource(String path) {
        try (InputStream in = ProfileSelector.class.getClassLoader().getResourceAsStream(path)) {
            return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
