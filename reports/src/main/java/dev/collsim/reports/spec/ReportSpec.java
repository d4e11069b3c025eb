package dev.collsim.reports.spec;

import java.nio.file.Path;
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
}
