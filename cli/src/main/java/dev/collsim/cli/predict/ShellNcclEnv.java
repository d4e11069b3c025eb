package dev.collsim.cli.predict;

import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The NCCL_* variables set in the shell that {@code predict} does not read: predict models a run from {@code --env},
 * {@code --algo} and {@code --proto} only (it runs nothing, so the shell's environment is not the run's), and a user
 * who types {@code NCCL_ALGO=Ring collsim predict ...} as for nccl-tests would otherwise see "NCCL env: (defaults)"
 * with no word why. Only {@code run} and the executor read the environment.
 */
public final class ShellNcclEnv {

    private ShellNcclEnv() {
    }

    /**
     * @param shell the process environment ({@code System.getenv()}), names to values
     * @param given the variables given with {@code --env} (and NCCL_ALGO/NCCL_PROTO when --algo/--proto are given)
     * @return one line for stderr naming the shell's NCCL_* variables, in name order, that were not given; empty when
     *         there are none
     */
    public static Optional<String> note(Map<String, String> shell, Map<String, String> given) {
        TreeSet<String> ignored = new TreeSet<>();
        shell.keySet().stream().filter(k -> k.startsWith("NCCL_") && !given.containsKey(k)).forEach(ignored::add);
        if (ignored.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("collsim predict: note: " + String.join(", ", ignored) + " set in the shell "
                + (ignored.size() == 1 ? "is" : "are") + " not read (predict models only what --env, --algo and --proto"
                + " give); pass " + (ignored.size() == 1 ? "it" : "them") + " as --env NCCL_X=V to model "
                + (ignored.size() == 1 ? "it" : "them"));
    }
}
