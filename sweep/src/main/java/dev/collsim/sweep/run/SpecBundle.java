package dev.collsim.sweep.run;

import dev.collsim.io.InputException;
import dev.collsim.reports.spec.VariantSpec;
import dev.collsim.sweep.spec.DesignSpace;
import dev.collsim.sweep.spec.DesignSpaceReader;
import dev.collsim.sweep.spec.GridAxis;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Everything a Spark executor needs to compute points, shipped with the job: the spec's text and the files it names
 * relative to its folder (the base cluster file, calibration profiles), by their names in the spec. The host catalog
 * and the configs are inside collsim's jar, shipped with it. An executor writes the files into a temporary folder once
 * per JVM and reads the spec there, so local and distributed runs read the same bytes. Files named by an absolute
 * path are not shipped: they must exist on every executor. Immutable.
 *
 * @param fileName spec file name, cited in messages
 * @param text     the spec
 * @param files    relative name in the spec to content
 */
public record SpecBundle(String fileName, String text, Map<String, String> files) implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Design spaces read on this JVM, by fingerprint. */
    private static final Map<String, DesignSpace> OPENED = new ConcurrentHashMap<>();

    /** Copies the map, sorted by name. */
    public SpecBundle {
        files = new TreeMap<>(files);
    }

    /**
     * @param file  the spec file (its folder holds the relative files)
     * @param space the spec as read on the driver (names the files to ship)
     * @return the bundle
     * @throws IOException when a named file cannot be read
     */
    public static SpecBundle of(Path file, DesignSpace space) throws IOException {
        Path folder = file.toAbsolutePath().getParent();
        List<String> names = new ArrayList<>();
        names.add(space.report().cluster());
        space.report().variants().stream().map(VariantSpec::calibration).forEach(names::add);
        for (GridAxis a : space.axes()) {
            if (a.key().equals("calibration")) {
                names.addAll(a.labels());
            }
        }
        Map<String, String> files = new TreeMap<>();
        for (String n : names) {
            if (n == null || Path.of(n).isAbsolute()) {
                continue;
            }
            Path p = Files.isRegularFile(folder.resolve(n)) ? folder.resolve(n) : Path.of(n);
            if (Files.isRegularFile(p)) {
                files.put(n, Files.readString(p));
            }
        }
        return new SpecBundle(file.toString(), Files.readString(file), files);
    }

    /** @return SHA-256 of the spec and its files (hex), naming what a resumed run must match */
    public String fingerprint() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(text.getBytes(StandardCharsets.UTF_8));
            files.forEach((k, v) -> {
                md.update(("\n--- " + k + "\n").getBytes(StandardCharsets.UTF_8));
                md.update(v.getBytes(StandardCharsets.UTF_8));
            });
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /**
     * Reads the spec from the shipped files (once per JVM).
     *
     * @return the design space
     * @throws UncheckedIOException when the temporary folder cannot be written
     * @throws InputException       when the spec no longer reads (it was checked on the driver)
     */
    public DesignSpace open() {
        return OPENED.computeIfAbsent(fingerprint(), k -> {
            try {
                return DesignSpaceReader.read(fileName, text, materialize());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Writes the files into a new temporary folder, deep enough for names that climb with {@code ..}. */
    private Path materialize() throws IOException {
        int depth = 0;
        for (String n : files.keySet()) {
            int up = 0;
            for (Path part : Path.of(n).normalize()) {
                up += part.toString().equals("..") ? 1 : 0;
            }
            depth = Math.max(depth, up);
        }
        Path root = Files.createTempDirectory("collsim-sweep-");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> PartStore.deleteTree(root), "collsim-sweep-cleanup"));
        Path folder = root;
        for (int k = 0; k < depth; k++) {
            folder = folder.resolve("up" + k);
        }
        folder = folder.resolve("spec");
        for (Map.Entry<String, String> e : files.entrySet()) {
            Path target = folder.resolve(e.getKey()).normalize();
            Files.createDirectories(target.getParent());
            Files.writeString(target, e.getValue());
        }
        Files.createDirectories(folder);
        return folder;
    }
}
