package dev.collsim.reports.spec;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.SizeSweep;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.util.List;

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

    /**
     * @param t the variant's cluster
     * @return the sweep's ranks on it: its first {@link #gpus} GPUs, or all of them (0, or more than it has)
     */
    public List<Gpu> ranks(Topology t) {
        List<Gpu> all = t.gpus();
        return gpus <= 0 || gpus >= all.size() ? all : all.subList(0, gpus);
    }
}
