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
 * @param latencyUs fixed time every copy of the step waits before its transfers start, microseconds, {@code >= 0}:
 *                  a kernel's per-iteration synchronisation that moves no data (NCCL's NVLS loop,
 *                  {@code perf.NvlsLoop}); backends add it to each transfer's route latency
 */
public record Step(String label, List<Transfer> transfers, long repeat, double latencyUs) {

    /** A step with no fixed latency of its own. */
    public Step(String label, List<Transfer> transfers, long repeat) {
        this(label, transfers, repeat, 0);
    }

    /** @throws IllegalArgumentException when {@code repeat < 1} or the latency is negative, infinite or NaN */
    public Step {
        Objects.requireNonNull(label, "label");
        transfers = List.copyOf(transfers);
        if (repeat < 1) {
            throw new IllegalArgumentException("step '" + label + "': repeat must be >= 1, got " + repeat);
        }
        if (!(latencyUs >= 0) || Double.isInfinite(latencyUs)) {
            throw new IllegalArgumentException("step '" + label + "': latencyUs must be finite and >= 0, got "
                    + latencyUs);
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
