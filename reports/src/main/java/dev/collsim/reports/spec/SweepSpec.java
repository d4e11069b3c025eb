package dev.collsim.reports.spec;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.SizeSweep;

/**
 * A collective size sweep, as nccl-tests' {@code -b/-e/-f} ({@link SizeSweep}: the spec's {@code min}, {@code max},
 * {@code factor}). Immutable.
 *
 * @param collective the collective
 * @param sizes      the sizes, bytes (a multiplicative sweep, factor >= 2)
 * @param dataType   element type
 * @param gpus       ranks: the first {@code gpus} GPUs of the cluster, or 0 for all
 * @param measured   nccl-tests output to compare with (resolved against the spec's folder), or null
 */
public record SweepSpec(Collective collective, SizeSweep sizes, DataType dataType, int gpus, String measured) {
}
