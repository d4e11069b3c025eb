package dev.collsim.cli.validation;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.validation.calibration.BandCoverageText;
import dev.collsim.validation.calibration.ProfileBuilder;
import dev.collsim.validation.calibration.ProfileFiles;
import dev.collsim.validation.ingest.Dataset;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** {@code collsim calibrate --profiles DIR -m DATA}: fits and writes the shipped network-class profiles. */
final class ProfilesWriter {

    private ProfilesWriter() {
    }

    /**
     * @param datasets the measurements
     * @param dir      output folder
     * @param out      where the index and the files written are printed
     */
    static void run(List<Dataset> datasets, Path dir, PrintWriter out) {
        List<ProfileBuilder.ClassFit> fits = new ProfileBuilder(Optional.empty()).build(datasets);
        List<Path> written;
        try {
            written = ProfileFiles.write(fits, dir);
        } catch (IOException e) {
            throw new UserError("cannot write " + dir + ": " + e.getMessage(), ExitCodes.INPUT);
        }
        out.print(ProfileFiles.index(fits));
        out.println();
        out.print(BandCoverageText.table(fits));
        written.forEach(p -> out.println("wrote " + p));
    }
}
