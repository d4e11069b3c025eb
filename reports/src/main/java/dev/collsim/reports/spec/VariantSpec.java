package dev.collsim.reports.spec;

import dev.collsim.io.InputProblem;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.edit.ClusterEdits;
import java.util.Map;

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
 * @param places      where each key of the variant sits in the spec (empty for the base)
 * @param path        the variant's field path in the spec as the reader names it in every problem, e.g.
 *                    {@code variants[2]}; {@code cluster} for the base
 * @param column      column where the variant's mapping starts in the spec (0 when unknown)
 */
public record VariantSpec(String name, ClusterEdits edits, NcclSettings ncclSettings, String calibration,
        BackendSpec backend, int line, Map<String, SpecPlace> places, String path, int column) {

    /** Null settings are NCCL's defaults; a null backend is {@link BackendSpec#ANALYTICAL}. */
    public VariantSpec {
        ncclSettings = ncclSettings == null ? NcclSettings.DEFAULTS : ncclSettings;
        backend = backend == null ? BackendSpec.ANALYTICAL : backend;
        places = places == null ? Map.of() : Map.copyOf(places);
        path = path == null ? "cluster" : path;
    }

    /**
     * A variant whose keys' places are not known (built in code, or the base).
     *
     * @param name         legend and table name
     * @param edits        cluster changes
     * @param ncclSettings NCCL_* settings
     * @param calibration  calibration profile file, {@code none}, or null
     * @param backend      how its collectives are timed
     * @param line         line of the variant in the spec (0 for the base)
     */
    public VariantSpec(String name, ClusterEdits edits, NcclSettings ncclSettings, String calibration,
            BackendSpec backend, int line) {
        this(name, edits, ncclSettings, calibration, backend, line, Map.of(), null, 0);
    }

    /**
     * A problem about one key, named as the spec reader names its own problems ({@code variants[2].nics-per-host}).
     *
     * @param file    the spec file
     * @param key     the variant's key the problem is about, e.g. {@code trays-per-domain}
     * @param message what was found and what is allowed
     * @return the problem at the key's value when the spec gives it, else where the variant starts
     */
    public InputProblem problem(String file, String key, String message) {
        SpecPlace p = places.get(key);
        return p == null ? new InputProblem(file, line, column, path + "." + key, message)
                : new InputProblem(file, p.line(), p.column(), path + "." + key, message);
    }

    /**
     * @param file    the spec file
     * @param message what the variant asks that cannot be done
     * @return a problem about the whole variant, at {@link #path} where the variant starts
     */
    public InputProblem problem(String file, String message) {
        return new InputProblem(file, line, column, path, message);
    }
}
