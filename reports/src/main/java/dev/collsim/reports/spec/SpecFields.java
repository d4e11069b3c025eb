package dev.collsim.reports.spec;

import dev.collsim.io.InputProblem;
import dev.collsim.io.yaml.YamlNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads typed fields of the report spec out of a located {@link YamlNode} mapping (read by the shared
 * {@code dev.collsim.io.yaml.YamlTree}), collecting every problem (so all are reported at once) instead of stopping
 * at the first. A problem with a mapping entry points at its key. Not thread-safe.
 */
final class SpecFields {

    private final String file;
    private final List<InputProblem> problems = new ArrayList<>();

    /** @param file the spec's file name, cited in every problem */
    SpecFields(String file) {
        this.file = file;
    }

    /**
     * @param node    where the problem is (a mapping entry: its key)
     * @param message what was found and what is allowed
     * @return the problem, located
     */
    InputProblem problem(YamlNode node, String message) {
        return new InputProblem(file, node.keyLine(), node.keyColumn(), node.path(), message);
    }

    /** Records a problem at a node. */
    void add(YamlNode node, String message) {
        problems.add(problem(node, message));
    }

    /** @return a short description of the kind of value, for messages: mapping, list, or the scalar quoted */
    static String describe(YamlNode n) {
        if (n.isMap()) {
            return "a mapping";
        }
        if (n.isList()) {
            return "a list";
        }
        return n.isNull() ? "nothing (null)" : "'" + n.text() + "'";
    }

    /** @return the problems found so far */
    List<InputProblem> problems() {
        return problems;
    }

    /** Records a problem. */
    void add(InputProblem p) {
        problems.add(p);
    }

    /**
     * Checks that {@code node} is a mapping with only allowed keys.
     *
     * @return true when it is a mapping (unknown keys are reported but do not stop reading)
     */
    boolean mapping(YamlNode node, Set<String> allowed) {
        if (!node.isMap()) {
            add(node, "expected a mapping of " + String.join(", ", allowed) + "; found " + describe(node));
            return false;
        }
        for (YamlNode child : node.fields().values()) {
            String key = child.key();
            if (!allowed.contains(key)) {
                add(child, "unknown key '" + key + "'; allowed: " + String.join(", ", allowed));
            }
        }
        return true;
    }

    /** @return the scalar text of {@code key}, or {@code def} when absent; reports a non-scalar */
    String text(YamlNode map, String key, String def) {
        YamlNode n = map.get(key);
        if (n == null) {
            return def;
        }
        if (!n.isScalar()) {
            add(n, "expected a value; found " + describe(n));
            return def;
        }
        return n.text();
    }

    /**
     * @param parse converts the text; its IllegalArgumentException message becomes the problem (it names the
     *              allowed values)
     * @return the parsed value of {@code key}, or {@code def} when absent or invalid (invalid is reported)
     */
    <T> T value(YamlNode map, String key, T def, Function<String, T> parse) {
        String t = text(map, key, null);
        if (t == null) {
            return def;
        }
        try {
            return parse.apply(t.trim());
        } catch (IllegalArgumentException e) {
            add(map.get(key), e.getMessage());
            return def;
        }
    }

    /** @return an integer in [min, max], or def */
    Integer integer(YamlNode map, String key, Integer def, int min, int max) {
        return value(map, key, def, s -> {
            int v;
            try {
                v = Integer.parseInt(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + s + "' is not a whole number; allowed: " + min + " to " + max);
            }
            if (v < min || v > max) {
                throw new IllegalArgumentException(v + " is out of range; allowed: " + min + " to " + max);
            }
            return v;
        });
    }

    /** @return a number in [min, max], or def */
    Double number(YamlNode map, String key, Double def, double min, double max) {
        return value(map, key, def, s -> {
            double v;
            try {
                v = Double.parseDouble(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + s + "' is not a number; allowed: " + min + " to " + max);
            }
            if (!(v >= min && v <= max)) {
                throw new IllegalArgumentException(s + " is out of range; allowed: " + min + " to " + max);
            }
            return v;
        });
    }

    /** @return true/false, or def */
    Boolean bool(YamlNode map, String key, Boolean def) {
        return value(map, key, def, s -> switch (s.toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw new IllegalArgumentException("'" + s + "' is not a boolean; allowed: true, false");
        });
    }

    /** @return a string-to-string mapping (values as text), empty when absent */
    Map<String, String> stringMap(YamlNode map, String key) {
        YamlNode n = map.get(key);
        Map<String, String> out = new LinkedHashMap<>();
        if (n == null) {
            return out;
        }
        if (!n.isMap()) {
            add(n, "expected a mapping of NAME: value; found " + describe(n));
            return out;
        }
        n.fields().forEach((k, v) -> {
            if (!v.isScalar()) {
                add(v, "expected a value; found " + describe(v));
            } else {
                out.put(k, v.text());
            }
        });
        return out;
    }

    /** @return the items of a list field, empty when absent; reports a non-list */
    List<YamlNode> list(YamlNode map, String key) {
        YamlNode n = map.get(key);
        if (n == null) {
            return List.of();
        }
        if (!n.isList()) {
            add(n, "expected a list (items starting with '- '); found " + describe(n));
            return List.of();
        }
        return n.items();
    }
}
