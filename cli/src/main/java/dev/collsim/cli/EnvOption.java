package dev.collsim.cli;

import dev.collsim.nccl.env.NcclSettings;
import java.util.Map;
import java.util.Optional;

/**
 * The one reading of {@code --env KEY=VALUE} (predict, plan, topo show): an NCCL variable as it would be exported.
 * A key given without {@code =VALUE} ({@code --env NCCL_ALGO}, or {@code --env NCCL_ALGO Ring} with the value as a
 * separate word) is refused with one message naming the option, what was found and what is allowed, instead of
 * picocli's or the settings parser's wording. No state.
 */
public final class EnvOption {

    /**
     * What picocli puts for a key given without {@code =}: the options' {@code mapFallbackValue}. A NUL character,
     * which no shell argument can hold, so it never stands for a value the user typed ({@code NCCL_ALGO=} stays an
     * empty value, which the settings parser judges).
     */
    public static final String NO_VALUE = "\u0000";

    private EnvOption() {
    }

    /**
     * @param env what the option collected (null allowed)
     * @return the NCCL settings of it
     * @throws UserError (usage) for a key without a value ({@link #message}), or a value the settings parser refuses
     */
    public static NcclSettings settings(Map<String, String> env) {
        Map<String, String> m = requireValues(env);
        return UserError.usage(() -> NcclSettings.parse(m));
    }

    /**
     * @param env what the option collected (null allowed)
     * @return the same map, or an empty one for null
     * @throws UserError (usage) for a key without a value ({@link #message})
     */
    public static Map<String, String> requireValues(Map<String, String> env) {
        Map<String, String> m = env == null ? Map.of() : env;
        m.forEach((k, v) -> {
            if (NO_VALUE.equals(v)) {
                throw new UserError(message(k), ExitCodes.USAGE);
            }
        });
        return m;
    }

    /**
     * A key given as a separate word after {@code --env}, seen when picocli then fails on the word after it.
     *
     * @param args the command line
     * @return the refusal of the first {@code --env KEY} without {@code =}, or empty
     */
    public static Optional<String> bareKey(String[] args) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--env") && !args[i + 1].contains("=") && !args[i + 1].startsWith("-")) {
                return Optional.of(message(args[i + 1]));
            }
        }
        return Optional.empty();
    }

    /** @return {@code --env KEY: found no value; allowed: KEY=VALUE ...} */
    static String message(String key) {
        String example = "NCCL_ALGO".equals(key) ? "Ring" : "NCCL_PROTO".equals(key) ? "Simple" : "VALUE";
        return "--env " + key + ": found no value (no '='); allowed: KEY=VALUE as you would export it, one word, e.g."
                + " --env " + key + "=" + example;
    }
}
