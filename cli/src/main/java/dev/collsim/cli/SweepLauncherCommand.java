package dev.collsim.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/**
 * {@code sweep} in the list of commands. The design sweep itself is the sweep module's command (Apache Spark, its
 * own jar and class path): the {@code ./collsim} launcher runs it before this jar is started, so this entry only
 * answers when the cli jar is started directly with {@code sweep}, saying how to run it.
 */
@Command(name = "sweep", description = "Find the cheapest design of a grid on Apache Spark (its own jar, started"
        + " by the collsim launcher: collsim sweep SPEC.yaml).")
public final class SweepLauncherCommand implements Callable<Integer> {

    @Unmatched
    private List<String> arguments;

    /** @throws UserError (usage) always: this jar does not hold the sweep */
    @Override
    public Integer call() {
        throw new UserError("sweep runs on Apache Spark from its own jar, which the ./collsim launcher starts: "
                + "./collsim sweep SPEC.yaml (./collsim sweep --help; spec: docs/sweep.md)", ExitCodes.USAGE);
    }
}
