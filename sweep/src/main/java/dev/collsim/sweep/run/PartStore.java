package dev.collsim.sweep.run;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.collsim.sweep.point.PointResult;
import dev.collsim.topology.io.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The finished chunks of a sweep, one file per chunk ({@code chunk-N.jsonl}: one point per line, JSON, numbers
 * exact), each written atomically as soon as it is computed, in a folder with a {@code FINGERPRINT} file naming the
 * spec and the chunk size. A rerun with the same folder, spec and chunk size reads the chunks back and computes only
 * the others; a folder with another fingerprint is emptied first. Not thread-safe.
 */
public final class PartStore {

    /** File naming the spec (SHA-256 of it and its files) and the chunk size the chunks were made with. */
    public static final String FINGERPRINT = "FINGERPRINT";

    private static final ObjectMapper JSON = JsonMapper.builder().enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .build();

    private final Path dir;
    private final Map<Integer, List<PointResult>> done = new TreeMap<>();

    /**
     * Opens (or creates) the folder, keeping its chunks when its fingerprint is {@code fingerprint}.
     *
     * @param dir         the folder
     * @param fingerprint the spec's fingerprint and chunk size
     * @param earlier     folders of finished sweeps whose chunks may be reused (their own fingerprint must match);
     *                    missing ones are skipped
     * @throws IOException when the folder cannot be read or written
     */
    public PartStore(Path dir, String fingerprint, List<Path> earlier) throws IOException {
        this.dir = dir;
        if (!fingerprint.equals(readFingerprint(dir))) {
            deleteTree(dir);
        }
        Files.createDirectories(dir);
        AtomicFiles.write(dir.resolve(FINGERPRINT), fingerprint + "\n");
        for (Path e : earlier) {
            if (fingerprint.equals(readFingerprint(e))) {
                load(e);
            }
        }
        load(dir);
    }

    private static String readFingerprint(Path folder) throws IOException {
        Path f = folder.resolve(FINGERPRINT);
        return Files.isRegularFile(f) ? Files.readString(f).trim() : null;
    }

    private void load(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            for (Path f : files.filter(p -> p.getFileName().toString().matches("chunk-\\d+\\.jsonl")).toList()) {
                String n = f.getFileName().toString();
                int id = Integer.parseInt(n.substring(6, n.length() - 6));
                List<PointResult> rows = new ArrayList<>();
                for (String line : Files.readAllLines(f)) {
                    if (!line.isBlank()) {
                        rows.add(JSON.readValue(line, PointResult.class));
                    }
                }
                done.put(id, rows);
            }
        }
    }

    /** @return the chunks finished so far, by chunk id */
    public Map<Integer, List<PointResult>> done() {
        return done;
    }

    /**
     * Records a finished chunk, written atomically.
     *
     * @throws IOException when it cannot be written
     */
    public void put(int chunk, List<PointResult> rows) throws IOException {
        AtomicFiles.write(dir.resolve(fileName(chunk)), lines(rows));
        done.put(chunk, rows);
    }

    /** @return the file name of a chunk */
    public static String fileName(int chunk) {
        return String.format("chunk-%06d.jsonl", chunk);
    }

    /** @return the rows as JSON lines */
    public static String lines(List<PointResult> rows) {
        StringBuilder b = new StringBuilder();
        try {
            for (PointResult r : rows) {
                b.append(JSON.writeValueAsString(r)).append('\n');
            }
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
        return b.toString();
    }

    /** Deletes the folder (after the output is committed). */
    public void delete() {
        deleteTree(dir);
    }

    /** Deletes a folder and everything in it; a missing folder is fine, a failure leaves what remains. */
    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // best effort: a temporary folder left behind is harmless
        }
    }
}
