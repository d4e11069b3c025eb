package dev.collsim.cli.predict;

import java.util.ArrayList;
import java.util.List;

/**
 * The sizes nccl-tests sweeps (nccl-tests 2.19.6 {@code src/common.cu}): from minBytes to maxBytes, multiplying by
 * stepFactor when it is above 1, else adding stepBytes.
 */
final class SizeSweep {

    /** Most points a sweep may have (a guard against -i 1 over gigabytes). */
    static final int MAX_POINTS = 100_000;

    private SizeSweep() {
    }

    /**
     * @param min    first size, bytes, >= 0
     * @param max    last size, bytes, >= min
     * @param factor multiplicative step (used when > 1)
     * @param step   additive step, bytes (used when factor <= 1), >= 1
     * @return the sizes
     * @throws IllegalArgumentException on an empty or too long sweep
     */
    static List<Long> sizes(long min, long max, int factor, long step) {
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("need 0 <= -b (minbytes) <= -e (maxbytes), got " + min + " and " + max);
        }
        if (factor <= 1 && step < 1) {
            throw new IllegalArgumentException("-i (stepbytes) must be >= 1 when -f (stepfactor) is not above 1");
        }
        List<Long> out = new ArrayList<>();
        long s = min;
        while (s <= max) {
            out.add(s);
            if (out.size() > MAX_POINTS) {
                throw new IllegalArgumentException("the sweep has more than " + MAX_POINTS + " sizes; use a larger -i"
                        + " or -f");
            }
            long next = factor > 1 ? (s == 0 ? 1 : s * factor) : s + step;
            if (next <= s) {
                break;
            }
            s = next;
        }
        return out;
    }
}
