package dev.collsim.reports.plan;

/**
 * One kind of collective call in a training step: its size and how many times each GPU issues it per step.
 * This record is immutable.
 *
 * @param kind         what it is
 * @param sizeBytes    nccl-tests size of one call in bytes (AllGather: the gathered output; ReduceScatter: the
 *                     input; AllToAll: each rank's send buffer; SendRecv: bytes sent by each rank)
 * @param callsPerStep calls per optimizer step on each GPU of the group, >= 1
 * @param formula      how size and count were derived, in words and symbols (shown in reports)
 */
public record CommOp(CommKind kind, long sizeBytes, long callsPerStep, String formula) {

    /** @throws IllegalArgumentException on a negative size or a count below 1 */
    public CommOp {
        if (sizeBytes < 0 || callsPerStep < 1) {
            throw new IllegalArgumentException(kind + ": size must be >= 0 and calls >= 1, got " + sizeBytes
                    + ", " + callsPerStep);
        }
    }

}
