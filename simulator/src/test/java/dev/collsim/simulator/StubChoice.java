package dev.collsim.simulator;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.network.Multipath;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.List;

/**
 * The flow backend's tests under a stubbed NCCL choice: the analytical predictor replaced by a fixed (algorithm,
 * Simple, channels) whose own time (1 us, 1 GB/s) the flow backend ({@link FlowPredictor.Mode#FLOW}, ECMP, exact
 * completion window) replaces by the schedule's time on the fabric.
 */
final class StubChoice {

    private StubChoice() {
    }

    /**
     * @param algorithm          the algorithm NCCL is taken to choose
     * @param nChannels          its channels
     * @param physicalBoundBusBw the stub's physical bound on the bus bandwidth, GB/s (1e9 B/s)
     * @return the flow backend over that choice
     */
    static FlowPredictor flow(Algorithm algorithm, int nChannels, double physicalBoundBusBw) {
        CollectivePredictor stub = r -> new Prediction(r.collective(), r.sizeBytes(), r.nRanks(), algorithm,
                Protocol.SIMPLE, nChannels, 1, 1, 0, -1, physicalBoundBusBw, "stub");
        return new FlowPredictor(stub, FlowPredictor.Mode.FLOW, Multipath.ECMP, 0);
    }

    /**
     * @param t     the cluster
     * @param ranks its GPUs that run the call
     * @return a 1 GiB (2^30 bytes) float AllReduce on those ranks under NCCL's defaults
     */
    static PredictionRequest allReduce1GiB(Topology t, List<Gpu> ranks) {
        return new PredictionRequest(t, ranks, Collective.ALL_REDUCE, 1L << 30, DataType.FLOAT, null,
                NcclSettings.DEFAULTS);
    }
}
