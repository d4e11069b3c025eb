package dev.collsim.executor;

/**
 * A run could not go on: no GPU, NCCL or CUDA not loadable, an NCCL or CUDA error, a hung collective, or a
 * rendezvous that timed out. Carries one line for the user and the process exit code.
 */
public final class ExecutorException extends RuntimeException {

    /** Exit code for usage errors (bad option value), as collsim's CLI. */
    public static final int USAGE = 2;
    /** Exit code when results were wrong (#wrong > 0), as collsim's CLI. */
    public static final int WRONG_RESULTS = 4;
    /** Exit code for no GPU, NCCL/CUDA not loadable, NCCL/CUDA errors, timeouts, rendezvous failures. */
    public static final int DEVICE = 5;

    private static final long serialVersionUID = 1L;
    private final int exitCode;

    /**
     * @param message  one line naming what failed and, where known, what to do
     * @param exitCode {@link #USAGE}, {@link #WRONG_RESULTS} or {@link #DEVICE}
     */
    public ExecutorException(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    /**
     * @param message  one line
     * @param exitCode exit code
     * @param cause    the underlying exception
     */
    public ExecutorException(String message, int exitCode, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** @return the process exit code */
    public int exitCode() {
        return exitCode;
    }
}
