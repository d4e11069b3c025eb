package dev.collsim.validation.compare;

import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.NcclRelease;
import java.util.Map;
import java.util.Optional;

/**
 * NCCL_TREE_THRESHOLD, the AllReduce algorithm switch of NCCL 2.4, read as the run's NCCL read it. NCCL 2.4 chose the
 * AllReduce pattern by size alone: a tree where {@code nBytes <= comm->treeThreshold}, rings above (NCCL v2.4.8-1
 * {@code src/enqueue.cc getPatternInfo}); the variable sets the threshold in bytes, -2 (the default) lets NCCL work it
 * out from its ring and tree estimates ({@code src/init.cc}: {@code NCCL_PARAM(TreeThreshold, "TREE_THRESHOLD", -2)},
 * {@code ncclTreeThreshold}). So a threshold below 1 byte (0, AWS's EFA guides' setting) puts every AllReduce on
 * rings: collsim models it as {@code NCCL_ALGO=allreduce:ring}. NCCL 2.5 replaced it by NCCL_ALGO and NCCL_PROTO; from
 * v2.5.6-1 (the first 2.5 tag) no source file reads it, so a run with a later NCCL ran as if it were unset. A positive
 * threshold (a tree up to that size, rings above) has no NCCL_ALGO equivalent and stays unmodelled, as does a run whose
 * NCCL release is not known. Stateless.
 */
public final class OlderTreeThreshold {

    /** The variable. */
    static final String NAME = "NCCL_TREE_THRESHOLD";
    /** First NCCL 2 minor release that no longer reads it. */
    private static final int FIRST_WITHOUT = 5;
    /** NCCL 2.4's "work it out" value. */
    private static final long AUTO = -2;

    private OlderTreeThreshold() {
    }

    /**
     * @param d        the dataset (its stated NCCL release decides)
     * @param settings the run's settings; NCCL_TREE_THRESHOLD is taken out of it when this class reads it, and
     *                 {@code NCCL_ALGO=allreduce:ring} is added for a threshold below 1 byte under NCCL 2.4 and older
     * @return the assumption line when the variable was read
     */
    public static Optional<String> apply(Dataset d, Map<String, String> settings) {
        String value = settings.get(NAME);
        NcclRelease r = d.ncclRelease();
        if (value == null || !r.known()) {
            return Optional.empty();
        }
        if (!r.before(FIRST_WITHOUT)) {
            settings.remove(NAME);
            return Optional.of(NAME + "=" + value.strip() + " ignored: NCCL 2.5 and later no longer read it (the run's"
                    + " NCCL " + r + ")");
        }
        long bytes;
        try {
            bytes = Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (bytes >= 1 || bytes == AUTO || settings.containsKey("NCCL_ALGO")) {
            return Optional.empty();
        }
        settings.remove(NAME);
        settings.put("NCCL_ALGO", "allreduce:ring");
        return Optional.of(NAME + "=" + value.strip() + " under NCCL " + r + ": AllReduce on rings at every size (NCCL"
                + " 2.4 runs a tree only up to the threshold), modelled as NCCL_ALGO=allreduce:ring");
    }
}
