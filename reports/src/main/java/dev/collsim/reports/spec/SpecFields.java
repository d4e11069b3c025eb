package dev.collsim.reports.spec;

import dev.collsim.io.InputProblem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads typed fields out of a {@link YamlNode} mapping, collecting every problem (so all are reported at once)
 * instead of stopping at the first. Not thread-safe.
 */
final class SpecFields {

    private final List<InputProblem> problems = new ArrayList<>();

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
            problems.add(node.problem("expected a mapping of " + String.join(", ", allowed) + "; found "
                    + node.describe()));
            return false;
        }
        for (YamlNode child : node.map().values()) {
            String key = child.path().substring(child.path().lastIndexOf('.') + 1);
            if (!allowed.contains(key)) {
                problems.add(child.problem("unknown key '" + key + "'; allowed: " + String.join(", ", allowed)));
            }
        }
        return true;
    }

    /** @return the scalar text of {@code key}, or {@code def} when absent; reports a non-scalar */
    String text(YamlNode map, String key, String def) {
        YamlNode n = map.map().get(key);
        if (n == null) {
            return def;
        }
        if (!n.isScalar() || n.scalar() == null) {
            problems.add(n.problem("expected a value; found " + n.describe()));
            return def;
        }
        return n.scalar();
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
            problems.add(map.map().get(key).problem(e.getMessage()));
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
        return value(map, key, def, s -> switch (s.toLowerCase(java.util.Locale.ROOT)) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw new IllegalArgumentException("'" + s + "' is not a boolean; allowed: true, false");
        });
    }

    /** @return a string-to-string mapping (values as text), empty when absent */
    Map<String, String> stringMap(YamlNode map, String key) {
        YamlNode n = map.map().get(key);
        Map<String, String> out = new LinkedHashMap<>();
        if (n == null) {
            return out;
        }
        if (!n.isMap()) {
            problems.add(n.problem("expected a mapping of NAME: value; found " + n.describe()));
            return out;
        }
        n.map().forEach((k, v) -> {
            if (!v.isScalar() || v.scalar() == null) {
                problems.add(v.problem("expected a value; found " + v.describe()));
            } else {
                out.put(k, v.scalar());
            }
        });
        return out;
    }

    /** @return the items of a list field, empty when absent; reports a non-list */
    List<YamlNode> list(YamlNode map, String key) {
        YamlNode n = map.map().get(key);
        if (n == null) {
            return List.of();
        }
        if (!n.isList()) {
            problems.add(n.problem("expected a list (items starting with '- '); found " + n.describe()));
            return List.of();
        }
        return n.list();
    }
}
