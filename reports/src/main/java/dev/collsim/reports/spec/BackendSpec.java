package dev.collsim.reports.spec;

import dev.collsim.simulator.network.Multipath;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How a variant's collectives are timed: collsim's analytical model (NCCL's cost model with collsim's corrections;
 * held to the leaf uplinks, blind to link sharing above them), or flow: the slower of that and the contention-aware
 * flow backend (NCCL's choice of algorithm and channels, its schedule simulated on the fabric with max-min fair link
 * sharing;
 * {@code dev.collsim.simulator.FlowPredictor} in mode SLOWER). Immutable.
 *
 * @param backend the backend
 * @param routing flow backend: ECMP hashing or ideal spraying over equal-cost paths between NICs
 * @param seed    flow backend: seed of the ECMP hash, >= 0
 */
public record BackendSpec(Backend backend, Multipath routing, long seed) {

    /** The backends a spec may name. */
    public enum Backend {
        /** collsim's analytical model. */
        ANALYTICAL,
        /** The contention-aware flow simulation. */
        FLOW;

        /** @return the name as specs write it */
        public String yamlName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * @param text a name, case-insensitive
         * @return the backend
         * @throws IllegalArgumentException naming the allowed values
         */
        public static Backend parse(String text) {
            for (Backend b : values()) {
                if (b.yamlName().equals(text.trim().toLowerCase(Locale.ROOT))) {
                    return b;
                }
            }
            throw new IllegalArgumentException("unknown backend '" + text + "'; allowed: " + String.join(", ", NAMES));
        }
    }

    /** The backend names a spec may use. */
    public static final List<String> NAMES = List.of("analytical", "flow");

    /** The default: analytical (routing and seed unused). */
    public static final BackendSpec ANALYTICAL = new BackendSpec(Backend.ANALYTICAL, Multipath.ECMP, 0);

    /** @throws NullPointerException on a null backend or routing */
    public BackendSpec {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(routing, "routing");
    }

    /** @return true for the flow backend */
    public boolean flow() {
        return backend == Backend.FLOW;
    }

    /** @return e.g. {@code analytical}, {@code flow (ecmp, seed 0)}, {@code flow (spray)} */
    public String label() {
        if (!flow()) {
            return "analytical";
        }
        return "flow (" + routing.yamlName() + (routing == Multipath.ECMP ? ", seed " + seed : "") + ")";
    }
}
