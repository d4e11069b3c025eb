package dev.collsim.cli.flow;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.io.IoMessages;
import dev.collsim.topology.io.AtomicFiles;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Output files named on the command line ({@code --timeline}, {@code merge -o}): checked before any work is done, then
 * written to a temporary file in the target's folder and moved into place atomically; the temporary file is removed
 * on any failure. Problems are user errors with exit code {@link ExitCodes#INPUT}, reading
 * {@code PATH: what is wrong (given to --option)}.
 */
final class OutputPaths {

    /** Writes the content of an output file. */
    interface Content {
        /**
         * @param w the temporary file's writer
         * @throws IOException when writing fails
         */
        void write(Writer w) throws IOException;
    }

    private OutputPaths() {
    }

    /**
     * Checks that {@code target} can be created or replaced: its folder exists, is a folder and is writable, and the
     * target itself is not a folder.
     *
     * @param target the file the user named
     * @param option the option that named it, e.g. {@code --timeline}
     * @throws UserError (exit 3) naming the path, what is wrong and the option
     */
    static void check(Path target, String option) {
        Path abs = target.toAbsolutePath().normalize();
        Path dir = abs.getParent();
        if (Files.isDirectory(abs)) {
            throw new UserError(target + ": is a directory; " + option + " needs a file name, e.g. "
                    + target.resolve("out.csv") + " (given to " + option + ")", ExitCodes.INPUT);
        }
        if (dir == null || !Files.exists(dir)) {
            throw new UserError("cannot write " + target + ": " + dir + ": " + IoMessages.NO_SUCH_FOLDER + " (given to "
                    + option + ")", ExitCodes.INPUT);
        }
        if (!Files.isDirectory(dir)) {
            throw new UserError(target + ": " + dir + " is not a folder (given to " + option + ")", ExitCodes.INPUT);
        }
        if (!Files.isWritable(dir)) {
            throw new UserError(target + ": permission denied: folder " + dir + " is not writable (given to " + option
                    + ")", ExitCodes.INPUT);
        }
    }

    /**
     * Writes {@code target} whole or not at all (UTF-8).
     *
     * @param target  the file the user named
     * @param option  the option that named it
     * @param content what to write
     * @throws UserError (exit 3) when the file cannot be written; no temporary file is left behind
     */
    static void write(Path target, String option, Content content) {
        check(target, option);
        Path abs = target.toAbsolutePath().normalize();
        try {
            AtomicFiles.write(abs, out -> {
                Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
                content.write(w);
                w.flush();
            });
        } catch (IOException e) {
            throw new UserError(target + ": cannot write: " + IoMessages.reason(e) + " (given to " + option + ")",
                    ExitCodes.INPUT);
        }
    }
}
