package dev.collsim.topology.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Writes output files whole or not at all: a temporary file in the target directory, then an atomic move. */
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
        Path tmp = Files.createTempFile(dir, "." + abs.getFileName(), ".tmp");
        try {
            Files.writeString(tmp, content, StandardCharsets.UTF_8);
            Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
