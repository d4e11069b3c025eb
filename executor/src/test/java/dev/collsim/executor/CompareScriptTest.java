package dev.collsim.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundle's {@code compare-nccl-tests} script ({@code executor/compare-nccl-tests.sh}) run with {@code sh}:
 * usage errors before anything runs, the executor's exit 5 passed on at once, and a missed target (or an empty
 * comparison, {@link CompareMain}'s exit 4) not hidden by the output copy. The bundle's {@code run-executor} and
 * {@code compare-tables} are stand-ins here that exit as the real ones do (5: see {@link NoGpuTest}; 4: see
 * {@code CompareAndLogTest}).
 */
class CompareScriptTest {

    @TempDir
    Path dir;

    private record Result(int rc, String out, String err) {
    }

    private Result sh(String... args) throws IOException, InterruptedException {
        Path script = dir.resolve("bundle/compare-nccl-tests");
        Files.createDirectories(script.getParent());
        Files.copy(Path.of("compare-nccl-tests.sh"), script, StandardCopyOption.REPLACE_EXISTING);
        List<String> cmd = new ArrayList<>(List.of("sh", script.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectOutput(dir.resolve("o.txt").toFile())
                .redirectError(dir.resolve("e.txt").toFile()).start();
        int rc = p.waitFor();
        return new Result(rc, Files.readString(dir.resolve("o.txt")), Files.readString(dir.resolve("e.txt")));
    }

    private void stub(String path, String body) throws IOException {
        Path f = dir.resolve(path);
        Files.createDirectories(f.getParent());
        Files.writeString(f, "#!/bin/sh\n" + body + "\n", StandardCharsets.UTF_8);
        assertTrue(f.toFile().setExecutable(true));
    }

    @Test
    void noArgumentsIsOneLineAndExit2() throws Exception {
        Result r = sh();
        assertEquals(2, r.rc(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("needs NCCL_TESTS_BUILD_DIR and OUT_DIR"), r.err());
    }

    @Test
    void helpIsHonoured() throws Exception {
        Result r = sh("--help");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().startsWith("usage: compare-nccl-tests"), r.out());
    }

    @Test
    void aFolderWithoutNcclTestsBinariesIsAUsageErrorBeforeAnyRun() throws Exception {
        stub("bundle/run-executor", "echo ran > \"$(dirname \"$0\")/../ran\"");
        Result r = sh(dir.resolve("nowhere").toString(), dir.resolve("out").toString(), "all_reduce");
        assertEquals(2, r.rc(), r.err());
        assertTrue(r.err().contains("no nccl-tests binary " + dir.resolve("nowhere/all_reduce_perf")), r.err());
        assertFalse(Files.exists(dir.resolve("ran")), "nothing may run");
    }

    @Test
    void noGpuStopsAtTheExecutorsOneLineWithExit5() throws Exception {
        stub("nt/all_reduce_perf", "echo nccl-tests ran > \"$(dirname \"$0\")/ran\"");
        stub("bundle/run-executor", "echo 'collsim: cannot load the CUDA runtime' >&2; exit 5");
        Result r = sh(dir.resolve("nt").toString(), dir.resolve("out").toString(), "all_reduce");
        assertEquals(5, r.rc(), r.out() + r.err());
        assertEquals("collsim: cannot load the CUDA runtime", r.err().strip());
        assertFalse(Files.exists(dir.resolve("nt/ran")), "nccl-tests may not run after the executor's exit 5");
    }

    @Test
    void aFailedComparisonExits4ThoughItsTableIsPrinted() throws Exception {
        stub("nt/all_reduce_perf", "true");
        stub("bundle/run-executor", "true");
        stub("bundle/compare-tables", "echo '# nothing to compare'; exit 4");
        Result r = sh(dir.resolve("nt").toString(), dir.resolve("out").toString(), "all_reduce");
        assertEquals(4, r.rc(), r.out() + r.err());
        assertTrue(r.out().contains("# nothing to compare"), r.out());
    }
}
