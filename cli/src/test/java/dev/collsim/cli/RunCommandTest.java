package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class RunCommandTest {

    private static int run(StringWriter out, StringWriter err, String... args) {
        return Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void badOptionValueIsAUsageErrorNamingTheOption() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(ExitCodes.USAGE, run(out, err, "run", "all_reduce", "-z", "7"));
        assertTrue(err.toString().contains("-z 7: allowed 0..3"), err.toString());
        assertEquals(ExitCodes.USAGE, run(out, err, "run", "allgatherv"));
    }

    @Test
    void helpListsNcclTestsFlagsAndExitCodes() {
        StringWriter out = new StringWriter();
        assertEquals(0, run(out, new StringWriter(), "run", "--help"));
        String h = out.toString();
        for (String flag : new String[] {"-b", "-e", "-f", "-n", "-w", "-m", "-c", "-o", "-d", "-r", "-z", "-a", "-G",
            "-T", "-J", "-g", "-p", "-R", "--env", "--sweep-env"}) {
            assertTrue(h.contains(flag + ",") || h.contains(flag + "="), flag);
        }
        assertTrue(h.contains("Exit codes:") && h.contains("no GPU, CUDA/NCCL not loadable"), h);
    }
}
