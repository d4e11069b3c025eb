package dev.collsim.reports.io;

import dev.collsim.topology.io.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Writes an output folder so that it is either complete or absent: files go into a hidden temporary folder in the
 * same parent, which is moved onto the target in one step by {@link #commit()}. A shutdown hook deletes the
 * temporary folder if the JVM ends first (Ctrl-C), and {@link #close()} deletes it when {@link #commit()} was never
 * reached (an exception). An existing target is replaced only at commit: it is renamed to a hidden
 * {@code .NAME.old-*} folder, the new folder is renamed onto the target, then the old one is deleted; a kill
 * between the two renames leaves the old report in {@code .NAME.old-*}. Every run first recovers from earlier
 * interrupted runs of the same target ({@link #recover(Path)}): with no target, the newest {@code .NAME.old-*}
 * holding {@link #MARKER} is put back; then every {@code .NAME.tmp-*} and {@code .NAME.old-*} holding the marker
 * is deleted. Two runs writing the same target at the same time are not supported. Not thread-safe; use with
 * try-with-resources.
 */
public final class AtomicFolder implements AutoCloseable {

    /** File every folder written by this class holds, so that a later run may replace it. */
    public static final String MARKER = ".collsim-output";

    private final Path target;
    private final Path temp;
    private final Thread hook;
    private boolean committed;
    private Path old;
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
        recover(this.target);
        this.temp = AtomicFiles.tempFolder(parent, "." + this.target.getFileName() + ".tmp-");
        Files.writeString(temp.resolve(MARKER), "written by collsim; this folder is replaced as a whole on the next run\n");
        this.hook = new Thread(() -> {
            aborted = true; // stop further writes, then remove what was written
            synchronized (this) {
                if (!committed) {
                    deleteTree(temp);
                }
                restoreOld();
            }
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

    /**
     * Cleans up after earlier runs of {@code target} that were killed: when the target is missing, the newest
     * hidden {@code .NAME.old-*} folder holding {@link #MARKER} (an earlier report moved aside for replacement) is
     * renamed back onto it; then every {@code .NAME.tmp-*} and {@code .NAME.old-*} folder holding the marker is
     * deleted. Folders without the marker are left alone (they are not provably collsim's).
     *
     * @param target absolute target folder
     * @throws IOException when the parent cannot be listed or the old report cannot be put back
     */
    public static void recover(Path target) throws IOException {
        Path parent = target.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            return;
        }
        String name = target.getFileName().toString();
        List<Path> tmp = new ArrayList<>();
        List<Path> old = new ArrayList<>();
        try (Stream<Path> s = Files.list(parent)) {
            s.filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)
                    && Files.isRegularFile(p.resolve(MARKER))).forEach(p -> {
                        String f = p.getFileName().toString();
                        if (f.startsWith("." + name + ".tmp-")) {
                            tmp.add(p);
                        } else if (f.startsWith("." + name + ".old-")) {
                            old.add(p);
                        }
                    });
        }
        if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS) && !old.isEmpty()) {
            old.sort(Comparator.comparing(AtomicFolder::modified));
            Path newest = old.remove(old.size() - 1);
            Files.move(newest, target);
        }
        tmp.forEach(AtomicFolder::deleteTree);
        old.forEach(AtomicFolder::deleteTree);
    }

    private static FileTime modified(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
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
    public synchronized void commit() throws IOException {
        checkNotAborted();
        if (Files.exists(target)) {
            Path aside = target.resolveSibling("." + target.getFileName() + ".old-" + System.nanoTime());
            Files.move(target, aside);
            old = aside;
        }
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target);
        } catch (IOException e) {
            restoreOld();
            throw e;
        }
        committed = true;
        if (old != null) {
            deleteTree(old);
            old = null;
        }
    }

    /** Puts the earlier report back when it was moved aside and the new one is not in place. */
    private void restoreOld() {
        if (old != null && !committed && !Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            try {
                Files.move(old, target);
                old = null;
            } catch (IOException e) {
                // recover() on the next run puts it back
            }
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
