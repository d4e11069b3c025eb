package dev.collsim.io;

/**
 * A failure caused by the user's input or environment, never by a bug: a bad option value, an invalid input file,
 * a failed check, or no GPU. It carries its process exit code; the CLI prints its message as one line (no stack
 * trace) and exits with that code. Any other exception reaching the CLI is a bug and exits with
 * {@link #SOFTWARE} and a stack trace.
 *
 * <p>Subtypes: {@link InputException} (an invalid input file, {@link #INPUT}), the CLI's {@code UserError}
 * (usage and checks) and the executor's {@code ExecutorException} (device failures). Code that turns user text into
 * values catches the parser's {@link IllegalArgumentException} at that boundary and rethrows one of these; an
 * {@code IllegalArgumentException} that escapes is a bug.
 *
 * <p>The exit codes are documented in docs/input-limits.md ("Exit codes") and in every command's help.
 */
public class UserInputException extends RuntimeException {

    /** Success. */
    public static final int OK = 0;
    /** Internal error (a bug): the only case that prints a stack trace. Never carried by this type. */
    public static final int SOFTWARE = 1;
    /** Usage error: unknown option, bad option value. */
    public static final int USAGE = 2;
    /** Invalid input file: every problem is listed with file, line, column and field. */
    public static final int INPUT = 3;
    /** A check failed: wrong results (#wrong > 0), or an error above the tolerance. */
    public static final int CHECK_FAILED = 4;
    /** No GPU, NCCL/CUDA not loadable, or an NCCL failure. */
    public static final int DEVICE = 5;
    /** Exit code: a batch command finished, but skipped input files it could not read (each named on stderr). */
    public static final int SKIPPED = 6;

    private static final long serialVersionUID = 1L;

    /** One of {@link #USAGE}, {@link #INPUT}, {@link #CHECK_FAILED}, {@link #DEVICE}. */
    private final int exitCode;

    /**
     * @param message  one line naming what was wrong and what is allowed
     * @param exitCode {@link #USAGE}, {@link #INPUT}, {@link #CHECK_FAILED} or {@link #DEVICE}
     * @throws IllegalArgumentException for any other code (0 is success, 1 is reserved for bugs)
     */
    public UserInputException(String message, int exitCode) {
        this(message, exitCode, null);
    }

    /**
     * @param message  one line naming what was wrong and what is allowed
     * @param exitCode {@link #USAGE}, {@link #INPUT}, {@link #CHECK_FAILED} or {@link #DEVICE}
     * @param cause    the underlying exception, or null
     * @throws IllegalArgumentException for any other code (0 is success, 1 is reserved for bugs)
     */
    public UserInputException(String message, int exitCode, Throwable cause) {
        super(message, cause);
        if (exitCode < USAGE || exitCode > DEVICE) {
            throw new IllegalArgumentException("a user-input failure exits with 2..5, got " + exitCode);
        }
        this.exitCode = exitCode;
    }

    /** @return the process exit code, 2 to 5 */
    public final int exitCode() {
        return exitCode;
    }
}
