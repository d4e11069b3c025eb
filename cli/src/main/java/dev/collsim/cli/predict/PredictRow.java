package dev.collsim.cli.predict;

import dev.collsim.simulator.Candidate;
import dev.collsim.simulator.Prediction;
import java.util.List;

/**
 * One output line of {@code collsim predict}: the prediction, the per-rank element count nccl-tests would print,
 * (with {@code --all-algorithms}) every eligible (algorithm, protocol), and the type, redop and root columns of its
 * sweep ({@link PredictGroups}).
 *
 * @param prediction the prediction
 * @param sizeBytes  nccl-tests' size column, bytes: max(send, recv) elements x element size of the requested size's
 *                   geometry ({@link dev.collsim.nccl.CollGeometry#sizeBytes}; -b 7 with float prints 4)
 * @param count      nccl-tests' count column (elements per rank)
 * @param candidates eligible combinations (empty unless asked for)
 * @param linksBusBw the links backend's busBw for the flow backends' {@code links} column, GB/s; NaN for none
 * @param type       the type column (nccl-tests' name, e.g. {@code float})
 * @param redop      the redop column ({@code none} for a collective without a reduction)
 * @param root       the root column (-1 for a collective without a root)
 * @param belowLatency true for a flow or links row whose time is below its {@link LatencyFloor} (NCCL's latency
 *                   and launch, which the flow backends do not charge: a floor no real run beats)
 */
record PredictRow(Prediction prediction, long sizeBytes, long count, List<Candidate> candidates, double linksBusBw, String type,
        String redop, int root, boolean belowLatency) {

    /**
     * @param floorUs the {@link LatencyFloor}, microseconds
     * @return this row, flagged {@link #belowLatency} when its time is below {@code floorUs}
     */
    PredictRow flagBelow(double floorUs) {
        return new PredictRow(prediction, sizeBytes, count, candidates, linksBusBw, type, redop, root,
                prediction.timeUs() < floorUs);
    }
}
