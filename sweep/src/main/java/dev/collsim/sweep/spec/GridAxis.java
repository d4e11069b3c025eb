package dev.collsim.sweep.spec;

import java.util.List;

/**
 * One key of the spec's {@code grid:} (a report variant key such as {@code hosts} or {@code env}) with the values it
 * takes. Immutable.
 *
 * @param key    the variant key, as the report spec names it
 * @param yaml   each value as YAML flow text, quoted, ready to be placed after {@code key: } in a variant
 * @param labels each value as tables show it, e.g. {@code 400 Gb/s}, {@code NCCL_ALGO=Ring}, {@code -} for an empty
 *               env
 */
public record GridAxis(String key, List<String> yaml, List<String> labels) {

    /** Copies the lists. */
    public GridAxis {
        yaml = List.copyOf(yaml);
        labels = List.copyOf(labels);
    }

    /** @return the number of values */
    public int size() {
        return yaml.size();
    }
}
