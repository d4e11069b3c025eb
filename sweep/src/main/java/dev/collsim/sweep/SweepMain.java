package dev.collsim.sweep;

import dev.collsim.io.CommandFailure;
import dev.collsim.io.UserInputException;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Entry point of {@code collsim sweep} (the launcher runs it with the sweep module's class path, Spark included).
 * Exit codes as the rest of collsim ({@link UserInputException}): a spec problem is the user's (file, line, column,
 * field; no stack trace), anything else a bug (exit 1). {@link #run} returns the code so tests never exit.
 */
public final class SweepMain {

    private SweepMain() {
    }

    /** @param args command line */
    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /**
     * @param args command line (after {@code sweep})
     * @param out  standard output
     * @param err  standard error
     * @return the exit code
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new SweepCommand());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> CommandFailure.report("collsim sweep", ex, err));
        cl.setParameterExceptionHandler(SweepMain::badArguments);
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /**
     * A bad command line in two lines, as every other collsim command reports it (the cli's {@code Main}), instead of
     * the whole usage: {@code collsim sweep: MESSAGE} and {@code Try 'collsim sweep --help'.}
     *
     * @return 2, a usage error
     */
    private static int badArguments(CommandLine.ParameterException ex, String[] args) {
        PrintWriter err = ex.getCommandLine().getErr();
        err.println("collsim sweep: " + ex.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
        err.println("Try 'collsim sweep --help'.");
        err.flush();
        return 2;
    }
}
