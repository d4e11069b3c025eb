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
 * @param trays       for trays of NVLink domains (NVL72), the cluster's size in trays and domains
 *                    ({@code ClusterSpec.sizeText}: {@code 4 trays in 1 NVLink domain (up to 18 trays per domain), 16
 *                    GPUs}), which the variant table prints; null for other hosts
 */
public record ResolvedVariant(VariantSpec spec, Topology topology, CollectivePredictor predictor,
        IntFunction<Topology> withHosts, int gpusPerHost, String trays) {

    /** A variant of hosts that are no trays of a multi-host NVLink domain. */
    public ResolvedVariant(VariantSpec spec, Topology topology, CollectivePredictor predictor,
            IntFunction<Topology> withHosts, int gpusPerHost) {
        this(spec, topology, predictor, withHosts, gpusPerHost, null);
    }

    /** @return the variant's name */
    public String name() {
        return spec.name();
    }
}
