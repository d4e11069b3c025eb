package dev.collsim.simulator.schedule;

import java.util.AbstractList;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * An immutable list of steps made on demand from their index, so a schedule whose transfers grow as
 * {@code nRanks^2} (direct AllToAll) keeps only one step in memory at a time. Each {@link #get(int)} builds the
 * step afresh; the generator must be a pure function of the index, and every step it makes has repeat 1 (checked on
 * {@link #get(int)}), so the schedule's step count is known without generating a step ({@link Schedule#stepCount()}).
 */
public final class GeneratedSteps extends AbstractList<Step> {

    private final int size;
    private final IntFunction<Step> generator;

    /**
     * @param size      number of steps, {@code >= 0}
     * @param generator pure function from step index to step
     * @throws IllegalArgumentException when {@code size < 0}
     */
    public GeneratedSteps(int size, IntFunction<Step> generator) {
        if (size < 0) {
            throw new IllegalArgumentException("size must be >= 0, got " + size);
        }
        this.size = size;
        this.generator = Objects.requireNonNull(generator, "generator");
    }

    @Override
    public Step get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("step " + index + " of " + size);
        }
        Step step = generator.apply(index);
        if (step.repeat() != 1) {
            throw new IllegalStateException("generated step " + index + " has repeat " + step.repeat() + ", not 1");
        }
        return step;
    }

    @Override
    public int size() {
        return size;
    }
}
