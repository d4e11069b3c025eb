package dev.collsim.topology.io.xml;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One element of an XML file, with its attributes in file order and the line and column of the element and of
 * each attribute (1-based), so that readers can name the exact place of a bad value. Built by {@link XmlTree};
 * not thread-safe while being built, read-only afterwards.
 */
public final class XmlNode {

    private final String name;
    private final int line;
    private final int column;
    private final Map<String, String> attributes = new LinkedHashMap<>();
    private final Map<String, int[]> attributePositions = new LinkedHashMap<>();
    private final List<XmlNode> children = new ArrayList<>();

    public XmlNode(String name, int line, int column) {
        this.name = name;
        this.line = line;
        this.column = column;
    }

    public void attribute(String key, String value, int attrLine, int attrColumn) {
        attributes.put(key, value);
        attributePositions.put(key, new int[] {attrLine, attrColumn});
    }

    public void add(XmlNode child) {
        children.add(child);
    }

    /** @return the element name */
    public String name() {
        return name;
    }

    /** @return 1-based line of the element's {@code <} */
    public int line() {
        return line;
    }

    /** @return 1-based column of the element's {@code <} */
    public int column() {
        return column;
    }

    /** @return the attribute value, or null when absent */
    public String attr(String key) {
        return attributes.get(key);
    }

    /** @return true when the attribute is present */
    public boolean has(String key) {
        return attributes.containsKey(key);
    }

    /** @return all attributes in file order */
    public Map<String, String> attributes() {
        return Collections.unmodifiableMap(attributes);
    }

    /** @return 1-based line of the attribute, or of the element when absent */
    public int line(String key) {
        int[] p = attributePositions.get(key);
        return p == null ? line : p[0];
    }

    /** @return 1-based column of the attribute, or of the element when absent */
    public int column(String key) {
        int[] p = attributePositions.get(key);
        return p == null ? column : p[1];
    }

    /** @return the child elements in file order */
    public List<XmlNode> children() {
        return Collections.unmodifiableList(children);
    }

    /** @return the child elements with that name, in file order */
    public List<XmlNode> children(String childName) {
        return children.stream().filter(c -> c.name.equals(childName)).toList();
    }
}
