package dev.collsim.simulator;

import dev.collsim.simulator.perf.NvlsLoop;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import java.util.List;
import java.util.Optional;

/** Predicts collective performance. Implementations are pure functions of their input and thread-safe. */
public interface CollectivePredictor {

    /**
     * @return the NCCL release whose rules the predictor models (what the flow backend's schedules follow where
     *         releases differ, e.g. the Tree chunk); {@link NcclVersion#DEFAULT} unless the predictor says otherwise
     */
    default NcclVersion version() {
        return NcclVersion.DEFAULT;
    }

    /**
     * @param request the point
     * @return the prediction
     * @throws IllegalArgumentException on an invalid NCCL setting (the message names the variable and the
     *                                  allowed values) or when no algorithm is eligible
     */
    Prediction predict(PredictionRequest request);

    /**
     * Predicts one of several groups that run the same collective at the same time (e.g. the data-parallel groups
     * of a training step). A predictor that sees the fabric times all groups together, so they share its links;
     * the default times the request's group alone, as {@link #predict} does.
     *
     * @param request the point, for the first group ({@code request.ranks()})
     * @param groups  every group's GPUs in group-rank order, the first equal to {@code request.ranks()}, no GPU
     *                in two groups
     * @return the prediction for one group; with a fabric-aware predictor, the slowest group's time
     * @throws IllegalArgumentException as {@link #predict}, or when the first group is not the request's ranks
     */
    default Prediction predictConcurrent(PredictionRequest request, List<List<Gpu>> groups) {
        return predict(request);
    }

    /**
     * The best busbw the links allow for the request's collective whatever the algorithm or schedule, GB/s: the
     * bound of a schedule the caller forces ({@code --schedule}), which NCCL may not run there (a PAT AllGather
     * with several GPUs per node sends (m-1)/m S over each node's NICs where NCCL's Ring sends (n-1)/n S). The
     * default is the prediction's bound (for the algorithms NCCL can run).
     *
     * @param request the point
     * @return GB/s of bus bandwidth; infinity for one rank
     */
    default double anyScheduleBoundBusBw(PredictionRequest request) {
        return predict(request).physicalBoundBusBw();
    }

    /**
     * NCCL's loop of the predicted call where NCCL runs its NVLS or NVLSTree AllReduce kernel (chunk, heads,
     * per-iteration cost; {@link NvlsLoop#call}), for the flow backend's hierarchical schedule to pipeline in NCCL's
     * chunks. The default knows none (the schedule then uses NCCL_NVLS_CHUNKSIZE's default and charges no
     * per-iteration cost).
     *
     * @param request    the point
     * @param prediction this predictor's prediction of it (its algorithm, protocol and channels)
     * @return the loop, or empty where the call runs no NVLS kernel or the predictor cannot tell
     */
    default Optional<NvlsLoop.Call> nvlsLoop(PredictionRequest request, Prediction prediction) {
        return Optional.empty();
    }

    /**
     * The note {@code collsim predict} prints as its {@code Network:} header line for the request's communicator
     * ({@link PreparedCommunicator#networkNote}: a network class run on another class's figures, NCCL's socket
     * streams and their rate, GPUDirect RDMA off), so every output that times a cluster can say it.
     *
     * @param request the communicator's ranks and NCCL settings (collective and size do not matter)
     * @return the note, empty when there is none or the predictor cannot tell
     */
    default Optional<String> networkNote(PredictionRequest request) {
        return Optional.empty();
    }
}
