package dev.collsim.validation.compare;

import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.NcclRelease;
import java.util.Optional;

/**
 * Which NCCL release compare models for a dataset, and the line that says so. collsim carries the tuning tables and
 * rules of a few releases ({@link NcclVersion}); a file that states its release ({@link Dataset#ncclRelease}) is
 * modelled with the carried release nearest to it that is not newer ({@link NcclVersion#modelling}): 2.18.5, 2.27.3
 * and 2.29.7 as 2.28.9, 2.30.4 as 2.30.7. A file that states none takes {@link NcclVersion#DEFAULT}. A release the
 * user names ({@code --nccl-version}) wins over the file. Stateless.
 */
public final class HeaderNcclVersion {

    private HeaderNcclVersion() {
    }

    /**
     * @param d     the dataset
     * @param given the release the user named, or empty to follow the file
     * @return the release to model the dataset with
     */
    public static NcclVersion modelled(Dataset d, Optional<NcclVersion> given) {
        NcclRelease stated = d.ncclRelease();
        return given.orElseGet(() -> stated.known() ? NcclVersion.modelling(stated.minor()) : NcclVersion.DEFAULT);
    }

    /**
     * @param d     the dataset
     * @param given the release the user named, or empty to follow the file
     * @return the line naming the release modelled and why, e.g. {@code NCCL 2.28.9 modelled (file states 2.27.3)}
     */
    public static String line(Dataset d, Optional<NcclVersion> given) {
        NcclRelease stated = d.ncclRelease();
        String file = stated.known() ? "file states " + stated : "file states no release";
        String why = given.isPresent() ? "--nccl-version; " + file : stated.known() ? file : file + ": the default";
        return "NCCL " + modelled(d, given).text() + " modelled (" + why + ")";
    }
}
