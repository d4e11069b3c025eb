package dev.collsim.validation.calibration;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.collsim.io.InputException;
import dev.collsim.io.InputLimits;
import dev.collsim.io.InputProblem;
import dev.collsim.simulator.perf.PerformanceParameters;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The one reader of a file of performance parameters, as {@code collsim predict --params} and a report variant's
 * {@code calibration:} take it: a {@code collsim calibrate} profile ({@link CalibrationProfile}, recognised by its
 * {@code schema: collsim-calibration/v1}), or else the fields of {@link PerformanceParameters} as JSON, or YAML when
 * the name ends in {@code .yaml}/{@code .yml}. Fields not given keep {@link PerformanceParameters#DEFAULTS}' values.
 * Stateless.
 */
public final class ParametersFile {

    private ParametersFile() {
    }

    /**
     * @param file the file, named in every problem as given
     * @return the parameters
     * @throws InputException naming file, line, column and field: an unknown field (with the allowed ones), a
     *                        malformed file, a value out of range, or a profile {@link CalibrationProfile} refuses
     * @throws IOException    when the file cannot be read
     */
    public static PerformanceParameters read(Path file) throws InputException, IOException {
        String text = InputLimits.readText(file, file.toString());
        if (text.contains(CalibrationProfile.SCHEMA)) {
            return CalibrationProfile.read(file).parameters();
        }
        String lower = file.getFileName().toString().toLowerCase(Locale.ROOT);
        boolean yaml = lower.endsWith(".yaml") || lower.endsWith(".yml");
        if (yaml) {
            InputLimits.checkYamlLines(file.toString(), text);
        }
        JsonFactory factory = yaml ? new YAMLFactory() : new JsonFactory();
        Map<String, JsonLocation> given = checkFields(file.toString(), text, factory);
        ObjectMapper m = new ObjectMapper(factory);
        try {
            ObjectNode merged = m.valueToTree(PerformanceParameters.DEFAULTS);
            merged.setAll((ObjectNode) m.readTree(text));
            return m.treeToValue(merged, PerformanceParameters.class);
        } catch (MismatchedInputException e) {
            throw mismatched(file.toString(), e, given);
        } catch (JsonProcessingException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            String why = cause instanceof JsonProcessingException j ? j.getOriginalMessage() : cause.getMessage();
            why = why == null ? "unreadable" : why;
            String field = "parameters";
            JsonLocation at = null;
            for (Map.Entry<String, JsonLocation> g : given.entrySet()) {
                if (why.startsWith(g.getKey() + " ")) {
                    field = g.getKey();
                    at = g.getValue();
                }
            }
            throw new InputException(new InputProblem(file.toString(), at == null ? 0 : at.getLineNr(),
                    at == null ? 0 : at.getColumnNr(), field, why));
        }
    }

    /**
     * A value of the wrong type ({@code bwEfficiencySimple: 2x}) at its key's line and column, as the field path
     * ({@code netClasses.ROCE.stepUs}), what was found and what is allowed; Jackson's own text names Java types.
     */
    private static InputException mismatched(String name, MismatchedInputException e, Map<String, JsonLocation> given) {
        List<String> path = path(e);
        JsonLocation at = path.isEmpty() ? null : given.get(path.get(0));
        return new InputException(new InputProblem(name, at == null ? 0 : at.getLineNr(),
                at == null ? 0 : at.getColumnNr(), path.isEmpty() ? "parameters" : String.join(".", path),
                foundAllowed(e)));
    }

    /** @return the field names (list indices as numbers) from the document's root to the value Jackson refused */
    static List<String> path(MismatchedInputException e) {
        return e.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName()
                : String.valueOf(r.getIndex())).toList();
    }

    /** @return "found 'X'; allowed: a number" (or the kind the field takes) for a value Jackson refused */
    static String foundAllowed(MismatchedInputException e) {
        Class<?> type = e.getTargetType();
        boolean number = type != null && (type.isPrimitive() || Number.class.isAssignableFrom(type));
        String found = e instanceof InvalidFormatException f ? "'" + f.getValue() + "'" : "a value of another kind";
        return "found " + found + "; allowed: " + (number ? "a number" : "a " + (type == null
                ? "value of the documented kind" : type.getSimpleName()));
    }

    /** @return what the document starts with, worded as the located-YAML layer words it (a list, nothing, 'x') */
    private static String found(JsonToken first, JsonParser p) throws IOException {
        if (first == null || first == JsonToken.VALUE_NULL) {
            return "nothing";
        }
        return first == JsonToken.START_ARRAY ? "a list" : "'" + p.getText() + "'";
    }

    /** @return the field names {@link PerformanceParameters} reads, in its JSON order */
    public static List<String> allowedFields() {
        return Arrays.stream(PerformanceParameters.class.getRecordComponents()).map(c -> c.getName()).toList();
    }

    /**
     * Refuses a top-level field PerformanceParameters does not have, at its line and column.
     *
     * @return the fields given, with where each is
     */
    private static Map<String, JsonLocation> checkFields(String name, String text, JsonFactory factory)
            throws InputException {
        List<String> allowed = allowedFields();
        Map<String, JsonLocation> given = new LinkedHashMap<>();
        try (JsonParser p = factory.createParser(text)) {
            JsonToken first = p.nextToken();
            if (first != JsonToken.START_OBJECT) {
                JsonLocation at = p.currentTokenLocation();
                throw new InputException(new InputProblem(name, at.getLineNr(), at.getColumnNr(), "parameters",
                        "found " + found(first, p) + "; allowed: a mapping of " + String.join(", ", allowed)));
            }
            for (JsonToken t = p.nextToken(); t != null && t != JsonToken.END_OBJECT; t = p.nextToken()) {
                String field = p.currentName();
                if (!allowed.contains(field)) {
                    JsonLocation at = p.currentTokenLocation();
                    throw new InputException(new InputProblem(name, at.getLineNr(), at.getColumnNr(), field,
                            "unknown key '" + field + "'; allowed: " + allowed.stream()
                                    .collect(Collectors.joining(", ")) + " (a file without calibrate's line 'schema: "
                                    + CalibrationProfile.SCHEMA + "' is read as bare parameters, not as a profile)"));
                }
                given.put(field, p.currentTokenLocation());
                p.nextToken();
                p.skipChildren();
            }
            return given;
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new InputException(new InputProblem(name, at == null ? 0 : at.getLineNr(),
                    at == null ? 0 : at.getColumnNr(), "parameters", "not valid JSON/YAML: " + e.getOriginalMessage()));
        } catch (IOException e) {
            throw new InputException(new InputProblem(name, 0, 0, "parameters", "unreadable: " + e.getMessage()));
        }
    }
}
