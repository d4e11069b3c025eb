package dev.collsim.cli.predict;

import dev.collsim.simulator.Candidate;
import dev.collsim.simulator.Prediction;
import java.util.List;

/**
 * One output line of {@code collsim predict}: the prediction, the per-rank element count nccl-tests would print,
 * and (with {@code --all-algorithms}) every eligible (algorithm, protocol).
 *
 * @param prediction the prediction
 * @param count      nccl-tests' count column (elements per rank)
 * @param candidates eligible combinations (empty unless asked for)
 * @param linksBusBw the links backend's busBw for the flow backends' {@code links} column, GB/s; NaN for none
 */
record PredictRow(Prediction prediction, long count, List<Candidate> candidates, double linksBusBw) {

    /** A row without a {@code links} column. */
    PredictRow(Prediction prediction, long count, List<Candidate> candidates) {
        this(prediction, count, candidates, Double.NaN);
    }
}
