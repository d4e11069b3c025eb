package dev.collsim.cli;

import dev.collsim.io.IoMessages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks of the files a user names on the command line, so that a missing or unreadable one is reported as
 * {@code collsim: PATH: no such file (given to --params)} with exit code {@link ExitCodes#INPUT}.
 */
public final class InputFiles {

    private InputFiles() {
    }

    /**
     * @param file  the file or folder the user named
     * @param given where it was given, an option such as {@code --params}, or what the file is, such as
     *              {@code the report spec}
     * @throws UserError (exit 3) when the file does not exist or cannot be read
     */
    public static void require(Path file, String given) {
        require(file, given, IoMessages.NO_SUCH_FILE);
    }

    /**
     * @param path  a file or a folder the user named, where either is allowed (measurement inputs)
     * @param given what it is, e.g. {@code a measurement file or folder}
     * @throws UserError (exit 3) reading {@code PATH: no such file or folder (given as ...)} when it does not exist,
     *                   or naming it when it cannot be read
     */
    public static void requireFileOrFolder(Path path, String given) {
        require(path, given, IoMessages.NO_SUCH_FILE_OR_FOLDER);
    }

    private static void require(Path file, String given, String missing) {
        if (!Files.exists(file)) {
            throw new UserError(file + ": " + missing + " (" + where(given) + ")", ExitCodes.INPUT);
        }
        if (!Files.isReadable(file)) {
            throw new UserError(file + ": permission denied (" + where(given) + ")", ExitCodes.INPUT);
        }
    }

    /**
     * @param file  the file that failed
     * @param e     the failure
     * @param given an option such as {@code --params}, or what the file is
     * @return a user error (exit 3) reading {@code PATH: no such file (given to --params)}
     */
    public static UserError failed(Path file, IOException e, String given) {
        return new UserError(file + ": " + IoMessages.reason(e) + " (" + where(given) + ")", ExitCodes.INPUT);
    }

    /** @return {@code given to --opt} for an option, {@code given as WHAT} for anything else */
    private static String where(String given) {
        return given.startsWith("-") ? "given to " + given : "given as " + given;
    }
}
