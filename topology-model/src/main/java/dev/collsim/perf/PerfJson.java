package dev.collsim.perf;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.collsim.topology.io.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads and writes {@link PerfRun} JSON with Jackson (snake_case keys; see the package description). Every
 * collsim run JSON is read through this mapper: the executor's, {@code collsim run}'s and validation's.
 *
 * <p>A run whose {@link RunConfig#reportCpuTime} is set ({@code -C 1}) keys each half's time {@code cpu_time}, not
 * {@code time}, as nccl-tests {@code -J} does (2.19.6 {@code src/util.cu writeBenchmarkLineBody}: {@code
 * jsonKey(report_cputime ? "cpu_time" : "time")}), so no reader takes the host's enqueue time for the collective's:
 * {@link #toJson} and {@link #write} rename the key, {@link #read}, {@link #readAll} and {@link #parse} rename it
 * back into {@link PerfResult#timeUs}.
 */
public final class PerfJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** nccl-tests {@code -J}'s key of a result half's time under {@code -C 1} (2.19.6 src/util.cu). */
    public static final String CPU_TIME_KEY = "cpu_time";

    private static final String TIME_KEY = "time";

    private PerfJson() {
    }

    /** @return the shared, configured mapper (thread-safe once configured) */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * @param run a run
     * @return its JSON text
     * @throws IllegalStateException when Jackson fails (a bug: every field is serializable)
     */
    public static String toJson(Object run) {
        try {
            return MAPPER.writeValueAsString(outgoing(run));
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialize " + run.getClass().getSimpleName(), e);
        }
    }

    /**
     * Writes JSON to a temporary file beside {@code target}, then moves it into place atomically, so a reader
     * never sees half a file.
     *
     * @param value  what to write
     * @param target the file
     * @throws IOException when the directory is not writable
     */
    public static void write(Object value, Path target) throws IOException {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        Files.createDirectories(dir);
        JsonNode tree = outgoing(value);
        AtomicFiles.write(abs, out -> MAPPER.writeValue(out, tree));
    }

    /**
     * @param file a file written by {@link #write}
     * @return the run
     * @throws IOException when the file cannot be read or is not a run
     */
    public static PerfRun read(Path file) throws IOException {
        return MAPPER.treeToValue(incoming(MAPPER.readTree(file.toFile())), PerfRun.class);
    }

    /**
     * Reads a file holding one run or a JSON array of runs (what {@code collsim run --sweep-env} writes: one run
     * per NCCL setting).
     *
     * @param file the file
     * @return the runs, in file order
     * @throws IOException when the file cannot be read or holds neither
     */
    public static List<PerfRun> readAll(Path file) throws IOException {
        JsonNode tree = incoming(MAPPER.readTree(file.toFile()));
        List<PerfRun> out = new ArrayList<>();
        if (tree != null && tree.isArray()) {
            for (JsonNode n : tree) {
                out.add(MAPPER.treeToValue(n, PerfRun.class));
            }
        } else if (tree != null) {
            out.add(MAPPER.treeToValue(tree, PerfRun.class));
        }
        return out;
    }

    /**
     * @param json JSON text
     * @return the run
     * @throws IOException when the text is not a run
     */
    public static PerfRun parse(String json) throws IOException {
        return MAPPER.treeToValue(incoming(MAPPER.readTree(json)), PerfRun.class);
    }

    /** @return the value as a tree, each {@code -C 1} run's halves keyed {@code cpu_time} */
    private static JsonNode outgoing(Object value) {
        JsonNode tree = MAPPER.valueToTree(value);
        forEachRun(tree, run -> renameTimes(run, TIME_KEY, CPU_TIME_KEY));
        return tree;
    }

    /** @return the tree (changed in place), each {@code -C 1} run's {@code cpu_time} keyed {@code time} again */
    private static JsonNode incoming(JsonNode tree) {
        forEachRun(tree, run -> renameTimes(run, CPU_TIME_KEY, TIME_KEY));
        return tree;
    }

    private static void forEachRun(JsonNode tree, Consumer<JsonNode> action) {
        if (tree != null && tree.isArray()) {
            tree.forEach(action);
        } else if (tree != null && tree.isObject()) {
            action.accept(tree);
        }
    }

    /** Renames {@code from} to {@code to} in each half of a run that says {@code report_cputime}, keeping key order. */
    private static void renameTimes(JsonNode run, String from, String to) {
        if (!run.path("config").path("report_cputime").asBoolean(false)) {
            return;
        }
        for (JsonNode row : run.path("results")) {
            for (String half : new String[] {"out_of_place", "in_place"}) {
                if (row.get(half) instanceof ObjectNode o && o.has(from)) {
                    ObjectNode copy = o.deepCopy();
                    o.removeAll();
                    copy.fields().forEachRemaining(e -> o.set(e.getKey().equals(from) ? to : e.getKey(),
                            e.getValue()));
                }
            }
        }
    }
}
