package dev.collsim.executor.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIf;

/**
 * {@code bundle/self-test} before any test: {@code --help} is honoured, a stray argument is a usage error, and a
 * host without an NVIDIA driver gets one short line and exit 5 (as {@code run-executor}), not one FAIL per test.
 */
class SelfTestPreflightTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    static boolean hasGpu() {
        return Files.exists(Path.of("/dev/nvidia0")) || Files.exists(Path.of("/dev/nvidiactl"));
    }

    private int preflight(String... args) {
        return GpuSelfTest.preflight(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void helpPrintsUsageWithExitCodesAndRunsNothing() {
        assertEquals(0, preflight("--help"));
        String o = out.toString(StandardCharsets.UTF_8);
        assertTrue(o.startsWith("usage: self-test"), o);
        assertTrue(o.contains("5 no NVIDIA driver"), o);
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void strayArgumentIsAUsageError() {
        assertEquals(2, preflight("all_reduce"));
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.contains("unknown argument 'all_reduce'"), e);
        assertEquals(1, e.strip().lines().count(), e);
    }

    @Test
    @DisabledIf(value = "hasGpu", disabledReason = "this host has an NVIDIA GPU: the tests would run")
    void noDriverGivesOneShortLineAndExit5() {
        assertEquals(5, preflight());
        String e = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, e.strip().lines().count(), e);
        assertTrue(e.startsWith("self-test: cannot load the CUDA runtime"), e);
        assertTrue(e.strip().endsWith("no test was run"), e);
        // the loader's list of searched paths (thousands of characters) is left out
        assertTrue(e.length() < 200, e.length() + " characters: " + e);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }
}
