package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output files get the permissions an ordinary new file gets (rw-r--r-- under umask 022), not the owner-only 0600 /
 * 0700 of {@link Files#createTempFile}. The expected permissions are those of a plain {@link Files#createFile} /
 * {@link Files#createDirectory} in the same folder (0666 / 0777 less the umask), capped at rw-r--r-- / rwxr-xr-x.
 */
class AtomicFilesTest {

    @TempDir
    Path dir;

    @BeforeEach
    void posixOnly() {
        assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"));
    }

    @Test
    void writtenFileIsReadableLikeAPlainNewFile() throws IOException {
        Path out = dir.resolve("graph.dot");
        AtomicFiles.write(out, "graph {}\n");
        assertEquals("graph {}\n", Files.readString(out));
        Set<PosixFilePermission> expected = Files.getPosixFilePermissions(Files.createFile(dir.resolve("plain")));
        expected.retainAll(PosixFilePermissions.fromString("rw-r--r--"));
        assertEquals(expected, Files.getPosixFilePermissions(out));
        assertTrue(expected.contains(PosixFilePermission.OWNER_READ));
    }

    @Test
    void tempFolderIsListableLikeAPlainNewFolder() throws IOException {
        Path folder = AtomicFiles.tempFolder(dir, ".report.tmp-");
        Set<PosixFilePermission> expected = EnumSet.copyOf(
                Files.getPosixFilePermissions(Files.createDirectory(dir.resolve("plain-dir"))));
        expected.retainAll(PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals(expected, Files.getPosixFilePermissions(folder));
    }

    @Test
    void leftoversOfAKilledWriteOfTheSameTargetAreRemovedByTheNextWrite() throws IOException {
        Path out = dir.resolve("graph.dot");
        AtomicFiles.write(out, "old\n");
        Path leftover = AtomicFiles.tempFile(dir, ".graph.dot"); // what a SIGKILL before the move leaves
        Files.writeString(leftover, "half");
        Path otherTarget = AtomicFiles.tempFile(dir, ".other.dot");
        Path notOurs = Files.writeString(dir.resolve(".graph.dot.tmp"), "someone's");
        AtomicFiles.write(out, "new\n");
        assertEquals("new\n", Files.readString(out));
        assertTrue(!Files.exists(leftover), "leftover removed: " + leftover);
        assertTrue(Files.exists(otherTarget), "another target's temporary file is left alone");
        assertTrue(Files.exists(notOurs), "a name tempFile does not make is left alone");
    }

    /**
     * The same bytes leave the file alone (its modification time, set back to 2000-01-01, stays); other bytes replace
     * it.
     */
    @Test
    void writeIfChangedKeepsAFileThatAlreadyHoldsTheBytes() throws IOException {
        Path out = dir.resolve("profile.yaml");
        assertTrue(AtomicFiles.writeIfChanged(out, o -> o.write("a: 1\n".getBytes())), "a new file is written");
        FileTime old = FileTime.fromMillis(946_684_800_000L);
        Files.setLastModifiedTime(out, old);
        assertFalse(AtomicFiles.writeIfChanged(out, o -> o.write("a: 1\n".getBytes())));
        assertEquals(old, Files.getLastModifiedTime(out));
        assertTrue(AtomicFiles.writeIfChanged(out, o -> o.write("a: 2\n".getBytes())));
        assertEquals("a: 2\n", Files.readString(out));
        assertTrue(Files.getLastModifiedTime(out).compareTo(old) > 0);
    }

    /** A target in a folder that does not exist names that folder, not the temporary file the user never saw. */
    @Test
    void aMissingFolderIsNamed() throws IOException {
        Path target = dir.resolve("absent").resolve("x.dot");
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> AtomicFiles.write(target, "x"));
        assertEquals(dir.resolve("absent").toAbsolutePath() + ": no such folder", e.getMessage());
        Path file = Files.writeString(dir.resolve("plain"), "");
        NoSuchFileException f = assertThrows(NoSuchFileException.class,
                () -> AtomicFiles.write(file.resolve("x.dot"), "x"));
        assertEquals(file.toAbsolutePath() + ": not a folder", f.getMessage());
    }
}
