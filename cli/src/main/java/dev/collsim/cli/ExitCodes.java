package dev.collsim.cli;

import dev.collsim.io.UserInputException;

/**
 * Process exit codes of {@code collsim}, documented in every command's help and the README. The numbers are
 * defined once, in {@link UserInputException}; these are their names for the CLI.
 */
public final class ExitCodes {
    /** Success. */
    public static final int OK = UserInputException.OK;
    /** Internal error (a bug): the only case that prints a stack trace. */
    public static final int SOFTWARE = UserInputException.SOFTWARE;
    /** Usage error: unknown option, bad option value. */
    public static final int USAGE = UserInputException.USAGE;
    /** Invalid input file: every problem is listed with file, line, column and field. */
    public static final int INPUT = UserInputException.INPUT;
    /** A check failed: wrong results (#wrong > 0), or an error above the tolerance. */
    public static final int CHECK_FAILED = UserInputException.CHECK_FAILED;
    /** No GPU, NCCL/CUDA not loadable, or an NCCL failure. */
    public static final int DEVICE = UserInputException.DEVICE;
    /** A batch command (accuracy, compare, calibrate, diagnose) finished but skipped files it could not read. */
    public static final int SKIPPED = UserInputException.SKIPPED;

    private ExitCodes() {
    }
}
