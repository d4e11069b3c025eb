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
 */
record PredictRow(Prediction prediction, long count, List<Candidate> candidates) {
}
