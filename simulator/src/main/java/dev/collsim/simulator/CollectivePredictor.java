package dev.collsim.simulator;

/** Predicts collective performance. Implementations are pure functions of their input and thread-safe. */
public interface CollectivePredictor {

    /**
     * @param request the point
     * @return the prediction
     * @throws IllegalArgumentException on an invalid NCCL setting (the message names the variable and the
     *                                  allowed values) or when no algorithm is eligible
     */
    Prediction predict(PredictionRequest request);
}
