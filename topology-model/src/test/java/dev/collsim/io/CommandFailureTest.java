package dev.collsim.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

/**
 * The one failure-to-exit mapping every entry point uses, with its program's prefix (docs/input-limits.md "Exit
 * codes": 1 internal error, 2 usage, 3 invalid input file). The cli's own cases are in ExitCodeMappingTest.
 */
class CommandFailureTest {

    private static String[] report(Exception e) {
        StringWriter err = new StringWriter();
        int code = CommandFailure.report("collsim sweep", e, new PrintWriter(err, true));
        return new String[] {String.valueOf(code), err.toString()};
    }

    /** A missing file inside a wrapper is the user's: exit 3, "PATH: no such file" after the prefix, no trace. */
    @Test
    void aMissingFileIsTheUsersWithThePrefix() {
        String[] r = report(new UncheckedIOException(new NoSuchFileException("/x/spec.yaml")));
        assertEquals("3", r[0]);
        assertEquals("collsim sweep: /x/spec.yaml: no such file" + System.lineSeparator(), r[1]);
    }

    /** A usage error keeps its own code (2) and prints its message after the prefix. */
    @Test
    void aUserInputFailureKeepsItsCode() {
        String[] r = report(new UserInputException("--threads must be at least 1, got 0", 2));
        assertEquals("2", r[0]);
        assertEquals("collsim sweep: --threads must be at least 1, got 0" + System.lineSeparator(), r[1]);
    }

    /** Anything else is a bug: exit 1, the prefix, and the stack trace. */
    @Test
    void anythingElseIsABugWithItsStackTrace() {
        String[] r = report(new IllegalStateException("unreachable"));
        assertEquals("1", r[0]);
        assertTrue(r[1].startsWith("collsim sweep: internal error (please report): java.lang.IllegalStateException:"
                + " unreachable"), r[1]);
        assertTrue(r[1].contains("\tat dev.collsim.io.CommandFailureTest"), r[1]);
    }
}
