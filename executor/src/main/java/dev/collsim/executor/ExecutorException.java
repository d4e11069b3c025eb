package dev.collsim.executor;

import dev.collsim.io.UserInputException;

/**
 * A run could not go on: no GPU, NCCL or CUDA not loadable, an NCCL or CUDA error, a hung collective, or a
 * rendezvous that timed out; or a bad option value. Carries one line for the user and the process exit code
 * ({@link UserInputException}).
 */
public final class ExecutorException extends UserInputException {

    /** Exit code when results were wrong (#wrong > 0): {@link UserInputException#CHECK_FAILED}. */
    public static final int WRONG_RESULTS = CHECK_FAILED;

    private static final long serialVersionUID = 1L;

    /**
     * @param message  one line naming what failed and, where known, what to do
     * @param exitCode {@link #USAGE}, {@link #WRONG_RESULTS} or {@link #DEVICE}
     */
    public ExecutorException(String message, int exitCode) {
        super(message, exitCode);
    }

    /**
     * @param message  one line
     * @param exitCode exit code
     * @param cause    the underlying exception
     */
    public ExecutorException(String message, int exitCode, Throwable cause) {
        super(message, exitCode, cause);
    }
}
