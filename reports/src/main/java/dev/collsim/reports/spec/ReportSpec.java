package dev.collsim.reports.spec;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;

/**
 * A what-if report: a base cluster, its variants, and the workloads to predict on each. Immutable.
 *
 * @param file         where the spec came from (for messages)
 * @param folder       folder that relative file names in the spec resolve against
 * @param title        report title
 * @param cluster      base cluster: a name collsim knows or a cluster file
 * @param baseName     display name of the unchanged base
 * @param variants     the variants, the base first
 * @param sweeps       collective sweeps
 * @param plans        training jobs
 * @param algorithmMap sweep whose algorithm choice is mapped over rank counts, or null
 */
public record ReportSpec(String file, Path folder, String title, String cluster, String baseName,
        List<VariantSpec> variants, List<SweepSpec> sweeps, List<PlanSpec> plans, SweepSpec algorithmMap) {

    /** Copies the lists. */
    public ReportSpec {
        variants = List.copyOf(variants);
        sweeps = List.copyOf(sweeps);
        plans = List.copyOf(plans);
    }

    /**
     * The GPUs a variant's communicators span, for the profile class its band comes from (as predict and tune:
     * {@code ProfileClass.ofRanks}, the class of the NCCL nodes the ranks are on): its sweeps' ranks (the widest;
     * each sweep takes the cluster's first {@code gpus} GPUs, so the widest holds the others). Every GPU where a
     * communicator may span the cluster: a spec with plans (their data parallelism and scaling curves follow the
     * variant's GPU count), the base's algorithm map (up to all ranks), or no sweep at all.
     *
     * @param variant the variant
     * @param t       its cluster
     * @return the GPUs; empty for every GPU of the cluster
     */
    public List<Gpu> ranksSpanned(VariantSpec variant, Topology t) {
        boolean base = !variants.isEmpty() && variants.get(0) == variant;
        if (!plans.isEmpty() || sweeps.isEmpty() || base && algorithmMap != null) {
            return List.of();
        }
        return sweeps.stream().map(s -> s.ranks(t)).max(Comparator.comparingInt(List::size)).orElse(List.of());
    }
}
