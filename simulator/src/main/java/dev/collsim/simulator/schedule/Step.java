package dev.collsim.simulator.schedule;

import java.util.List;
import java.util.Objects;

/**
 * A set of transfers that start together; the next step of the same schedule starts when every transfer of this
 * one has arrived (a synchronous step, the usual model of a ring or tree step). {@code repeat} says how many
 * identical copies of the step follow one another: a ring AllReduce on n ranks is one step pattern repeated
 * 2(n-1) times, which keeps a schedule linear in ranks instead of ranks x steps. Backends time one copy and
 * multiply where that is exact (nothing else shares the fabric); see {@code FlowNetwork}.
 *
 * @param label     short description, e.g. {@code ring RS+AG}
 * @param transfers the transfers, copied
 * @param repeat    number of identical consecutive copies, {@code >= 1}
 */
public record Step(String label, List<Transfer> transfers, long repeat) {

    /** @throws IllegalArgumentException when {@code repeat < 1} */
    public Step {
        Objects.requireNonNull(label, "label");
        transfers = List.copyOf(transfers);
        if (repeat < 1) {
            throw new IllegalArgumentException("step '" + label + "': repeat must be >= 1, got " + repeat);
        }
    }

    /** @return bytes of one copy of the step (sum over its transfers) */
    public double bytesPerCopy() {
        double sum = 0;
        for (Transfer t : transfers) {
            sum += t.bytes();
        }
        return sum;
    }
}
