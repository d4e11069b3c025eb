package dev.collsim.reports.whatif;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.simulator.InvalidRequestException;
import dev.collsim.simulator.PredictionRequest;

/**
 * A variant's network note: what {@code collsim predict} prints as its {@code Network:} header line for the same
 * cluster and NCCL settings (a network class timed with another class's figures, such as EFA or sockets on
 * InfiniBand's step and hop figures; NCCL's socket streams and their rate; GPUDirect RDMA off), asked of the variant's
 * predictor for a communicator of every GPU ({@code CollectivePredictor#networkNote}), so the report states the same
 * assumptions predict does. Stateless.
 */
final class VariantNetwork {

    private VariantNetwork() {
    }

    /**
     * @param v the variant
     * @return the note, or {@code ""} when there is none (one host, a class with its own figures) or the simulator
     *         refuses the communicator (its sweeps then say why)
     */
    static String note(ResolvedVariant v) {
        try {
            return v.predictor().networkNote(new PredictionRequest(v.topology(), v.topology().gpus(),
                    Collective.ALL_REDUCE, 1L << 20, DataType.FLOAT, null, v.spec().ncclSettings())).orElse("");
        } catch (InvalidRequestException e) {
            return "";
        }
    }
}
