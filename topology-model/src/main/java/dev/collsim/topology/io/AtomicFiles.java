package dev.collsim.topology.io;

import dev.collsim.io.IoMessages;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Writes output files whole or not at all: a temporary file in the target directory, then an atomic move. Temporary
 * files and folders are created readable by everyone ({@code rw-r--r--} / {@code rwxr-xr-x}, less what the umask
 * removes) on POSIX file systems, not owner-only as {@link Files#createTempFile} makes them, because they become the
 * user's output files. A run killed before its move (SIGKILL) leaves its temporary file {@code .NAME<digits>.tmp}
 * next to the target; the next {@link #write} of the same target deletes such leftovers first, so the target is
 * always the old content or the new, and leftovers last only until the next run.
 */
public final class AtomicFiles {

    private AtomicFiles() {
    }

    /** What an atomic write puts in the file: bytes written to a stream (closing it is allowed). */
    @FunctionalInterface
    public interface Content {
        /**
         * @param out the temporary file's stream
         * @throws IOException when writing fails (the target is then untouched)
         */
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * @param target  the file to (re)place
     * @param content UTF-8 text
     * @throws IOException if the directory is not writable or the move fails (the temporary file is removed)
     */
    public static void write(Path target, String content) throws IOException {
        write(target, out -> out.write(content.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Every output file of collsim is written through here (CSV, JSON, YAML profiles, exports): first the leftovers of
     * earlier killed writes of this target are deleted, then the content goes to a temporary file beside the target,
     * which is moved into place atomically.
     *
     * @param target  the file to (re)place
     * @param content what to write
     * @throws IOException if the directory is not writable, writing fails or the move fails (the temporary file is
     *                     removed and the target keeps its old content); {@link NoSuchFileException} naming the
     *                     folder when the target's folder does not exist or is a file
     */
    public static void write(Path target, Content content) throws IOException {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            // else the failure names the temporary file, which the user never asked for
            throw new NoSuchFileException(dir.toString(), null, Files.exists(dir) ? "not a folder"
                    : IoMessages.NO_SUCH_FOLDER);
        }
        removeLeftovers(abs);
        Path tmp = tempFile(dir, "." + abs.getFileName());
        try {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp))) {
                content.writeTo(out);
            }
            Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * As {@link #write(Path, Content)}, but leaves the target untouched (content and modification time) when it already
     * holds exactly these bytes: for generated files kept under version control or packaged in a jar, whose rewrite
     * with the same content would otherwise look like a change (the launcher rebuilds the jar when a file under
     * {@code configs/} is newer than it).
     *
     * @param target  the file to (re)place
     * @param content what to write (rendered into memory first)
     * @return true when the file was written, false when it already held these bytes
     * @throws IOException if the existing file cannot be read or the write fails (as {@link #write(Path, Content)})
     */
    public static boolean writeIfChanged(Path target, Content content) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        content.writeTo(buf);
        byte[] bytes = buf.toByteArray();
        if (Files.isRegularFile(target) && Arrays.equals(Files.readAllBytes(target), bytes)) {
            return false;
        }
        write(target, out -> out.write(bytes));
        return true;
    }

    /**
     * Deletes the temporary files earlier, interrupted {@link #write}s of this target left: regular files named
     * {@code .NAME} + digits + {@code .tmp} in the target's directory (the names {@link #tempFile} makes).
     *
     * @param target absolute target file
     * @throws IOException when the directory cannot be listed
     */
    static void removeLeftovers(Path target) throws IOException {
        Path dir = target.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            return;
        }
        Pattern leftover = Pattern.compile(Pattern.quote("." + target.getFileName()) + "-?\\d+\\.tmp");
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (leftover.matcher(p.getFileName().toString()).matches()
                        && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /**
     * Creates an empty temporary file for output that will be moved into place.
     *
     * @param dir    the directory (the target's, so the move is atomic)
     * @param prefix the file name prefix
     * @return the new file, {@code rw-r--r--} less the umask on POSIX file systems
     * @throws IOException when the directory is not writable
     */
    public static Path tempFile(Path dir, String prefix) throws IOException {
        return posix(dir) ? Files.createTempFile(dir, prefix, ".tmp", attribute("rw-r--r--"))
                : Files.createTempFile(dir, prefix, ".tmp");
    }

    /**
     * Creates a temporary folder for output that will be moved into place.
     *
     * @param dir    the parent directory (the target's, so the move is atomic)
     * @param prefix the folder name prefix
     * @return the new folder, {@code rwxr-xr-x} less the umask on POSIX file systems
     * @throws IOException when the directory is not writable
     */
    public static Path tempFolder(Path dir, String prefix) throws IOException {
        return posix(dir) ? Files.createTempDirectory(dir, prefix, attribute("rwxr-xr-x"))
                : Files.createTempDirectory(dir, prefix);
    }

    private static boolean posix(Path dir) {
        return dir.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    private static FileAttribute<?> attribute(String perms) {
        return PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(perms));
    }
}
