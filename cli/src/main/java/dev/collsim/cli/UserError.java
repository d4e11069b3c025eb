package dev.collsim.cli;

/** A failure caused by the user's input or environment: printed as one line, no stack trace. */
public final class UserError extends RuntimeException {

    private static final long serialVersionUID = 1L;
    private final int exitCode;

    /**
     * @param message  one line naming what was wrong and what is allowed
     * @param exitCode one of {@link ExitCodes}
     */
    public UserError(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    /** @return the exit code to use */
    public int exitCode() {
        return exitCode;
    }
}
