package dev.collsim.cli;

import dev.collsim.nccl.SizeSweep;
import java.util.List;
import java.util.regex.Matcher;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * The name a user typed for an option that has several ({@code --perf-params}, {@code --calibration}, {@code
 * --params}; {@code -f} or {@code --stepfactor}), so a message names the flag on the user's command line. Stateless.
 */
public final class TypedOption {

    private TypedOption() {
    }

    /**
     * @param spec   the command, after parsing
     * @param option one of the option's names
     * @return the last of the option's names on the command line ({@code --name VALUE} or {@code --name=VALUE}), else
     *         {@code option}
     */
    public static String of(CommandSpec spec, String option) {
        OptionSpec o = spec.findOption(option);
        if (o == null || spec.commandLine() == null || spec.commandLine().getParseResult() == null) {
            return option;
        }
        List<String> args = spec.commandLine().getParseResult().originalArgs();
        for (int i = args.size() - 1; i >= 0; i--) {
            for (String n : o.names()) {
                if (args.get(i).equals(n) || args.get(i).startsWith(n + "=")) {
                    return n;
                }
            }
        }
        return option;
    }

    /**
     * @param spec a command with nccl-tests' size options, after parsing
     * @return the names of its {@code -b}, {@code -e}, {@code -i}, {@code -f} as typed ({@link #of}; the short name
     *         where the user gave none, or the command has no such option)
     */
    public static SizeSweep.Flags sweepFlags(CommandSpec spec) {
        return new SizeSweep.Flags(of(spec, "-b"), of(spec, "-e"), of(spec, "-i"), of(spec, "-f"));
    }

    /**
     * A parse failure's message naming the option as the user typed it: picocli names an option with several names by
     * its longest ({@code Invalid value for option '--stepfactor'} where the user typed {@code -f 0.5}). A value
     * {@code -f} cannot take (not a whole number) is told what it takes ({@link SizeSweep#FACTOR_ALLOWED}).
     *
     * @param ex   picocli's failure
     * @param args the command line
     * @return the message
     */
    public static String inMessage(ParameterException ex, String[] args) {
        String message = named(ex, args);
        return message == null ? null : withRange(message);
    }

    /**
     * A value picocli cannot convert to the option's Java type ({@code -n 99999999999}: "is not an int") is told the
     * type's range: a Java {@code int} is -2^31 .. 2^31-1, a {@code long} -2^63 .. 2^63-1 (JLS 4.2.1); an option's own
     * check may allow less (e.g. {@code -n} >= 1).
     *
     * @param message picocli's message
     * @return the message with the range where it says "is not an int" or "is not a long"; else unchanged
     */
    static String withRange(String message) {
        if (message.endsWith("' is not an int")) {
            return message + "; allowed: a whole number from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
        }
        if (message.endsWith("' is not a long")) {
            return message + "; allowed: a whole number from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE;
        }
        return message;
    }

    /** @return picocli's message with the option as typed, and {@code -f}'s own allowed values */
    private static String named(ParameterException ex, String[] args) {
        String message = ex.getMessage();
        ArgSpec arg = ex instanceof MissingParameterException m && m.getMissing().size() == 1 ? m.getMissing().get(0)
                : ex.getArgSpec();
        if (!(arg instanceof OptionSpec o) || o.names().length < 2 || message == null) {
            return message;
        }
        String typed = typed(o, ex.getValue(), args);
        message = message.replace("'" + o.longestName() + "'", "'" + typed + "'");
        if (o.longestName().equals(STEP_FACTOR) && message.matches(".*' is not an? (int|long)")) {
            message = message.replaceFirst("' is not an? (int|long)$", Matcher.quoteReplacement("'; allowed: "
                    + SizeSweep.FACTOR_ALLOWED));
        }
        return message;
    }

    /** The long name of nccl-tests' {@code -f} in every command that takes it. */
    static final String STEP_FACTOR = "--stepfactor";

    /** @return the name of {@code o} given with {@code value} ({@code -f 0.5}, {@code -f=0.5}, {@code -f0.5}) */
    private static String typed(OptionSpec o, String value, String[] args) {
        String last = o.longestName();
        for (int i = 0; i < args.length; i++) {
            for (String n : o.names()) {
                boolean separate = args[i].equals(n) && i + 1 < args.length && args[i + 1].equals(value);
                boolean joined = args[i].equals(n + "=" + value) || n.length() == 2 && args[i].equals(n + value);
                if (separate || joined) {
                    return n;
                }
                if (args[i].equals(n) || args[i].startsWith(n + "=")) {
                    last = n;
                }
            }
        }
        return last;
    }
}
