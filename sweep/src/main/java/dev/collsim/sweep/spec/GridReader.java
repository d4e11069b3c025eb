package dev.collsim.sweep.spec;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.io.yaml.YamlNode;
import dev.collsim.reports.spec.ReportSpecReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads the spec's {@code grid:}: each key is a report variant key, each value a list (or one value). Every value is
 * checked on its own by the report spec reader (placed in a one-variant spec), so it accepts exactly what a report
 * variant accepts; a problem is reported at the value in the sweep spec.
 * <pre>
 * grid:
 *   hosts: [8, 16, 32]
 *   nic-speed: [200 Gb/s, 400 Gb/s]
 *   fabric: [fat-tree, rail-optimized]
 *   env: [{}, {NCCL_ALGO: Ring}]
 * </pre>
 * Stateless.
 */
final class GridReader {

    /** The report variant keys a grid may vary (all but the name). */
    static final List<String> KEYS = List.of("hosts", "trays-per-domain", "host-type", "nic-speed", "nics-per-host",
            "fabric", "oversubscription", "leaf-radix", "nvlink", "network", "env", "calibration", "backend", "routing", "seed");

    private GridReader() {
    }

    /**
     * @param prefix report spec text (cluster, backend) a checked variant is appended to
     * @param check  whether to check each value with the report spec reader (only when the rest of the spec is valid)
     * @return the axes (problems recorded in {@code at})
     */
    static List<GridAxis> read(Located at, YamlNode root, String prefix, Path folder, boolean check) {
        YamlNode g = root.get("grid");
        if (g == null || !at.mapping(g, KEYS)) {
            return List.of();
        }
        List<GridAxis> axes = new ArrayList<>();
        for (Map.Entry<String, YamlNode> e : g.fields().entrySet()) {
            if (!KEYS.contains(e.getKey())) {
                continue;
            }
            List<YamlNode> values = e.getValue().isList() ? e.getValue().items() : List.of(e.getValue());
            if (values.isEmpty()) {
                at.add(e.getValue(), "empty list; give at least one value");
                continue;
            }
            List<String> yaml = new ArrayList<>();
            List<String> labels = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            for (YamlNode v : values) {
                String y = flow(v);
                String label = label(v);
                if (!seen.add(label)) {
                    at.addAtValue(v, "grid." + e.getKey(), "value " + label + " is listed twice");
                } else if (!check || valid(at, prefix, folder, e.getKey(), y, v)) {
                    yaml.add(y);
                    labels.add(label);
                }
            }
            if (!yaml.isEmpty()) {
                axes.add(new GridAxis(e.getKey(), yaml, labels));
            }
        }
        return axes;
    }

    /** Reads the value as the only key of a report variant; reports its problems at the value. */
    private static boolean valid(Located at, String prefix, Path folder, String key, String yaml, YamlNode v) {
        String text = prefix + "variants:\n  - name: \"check\"\n    " + key + ": " + yaml + "\n"
                + DesignSpaceReader.PLACEHOLDER_SWEEP;
        try {
            ReportSpecReader.read(at.file(), text, folder);
            return true;
        } catch (InputException ex) {
            for (InputProblem p : ex.problems()) {
                at.addAtValue(v, "grid." + key, p.message());
            }
            return false;
        }
    }

    /** @return the node as YAML flow text, every scalar double-quoted */
    static String flow(YamlNode n) {
        if (n.isMap()) {
            return n.fields().entrySet().stream().map(f -> quote(f.getKey()) + ": " + flow(f.getValue()))
                    .collect(Collectors.joining(", ", "{", "}"));
        }
        if (n.isList()) {
            return n.items().stream().map(GridReader::flow).collect(Collectors.joining(", ", "[", "]"));
        }
        return n.isNull() ? "null" : quote(n.text());
    }

    /** @return the value as tables show it: the scalar, {@code K=V K=V} for a mapping, {@code -} for an empty one */
    static String label(YamlNode n) {
        if (n.isMap()) {
            String s = n.fields().entrySet().stream().map(f -> f.getKey() + "=" + label(f.getValue()))
                    .collect(Collectors.joining(" "));
            return s.isEmpty() ? "-" : s;
        }
        if (n.isList()) {
            return n.items().stream().map(GridReader::label).collect(Collectors.joining(",", "[", "]"));
        }
        return n.isNull() ? "null" : n.text().trim();
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
