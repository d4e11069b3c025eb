package dev.collsim.reports.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL (Process.destroyForcibly on Linux) of a child JVM writing a report folder through {@link AtomicFolder}
 * at several points: afterwards the target is the earlier report or the new one, whole (never absent once the
 * next run has recovered, never a mix of files), and the next run leaves no hidden leftovers.
 */
class KilledWriteTest {

    static final int FILES = 8;

    /** Child: writes FILES files all holding the label, pausing between them, then commits. */
    public static void main(String[] args) throws IOException, InterruptedException {
        write(Path.of(args[0]), args[1], Long.parseLong(args[2]), true);
    }

    private static void write(Path target, String label, long pause, boolean progress)
            throws IOException, InterruptedException {
        try (AtomicFolder out = new AtomicFolder(target)) {
            for (int i = 0; i < FILES; i++) {
                out.write("data/f" + i + ".txt", label.getBytes(StandardCharsets.UTF_8));
                if (progress) {
                    System.out.println("wrote " + i);
                    System.out.flush();
                }
                Thread.sleep(pause);
            }
            if (progress) {
                System.out.println("commit");
                System.out.flush();
            }
            out.commit();
        }
    }

    @Test
    void aKilledRunLeavesTheOldOrTheNewReportAndTheNextRunCleansUp(@TempDir Path dir) throws Exception {
        Path target = dir.resolve("report");
        write(target, "run-0", 0, false);
        String before = label(target);
        assertEquals("run-0", before);
        // kill points: during the first file, mid-way, after the last file, as commit starts, never (completes)
        List<String> killAt = List.of("wrote 0", "wrote 4", "wrote 7", "commit", "never");
        int leftoversSeen = 0;
        for (int i = 1; i <= killAt.size(); i++) {
            String mine = "run-" + i;
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), KilledWriteTest.class.getName(),
                    target.toString(), mine, "40").redirectErrorStream(true).start();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null && !line.equals(killAt.get(i - 1))) {
                    // wait for the kill point
                }
                p.destroyForcibly();
            }
            assertTrue(p.waitFor(20, TimeUnit.SECONDS));
            if (names(dir).stream().anyMatch(n -> n.startsWith(".report.tmp-"))) {
                leftoversSeen++;
            }
            if (Files.exists(target)) {
                assertTrue(Set.of(before, mine).contains(label(target)), "right after the kill: " + label(target));
            } else {
                assertTrue(names(dir).stream().anyMatch(n -> n.startsWith(".report.old-")),
                        "no target: the old report must be aside " + names(dir));
            }
            new AtomicFolder(target).close(); // the next run (here: one that fails before commit)
            String after = label(target);
            assertTrue(Set.of(before, mine).contains(after), "after recovery: " + after);
            assertEquals(List.of("report"), names(dir), "no leftovers after the next run");
            before = after;
        }
        assertTrue(leftoversSeen >= 3, "the kills during writing left temporary folders: " + leftoversSeen);
        assertEquals("run-5", before, "the last child was given time to finish");
    }

    @Test
    void aReportMovedAsideIsPutBackAndUnmarkedFoldersAreLeftAlone(@TempDir Path dir) throws Exception {
        Path target = dir.resolve("r");
        write(target, "old", 0, false);
        Files.move(target, dir.resolve(".r.old-123")); // killed between the two renames of a replacement
        Files.createDirectories(dir.resolve(".r.tmp-456/data"));
        Files.writeString(dir.resolve(".r.tmp-456/" + AtomicFolder.MARKER), "");
        Files.createDirectories(dir.resolve(".r.tmp-someone-elses")); // no marker: not provably ours
        AtomicFolder.recover(target);
        assertEquals("old", label(target));
        assertEquals(List.of(".r.tmp-someone-elses", "r"), names(dir));
    }

    /** The one label all files hold; fails on a mix or a missing file. */
    private static String label(Path report) throws IOException {
        Set<String> labels = new TreeSet<>();
        for (int i = 0; i < FILES; i++) {
            labels.add(Files.readString(report.resolve("data/f" + i + ".txt")));
        }
        assertEquals(1, labels.size(), "a mix of runs: " + labels);
        return labels.iterator().next();
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }
}
