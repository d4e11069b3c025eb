package dev.collsim.validation.ingest;

import dev.collsim.io.InputProblem;
import dev.collsim.io.NumberField;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code #@ key: value} provenance lines at the top of a data file (source, hardware, nodes_x_gpus,
 * nccl_version, env, command, health, ...). Keys are lower-case; a repeated key keeps the first value.
 * This class is immutable.
 */
public final class FileHeader {

    private static final Pattern LINE = Pattern.compile("^#@\\s*([A-Za-z_][A-Za-z0-9_ ]*?)\\s*:\\s?(.*)$");
    private static final Pattern NODES_X_GPUS = Pattern.compile("(\\d+)\\s*x\\s*(\\d+)");

    /** A header without any line. */
    public static final FileHeader EMPTY = new FileHeader(Map.of(), Map.of(), Map.of());

    private final Map<String, String> values;
    private final Map<String, Integer> lines;
    private final Map<String, Integer> columns;

    private FileHeader(Map<String, String> values, Map<String, Integer> lines, Map<String, Integer> columns) {
        this.values = Map.copyOf(values);
        this.lines = Map.copyOf(lines);
        this.columns = Map.copyOf(columns);
    }

    /** Incremental builder used by the readers; not thread-safe. */
    static final class Builder {
        private final Map<String, String> values = new LinkedHashMap<>();
        private final Map<String, Integer> lines = new LinkedHashMap<>();
        private final Map<String, Integer> columns = new LinkedHashMap<>();

        /**
         * @param text a line starting with {@code #@}
         * @param line its 1-based number
         * @return true when the line was a header line
         */
        boolean accept(String text, int line) {
            String t = text.strip();
            Matcher m = LINE.matcher(t);
            if (!m.matches()) {
                return false;
            }
            String key = m.group(1).strip().toLowerCase(Locale.ROOT).replace(' ', '_');
            if (!values.containsKey(key)) {
                String raw = m.group(2);
                values.put(key, raw.strip());
                lines.put(key, line);
                int lead = raw.length() - raw.stripLeading().length();
                columns.put(key, text.indexOf(t) + m.start(2) + lead);
            }
            return true;
        }

        FileHeader build() {
            return new FileHeader(values, lines, columns);
        }
    }

    /** @return the value of a key ({@code hardware}, {@code env}, ...) */
    public Optional<String> get(String key) {
        return Optional.ofNullable(values.get(key));
    }

    /** @return the value, or the empty string */
    public String text(String key) {
        return values.getOrDefault(key, "");
    }

    /** @return the 1-based line of a key, or 0 when absent */
    public int line(String key) {
        return lines.getOrDefault(key, 0);
    }

    /** @return all keys and values in file order */
    public Map<String, String> values() {
        return values;
    }

    /** @return true when the file had no header line */
    public boolean isEmpty() {
        return values.isEmpty();
    }

    /**
     * The hosts x GPUs-per-host pairs named in {@code nodes_x_gpus}, e.g. {@code [1, 8]} for "1x8".
     *
     * @return the first pair, or empty when the key is absent or names none
     */
    public Optional<int[]> nodesXGpus() {
        Matcher m = NODES_X_GPUS.matcher(text("nodes_x_gpus"));
        if (!m.find() || !problems("").isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new int[] {NumberField.count(m, 1, "nodes"), NumberField.count(m, 2, "GPUs per node")});
    }

    /**
     * Checks the numbers of the header: each {@code NxM} pair of {@code nodes_x_gpus} must be whole numbers of at
     * least 1 whose product (the rank count) fits an int.
     *
     * @param file the file as the user gave it, cited in the problems
     * @return one problem per bad pair, located at its line and column; empty when all are good
     */
    public List<InputProblem> problems(String file) {
        List<InputProblem> out = new ArrayList<>();
        Matcher m = NODES_X_GPUS.matcher(text("nodes_x_gpus"));
        int line = line("nodes_x_gpus");
        int before = columns.getOrDefault("nodes_x_gpus", 0);
        while (m.find()) {
            try {
                long nodes = NumberField.wholeNumber(m.group(1), "nodes_x_gpus", before + m.start(1) + 1, 1,
                        Integer.MAX_VALUE);
                long gpus = NumberField.wholeNumber(m.group(2), "nodes_x_gpus", before + m.start(2) + 1, 1,
                        Integer.MAX_VALUE);
                if (nodes * gpus > Integer.MAX_VALUE) {
                    out.add(new InputProblem(file, line, before + m.start(1) + 1, "nodes_x_gpus", "found "
                            + m.group() + " = " + nodes * gpus + " ranks; allowed: at most " + Integer.MAX_VALUE));
                }
            } catch (NumberField.Refused e) {
                out.add(e.at(file, line));
            }
        }
        return out;
    }

    /** @return true when {@code nodes_x_gpus} names more than one distinct NxM shape */
    public boolean hasSeveralShapes() {
        Matcher m = NODES_X_GPUS.matcher(text("nodes_x_gpus"));
        String first = null;
        while (m.find()) {
            String s = m.group(1) + "x" + m.group(2);
            if (first == null) {
                first = s;
            } else if (!first.equals(s)) {
                return true;
            }
        }
        return false;
    }
}
