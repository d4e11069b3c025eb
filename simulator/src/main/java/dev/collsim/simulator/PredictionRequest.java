package dev.collsim.simulator;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.List;
import java.util.Objects;

/**
 * One point to predict: a collective of {@code sizeBytes} (nccl-tests' {@code size} column: the total
 * gathered/scattered buffer for AllGather/ReduceScatter) on the given ranks of a topology.
 *
 * @param topology   the cluster
 * @param ranks      the GPUs taking part, in rank order (rank i = ranks.get(i)); at least 1
 * @param collective the collective
 * @param sizeBytes  size in bytes, >= 0
 * @param dataType   element type
 * @param op         reduction operator (ignored for non-reductions)
 * @param ncclSettings NCCL_* settings (e.g. NCCL_ALGO=Ring), parsed once where the user gave them; null means
 *                     NCCL's defaults
 */
public record PredictionRequest(Topology topology, List<Gpu> ranks, Collective collective, long sizeBytes,
        DataType dataType, RedOp op, NcclSettings ncclSettings) {

    /** @throws IllegalArgumentException on no ranks or a negative size */
    public PredictionRequest {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(collective, "collective");
        Objects.requireNonNull(dataType, "dataType");
        op = op == null ? RedOp.SUM : op;
        // the topology's own GPU list is immutable (and, for hosts described once, made on demand: not copied)
        ranks = ranks == topology.gpus() ? ranks : List.copyOf(ranks);
        ncclSettings = ncclSettings == null ? NcclSettings.DEFAULTS : ncclSettings;
        if (ranks.isEmpty()) {
            throw new IllegalArgumentException("a prediction needs at least one rank");
        }
        if (sizeBytes < 0) {
            throw new IllegalArgumentException("sizeBytes must be >= 0, got " + sizeBytes);
        }
    }

    /** @return number of ranks */
    public int nRanks() {
        return ranks.size();
    }
}
