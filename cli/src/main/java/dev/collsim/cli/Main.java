package dev.collsim.cli;

import dev.collsim.cli.predict.LauncherPrefix;
import dev.collsim.io.CommandFailure;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import picocli.CommandLine;

/** Entry point. {@link #run} returns the exit code so tests never call {@code System.exit}. */
public final class Main {

    private Main() {
    }

    /** @param args command line */
    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /**
     * Runs collsim in-process.
     *
     * @param args command line
     * @param out  standard output
     * @param err  standard error
     * @return the exit code (see {@link ExitCodes})
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        if (args.length == 0) {
            // the main job has no command line to parse: skip building picocli's model of every subcommand (about
            // a tenth of a second of start-up); its failures are mapped exactly as picocli's handler below maps them
            int code;
            try {
                code = CollsimCommand.mainJob(out, err, null);
            } catch (Exception e) {
                code = failure(e, err);
            }
            out.flush();
            err.flush();
            return code;
        }
        CommandLine cl = new CommandLine(new CollsimCommand());
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setParameterExceptionHandler(Main::badArguments);
        cl.setExecutionExceptionHandler((ex, cmd, parseResult) -> failure(ex, cmd.getErr()));
        cl.setExecutionStrategy(Main::rootOptionsOnlyAlone);
        withVersion(cl);
        String[] line;
        try {
            line = LauncherPrefix.rewrite(helpWord(args));
        } catch (UserError e) {
            err.println("collsim predict: " + e.getMessage());
            err.println("Try 'collsim predict --help'.");
            err.flush();
            return e.exitCode();
        }
        int code = cl.execute(line);
        out.flush();
        err.flush();
        return code;
    }

    /**
     * {@code collsim help [COMMAND...]} is {@code collsim [COMMAND...] --help}, as git and picocli-based tools read it
     * (it ran {@code COMMAND} with no arguments: {@code collsim help predict} said "Missing required parameter").
     *
     * @param args command line
     * @return the command line with a leading {@code help} moved to a trailing {@code --help}; else {@code args}
     */
    static String[] helpWord(String[] args) {
        if (args.length == 0 || !"help".equals(args[0])) {
            return args;
        }
        String[] line = new String[args.length];
        System.arraycopy(args, 1, line, 0, args.length - 1);
        line[args.length - 1] = "--help";
        return line;
    }

    /**
     * Maps a command's failure to its exit code, as {@link CommandFailure} does for every entry point: only a
     * user-input failure (and a missing or unreadable file) is the user's; anything else is a bug, exit 1.
     *
     * @param ex  what the command threw
     * @param err standard error
     * @return the exit code (see {@link ExitCodes})
     */
    static int failure(Exception ex, PrintWriter err) {
        return CommandFailure.report("collsim", ex, err);
    }

    /**
     * Runs the last command named, as picocli does by default, after refusing the root's {@code --calibration} (an
     * option of the main job) before a subcommand, where it would change nothing: {@code collsim --calibration none
     * predict ...} is a usage error that says where the option goes.
     */
    private static int rootOptionsOnlyAlone(CommandLine.ParseResult pr) {
        if (pr.hasSubcommand() && pr.hasMatchedOption("--calibration")) {
            String sub = pr.subcommand().commandSpec().name();
            throw new CommandLine.ParameterException(pr.commandSpec().commandLine(), "--calibration before '" + sub
                    + "' applies to the main job only; give it after the subcommand: collsim " + sub
                    + " --calibration ...");
        }
        return new CommandLine.RunLast().execute(pr);
    }

    /**
     * Every subcommand's help lists {@code -V, --version} (picocli's standard help options), which printed nothing
     * but on the root: picocli gives a subcommand no version of its own. Each gets the root's.
     */
    private static void withVersion(CommandLine c) {
        c.getCommandSpec().versionProvider(new VersionProvider());
        c.getSubcommands().values().forEach(Main::withVersion);
    }

    /**
     * Reports a bad command line in two lines instead of the whole usage: {@code collsim CMD: MESSAGE} and
     * {@code Try 'collsim CMD --help'.}
     *
     * @return {@link ExitCodes#USAGE}
     */
    private static int badArguments(CommandLine.ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        PrintWriter err = cmd.getErr();
        String name = cmd.getCommandSpec().qualifiedName(" ");
        if (unknownCommand(ex, cmd, err)) {
            return ExitCodes.USAGE;
        }
        CommandLine.ParameterException shown = mistypedRequired(ex, cmd, args);
        err.println(name + ": " + EnvOption.bareKey(args).or(() -> unknownOptions(shown))
                .orElse(TypedOption.inMessage(shown, args))
                + subcommandsAllowed(shown, cmd));
        CommandLine.UnmatchedArgumentException.printSuggestions(shown, err);
        err.println("Try '" + name + " --help'.");
        err.flush();
        return ExitCodes.USAGE;
    }

    /**
     * {@code collsim topo} alone: picocli says only "Missing required subcommand"; the command's subcommands are
     * listed, as an unknown command lists the commands.
     *
     * @return {@code ; allowed: show, paths, ...} for that failure of a command with subcommands, else empty
     */
    static String subcommandsAllowed(CommandLine.ParameterException ex, CommandLine cmd) {
        boolean missing = ex.getMessage() != null && ex.getMessage().startsWith("Missing required subcommand");
        return missing && !cmd.getSubcommands().isEmpty() ? "; allowed: " + String.join(", ",
                cmd.getSubcommands().keySet()) : "";
    }

    /**
     * {@code compare --mesured FILE}: picocli checks the required options before it reports unmatched words, so a
     * mistyped required option reads as {@code Missing required option: '--measured=FILE'}, which hides the typo.
     * Long options ({@code --x}, {@code --x=v}) that neither the command nor a parent knows are reported instead, as
     * an unknown option with picocli's near misses.
     *
     * @return the unmatched-argument exception for those words, else {@code ex} unchanged
     */
    private static CommandLine.ParameterException mistypedRequired(CommandLine.ParameterException ex,
            CommandLine cmd, String[] args) {
        if (!(ex instanceof CommandLine.MissingParameterException)) {
            return ex;
        }
        List<String> unknown = new ArrayList<>();
        for (String a : args) {
            if ("--".equals(a)) {
                break;
            }
            String flag = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            if (flag.startsWith("--") && flag.length() > 2 && !knownOption(cmd, flag)) {
                unknown.add(a);
            }
        }
        return unknown.isEmpty() ? ex : new CommandLine.UnmatchedArgumentException(cmd, unknown);
    }

    /** @return true when {@code cmd} or one of its parents has an option of that name */
    private static boolean knownOption(CommandLine cmd, String flag) {
        for (CommandLine c = cmd; c != null; c = c.getParent()) {
            if (c.getCommandSpec().findOption(flag) != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code predict --calibraton none allreduce}: picocli lists every word after a mistyped option as unmatched, the
     * collective too; only the words that look like options are the user's mistake.
     *
     * @return {@code Unknown option: '--calibraton'} when some unmatched word starts with '-', else empty
     */
    private static Optional<String> unknownOptions(CommandLine.ParameterException ex) {
        if (!(ex instanceof CommandLine.UnmatchedArgumentException u)) {
            return Optional.empty();
        }
        List<String> flags = u.getUnmatched().stream().filter(a -> a.startsWith("-") && a.length() > 1).toList();
        if (flags.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("Unknown option" + (flags.size() > 1 ? "s" : "") + ": "
                + flags.stream().map(f -> "'" + f + "'").collect(Collectors.joining(", ")));
    }

    /**
     * {@code collsim foo}: a first word that is no command and no option is an unknown command, named with the list
     * of commands and picocli's near misses ({@code UnmatchedArgumentException.getSuggestions}).
     *
     * @return true when it was one (and was reported)
     */
    private static boolean unknownCommand(CommandLine.ParameterException ex, CommandLine cmd, PrintWriter err) {
        if (!(ex instanceof CommandLine.UnmatchedArgumentException u) || cmd.getParent() != null
                || u.getUnmatched().isEmpty() || u.getUnmatched().get(0).startsWith("-")) {
            return false;
        }
        err.println("collsim: unknown command '" + u.getUnmatched().get(0) + "'; commands: "
                + String.join(", ", cmd.getSubcommands().keySet()));
        List<String> near = u.getSuggestions();
        if (!near.isEmpty()) {
            err.println("Did you mean " + near.stream().map(n -> "'collsim " + n + "'")
                    .collect(Collectors.joining(" or ")) + "?");
        }
        err.println("Try 'collsim --help'.");
        err.flush();
        return true;
    }
}
