package dev.collsim.topology.io.yaml;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML value with the line and column where it starts, so that every problem can point at its source. Immutable
 * after {@link YamlTree} builds it.
 */
public final class YamlNode {

    /** Node kinds. */
    enum Kind { MAP, LIST, STRING, NUMBER, BOOLEAN, NULL }

    final Kind kind;
    public final int line;
    public final int column;
    final String text;
    final Map<String, YamlNode> fields;
    final Map<String, int[]> keyLocations;
    final List<YamlNode> items;

    YamlNode(Kind kind, int line, int column, String text, Map<String, YamlNode> fields,
            Map<String, int[]> keyLocations, List<YamlNode> items) {
        this.kind = kind;
        this.line = line;
        this.column = column;
        this.text = text;
        this.fields = fields == null ? new LinkedHashMap<>() : fields;
        this.keyLocations = keyLocations == null ? new LinkedHashMap<>() : keyLocations;
        this.items = items == null ? List.of() : items;
    }

    boolean isMap() {
        return kind == Kind.MAP;
    }

    boolean isList() {
        return kind == Kind.LIST;
    }

    boolean isScalar() {
        return kind == Kind.STRING || kind == Kind.NUMBER || kind == Kind.BOOLEAN;
    }

    YamlNode get(String key) {
        return fields.get(key);
    }

    /** @return a short description of what was found, for messages */
    String found() {
        return switch (kind) {
            case MAP -> "a mapping";
            case LIST -> "a list";
            case NULL -> "nothing";
            case NUMBER -> "the bare number " + text;
            default -> "'" + text + "'";
        };
    }
}
