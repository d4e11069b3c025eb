package dev.collsim.sweep.spec;

import dev.collsim.io.InputProblem;
import dev.collsim.io.NearestName;
import dev.collsim.io.yaml.YamlNode;
import java.util.List;

/**
 * Problems of one sweep spec file, each located at a YAML node (a mapping entry: its key). Not thread-safe.
 *
 * @param file     the spec's file name, cited in every problem
 * @param problems where problems are added
 */
record Located(String file, List<InputProblem> problems) {

    /** Records a problem at a node, with the node's path as the field. */
    void add(YamlNode n, String message) {
        problems.add(new InputProblem(file, n.keyLine(), n.keyColumn(), n.path(), message));
    }

    /** Records a problem at a node's value (not its key), naming the field. */
    void addAtValue(YamlNode n, String field, String message) {
        problems.add(new InputProblem(file, n.line(), n.column(), field, message));
    }

    /**
     * Checks a mapping's keys; an unknown key gets the nearest allowed one ({@link NearestName}, the rule of the
     * catalog's names).
     *
     * @return true when {@code n} is a mapping (unknown keys are reported, reading goes on)
     */
    boolean mapping(YamlNode n, List<String> allowed) {
        if (!n.isMap()) {
            add(n, "expected a mapping of " + String.join(", ", allowed) + "; found " + n.found());
            return false;
        }
        n.fields().forEach((k, v) -> {
            if (!allowed.contains(k)) {
                add(v, "unknown key '" + k + "'; allowed: " + String.join(", ", allowed) + NearestName.hint(k, allowed));
            }
        });
        return true;
    }

    /** @return the scalar text of {@code key}, or null when absent; a non-scalar is reported */
    String text(YamlNode map, String key) {
        YamlNode n = map.get(key);
        if (n == null) {
            return null;
        }
        if (!n.isScalar()) {
            add(n, "expected a value; found " + n.found());
            return null;
        }
        return n.text().trim();
    }
}
