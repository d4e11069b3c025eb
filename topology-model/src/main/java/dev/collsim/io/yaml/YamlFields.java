package dev.collsim.io.yaml;

import dev.collsim.io.InputProblem;
import dev.collsim.io.NearestName;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.DataSize;
import dev.collsim.units.Latency;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The one typed-field layer for located YAML (the {@code collsim/v1} cluster spec and the what-if report spec): reads
 * the fields of a {@link YamlNode} mapping as text, whole numbers and numbers in a range, booleans, lists, string
 * maps, bandwidths, latencies and sizes, and reports each problem as {@code file:line:col: field: found X; allowed: Y}
 * instead of stopping, so one pass finds every problem. A problem with a value points at the value; an unknown key at
 * the key; a missing key at the mapping that lacks it. A key whose value is empty (YAML null) counts as absent. Each
 * getter returns null (an empty list or map for the collection getters) when the key is absent or its value is
 * refused. Not thread-safe; the sink decides how problems are collected and sorted.
 */
public final class YamlFields {

    private final String file;
    private final Consumer<InputProblem> sink;

    /**
     * @param file the input's file name as the user gave it, cited in every problem
     * @param sink receives every problem found
     */
    public YamlFields(String file, Consumer<InputProblem> sink) {
        this.file = file;
        this.sink = sink;
    }

    /** @return the field path of {@code key} below the mapping at {@code parent} */
    private static String path(YamlNode parent, String key) {
        String p = parent == null ? "" : parent.path();
        return p.isEmpty() ? key : p + "." + key;
    }

    /** Records a problem at a value (line and column 0 when the node is null), naming {@code field}. */
    public void add(YamlNode at, String field, String message) {
        sink.accept(new InputProblem(file, at == null ? 0 : at.line(), at == null ? 0 : at.column(), field, message));
    }

    /** Records a problem at a value, naming the value's own field path. */
    public void add(YamlNode at, String message) {
        add(at, at.path(), message);
    }

    /** Reports each key of {@code map} not in {@code allowed}, at the key; the allowed keys are listed in order. */
    public void checkKeys(YamlNode map, Collection<String> allowed) {
        checkKeys(map, allowed, null, List.of());
    }

    /**
     * As {@link #checkKeys(YamlNode, Collection)}, and an unknown key that is a key of the mapping {@code inner}
     * (a key written one level too high, e.g. {@code network} beside {@code fabric}) says where it belongs.
     *
     * @param map       the mapping
     * @param allowed   its keys
     * @param inner     the nested mapping's key, e.g. {@code fabric} (null: none)
     * @param innerKeys the nested mapping's keys
     */
    public void checkKeys(YamlNode map, Collection<String> allowed, String inner, Collection<String> innerKeys) {
        checkKeys(map, allowed, key -> innerKeys.contains(key) ? " (" + key + " belongs under " + inner + ": "
                + path(map, inner) + "." + key + ")" : "");
    }

    /**
     * As {@link #checkKeys(YamlNode, Collection)}, and an unknown key gets the caller's hint after the allowed keys;
     * where the caller has none, the nearest allowed key ({@link NearestName}: {@code "; did you mean 'KEY'?"}).
     *
     * @param map     the mapping
     * @param allowed its keys
     * @param hint    from an unknown key to the text appended to its problem ({@code " (...)"}, or empty for none)
     */
    public void checkKeys(YamlNode map, Collection<String> allowed, Function<String, String> hint) {
        if (map == null || !map.isMap()) {
            return;
        }
        for (YamlNode at : map.fields().values()) {
            if (!allowed.contains(at.key())) {
                String h = hint.apply(at.key());
                sink.accept(new InputProblem(file, at.keyLine(), at.keyColumn(), at.path(), "unknown key '" + at.key()
                        + "'; allowed: " + String.join(", ", allowed)
                        + (h.isEmpty() ? NearestName.hint(at.key(), allowed) : h)));
            }
        }
    }

    /**
     * Checks that {@code node} is a mapping and reports its unknown keys.
     *
     * @return true when it is a mapping (unknown keys are reported but do not stop reading)
     */
    public boolean mapping(YamlNode node, Collection<String> allowed) {
        if (!node.isMap()) {
            add(node, "found " + node.found() + "; allowed: a mapping of " + String.join(", ", allowed));
            return false;
        }
        checkKeys(node, allowed);
        return true;
    }

    /** @return the value of {@code key}, or null when absent or empty (reported as missing when required) */
    public YamlNode node(YamlNode map, String key, boolean required) {
        YamlNode n = map == null ? null : map.get(key);
        if (n == null || n.isNull()) {
            if (required) {
                add(map, path(map, key), "missing required key '" + key + "'");
            }
            return null;
        }
        return n;
    }

    /** @return the mapping value of {@code key}, or null */
    public YamlNode map(YamlNode map, String key, boolean required) {
        YamlNode n = node(map, key, required);
        if (n != null && !n.isMap()) {
            add(n, "found " + n.found() + "; allowed: a mapping of keys to values");
            return null;
        }
        return n;
    }

    /** @return the text of a scalar value (numbers and booleans as written), or null */
    public String text(YamlNode map, String key, boolean required) {
        YamlNode n = node(map, key, required);
        if (n == null) {
            return null;
        }
        if (!n.isScalar()) {
            add(n, "found " + n.found() + "; allowed: a text value");
            return null;
        }
        return n.text();
    }

    /**
     * @param parse converts the trimmed text; its IllegalArgumentException's message becomes the problem (it names
     *              what was found and the allowed values)
     * @return the parsed value of an optional {@code key}, or null
     */
    public <T> T value(YamlNode map, String key, Function<String, T> parse) {
        String t = text(map, key, false);
        if (t == null) {
            return null;
        }
        try {
            return parse.apply(t.trim());
        } catch (IllegalArgumentException e) {
            add(map.get(key), e.getMessage());
            return null;
        }
    }

    /** @return a whole number in [min, max] (a number, quoted or not), or null */
    public Integer integer(YamlNode map, String key, boolean required, int min, int max) {
        YamlNode n = node(map, key, required);
        return n == null ? null : integer(n, n.path(), min, max);
    }

    /** @return the whole number {@code n} holds if it lies in [min, max], or null after reporting it at {@code field} */
    public Integer integer(YamlNode n, String field, int min, int max) {
        String allowed = max == Integer.MAX_VALUE ? "a whole number >= " + min
                : "a whole number from " + min + " to " + max;
        long v;
        String t = n.isScalar() ? n.text().trim() : "";
        try {
            v = Long.parseLong(t);
        } catch (NumberFormatException e) {
            // digits beyond a long are a whole number above any max: said as such, not as "not a number"
            v = t.matches("\\+?\\d+") ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        if (v == Long.MIN_VALUE) {
            add(n, field, "found " + scalar(n) + "; allowed: " + allowed);
            return null;
        }
        if (v < min || v > max) {
            // a number above the largest int is refused for its size: the allowed range says where it ends
            add(n, field, "found " + (v == Long.MAX_VALUE ? t : v) + "; allowed: " + (v > max ? "a whole number from " + min + " to " + max
                    : allowed));
            return null;
        }
        return (int) v;
    }

    /** @return a finite decimal number in [min, max] (e.g. {@code 2}, {@code 0.5}, {@code 1e6}), or null */
    public Double number(YamlNode map, String key, boolean required, double min, double max) {
        YamlNode n = node(map, key, required);
        if (n == null) {
            return null;
        }
        String allowed = "a number from " + plain(min) + " to " + plain(max);
        String t = n.isScalar() ? n.text().trim() : "";
        if (!t.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
            add(n, "found " + scalar(n) + "; allowed: " + allowed);
            return null;
        }
        double v = Double.parseDouble(t);
        if (!(v >= min && v <= max)) {
            add(n, "found " + t + "; allowed: " + allowed);
            return null;
        }
        return v;
    }

    /**
     * @return true or false, or null. YAML 1.1 (which Jackson's YAML parser reads) also spells them yes/on and
     *         no/off; the node keeps only the text, so the words are read here, quoted or not, in any case.
     */
    public Boolean bool(YamlNode map, String key) {
        YamlNode n = node(map, key, false);
        if (n == null) {
            return null;
        }
        String t = n.isScalar() ? n.text().trim().toLowerCase(Locale.ROOT) : "";
        return switch (t) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> {
                add(n, "found " + scalar(n) + "; allowed: true, false");
                yield null;
            }
        };
    }

    /** @return the items of a list value, or an empty list (reported when the value is not a list) */
    public List<YamlNode> list(YamlNode map, String key) {
        YamlNode n = node(map, key, false);
        if (n == null) {
            return List.of();
        }
        if (!n.isList()) {
            add(n, "found " + n.found() + "; allowed: a list (items starting with '- ', or [a, b])");
            return List.of();
        }
        return n.items();
    }

    /** @return a list of indices (whole numbers >= 0), e.g. {@code [0, 1]}; entries that are refused are left out */
    public List<Integer> indices(YamlNode map, String key) {
        YamlNode n = node(map, key, false);
        List<Integer> out = new ArrayList<>();
        if (n == null) {
            return out;
        }
        if (!n.isList()) {
            add(n, "found " + n.found() + "; allowed: a list of indices, e.g. [0, 1]");
            return out;
        }
        for (YamlNode item : n.items()) {
            Integer v = integer(item, item.path(), 0, Integer.MAX_VALUE);
            if (v != null) {
                out.add(v);
            }
        }
        return out;
    }

    /** @return a mapping of names to text values, in file order; empty when absent or refused */
    public Map<String, String> stringMap(YamlNode map, String key) {
        YamlNode n = node(map, key, false);
        Map<String, String> out = new LinkedHashMap<>();
        if (n == null) {
            return out;
        }
        if (!n.isMap()) {
            add(n, "found " + n.found() + "; allowed: a mapping of NAME: value");
            return out;
        }
        n.fields().forEach((k, v) -> {
            if (!v.isScalar()) {
                add(v, "found " + v.found() + "; allowed: a text value");
            } else {
                out.put(k, v.text());
            }
        });
        return out;
    }

    /**
     * The largest bandwidth a YAML field takes, GB/s: 1 PB/s. No link, NIC or switch of a described machine comes
     * near it (the largest figure of the shipped configs is an NVLink5 GPU's 1.8 TB/s, NVIDIA GB200 NVL72 datasheet;
     * a whole NVL72 rack's NVLink switching is 130 TB/s, same datasheet), so a value above it is a typo of unit or
     * exponent ({@code 1e9 Tb/s}) and is refused rather than modelled.
     */
    public static final double MAX_BANDWIDTH_GBPS = 1e6;

    /** @return a bandwidth written with its unit ({@code 400 Gb/s}, {@code 25 GB/s}), > 0 and at most 1 PB/s, or null */
    public Bandwidth bandwidth(YamlNode map, String key, boolean required) {
        return withUnit(node(map, key, required), Bandwidth.ALLOWED_UNITS, "'400 Gb/s' or '25 GB/s'",
                "a number > 0 and at most 1000 TB/s with one of " + Bandwidth.ALLOWED_UNITS, t -> {
                    Bandwidth b = t.startsWith("-") ? null : Bandwidth.parse(t);
                    if (b == null || b.gbps() <= 0 || b.gbps() > MAX_BANDWIDTH_GBPS) {
                        throw new IllegalArgumentException("not in (0, 1 PB/s]");
                    }
                    return b;
                });
    }

    /** @return a latency written with its unit ({@code 0.6 us}), >= 0, or null */
    public Latency latency(YamlNode map, String key) {
        return withUnit(node(map, key, false), Latency.ALLOWED_UNITS, "'0.6 us'",
                "a number >= 0 with one of " + Latency.ALLOWED_UNITS, Latency::parse);
    }

    /**
     * @param n       the value, or null when absent
     * @param units   the units allowed, for a bare number's message
     * @param example an example value with its unit
     * @param allowed what is allowed, for a value {@code parse} refuses
     * @param parse   reads the trimmed text; throws IllegalArgumentException to refuse it
     * @return the value, or null (absent, a bare number, or refused: reported)
     */
    private <T> T withUnit(YamlNode n, String units, String example, String allowed, Function<String, T> parse) {
        if (n == null) {
            return null;
        }
        if (n.kind() == YamlNode.Kind.NUMBER) {
            add(n, "found " + n.found() + " without a unit; write the unit, one of " + units + ", e.g. " + example);
            return null;
        }
        try {
            return parse.apply(n.isScalar() ? n.text().trim() : "");
        } catch (IllegalArgumentException e) {
            String m = e.getMessage() == null ? "" : e.getMessage();
            int hint = m.indexOf("; did you mean");
            add(n, "found " + scalar(n) + "; allowed: " + allowed + (hint < 0 ? "" : m.substring(hint)));
            return null;
        }
    }

    /**
     * @return a GPU memory size in bytes written with its unit ({@code 80 GB}, {@code 141 GiB}; GB = GiB here, as
     *         {@link DataSize#parseMemoryCapacity} reads memory capacities), > 0, or null
     */
    public Long size(YamlNode map, String key) {
        YamlNode n = node(map, key, false);
        if (n == null) {
            return null;
        }
        if (n.kind() == YamlNode.Kind.NUMBER || !n.isScalar() || !n.text().matches(".*[A-Za-z]$")) {
            add(n, "found " + n.found() + "; allowed: a size with its unit, e.g. '80 GB', '141 GiB'");
            return null;
        }
        try {
            long v = DataSize.parseMemoryCapacity(n.text());
            if (v > 0) {
                return v;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        add(n, "found '" + n.text() + "'; allowed: " + DataSize.MEMORY_ALLOWED);
        return null;
    }

    /** @return what a scalar holds, quoted ({@code '1.5'}), or {@link YamlNode#found()} for the other kinds */
    private static String scalar(YamlNode n) {
        return n.isScalar() ? "'" + n.text().trim() + "'" : n.found();
    }

    /** @return {@code d} without a needless exponent or trailing zeros: 1, 0.5, 1000000000000000 */
    private static String plain(double d) {
        return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }
}
