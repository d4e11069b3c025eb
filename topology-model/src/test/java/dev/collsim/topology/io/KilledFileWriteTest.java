package dev.collsim.topology.io;

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
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL (Process.destroyForcibly on Linux) of a child JVM writing one output file through
 * {@link AtomicFiles#write(Path, AtomicFiles.Content)}, the call behind every file collsim writes (CSV, run JSON,
 * calibration profiles, exports), at several points: afterwards the file is the old content or the new one, whole,
 * and the next write leaves no temporary file behind.
 */
class KilledFileWriteTest {

    static final int LINES = 8;

    /** Child: writes LINES lines all holding the label, pausing after each, then the file is moved into place. */
    public static void main(String[] args) throws IOException {
        String label = args[1];
        long pause = Long.parseLong(args[2]);
        AtomicFiles.write(Path.of(args[0]), out -> {
            for (int i = 0; i < LINES; i++) {
                out.write((label + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                System.out.println("wrote " + i);
                System.out.flush();
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        System.out.println("done");
        System.out.flush();
    }

    @Test
    void aKilledWriteLeavesTheOldOrTheNewFileAndTheNextWriteCleansUp(@TempDir Path dir) throws Exception {
        Path target = dir.resolve("out.csv");
        AtomicFiles.write(target, ("run-0\n").repeat(LINES));
        String before = label(target);
        List<String> killAt = List.of("wrote 0", "wrote 4", "wrote 7", "never");
        int leftoversSeen = 0;
        for (int i = 1; i <= killAt.size(); i++) {
            String mine = "run-" + i;
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), KilledFileWriteTest.class.getName(),
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
            if (names(dir).size() > 1) {
                leftoversSeen++;
            }
            assertTrue(Set.of(before, mine).contains(label(target)), "right after the kill: " + label(target));
            AtomicFiles.write(target, Files.readString(target)); // the next run, writing the same content
            assertEquals(List.of("out.csv"), names(dir), "no leftovers after the next write");
            before = label(target);
        }
        assertTrue(leftoversSeen >= 2, "the kills during writing left temporary files: " + leftoversSeen);
        assertEquals("run-4", before, "the last child was given time to finish");
    }

    /** The one label all lines hold; fails on a mix or a short file. */
    private static String label(Path f) throws IOException {
        List<String> lines = Files.readAllLines(f);
        assertEquals(LINES, lines.size(), "a whole file: " + lines);
        assertEquals(1, Set.copyOf(lines).size(), "a mix of runs: " + lines);
        return lines.get(0);
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
