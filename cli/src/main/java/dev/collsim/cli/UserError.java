package dev.collsim.cli;

import dev.collsim.io.UserInputException;
import java.util.function.Supplier;

/**
 * A failure caused by the user's command line or environment (a bad option value, a failed check): printed as one
 * line, no stack trace, exit code from {@link ExitCodes}.
 */
public final class UserError extends UserInputException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message  one line naming what was wrong and what is allowed
     * @param exitCode one of {@link ExitCodes} from 2 to 5
     * @throws IllegalArgumentException for 0 or 1
     */
    public UserError(String message, int exitCode) {
        super(message, exitCode);
    }

    /**
     * Parses a value the user typed: the parser's {@link IllegalArgumentException} becomes a usage error, so it
     * is never mistaken for a bug (nor a bug elsewhere for a usage error).
     *
     * @param parse parses one option value, e.g. {@code () -> Collective.parse(text)}
     * @param <T>   the parsed type
     * @return the parsed value
     * @throws UserError with {@link ExitCodes#USAGE} and the parser's message when it rejects the value
     */
    public static <T> T usage(Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage(), ExitCodes.USAGE);
        }
    }
}
