package dev.collsim.cli;

/** Process exit codes of {@code collsim}, documented in every command's help. */
public final class ExitCodes {
    /** Success. */
    public static final int OK = 0;
    /** Internal error (a bug): the only case that prints a stack trace. */
    public static final int SOFTWARE = 1;
    /** Usage error: unknown option, bad option value. */
    public static final int USAGE = 2;
    /** Invalid input file: every problem is listed with file, line, column and field. */
    public static final int INPUT = 3;
    /** A check failed: wrong results (#wrong > 0), or an error above the tolerance. */
    public static final int CHECK_FAILED = 4;
    /** No GPU, NCCL/CUDA not loadable, or an NCCL failure. */
    public static final int DEVICE = 5;

    private ExitCodes() {
    }
}
