package dev.collsim.perf;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.collsim.topology.io.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes {@link PerfRun} JSON with Jackson (snake_case keys; see the package description). Every
 * collsim run JSON is read through this mapper: the executor's, {@code collsim run}'s and validation's.
 */
public final class PerfJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

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
            return MAPPER.writeValueAsString(run);
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
        AtomicFiles.write(abs, out -> MAPPER.writeValue(out, value));
    }

    /**
     * @param file a file written by {@link #write}
     * @return the run
     * @throws IOException when the file cannot be read or is not a run
     */
    public static PerfRun read(Path file) throws IOException {
        return MAPPER.readValue(file.toFile(), PerfRun.class);
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
        JsonNode tree = MAPPER.readTree(file.toFile());
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
        return MAPPER.readValue(json, PerfRun.class);
    }
}
