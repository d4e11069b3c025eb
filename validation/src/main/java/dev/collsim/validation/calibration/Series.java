package dev.collsim.validation.calibration;

import dev.collsim.validation.compare.PointModel;
import dev.collsim.validation.ingest.Dataset;
import java.util.Objects;

/**
 * One dataset prepared for fitting: its model and the measured times of its usable points, in the same order.
 *
 * @param dataset    the measurement
 * @param model      the prediction model of its points
 * @param measuredUs measured times, microseconds (one per model point)
 * @param sizes      sizes, bytes
 */
public record Series(Dataset dataset, PointModel model, double[] measuredUs, long[] sizes) {

    /** @throws IllegalArgumentException when the arrays and the model disagree in length */
    public Series {
        Objects.requireNonNull(model, "model");
        if (measuredUs.length != model.size() || sizes.length != model.size()) {
            throw new IllegalArgumentException("series " + dataset.id() + ": " + measuredUs.length
                    + " times for " + model.size() + " points");
        }
        measuredUs = measuredUs.clone();
        sizes = sizes.clone();
    }
}
