package dev.collsim.io;

import java.io.PrintWriter;

/**
 * Maps a failure that ends a command to its message and exit code, the same for every entry point
 * ({@code collsim}, {@code collsim sweep}). Only a {@link UserInputException} (and a missing or unreadable file) is
 * the user's: one line, its own code (a missing file {@link UserInputException#INPUT}). Anything else, an
 * {@link IllegalArgumentException} from inside included, is a bug: {@code internal error (please report)}, the
 * stack trace, exit {@link UserInputException#SOFTWARE}.
 */
public final class CommandFailure {

    private CommandFailure() {
    }

    /**
     * @param program the prefix of every line, e.g. {@code collsim} or {@code collsim sweep}
     * @param ex      what the command threw
     * @param err     standard error
     * @return the exit code
     */
    public static int report(String program, Exception ex, PrintWriter err) {
        String file = IoMessages.fileProblem(ex);
        if (file != null) {
            err.println(program + ": " + file);
            return UserInputException.INPUT;
        }
        if (ex instanceof InputException ie) {
            // its message starts with file:line:column
            err.println(ie.getMessage());
            return ie.exitCode();
        }
        if (ex instanceof UserInputException ue) {
            err.println(program + ": " + ue.getMessage());
            return ue.exitCode();
        }
        err.println(program + ": internal error (please report): " + ex);
        ex.printStackTrace(err);
        return UserInputException.SOFTWARE;
    }
}
