package dev.collsim.topology.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes output files whole or not at all: a temporary file in the target directory, then an atomic move. Temporary
 * files and folders are created readable by everyone ({@code rw-r--r--} / {@code rwxr-xr-x}, less what the umask
 * removes) on POSIX file systems, not owner-only as {@link Files#createTempFile} makes them, because they become the
 * user's output files.
 */
public final class AtomicFiles {

    private AtomicFiles() {
    }

    /**
     * @param target  the file to (re)place
     * @param content UTF-8 text
     * @throws IOException if the directory is not writable or the move fails (the temporary file is removed)
     */
    public static void write(Path target, String content) throws IOException {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        Path tmp = tempFile(dir, "." + abs.getFileName());
        try {
            Files.writeString(tmp, content, StandardCharsets.UTF_8);
            Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
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
