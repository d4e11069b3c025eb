package dev.collsim.reports.spec;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;

/**
 * A collective size sweep, as nccl-tests' {@code -b/-e/-f}. Immutable.
 *
 * @param collective the collective
 * @param minBytes   first size, bytes
 * @param maxBytes   last size, bytes
 * @param factor     multiplication factor between sizes, >= 2
 * @param dataType   element type
 * @param gpus       ranks: the first {@code gpus} GPUs of the cluster, or 0 for all
 * @param measured   nccl-tests output to compare with (resolved against the spec's folder), or null
 */
public record SweepSpec(Collective collective, long minBytes, long maxBytes, int factor, DataType dataType, int gpus,
        String measured) {
}
