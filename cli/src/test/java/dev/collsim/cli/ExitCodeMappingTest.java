package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.executor.ExecutorException;
import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * Only a user-input failure exits with a user code (docs/input-limits.md "Exit codes": 2 usage, 3 invalid input file, 4 check
 * failed, 5 no GPU / NCCL failure); anything else is a bug: exit 1 with "internal error (please report)" and the
 * stack trace.
 */
class ExitCodeMappingTest {

    private record Failure(int code, String err) {
    }

    private static Failure fail(Exception e) {
        StringWriter err = new StringWriter();
        int code = Main.failure(e, new PrintWriter(err, true));
        return new Failure(code, err.toString());
    }

    /** An IllegalArgumentException from inside (a simulator bug) is not a usage error. */
    @Test
    void unexpectedIllegalArgumentIsABug() {
        Failure f = fail(new IllegalArgumentException("nChannels must be > 0, got 0"));
        assertEquals(1, f.code());
        assertTrue(f.err().startsWith("collsim: internal error (please report): "), f.err());
        assertTrue(f.err().contains("\tat dev.collsim.cli.ExitCodeMappingTest"), "stack trace printed: " + f.err());
    }

    @Test
    void otherRuntimeFailureIsABug() {
        assertEquals(1, fail(new IllegalStateException("unreachable")).code());
    }

    @Test
    void badOptionValueExitsTwoWithoutStackTrace() {
        Failure f = fail(new UserError("-b: bad size 'x'", 2));
        assertEquals(2, f.code());
        assertEquals("collsim: -b: bad size 'x'", f.err().strip());
    }

    @Test
    void invalidInputFileExitsThreeWithItsProblems() {
        Failure f = fail(new InputException(new InputProblem("c.yaml", 4, 7, "gpus", "expected a number, got 'x'")));
        assertEquals(3, f.code());
        assertTrue(f.err().contains("c.yaml"), f.err());
        assertFalse(f.err().contains("\tat "), f.err());
    }

    @Test
    void deviceFailureExitsFive() {
        assertEquals(5, fail(new ExecutorException("no GPU found", ExecutorException.DEVICE)).code());
    }

    @Test
    void wrongResultsExitFour() {
        assertEquals(4, fail(new ExecutorException("#wrong 3", ExecutorException.WRONG_RESULTS)).code());
    }

    /** The parser's IllegalArgumentException at the option boundary becomes a usage error. */
    @Test
    void usageWrapsOnlyTheParser() {
        UserError e = assertThrows(UserError.class,
                () -> UserError.usage(() -> Integer.parseInt("eight")));
        assertEquals(2, e.exitCode());
    }

    /** 0 and 1 are not user failures. */
    @Test
    void userFailureCannotClaimSuccessOrBug() {
        assertThrows(IllegalArgumentException.class, () -> new UserError("x", 1));
        assertThrows(IllegalArgumentException.class, () -> new UserError("x", 0));
    }
}
