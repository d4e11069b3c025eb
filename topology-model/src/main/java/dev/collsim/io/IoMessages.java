package dev.collsim.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Short, user-facing reasons for I/O failures. {@link java.nio.file.Files} reports a missing file as a
 * {@link NoSuchFileException} whose message is only the path, which printed after the path reads
 * {@code /tmp/x: /tmp/x}; this class turns such exceptions into {@code no such file}, {@code permission denied}, ...
 */
public final class IoMessages {

    /** The one wording of a missing file, where only a file is allowed. */
    public static final String NO_SUCH_FILE = "no such file";
    /** The one wording of a missing folder (an output file's folder, a folder the user named). */
    public static final String NO_SUCH_FOLDER = "no such folder";
    /** The one wording of a missing path where a file or a folder is allowed (measurement inputs). */
    public static final String NO_SUCH_FILE_OR_FOLDER = "no such file or folder";

    private IoMessages() {
    }

    /**
     * @param e the failure (not null)
     * @return the reason without the path: {@link #NO_SUCH_FILE} ({@link #NO_SUCH_FOLDER} where the exception says
     *         so), {@code permission denied}, {@code not a directory},
     *         the file system's reason (e.g. {@code Is a directory}), or the exception's message
     */
    public static String reason(IOException e) {
        if (e instanceof NoSuchFileException n) {
            return NO_SUCH_FOLDER.equals(n.getReason()) ? NO_SUCH_FOLDER : NO_SUCH_FILE;
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NotDirectoryException) {
            return "not a directory";
        }
        if (e instanceof FileSystemException fse && fse.getReason() != null) {
            return fse.getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /**
     * Finds a missing or unreadable file among a failure and its causes.
     *
     * @param t any throwable, or null
     * @return {@code "<path>: no such file"} or {@code "<path>: permission denied"}, or null when neither is among
     *         {@code t} and its causes
     */
    public static String fileProblem(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof NoSuchFileException || c instanceof AccessDeniedException) {
                FileSystemException f = (FileSystemException) c;
                return f.getFile() + ": " + reason(f);
            }
        }
        return null;
    }
}
