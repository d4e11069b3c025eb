package dev.collsim.executor;

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
 * Where there is no NVIDIA driver (CI), a run must end with one line naming what is missing and exit code 5,
 * through the real supervisor and worker process.
 */
class NoGpuTest {

    static boolean hasGpu() {
        return Files.exists(Path.of("/dev/nvidia0")) || Files.exists(Path.of("/dev/nvidiactl"));
    }

    @Test
    @DisabledIf(value = "hasGpu", disabledReason = "this host has an NVIDIA GPU: the run would succeed")
    void noDriverGivesOneLineAndExit5() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = ExecutorMain.run(new String[] {"all_reduce", "-b", "8", "-e", "8", "--worker-json",
            System.getProperty("java.io.tmpdir") + "/collsim-nogpu.json"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(ExecutorException.DEVICE, rc);
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.startsWith("collsim: cannot load the CUDA runtime"), e);
        assertEquals(1, e.strip().lines().count(), e);
    }

    /** Through the supervisor: the worker's stderr is copied into the given stream; its exit code comes back. */
    @Test
    @DisabledIf(value = "hasGpu", disabledReason = "this host has an NVIDIA GPU: the run would succeed")
    void supervisorPassesTheWorkersExitCodeOn() {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(sink, true, StandardCharsets.UTF_8);
        assertEquals(ExecutorException.DEVICE, ExecutorMain.run(new String[] {"all_reduce", "-b", "8", "-e", "8",
            "--sweep-env", "NCCL_PROTO=LL"}, ps, ps));
        String all = sink.toString(StandardCharsets.UTF_8);
        assertTrue(all.contains("# collsim settings: NCCL_PROTO=LL"), all);
        // the worker's one-line error is captured in the given stream (not printed on the test JVM's stderr)
        assertTrue(all.contains("collsim: cannot load the CUDA runtime"), all);
    }

    /** A sweep of two settings without a CUDA runtime: one error line, no setting started, exit 5. */
    @Test
    @DisabledIf(value = "hasGpu", disabledReason = "this host has an NVIDIA GPU: the run would succeed")
    void sweepWithoutCudaFailsOnceBeforeTheFirstSetting() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = ExecutorMain.run(new String[] {"all_reduce", "-b", "8", "-e", "8", "--sweep-env",
            "NCCL_ALGO=Ring,Tree"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(ExecutorException.DEVICE, rc);
        String e = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, e.split("cannot load the CUDA runtime", -1).length - 1, e);
        assertTrue(e.startsWith("collsim: cannot load the CUDA runtime"), e);
        assertEquals("", out.toString(StandardCharsets.UTF_8), "no '# collsim settings' line: no worker started");
    }
}
