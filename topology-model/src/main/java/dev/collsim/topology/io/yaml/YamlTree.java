package dev.collsim.topology.io.yaml;

import dev.collsim.topology.io.Problems;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads YAML text into {@link YamlNode}s that keep each value's line and column, with Jackson's YAML streaming parser
 * (Jackson's {@code JsonNode} trees drop locations). Syntax errors come from Jackson, which stops at the first one;
 * duplicate keys are collected as problems.
 */
final class YamlTree {

    private static final YAMLFactory FACTORY = new YAMLFactory();

    private final Problems problems;

    private YamlTree(Problems problems) {
        this.problems = problems;
    }

    /**
     * Parses a document.
     *
     * @param content  the text
     * @param problems where duplicate keys are reported
     * @return the root node (a NULL node for an empty document)
     * @throws JsonProcessingException on a syntax error (its location names line and column)
     */
    static YamlNode parse(String content, Problems problems) throws JsonProcessingException {
        try (JsonParser p = FACTORY.createParser(content)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                return new YamlNode(YamlNode.Kind.NULL, 1, 1, "", null, null, null);
            }
            return new YamlTree(problems).read(p, t, "");
        } catch (JsonProcessingException e) {
            throw e;
        } catch (IOException e) {
            throw new IllegalStateException("reading a string cannot fail", e);
        }
    }

    private YamlNode read(JsonParser p, JsonToken t, String path) throws IOException {
        JsonLocation loc = p.currentTokenLocation();
        int line = loc.getLineNr();
        int col = loc.getColumnNr();
        switch (t) {
            case START_OBJECT: {
                Map<String, YamlNode> fields = new LinkedHashMap<>();
                Map<String, int[]> keys = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    JsonLocation kl = p.currentTokenLocation();
                    String child = path.isEmpty() ? key : path + "." + key;
                    YamlNode value = read(p, p.nextToken(), child);
                    if (fields.containsKey(key)) {
                        problems.add(kl.getLineNr(), kl.getColumnNr(), child, "duplicate key '" + key
                                + "'; each key may appear once");
                    }
                    fields.put(key, value);
                    keys.put(key, new int[] {kl.getLineNr(), kl.getColumnNr()});
                }
                return new YamlNode(YamlNode.Kind.MAP, line, col, "", fields, keys, null);
            }
            case START_ARRAY: {
                List<YamlNode> items = new ArrayList<>();
                int i = 0;
                for (JsonToken it = p.nextToken(); it != JsonToken.END_ARRAY; it = p.nextToken()) {
                    items.add(read(p, it, path + "[" + i++ + "]"));
                }
                return new YamlNode(YamlNode.Kind.LIST, line, col, "", null, null, List.copyOf(items));
            }
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return new YamlNode(YamlNode.Kind.NUMBER, line, col, p.getText(), null, null, null);
            case VALUE_TRUE:
            case VALUE_FALSE:
                return new YamlNode(YamlNode.Kind.BOOLEAN, line, col, p.getText(), null, null, null);
            case VALUE_NULL:
                return new YamlNode(YamlNode.Kind.NULL, line, col, "", null, null, null);
            default:
                return new YamlNode(YamlNode.Kind.STRING, line, col, p.getText(), null, null, null);
        }
    }
}
