package dev.collsim.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code executor/bundle.sh} on a machine that cannot build: each case ends with one line on stderr naming what
 * is missing and exit 3, Maven's wall of {@code [ERROR]} kept in a log file. {@code mvn} is a stand-in on PATH
 * that prints what Maven 3.8.7 printed here with an empty local repository ({@code -Dmaven.repo.local=EMPTY -o}:
 * "Cannot access central ... in offline mode and the artifact org.junit:junit-bom:pom:5.14.1 has not been
 * downloaded from it before") and fails; the real online fallback filled an empty cache and built here in 99 s.
 */
class BundleScriptTest {

    private static final String OFFLINE_ERROR = "[ERROR] Non-resolvable import POM: Cannot access central"
            + " (https://repo.maven.apache.org/maven2) in offline mode and the artifact"
            + " org.junit:junit-bom:pom:5.14.1 has not been downloaded from it before.";

    @TempDir
    Path dir;

    private record Result(int rc, String err) {
    }

    private Result bundle(String mvnBody) throws IOException, InterruptedException {
        Path bin = dir.resolve("bin");
        Files.createDirectories(bin);
        for (String tool : new String[] {"dirname", "basename", "mkdir", "grep", "rm", "cat"}) {
            Path w = bin.resolve(tool);
            Files.writeString(w, "#!/bin/sh\nexec " + which(tool) + " \"$@\"\n", StandardCharsets.UTF_8);
            assertTrue(w.toFile().setExecutable(true));
        }
        Path jlink = bin.resolve("jlink");
        Files.writeString(jlink, "#!/bin/sh\nexit 0\n", StandardCharsets.UTF_8);
        assertTrue(jlink.toFile().setExecutable(true));
        if (mvnBody != null) {
            Path mvn = bin.resolve("mvn");
            Files.writeString(mvn, "#!/bin/sh\necho \"$*\" >> " + dir.resolve("calls") + "\n" + mvnBody + "\n",
                    StandardCharsets.UTF_8);
            assertTrue(mvn.toFile().setExecutable(true));
        }
        ProcessBuilder pb = new ProcessBuilder(List.of("/bin/bash", Path.of("bundle.sh").toAbsolutePath().toString(),
                dir.resolve("out").toString())).redirectOutput(dir.resolve("o.txt").toFile())
                .redirectError(dir.resolve("e.txt").toFile());
        // only the stand-ins and the few tools the script uses before Maven: no real mvn
        pb.environment().put("PATH", bin.toString());
        int rc = pb.start().waitFor();
        return new Result(rc, Files.readString(dir.resolve("e.txt")));
    }

    private static Path which(String tool) {
        for (String d : new String[] {"/usr/bin", "/bin"}) {
            if (Files.isExecutable(Path.of(d, tool))) {
                return Path.of(d, tool);
            }
        }
        throw new IllegalStateException(tool + " not in /usr/bin or /bin");
    }

    @Test
    void emptyCacheWithoutNetworkSaysWhatItNeedsInOneLine() throws Exception {
        Result r = bundle("echo '" + OFFLINE_ERROR + "'; exit 1");
        assertEquals(3, r.rc(), r.err());
        List<String> lines = r.err().strip().lines().toList();
        assertEquals(2, lines.size(), r.err());
        assertTrue(lines.get(0).contains("fetching them from Maven Central once"), r.err());
        assertTrue(lines.get(1).contains("needs Maven Central (https://repo.maven.apache.org) or a filled ~/.m2"),
                r.err());
        assertFalse(r.err().contains("[ERROR]"), r.err());
        assertTrue(Files.readString(dir.resolve("out.build.log")).contains("[ERROR]"));
        List<String> calls = Files.readAllLines(dir.resolve("calls"));
        assertEquals(2, calls.size(), "offline, then online once: " + calls);
        assertTrue(calls.get(0).contains(" -o "), calls.get(0));
        assertFalse(calls.get(1).contains(" -o "), calls.get(1));
    }

    @Test
    void aBuildFailureThatIsNotADownloadIsNotRetriedOnline() throws Exception {
        Result r = bundle("echo '[ERROR] COMPILATION ERROR'; exit 1");
        assertEquals(3, r.rc(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("the build failed (not a missing download)"), r.err());
        assertEquals(1, Files.readAllLines(dir.resolve("calls")).size());
    }

    @Test
    void noMavenIsOneLine() throws Exception {
        Result r = bundle(null);
        assertEquals(3, r.rc(), r.err());
        assertEquals("bundle.sh: 'mvn' not found on PATH; install Maven 3.8 or newer", r.err().strip());
    }
}
