package dev.collsim.io.yaml;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML value with the line and column where it starts and, for a mapping entry, where its key starts, so that every
 * problem found later can be reported as {@code file:line:col: field: message}. Built by {@link YamlTree}; immutable.
 * Lines and columns are 1-based, as Jackson's token locations.
 */
public final class YamlNode {

    /** Node kinds. */
    public enum Kind { MAP, LIST, STRING, NUMBER, BOOLEAN, NULL }

    private final Kind kind;
    private final String path;
    private final int line;
    private final int column;
    private final int keyLine;
    private final int keyColumn;
    private final String text;
    private final Map<String, YamlNode> fields;
    private final List<YamlNode> items;

    YamlNode(Kind kind, String path, int line, int column, int keyLine, int keyColumn, String text,
            Map<String, YamlNode> fields, List<YamlNode> items) {
        this.kind = kind;
        this.path = path;
        this.line = line;
        this.column = column;
        this.keyLine = keyLine;
        this.keyColumn = keyColumn;
        this.text = text;
        this.fields = fields == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        this.items = items == null ? List.of() : List.copyOf(items);
    }

    /** @return this node as the value of a mapping entry whose key starts at {@code keyLine:keyColumn} */
    YamlNode atKey(int atLine, int atColumn) {
        return new YamlNode(kind, path, line, column, atLine, atColumn, text, fields, items);
    }

    /** @return the kind of value */
    public Kind kind() {
        return kind;
    }

    /** @return field path from the root, e.g. {@code variants[2].nic-speed}; empty for the root */
    public String path() {
        return path;
    }

    /** @return the last key of {@link #path()} (a mapping entry's key), or the whole path */
    public String key() {
        return path.substring(path.lastIndexOf('.') + 1);
    }

    /** @return 1-based line where the value starts */
    public int line() {
        return line;
    }

    /** @return 1-based column where the value starts */
    public int column() {
        return column;
    }

    /** @return 1-based line of the key of a mapping entry; the value's line for the root and list items */
    public int keyLine() {
        return keyLine;
    }

    /** @return 1-based column of the key of a mapping entry; the value's column for the root and list items */
    public int keyColumn() {
        return keyColumn;
    }

    /** @return the scalar's text as written (numbers and booleans too); null for a mapping, a list or YAML null */
    public String text() {
        return text;
    }

    /** @return the entries of a mapping in file order (empty for other kinds); unmodifiable */
    public Map<String, YamlNode> fields() {
        return fields;
    }

    /** @return the items of a list (empty for other kinds); unmodifiable */
    public List<YamlNode> items() {
        return items;
    }

    /** @param key a mapping key; @return its value, or null when absent or this is not a mapping */
    public YamlNode get(String key) {
        return fields.get(key);
    }

    /** @return true for a mapping */
    public boolean isMap() {
        return kind == Kind.MAP;
    }

    /** @return true for a list */
    public boolean isList() {
        return kind == Kind.LIST;
    }

    /** @return true for YAML null (an empty value) */
    public boolean isNull() {
        return kind == Kind.NULL;
    }

    /** @return true for a string, number or boolean (not null) */
    public boolean isScalar() {
        return kind == Kind.STRING || kind == Kind.NUMBER || kind == Kind.BOOLEAN;
    }

    /** @return a short description of what was found, for messages: a mapping, a list, nothing, or the value */
    public String found() {
        return switch (kind) {
            case MAP -> "a mapping";
            case LIST -> "a list";
            case NULL -> "nothing";
            case NUMBER -> "the bare number " + text;
            default -> "'" + text + "'";
        };
    }
}
