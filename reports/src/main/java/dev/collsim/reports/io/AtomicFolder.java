package dev.collsim.reports.io;

import dev.collsim.topology.io.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Writes an output folder so that it is either complete or absent: files go into a hidden temporary folder in the
 * same parent, which is moved onto the target in one step by {@link #commit()}. A shutdown hook deletes the
 * temporary folder if the JVM ends first (Ctrl-C), and {@link #close()} deletes it when {@link #commit()} was never
 * reached (an exception). An existing target is replaced only at commit (moved aside, then deleted). Not
 * thread-safe; use with try-with-resources.
 */
public final class AtomicFolder implements AutoCloseable {

    /** File every folder written by this class holds, so that a later run may replace it. */
    public static final String MARKER = ".collsim-output";

    private final Path target;
    private final Path temp;
    private final Thread hook;
    private boolean committed;
    private volatile boolean aborted;

    /**
     * Creates the temporary folder next to {@code target}.
     *
     * @param target the folder to produce
     * @throws IOException when the parent cannot be created or written
     */
    public AtomicFolder(Path target) throws IOException {
        this.target = target.toAbsolutePath().normalize();
        checkReplaceable(this.target);
        Path parent = this.target.getParent();
        Files.createDirectories(parent);
        this.temp = AtomicFiles.tempFolder(parent, "." + this.target.getFileName() + ".tmp-");
        Files.writeString(temp.resolve(MARKER), "written by collsim; this folder is replaced as a whole on the next run\n");
        this.hook = new Thread(() -> {
            aborted = true; // stop further writes, then remove what was written
            deleteTree(temp);
        }, "collsim-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Checks a target before any work is done (the constructor checks again). Refuses a target that is a file, a root,
     * or a folder that is neither empty nor a previous collsim report (one holding {@link #MARKER}): replacing it
     * would delete someone's files.
     *
     * @param target absolute target folder
     * @throws IOException naming the target and what to do instead
     */
    public static void checkReplaceable(Path target) throws IOException {
        if (target.getParent() == null) {
            throw new IOException(target + " is a file-system root; give a folder for the report");
        }
        if (!Files.exists(target)) {
            return;
        }
        if (!Files.isDirectory(target)) {
            throw new IOException(target + " exists and is not a folder; give another output folder");
        }
        if (Files.isRegularFile(target.resolve(MARKER))) {
            return;
        }
        try (Stream<Path> s = Files.list(target)) {
            if (s.findAny().isPresent()) {
                throw new IOException(target + " exists and is not a collsim report (no " + MARKER + "); it is left"
                        + " alone: give a new or empty folder");
            }
        }
    }

    /** @return the temporary folder files are written into */
    public Path dir() {
        return temp;
    }

    /**
     * Writes one file (creating sub-folders) into the temporary folder.
     *
     * @param relative path inside the folder, e.g. {@code charts/busbw.png}
     * @param bytes    content
     * @return the file's final path (inside the target, after commit)
     * @throws IOException on a write failure
     */
    public Path write(String relative, byte[] bytes) throws IOException {
        checkNotAborted();
        Path p = temp.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.write(p, bytes);
        return target.resolve(relative);
    }

    /**
     * Moves the finished folder onto the target.
     *
     * @throws IOException when the move fails (the temporary folder is then deleted by {@link #close()})
     */
    public void commit() throws IOException {
        checkNotAborted();
        Path old = null;
        if (Files.exists(target)) {
            old = target.resolveSibling("." + target.getFileName() + ".old-" + System.nanoTime());
            Files.move(target, old);
        }
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target);
        } catch (IOException e) {
            if (old != null) {
                Files.move(old, target);
            }
            throw e;
        }
        committed = true;
        if (old != null) {
            deleteTree(old);
        }
    }

    private void checkNotAborted() throws IOException {
        if (aborted) {
            throw new IOException("interrupted: the JVM is shutting down; nothing was written to " + target);
        }
    }

    /** Deletes the temporary folder unless committed, and removes the shutdown hook. */
    @Override
    public void close() {
        if (!committed) {
            deleteTree(temp);
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook itself deletes the folder
        }
    }

    /** Deletes a folder tree, ignoring files that are already gone. */
    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // best effort: leave what cannot be deleted
        }
    }
}
