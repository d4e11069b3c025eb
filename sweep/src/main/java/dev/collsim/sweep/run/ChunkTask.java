package dev.collsim.sweep.run;

import dev.collsim.sweep.point.PointEvaluator;
import dev.collsim.sweep.point.PointResult;
import dev.collsim.sweep.spec.DesignSpace;
import java.util.ArrayList;
import java.util.List;

/**
 * Computes one chunk of points: points {@code [chunk x size, min((chunk + 1) x size, total))}, from the shipped spec
 * alone (never from what else the task or partition holds), so every chunk gives the same rows wherever it runs.
 * Stateless.
 */
public final class ChunkTask {

    private ChunkTask() {
    }

    /**
     * @param bundle the spec
     * @param chunk  chunk id
     * @param size   points per chunk
     * @return the chunk's points, in point order
     */
    public static List<PointResult> compute(SpecBundle bundle, int chunk, int size) {
        DesignSpace space = bundle.open();
        PointEvaluator evaluator = new PointEvaluator(space);
        long from = (long) chunk * size;
        long to = Math.min(from + size, space.points());
        List<PointResult> out = new ArrayList<>();
        for (long p = from; p < to; p++) {
            out.add(evaluator.evaluate(p));
        }
        return out;
    }

    /** @return the number of chunks of {@code points} points */
    public static int chunks(long points, int size) {
        return (int) ((points + size - 1) / size);
    }
}
