package dev.collsim.simulator.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.collsim.nccl.Collective;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Generated steps: counted without being generated; a generated step with a repeat other than 1 is refused. */
class GeneratedStepsTest {

    @Test
    void stepCountGeneratesNoStep() {
        AtomicInteger made = new AtomicInteger();
        GeneratedSteps steps = new GeneratedSteps(2048, i -> {
            made.incrementAndGet();
            return new Step("s" + i, List.of(new Transfer(0, 1, 1, 0)), 1);
        });
        Schedule s = new Schedule("Direct", Collective.ALL_TO_ALL, 2, 1, 2, steps);
        assertEquals(2048, s.stepCount());
        assertEquals(0, made.get());
    }

    @Test
    void aGeneratedStepMustHaveRepeatOne() {
        GeneratedSteps steps = new GeneratedSteps(3, i -> new Step("s" + i, List.of(), 2));
        assertThrows(IllegalStateException.class, () -> steps.get(1));
    }
}
