package dev.collsim.reports.spec;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.edit.ClusterEdits;

/**
 * One what-if variant of the base cluster. Immutable.
 *
 * @param name        legend and table name
 * @param edits       cluster changes
 * @param ncclSettings NCCL_* settings, e.g. {@code NCCL_ALGO=Ring}, {@code NCCL_MAX_NCHANNELS=8}, parsed where
 *                     the spec gives them; null means NCCL's defaults
 * @param calibration calibration profile file (resolved against the spec's folder), {@code none} for the bare model, or
 *                    null for the shipped profile of the cluster's class ({@code configs/calibration/auto})
 * @param backend     how its collectives are timed (the spec's top-level backend unless the variant sets its own)
 * @param line        line of the variant in the spec (0 for the base)
 */
public record VariantSpec(String name, ClusterEdits edits, NcclSettings ncclSettings, String calibration,
        BackendSpec backend, int line) {

    /** Null settings are NCCL's defaults; a null backend is {@link BackendSpec#ANALYTICAL}. */
    public VariantSpec {
        ncclSettings = ncclSettings == null ? NcclSettings.DEFAULTS : ncclSettings;
        backend = backend == null ? BackendSpec.ANALYTICAL : backend;
    }
}
