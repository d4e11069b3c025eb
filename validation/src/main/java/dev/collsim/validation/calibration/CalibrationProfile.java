package dev.collsim.validation.calibration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.collsim.io.InputException;
import dev.collsim.io.InputLimits;
import dev.collsim.io.InputProblem;
import dev.collsim.io.yaml.YamlNode;
import dev.collsim.io.yaml.YamlTree;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.tuning.GpuGeneration;
import dev.collsim.topology.io.AtomicFiles;
import dev.collsim.validation.compare.ErrorStats;
import dev.collsim.validation.compare.PredictionBand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Calibration profiles as YAML: {@code schema: collsim-calibration/v1}, the data fitted on, the full
 * {@code parameters} (PerformanceParameters field names), the fitted values with standard errors, their
 * covariance, residuals and the hold-out check. Written atomically (temporary file, then ATOMIC_MOVE).
 */
public final class CalibrationProfile {

    /** Schema tag of the profile format. */
    public static final String SCHEMA = "collsim-calibration/v1";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

    private CalibrationProfile() {
    }

    /**
     * @param c      the calibration
     * @param target file to write
     * @throws IOException when the file cannot be written (nothing half-written is left)
     */
    public static void write(Calibration c, Path target) throws IOException {
        write(c, null, target);
    }

    /**
     * A profile of {@code collsim calibrate -o}: the calibration's fields with {@code generatedBy}, the command that
     * wrote it, after {@code generation} (as the shipped profiles name theirs), so the file says how to remake it.
     *
     * @param c           the calibration
     * @param generatedBy the command line, e.g. {@code collsim calibrate -c ... -o ... -m ...}
     * @param target      file to write
     * @throws IOException when the file cannot be written (nothing half-written is left)
     */
    public static void writeWithCommand(Calibration c, String generatedBy, Path target) throws IOException {
        ObjectNode head = YAML.createObjectNode();
        head.put("generatedBy", generatedBy);
        write(c, head, null, target);
    }

    /**
     * As {@link #writeWithCommand(Calibration, String, Path)} with the profile's prediction band ({@code band:
     * belowMiBPercent, atLeastMiBPercent, rule}), which {@link #load} reads back and compare then prints for every
     * point.
     *
     * @param c           the calibration
     * @param generatedBy the command line that wrote it
     * @param band        the band, percent above the prediction per size regime (below 1 MiB, at >= 1 MiB); stored
     *                    as every calibration file stores a band ({@link PredictionBand#stored}: 2 decimals)
     * @param rule        how the band was made, in words
     * @param target      file to write
     * @throws IOException when the file cannot be written (nothing half-written is left)
     */
    public static void writeWithCommand(Calibration c, String generatedBy, PredictionBand band, String rule,
            Path target) throws IOException {
        ObjectNode head = YAML.createObjectNode();
        head.put("generatedBy", generatedBy);
        ObjectNode extra = YAML.createObjectNode();
        ObjectNode b = extra.putObject("band");
        b.put("belowMiBPercent", PredictionBand.stored(band.belowMiBPercent()));
        b.put("atLeastMiBPercent", PredictionBand.stored(band.atLeastMiBPercent()));
        b.put("rule", rule);
        write(c, head, extra, target);
    }

    /**
     * @param c      the calibration
     * @param extra  fields appended after the calibration's (a shipped profile's class, band and provenance), or
     *               null
     * @param target file to write
     * @throws IOException when the file cannot be written (nothing half-written is left)
     */
    public static void write(Calibration c, ObjectNode extra, Path target) throws IOException {
        write(c, null, extra, target);
    }

    private static void write(Calibration c, ObjectNode head, ObjectNode extra, Path target) throws IOException {
        ObjectNode root = YAML.createObjectNode();
        root.put("schema", SCHEMA);
        root.put("generation", c.generation().name());
        if (head != null) {
            root.setAll(head);
        }
        ArrayNode src = root.putArray("fittedOn");
        c.sources().forEach(src::add);
        root.put("points", c.nPoints());
        root.set("parameters", YAML.valueToTree(c.parameters()));
        ArrayNode fitted = root.putArray("fitted");
        for (FittedValue v : c.fitted()) {
            ObjectNode o = fitted.addObject();
            o.put("name", v.name());
            o.put("value", v.value());
            o.put("sigma", v.sigma());
            o.put("initial", v.initial());
            o.put("atBound", v.atBound());
        }
        ArrayNode cov = root.putArray("covariance");
        for (double[] row : c.covariance()) {
            ArrayNode r = cov.addArray();
            for (double x : row) {
                r.add(x);
            }
        }
        root.set("residualsPercent", stats(c.residuals()));
        ObjectNode hold = root.putObject("holdOutPercent");
        hold.set("train", stats(c.holdTrain()));
        hold.set("test", stats(c.holdTest()));
        ArrayNode notes = root.putArray("notes");
        c.notes().forEach(notes::add);
        if (extra != null) {
            root.setAll(extra);
        }
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        AtomicFiles.writeIfChanged(target, out -> YAML.writeValue(out, root));
    }

    private static ObjectNode stats(ErrorStats s) {
        ObjectNode o = YAML.createObjectNode();
        o.put("n", s.n());
        o.put("median", s.median());
        o.put("p90", s.p90());
        o.put("max", s.max());
        return o;
    }

    /**
     * @param file the profile
     * @return the calibration it holds (residual statistics are not re-read: NONE)
     * @throws InputException when the file is not a profile, naming the field
     */
    public static Calibration read(Path file) throws InputException {
        return load(file).calibration();
    }

    /**
     * A profile with its prediction band, when the file has one ({@code band.belowMiBPercent} and {@code
     * band.atLeastMiBPercent}, as {@link ProfileBuilder} writes them).
     *
     * @param calibration the calibration
     * @param band        relative half-widths per size regime, empty when the file has none
     * @param shipped     true for a profile {@code calibrate --profiles} wrote (it names its {@code profileClass}; its
     *                    band is from leave-one-out residuals), false for a {@code calibrate -o} profile (its band,
     *                    when it has one, from its own fit's residuals)
     */
    public record Loaded(Calibration calibration, Optional<PredictionBand> band, boolean shipped) {
    }

    /**
     * @param file the profile
     * @return the calibration and its band
     * @throws InputException when the file is not a profile, naming the field
     */
    public static Loaded load(Path file) throws InputException {
        String name = file.toString();
        return load(name, InputLimits.readText(file, name));
    }

    /**
     * @param name file name for messages
     * @param text the profile's text
     * @return the calibration and its band
     * @throws InputException when the text is not a profile, naming the field
     */
    public static Loaded load(String name, String text) throws InputException {
        InputLimits.checkYamlLines(name, text);
        JsonNode root;
        try {
            root = YAML.readTree(text);
        } catch (IOException e) {
            throw new InputException(new InputProblem(name, 0, 0, "", "cannot read YAML: " + e.getMessage()));
        }
        if (root == null || !SCHEMA.equals(root.path("schema").asText())) {
            String found = root == null || !root.path("schema").isValueNode() ? "nothing"
                    : "'" + root.path("schema").asText() + "'";
            throw new InputException(new InputProblem(name, 1, 0, "schema", "found " + found + "; allowed: " + SCHEMA));
        }
        YamlNode located = locate(name, text);
        if (!root.path("parameters").isObject()) {
            YamlNode at = located == null ? null : located.get("parameters");
            // a missing key is reported at the mapping that lacks it, as YamlFields does ("missing required key")
            int line = at != null ? at.keyLine() : located != null ? located.line() : 0;
            int column = at != null ? at.keyColumn() : located != null ? located.column() : 0;
            throw new InputException(new InputProblem(name, line, column, "parameters",
                    (at == null ? "missing required key 'parameters'" : "found " + at.found())
                    + "; allowed: a mapping of every performance parameter (" + String.join(", ",
                    ParametersFile.allowedFields()) + "), as collsim calibrate writes it"));
        }
        PerformanceParameters p;
        GpuGeneration g;
        try {
            // a profile written before a parameter existed keeps that parameter's default
            ObjectNode merged = YAML.valueToTree(PerformanceParameters.DEFAULTS);
            merged.setAll((ObjectNode) root.path("parameters"));
            p = YAML.treeToValue(merged, PerformanceParameters.class);
            g = GpuGeneration.valueOf(root.path("generation").asText());
        } catch (MismatchedInputException e) {
            List<String> path = ParametersFile.path(e);
            YamlNode params = located == null ? null : located.get("parameters");
            YamlNode at = params == null || path.isEmpty() ? null : params.get(path.get(0));
            throw new InputException(new InputProblem(name, at == null ? 0 : at.keyLine(), at == null ? 0
                    : at.keyColumn(), "parameters" + (path.isEmpty() ? "" : "." + String.join(".", path)),
                    ParametersFile.foundAllowed(e)));
        } catch (IOException | IllegalArgumentException e) {
            throw new InputException(new InputProblem(name, 0, 0, "parameters", e.getMessage()));
        }
        List<FittedValue> fitted = new ArrayList<>();
        for (JsonNode v : root.path("fitted")) {
            String n = v.path("name").asText();
            try {
                FitParameter.ofField(n);
            } catch (IllegalArgumentException e) {
                throw new InputException(new InputProblem(name, 0, 0, "fitted.name", e.getMessage()));
            }
            int i = fitted.size();
            for (String key : List.of("value", "sigma", "initial")) {
                finite(name, located, i, key, v.path(key));
            }
            fitted.add(new FittedValue(n, v.path("value").asDouble(), v.path("sigma").asDouble(),
                    v.path("initial").asDouble(), v.path("atBound").asBoolean()));
        }
        int k = fitted.size();
        double[][] cov = new double[k][k];
        JsonNode c = root.path("covariance");
        if (c.size() != k) {
            throw new InputException(new InputProblem(name, 0, 0, "covariance", "needs " + k + " rows, one per fitted "
                    + "value; found " + c.size()));
        }
        for (int a = 0; a < k; a++) {
            for (int b = 0; b < k; b++) {
                cov[a][b] = c.path(a).path(b).asDouble();
            }
        }
        List<String> sources = new ArrayList<>();
        root.path("fittedOn").forEach(s -> sources.add(s.asText()));
        JsonNode r = root.path("residualsPercent");
        ErrorStats residuals = r.path("n").asInt(0) > 0 ? new ErrorStats(r.path("n").asInt(), r.path("median")
                .asDouble(Double.NaN), r.path("p90").asDouble(Double.NaN), r.path("max").asDouble(Double.NaN))
                : ErrorStats.NONE;
        Calibration cal = new Calibration(p, g, fitted, cov, List.of(), residuals, ErrorStats.NONE,
                ErrorStats.NONE, sources, root.path("points").asInt(), 0);
        return new Loaded(cal, band(name, root.path("band")), root.path("profileClass").isTextual());
    }

    private static Optional<PredictionBand> band(String name, JsonNode b) throws InputException {
        if (b.isMissingNode()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new PredictionBand(b.path("belowMiBPercent").asDouble(Double.NaN),
                    b.path("atLeastMiBPercent").asDouble(Double.NaN)));
        } catch (IllegalArgumentException e) {
            throw new InputException(new InputProblem(name, 0, 0, "band", e.getMessage()
                    + "; allowed: belowMiBPercent and atLeastMiBPercent, finite percentages >= 0"));
        }
    }

    /** @return the file as a located YAML tree (line and column of each node), or null when it does not parse */
    private static YamlNode locate(String name, String text) {
        try {
            List<InputProblem> ignored = new ArrayList<>();
            return YamlTree.parse(name, text, ignored::add);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Refuses a fitted value, sigma or initial value that is not a finite number (NaN, .inf, 1e309): the fit
     * writes finite numbers only, and a non-finite one would reach the model as a parameter.
     */
    private static void finite(String name, YamlNode located, int index, String key, JsonNode value)
            throws InputException {
        if (value.isMissingNode() || (value.isNumber() && Double.isFinite(value.asDouble()))) {
            return;
        }
        YamlNode list = located == null ? null : located.get("fitted");
        YamlNode item = list != null && list.isList() && index < list.items().size() ? list.items().get(index) : null;
        YamlNode at = item == null ? null : item.get(key);
        throw new InputException(new InputProblem(name, at == null ? 0 : at.line(), at == null ? 0 : at.column(),
                "fitted[" + index + "]." + key, "found '" + value.asText() + "'; allowed: a finite number"));
    }
}
