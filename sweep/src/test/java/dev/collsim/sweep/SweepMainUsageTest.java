package dev.collsim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * {@code collsim sweep} answers a bad command line as the other commands do (the cli's two lines: what is wrong, then
 * {@code Try 'collsim sweep --help'.}, exit 2), not with its whole usage, and prints a version ({@code -V}).
 * Neither starts Spark.
 */
class SweepMainUsageTest {

    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = SweepMain.run(args, new PrintWriter(out), new PrintWriter(err));
        return new String[] {String.valueOf(code), out.toString(), err.toString()};
    }

    @Test
    void aMissingSpecIsTwoLines() {
        String[] r = run();
        assertEquals("2", r[0]);
        assertEquals(2, r[2].lines().count(), r[2]);
        assertEquals("collsim sweep: Missing required parameter: 'SPEC.yaml'", r[2].lines().findFirst().orElseThrow());
        assertTrue(r[2].endsWith("Try 'collsim sweep --help'." + System.lineSeparator()), r[2]);
        assertFalse(r[2].contains("--master"), "no usage: " + r[2]);
    }

    @Test
    void versionIsPrinted() {
        for (String flag : new String[] {"--version", "-V"}) {
            String[] r = run(flag);
            assertEquals("0", r[0], r[2]);
            assertTrue(r[1].startsWith("collsim "), r[1]);
        }
    }
}
