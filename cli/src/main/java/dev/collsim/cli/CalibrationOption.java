package dev.collsim.cli;

import dev.collsim.io.InputException;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.topology.Topology;
import dev.collsim.validation.calibration.ParametersFile;
import dev.collsim.validation.calibration.ProfileSelector;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The {@code --calibration} option of predict and plan: a file (a {@code collsim calibrate} profile or a parameters
 * file, {@link ParametersFile}), {@code none} for the bare model, or absent for the shipped profile of the cluster's
 * class ({@link ProfileSelector}).
 */
public final class CalibrationOption {

    /** The option value that asks for the bare model. */
    public static final String NONE = "none";

    private CalibrationOption() {
    }

    /**
     * @param parameters the parameters to model with
     * @param line       the line naming a shipped profile that was applied, empty otherwise (a file the user named
     *                   or the bare model need no line)
     * @param label      what was used, in a few words (file, profile or "defaults")
     */
    public record Resolved(PerformanceParameters parameters, Optional<String> line, String label) {
    }

    /**
     * @param option  the option's value, null when not given
     * @param name    the option's name, for messages
     * @param cluster the cluster the prediction is for
     * @return the parameters and what to print
     * @throws InputException when the file is not a parameters file or profile
     */
    public static Resolved resolve(Path option, String name, Topology cluster) throws InputException {
        if (option != null && NONE.equals(option.toString())) {
            return new Resolved(PerformanceParameters.DEFAULTS, Optional.empty(),
                    "defaults (PerformanceParameters.DEFAULTS; --calibration none)");
        }
        if (option == null) {
            ProfileSelector.Choice c = ProfileSelector.select(cluster);
            return c.calibration().map(cal -> new Resolved(cal.parameters(), Optional.of(c.line()), c.line()))
                    .orElseGet(() -> new Resolved(PerformanceParameters.DEFAULTS, Optional.empty(),
                            "defaults (PerformanceParameters.DEFAULTS); " + c.line()));
        }
        InputFiles.require(option, name);
        try {
            return new Resolved(ParametersFile.read(option), Optional.empty(), option.toString());
        } catch (IOException e) {
            throw InputFiles.failed(option, e, name);
        }
    }
}
