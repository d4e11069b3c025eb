package dev.collsim.sweep.spec;

import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.VariantSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * A design sweep: the designs (every combination of the grid's values, then the variants the spec lists), the
 * workloads each is timed on, the cost model and the targets. Point {@code p} is design {@code p / workloads} on
 * workload {@code p % workloads}; design {@code d} of the grid has, for axis {@code k}, value
 * {@code (d / (product of the sizes of the axes after k)) % size(k)} (the last axis varies fastest). Everything is
 * computed from the spec alone, so a point has the same number wherever it is computed. Immutable.
 *
 * @param report     the spec's report part: base cluster, backend, listed variants (the base first), sweeps, plans
 * @param axes       the grid's axes, in spec order; empty when the spec has no grid (then the base is the one grid
 *                   design)
 * @param prefix     YAML text of a report spec (cluster and top-level backend) that a design's variant is appended to
 * @param workloads  the workloads
 * @param cost       the cost model
 * @param targets    the targets
 */
public record DesignSpace(ReportSpec report, List<GridAxis> axes, String prefix, List<Workload> workloads,
        CostModel cost, List<Target> targets) {

    /** Copies the lists. */
    public DesignSpace {
        axes = List.copyOf(axes);
        workloads = List.copyOf(workloads);
        targets = List.copyOf(targets);
    }

    /** @return designs of the grid: the product of the axis sizes (1 without a grid: the base) */
    public long gridDesigns() {
        long n = 1;
        for (GridAxis a : axes) {
            n *= a.size();
        }
        return n;
    }

    /** @return every design: the grid's, then the listed variants */
    public long designs() {
        return gridDesigns() + listed().size();
    }

    /** @return every point: designs x workloads */
    public long points() {
        return designs() * workloads.size();
    }

    /** @return the variants the spec lists under {@code variants:} (the base left out) */
    public List<VariantSpec> listed() {
        return report.variants().subList(1, report.variants().size());
    }

    /**
     * @param d a design, 0 <= d < {@link #designs()}
     * @return for each axis the index of its value; empty for a listed variant or a spec without a grid
     */
    public int[] choice(long d) {
        if (d >= gridDesigns() || axes.isEmpty()) {
            return new int[0];
        }
        int[] c = new int[axes.size()];
        long rest = d;
        for (int k = axes.size() - 1; k >= 0; k--) {
            c[k] = (int) (rest % axes.get(k).size());
            rest /= axes.get(k).size();
        }
        return c;
    }

    /**
     * @param d a design
     * @return its value label per axis (empty strings for a listed variant)
     */
    public List<String> axisLabels(long d) {
        int[] c = choice(d);
        List<String> out = new ArrayList<>();
        for (int k = 0; k < axes.size(); k++) {
            out.add(c.length == 0 ? "" : axes.get(k).labels().get(c[k]));
        }
        return out;
    }

    /**
     * @param d a design
     * @return e.g. {@code hosts=8 fabric=fat-tree}, the listed variant's name, or the base's name
     */
    public String label(long d) {
        if (d >= gridDesigns()) {
            return listed().get((int) (d - gridDesigns())).name();
        }
        if (axes.isEmpty()) {
            return report.baseName();
        }
        int[] c = choice(d);
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < axes.size(); k++) {
            b.append(k == 0 ? "" : " ").append(axes.get(k).key()).append('=').append(axes.get(k).labels().get(c[k]));
        }
        return b.toString();
    }

    /**
     * @param d a design of the grid (d < {@link #gridDesigns()}), with at least one axis
     * @return the text of a report spec whose one variant is the design, for the report spec reader
     */
    public String variantYaml(long d) {
        int[] c = choice(d);
        StringBuilder b = new StringBuilder(prefix).append("variants:\n  - name: \"design ").append(d).append("\"\n");
        for (int k = 0; k < axes.size(); k++) {
            b.append("    ").append(axes.get(k).key()).append(": ").append(axes.get(k).yaml().get(c[k])).append('\n');
        }
        return b.append(DesignSpaceReader.PLACEHOLDER_SWEEP).toString();
    }
}
