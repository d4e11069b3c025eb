package dev.collsim.cli;

import dev.collsim.io.InputException;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.validation.calibration.Calibration;
import dev.collsim.validation.calibration.CalibrationProfile;
import dev.collsim.validation.calibration.ParametersFile;
import dev.collsim.validation.calibration.ProfileSelector;
import dev.collsim.validation.compare.PredictionBand;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code --calibration none|auto|FILE} option of predict, compare, plan, report, tune and the main job: a file (a
 * {@code collsim calibrate} profile or a parameters file, {@link ParametersFile}), {@code none} for the bare model, or
 * {@code auto} (the same as leaving it out) for the shipped profile of the cluster's class ({@link ProfileSelector}).
 * Every command prints what was used as one line starting {@code calibration: }.
 */
public final class CalibrationOption {

    /** The option value that asks for the bare model. */
    public static final String NONE = "none";

    /** The option value that asks for the shipped profile of the cluster's class (the default). */
    public static final String AUTO = "auto";

    /** The line every command prints for {@code --calibration none} ({@link ProfileSelector#NONE_LINE}). */
    public static final String NONE_LINE = ProfileSelector.NONE_LINE;

    /** The option's description for the report and the main job (their variants may name their own). */
    public static final String REPORT_DESCRIPTION = "performance parameters of every variant that names no"
            + " 'calibration' of its own: a 'collsim calibrate' profile or parameters file, none for the bare model,"
            + " or auto (default): the shipped profile of each variant's cluster class (configs/calibration/auto),"
            + " else the bare model";

    private CalibrationOption() {
    }

    /**
     * @param parameters the parameters to model with
     * @param line       what was used, as one line {@code calibration: ...} (the file, the shipped profile, or the
     *                   bare model and why)
     * @param shipped    the shipped profile that was applied, empty otherwise
     * @param band       the band the line prints (auto: {@link ProfileSelector.Choice#band()}; a {@code calibrate -o} profile:
     *                   its own), else empty
     */
    public record Resolved(PerformanceParameters parameters, String line, Optional<Calibration> shipped,
            Optional<PredictionBand> band) {

        /** @return what predict's header names: the calibration line, after "defaults" for the bare model */
        public String label() {
            return parameters.equals(PerformanceParameters.DEFAULTS) ? "defaults (PerformanceParameters.DEFAULTS); "
                    + line : line;
        }
    }

    /**
     * @param option the option's value, null when not given
     * @return true for {@code none}
     */
    public static boolean none(Path option) {
        return option != null && NONE.equals(option.toString());
    }

    /**
     * @param option the option's value, null when not given
     * @return true when the shipped profile of the cluster's class is asked for (not given, or {@code auto})
     */
    public static boolean auto(Path option) {
        return option == null || AUTO.equals(option.toString());
    }

    /**
     * @param option  the option's value, null when not given
     * @param name    the option's name, for messages
     * @param cluster the cluster the prediction is for
     * @return the parameters and what to print
     * @throws InputException when the file is not a parameters file or profile
     */
    public static Resolved resolve(Path option, String name, Topology cluster) throws InputException {
        return resolve(option, name, cluster, List.of());
    }

    /**
     * As {@link #resolve(Path, String, Topology)} for a communicator: {@code auto} takes the class of the NCCL nodes
     * its ranks span ({@link ProfileSelector}, by the ranks' hosts), so 8 ranks on one host of a
     * two-host cluster get the one-host class and its band.
     *
     * @param option  the option's value, null when not given
     * @param name    the option's name, for messages
     * @param cluster the cluster the prediction is for
     * @param ranks   the communicator's GPUs; empty for every GPU of the cluster
     * @return the parameters and what to print
     * @throws InputException when the file is not a parameters file or profile
     */
    public static Resolved resolve(Path option, String name, Topology cluster, List<Gpu> ranks)
            throws InputException {
        if (none(option)) {
            return new Resolved(PerformanceParameters.DEFAULTS, NONE_LINE, Optional.empty(), Optional.empty());
        }
        if (auto(option)) {
            ProfileSelector.Choice c = ProfileSelector.select(cluster, ranks);
            return new Resolved(c.calibration().map(Calibration::parameters).orElse(PerformanceParameters.DEFAULTS),
                    c.line(), c.calibration(), c.band());
        }
        PerformanceParameters p = read(option, name);
        Optional<PredictionBand> band = profileBand(option);
        return new Resolved(p, fileLine(option) + band.map(b -> "; band " + b.regimes() + b.wideNote()).orElse(""),
                Optional.empty(), band);
    }

    /** @return the band a {@code collsim calibrate} profile carries; empty for a parameters file or none written */
    private static Optional<PredictionBand> profileBand(Path file) {
        try {
            return CalibrationProfile.load(file).band();
        } catch (InputException e) {
            return Optional.empty(); // a parameters file, read above
        }
    }

    /**
     * As {@link #resolve(Path, String, Topology, List)}, and a one-line warning on {@code err} when a profile file names a
     * class (or GPU generation) other than the cluster's ({@link ProfileSelector#mismatch}): applied, not refused.
     *
     * @param option  the option's value, null when not given
     * @param name    the option's name, for messages
     * @param cluster the cluster the prediction is for
     * @param ranks   the communicator's GPUs (the class of the hosts they span); empty for every GPU
     * @param err     where the warning goes
     * @return the parameters and what to print
     * @throws InputException when the file is not a parameters file or profile
     */
    public static Resolved resolve(Path option, String name, Topology cluster, List<Gpu> ranks, PrintWriter err)
            throws InputException {
        Resolved r = resolve(option, name, cluster, ranks);
        if (!none(option) && !auto(option)) {
            warnClass(option, name, cluster, err);
        }
        return r;
    }

    /**
     * @param file    a profile file that was read
     * @param name    the option's name
     * @param cluster the cluster it is applied to
     * @param err     where the warning goes, one line {@code collsim: warning: ...}
     */
    public static void warnClass(Path file, String name, Topology cluster, PrintWriter err) {
        try {
            ProfileSelector.mismatch(Files.readString(file), cluster).ifPresent(m -> err.println("collsim: warning: "
                    + name + " " + file + " was " + m + "; applied anyway"));
        } catch (IOException e) {
            return; // read before, so its reader reported any problem
        }
        err.flush();
    }

    /**
     * The value a what-if report's resolver takes as the calibration of variants without their own: null for the
     * shipped profiles, {@code none}, or the file as an absolute path (read here once, so a bad file is reported as
     * the option's, not as a variant's).
     *
     * @param option the option's value, null when not given
     * @param name   the option's name, for messages
     * @return null, {@code none} or an absolute path
     * @throws InputException when the file is not a parameters file or profile
     */
    public static String forReport(Path option, String name) throws InputException {
        if (auto(option)) {
            return null;
        }
        if (none(option)) {
            return NONE;
        }
        read(option, name);
        return option.toAbsolutePath().normalize().toString();
    }

    /**
     * @param file a calibration file the user named
     * @return the line naming it
     */
    public static String fileLine(Path file) {
        return "calibration: " + file;
    }

    /**
     * A profile file the option names must exist; a bare word that is none (a typo of {@code none} or {@code auto})
     * is told what the option takes, and which word was likely meant.
     *
     * @param file the option's value, neither {@code none} nor {@code auto}
     * @param name the option's name, for messages
     * @throws UserError (exit 3) when the file does not exist or cannot be read
     */
    public static void requireProfile(Path file, String name) {
        String word = file.toString();
        if (!Files.exists(file) && word.matches("[A-Za-z]{2,8}")) {
            String meant = word.toLowerCase(Locale.ROOT).startsWith("n") ? NONE
                    : word.toLowerCase(Locale.ROOT).startsWith("a") ? AUTO : null;
            throw new UserError(word + ": no such file (given to " + name + "; allowed: " + NONE + ", " + AUTO
                    + " or a calibration profile file" + (meant == null ? "" : "; did you mean '" + meant + "'?")
                    + ")", ExitCodes.INPUT);
        }
        InputFiles.require(file, name);
    }

    private static PerformanceParameters read(Path option, String name) throws InputException {
        requireProfile(option, name);
        try {
            return ParametersFile.read(option);
        } catch (IOException e) {
            throw InputFiles.failed(option, e, name);
        }
    }
}
