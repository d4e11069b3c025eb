package dev.collsim.cli;

import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The name a user typed for an option that has several ({@code --perf-params}, {@code --calibration}, {@code
 * --params}), so a message names the flag on the user's command line. Stateless.
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
}
