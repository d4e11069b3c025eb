package dev.collsim.reports.spec;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML value with the line and column where it starts, so that every problem found later can be reported as
 * {@code file:line:col: field: message}. Read with Jackson's YAML streaming parser (which gives token locations;
 * Jackson's tree model drops them). Immutable.
 *
 * @param file   file name as the user gave it
 * @param path   field path from the root, e.g. {@code variants[2].nic-speed}
 * @param line   1-based line
 * @param column 1-based column
 * @param map    the entries when this is a mapping, else null
 * @param list   the items when this is a sequence, else null
 * @param scalar the text when this is a scalar (null for YAML null), meaningful only when map and list are null
 */
public record YamlNode(String file, String path, int line, int column, Map<String, YamlNode> map,
        List<YamlNode> list, String scalar) {

    /**
     * Parses a YAML document.
     *
     * @param file    name to cite
     * @param content the text
     * @return the root node (an empty mapping for an empty document)
     * @throws InputException on malformed YAML or a duplicate key, with line and column
     */
    public static YamlNode parse(String file, String content) throws InputException {
        try (JsonParser p = new YAMLFactory().createParser(content)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                return new YamlNode(file, "", 1, 1, Map.of(), null, null);
            }
            return read(p, file, "");
        } catch (JsonProcessingException e) {
            JsonLocation l = e.getLocation();
            String msg = e.getOriginalMessage().split("\n")[0];
            throw new InputException(new InputProblem(file, l == null ? 0 : l.getLineNr(),
                    l == null ? 0 : l.getColumnNr(), "", "not valid YAML: " + msg));
        } catch (IOException e) {
            throw new InputException(new InputProblem(file, 0, 0, "", dev.collsim.io.IoMessages.reason(e)));
        }
    }

    private static YamlNode read(JsonParser p, String file, String path) throws IOException, InputException {
        JsonLocation at = p.currentTokenLocation();
        int line = at.getLineNr();
        int col = at.getColumnNr();
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_OBJECT) {
            Map<String, YamlNode> m = new LinkedHashMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                JsonLocation kl = p.currentTokenLocation();
                String child = path.isEmpty() ? key : path + "." + key;
                if (m.containsKey(key)) {
                    throw new InputException(new InputProblem(file, kl.getLineNr(), kl.getColumnNr(), child,
                            "duplicate key '" + key + "' (first at line " + m.get(key).line() + ")"));
                }
                p.nextToken();
                YamlNode v = read(p, file, child);
                m.put(key, new YamlNode(file, child, kl.getLineNr(), kl.getColumnNr(), v.map, v.list, v.scalar));
            }
            return new YamlNode(file, path, line, col, m, null, null);
        }
        if (t == JsonToken.START_ARRAY) {
            List<YamlNode> items = new ArrayList<>();
            int i = 0;
            while (p.nextToken() != JsonToken.END_ARRAY) {
                items.add(read(p, file, path + "[" + i++ + "]"));
            }
            return new YamlNode(file, path, line, col, null, items, null);
        }
        String text = t == JsonToken.VALUE_NULL ? null : p.getText();
        return new YamlNode(file, path, line, col, null, null, text);
    }

    /** @return true for a mapping */
    public boolean isMap() {
        return map != null;
    }

    /** @return true for a sequence */
    public boolean isList() {
        return list != null;
    }

    /** @return true for a scalar (including null) */
    public boolean isScalar() {
        return map == null && list == null;
    }

    /**
     * @param message what was found and what is allowed
     * @return a problem located at this node
     */
    public InputProblem problem(String message) {
        return new InputProblem(file, line, column, path, message);
    }

    /** @return a short description of the kind of value, for messages: mapping, list, or the scalar quoted */
    public String describe() {
        if (isMap()) {
            return "a mapping";
        }
        if (isList()) {
            return "a list";
        }
        return scalar == null ? "nothing (null)" : "'" + scalar + "'";
    }
}
