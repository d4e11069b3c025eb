package dev.collsim.topology.io.yaml;

import dev.collsim.io.yaml.YamlNode;
import dev.collsim.topology.io.Problems;

import dev.collsim.units.Bandwidth;
import dev.collsim.units.DataSize;
import dev.collsim.units.Latency;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Typed access to YAML fields that reports each problem (with line, column, field path, what was found and what is
 * allowed) and returns null instead of stopping, so one pass finds every problem.
 */
final class Fields {

    private final Problems problems;

    Fields(Problems problems) {
        this.problems = problems;
    }

    private static String path(String parent, String key) {
        return parent.isEmpty() ? key : parent + "." + key;
    }

    /** Reports keys of {@code map} not in {@code allowed}. */
    void checkKeys(YamlNode map, String path, Set<String> allowed) {
        if (map == null || !map.isMap()) {
            return;
        }
        for (String key : map.fields().keySet()) {
            if (!allowed.contains(key)) {
                YamlNode at = map.get(key);
                problems.add(at.keyLine(), at.keyColumn(), path(path, key), "unknown key '" + key + "'; allowed: "
                        + String.join(", ", new TreeSet<>(allowed)));
            }
        }
    }

    /** @return the child node, or null (reported when required) */
    YamlNode node(YamlNode map, String key, String path, boolean required) {
        YamlNode n = map == null ? null : map.get(key);
        if ((n == null || n.kind() == YamlNode.Kind.NULL) && required) {
            problems.add(map, path(path, key), "missing required key '" + key + "'");
            return null;
        }
        return n == null || n.kind() == YamlNode.Kind.NULL ? null : n;
    }

    YamlNode map(YamlNode map, String key, String path, boolean required) {
        YamlNode n = node(map, key, path, required);
        if (n != null && !n.isMap()) {
            problems.add(n, path(path, key), "found " + n.found() + "; expected a mapping of keys to values");
            return null;
        }
        return n;
    }

    String text(YamlNode map, String key, String path, boolean required) {
        YamlNode n = node(map, key, path, required);
        if (n == null) {
            return null;
        }
        if (!n.isScalar()) {
            problems.add(n, path(path, key), "found " + n.found() + "; expected a text value");
            return null;
        }
        return n.text();
    }

    Integer integer(YamlNode map, String key, String path, boolean required, int min) {
        YamlNode n = node(map, key, path, required);
        return n == null ? null : integer(n, path(path, key), min);
    }

    Integer integer(YamlNode n, String field, int min) {
        try {
            if (n.kind() != YamlNode.Kind.NUMBER) {
                throw new NumberFormatException();
            }
            int v = Integer.parseInt(n.text());
            if (v < min) {
                problems.add(n, field, "found " + v + "; allowed: a whole number >= " + min);
                return null;
            }
            return v;
        } catch (NumberFormatException e) {
            problems.add(n, field, "found " + n.found() + "; allowed: a whole number >= " + min);
            return null;
        }
    }

    Boolean bool(YamlNode map, String key, String path) {
        YamlNode n = node(map, key, path, false);
        if (n == null) {
            return null;
        }
        if (n.kind() != YamlNode.Kind.BOOLEAN) {
            problems.add(n, path(path, key), "found " + n.found() + "; allowed: true, false");
            return null;
        }
        return Boolean.parseBoolean(n.text());
    }

    /** A bandwidth with its unit, > 0. */
    Bandwidth bandwidth(YamlNode map, String key, String path, boolean required) {
        YamlNode n = node(map, key, path, required);
        if (n == null) {
            return null;
        }
        String field = path(path, key);
        if (n.kind() == YamlNode.Kind.NUMBER) {
            problems.add(n, field, "found " + n.found() + " without a unit; write the unit, one of "
                    + Bandwidth.ALLOWED_UNITS + ", e.g. '400 Gb/s' or '25 GB/s'");
            return null;
        }
        String t = n.text().trim();
        if (t.startsWith("-")) {
            problems.add(n, field, "found '" + t + "'; a bandwidth must be > 0");
            return null;
        }
        try {
            Bandwidth b = Bandwidth.parse(t);
            if (b.gbps() <= 0) {
                problems.add(n, field, "found '" + t + "'; a bandwidth must be > 0");
                return null;
            }
            return b;
        } catch (IllegalArgumentException e) {
            problems.add(n, field, "found '" + t + "'; allowed: a number > 0 with one of " + Bandwidth.ALLOWED_UNITS);
            return null;
        }
    }

    /** A latency with its unit, >= 0. */
    Latency latency(YamlNode map, String key, String path) {
        YamlNode n = node(map, key, path, false);
        if (n == null) {
            return null;
        }
        String field = path(path, key);
        if (n.kind() == YamlNode.Kind.NUMBER) {
            problems.add(n, field, "found " + n.found() + " without a unit; write the unit, one of "
                    + Latency.ALLOWED_UNITS + ", e.g. '0.6 us'");
            return null;
        }
        try {
            return Latency.parse(n.text());
        } catch (IllegalArgumentException e) {
            problems.add(n, field, "found '" + n.text() + "'; allowed: a number >= 0 with one of " + Latency.ALLOWED_UNITS);
            return null;
        }
    }

    /** A memory size with its unit (e.g. {@code 80 GB}), > 0. */
    Long size(YamlNode map, String key, String path) {
        YamlNode n = node(map, key, path, false);
        if (n == null) {
            return null;
        }
        String field = path(path, key);
        if (n.kind() == YamlNode.Kind.NUMBER || !n.text().matches(".*[A-Za-z]$")) {
            problems.add(n, field, "found " + n.found() + "; allowed: a size with its unit, e.g. '80 GB', '141 GiB'");
            return null;
        }
        try {
            long v = DataSize.parseBytes(n.text());
            if (v <= 0) {
                throw new IllegalArgumentException();
            }
            return v;
        } catch (IllegalArgumentException e) {
            problems.add(n, field, "found '" + n.text() + "'; allowed: " + DataSize.ALLOWED);
            return null;
        }
    }

    /** A list of whole numbers >= 0; null entries are dropped after being reported. */
    List<Integer> intList(YamlNode map, String key, String path) {
        YamlNode n = node(map, key, path, false);
        List<Integer> out = new ArrayList<>();
        if (n == null) {
            return out;
        }
        String field = path(path, key);
        if (!n.isList()) {
            problems.add(n, field, "found " + n.found() + "; expected a list of indices, e.g. [0, 1]");
            return out;
        }
        for (int i = 0; i < n.items().size(); i++) {
            Integer v = integer(n.items().get(i), field + "[" + i + "]", 0);
            if (v != null) {
                out.add(v);
            }
        }
        return out;
    }

    /** @return the list items, or an empty list (reported if the node is not a list) */
    List<YamlNode> list(YamlNode map, String key, String path) {
        YamlNode n = node(map, key, path, false);
        if (n == null) {
            return List.of();
        }
        if (!n.isList()) {
            problems.add(n, path(path, key), "found " + n.found() + "; expected a list");
            return List.of();
        }
        return n.items();
    }
}
