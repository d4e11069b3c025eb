package dev.collsim.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * One run of the CLI inside the test JVM, as {@link Main#run} gives it: the exit code and everything written to
 * standard output and standard error. The one helper every CLI test runs commands through.
 *
 * @param code the exit code (0 ok, 1 bug, 2 usage, 3 input, 4 check failed, 5 device)
 * @param out  standard output
 * @param err  standard error
 */
public record CliRun(int code, String out, String err) {

    /**
     * @param args the command line, without the program name
     * @return the run's exit code and output
     */
    public static CliRun run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new CliRun(code, out.toString(), withoutShellNote(err.toString()));
    }

    /**
     * @return standard error without predict's note on the shell's NCCL_* variables (ShellNcclEnv, tested on its own),
     *         so that no test depends on the environment of the shell that runs the build
     */
    private static String withoutShellNote(String err) {
        return err.replaceAll("(?m)^collsim predict: note: NCCL_\\S.* set in the shell (is|are) not read .*\\R?", "");
    }
}
