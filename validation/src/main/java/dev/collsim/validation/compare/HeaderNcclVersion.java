package dev.collsim.validation.compare;

import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.validation.ingest.Dataset;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The line compare prints when a data file names an NCCL release other than the one modelled: collsim carries the
 * tuning tables and rules of two releases only ({@link NcclVersion}, chosen with {@code --nccl-version}), so a run of
 * NCCL 2.22.3 is predicted with the choices of the modelled release, not its own. Releases of the same major.minor
 * (2.30.4 against 2.30.7) share their tables and print nothing. Stateless.
 */
final class HeaderNcclVersion {

    private static final Pattern RELEASE = Pattern.compile("\\b(\\d+)\\.(\\d+)(?:\\.\\d+)?");

    private HeaderNcclVersion() {
    }

    /**
     * @param d        the dataset ({@link Dataset#ncclVersion}: from its header or log, empty when unknown)
     * @param modelled the release predicted with
     * @return the assumption line, or empty when the file names no release or one of the modelled major.minor
     */
    static Optional<String> note(Dataset d, NcclVersion modelled) {
        Matcher named = RELEASE.matcher(d.ncclVersion());
        Matcher model = RELEASE.matcher(modelled.text());
        if (!named.find() || !model.find()) {
            return Optional.empty();
        }
        if (named.group(1).equals(model.group(1)) && named.group(2).equals(model.group(2))) {
            return Optional.empty();
        }
        return Optional.of("NCCL " + named.group() + " named in the file: predicted with the NCCL " + modelled.text()
                + " model (collsim carries " + NcclVersion.allowed() + "; --nccl-version)");
    }
}
