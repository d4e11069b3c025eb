package dev.collsim.reports.whatif;

import dev.collsim.reports.spec.VariantSpec;
import dev.collsim.simulator.CollectivePredictor;
import dev.collsim.topology.Topology;
import java.util.function.IntFunction;

/**
 * A variant made concrete: its cluster and the predictor configured with its NCCL settings and calibration.
 * Immutable.
 *
 * @param spec        the variant as the spec wrote it
 * @param topology    the cluster
 * @param predictor   the predictor to use for this variant
 * @param withHosts   builds the same cluster with another host count (for scaling curves); may throw
 *                    IllegalArgumentException; called from several threads at once by {@link ReportRunner}, so it
 *                    must be thread-safe, as the predictor must
 * @param gpusPerHost GPUs per host
 */
public record ResolvedVariant(VariantSpec spec, Topology topology, CollectivePredictor predictor,
        IntFunction<Topology> withHosts, int gpusPerHost) {

    /** @return the variant's name */
    public String name() {
        return spec.name();
    }
}
