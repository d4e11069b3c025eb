package dev.collsim.sweep.spec;

import dev.collsim.io.InputException;
import dev.collsim.io.InputLimits;
import dev.collsim.io.InputProblem;
import dev.collsim.io.yaml.YamlNode;
import dev.collsim.io.yaml.YamlTree;
import dev.collsim.nccl.SizeSweep;
import dev.collsim.reports.spec.PlanSpec;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import dev.collsim.reports.spec.SweepSpec;
import dev.collsim.units.DataSize;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a design sweep spec (YAML): a what-if report spec ({@link ReportSpecReader}: {@code cluster}, {@code backend},
 * {@code variants}, {@code sweeps}, {@code plans}) plus {@code grid} ({@link GridReader}), {@code cost}
 * ({@link CostReader}) and {@code targets} ({@link TargetReader}). The report part is read by the report's own reader
 * (the sweep's keys blanked out, so lines keep their numbers); {@code algorithm-map} and a plan's
 * {@code scaling-max-gpus} belong to reports and are refused. Every problem is reported at once with file, line,
 * column and field. Stateless.
 */
public final class DesignSpaceReader {

    /** A collective sweep that makes a one-variant report spec readable (the reader wants something to predict). */
    static final String PLACEHOLDER_SWEEP = "sweeps:\n  - {collective: allreduce, min: 8, max: 8}\n";

    /** Most designs a spec may ask for (the point index is designs x workloads). */
    public static final long MAX_DESIGNS = 10_000_000L;

    private static final List<String> SWEEP_KEYS = List.of("grid", "cost", "targets");
    private static final List<String> TOP = List.of("title", "cluster", "base-name", "backend", "routing", "seed",
            "grid", "variants", "sweeps", "plans", "cost", "targets");

    private DesignSpaceReader() {
    }

    /**
     * @param file the spec file
     * @return the design space
     * @throws InputException listing every problem
     */
    public static DesignSpace read(Path file) throws InputException {
        String text = InputLimits.readText(file, file.toString());
        return read(file.toString(), text, file.toAbsolutePath().getParent());
    }

    /**
     * @param fileName name cited in problems
     * @param text     the YAML text
     * @param folder   folder relative file names (cluster file, calibration profiles) resolve against
     * @return the design space
     * @throws InputException listing every problem
     */
    public static DesignSpace read(String fileName, String text, Path folder) throws InputException {
        List<InputProblem> problems = new ArrayList<>();
        Located at = new Located(fileName, problems);
        YamlNode root = YamlTree.parse(fileName, text, problems::add);
        if (!at.mapping(root, TOP)) {
            throw new InputException(problems);
        }
        ReportSpec report = null;
        try {
            report = ReportSpecReader.read(fileName, blank(text, root), folder);
        } catch (InputException e) {
            // unknown top-level keys are reported once, by the check of the sweep's own list of keys above
            problems.addAll(e.problems().stream().filter(p -> !(p.message().startsWith("unknown key")
                    && !p.field().contains("."))).toList());
        }
        String prefix = prefix(root);
        List<GridAxis> axes = GridReader.read(at, root, prefix, folder, report != null);
        CostModel cost = CostReader.read(at, root);
        List<Workload> workloads = report == null ? List.of() : workloads(report);
        if (report != null) {
            scalingRefused(at, root, report);
        }
        List<Target> targets = TargetReader.read(at, root, workloads);
        long designs = axes.stream().mapToLong(GridAxis::size).reduce(1, Math::multiplyExact);
        if (designs > MAX_DESIGNS) {
            at.add(root.get("grid"), "the grid has " + designs + " designs; at most " + MAX_DESIGNS);
        }
        if (!problems.isEmpty() || report == null) {
            List<InputProblem> sorted = new ArrayList<>(problems);
            sorted.sort(Comparator.comparingInt(InputProblem::line).thenComparingInt(InputProblem::column));
            throw new InputException(sorted);
        }
        return new DesignSpace(report, axes, prefix, workloads, cost, targets);
    }

    /** @return the text with the lines of the sweep's own top-level keys emptied (line numbers kept) */
    private static String blank(String text, YamlNode root) {
        String[] lines = text.split("\n", -1);
        List<YamlNode> top = new ArrayList<>(root.fields().values());
        top.sort(Comparator.comparingInt(YamlNode::keyLine));
        for (int k = 0; k < top.size(); k++) {
            if (!SWEEP_KEYS.contains(top.get(k).key())) {
                continue;
            }
            int from = top.get(k).keyLine();
            int to = k + 1 < top.size() ? top.get(k + 1).keyLine() : lines.length + 1;
            for (int line = from; line < to && line <= lines.length; line++) {
                lines[line - 1] = "";
            }
        }
        return String.join("\n", lines);
    }

    /** @return the report spec text a design's variant is appended to: cluster and top-level backend keys */
    private static String prefix(YamlNode root) {
        StringBuilder b = new StringBuilder();
        for (String key : List.of("cluster", "backend", "routing", "seed")) {
            YamlNode n = root.get(key);
            if (n != null && n.isScalar()) {
                b.append(key).append(": ").append(GridReader.flow(n)).append('\n');
            }
        }
        return b.toString();
    }

    /**
     * @return each size of each collective sweep, then each plan; a name used twice gets {@code #2}, {@code #3}
     */
    private static List<Workload> workloads(ReportSpec report) {
        List<Workload> out = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (SweepSpec s : report.sweeps()) {
            for (long size : s.sizes().sizes()) {
                String name = s.collective().ncclName().toLowerCase(Locale.ROOT) + " " + DataSize.format(size)
                        + (s.gpus() > 0 ? " " + s.gpus() + " GPUs" : "");
                SweepSpec one = new SweepSpec(s.collective(), SizeSweep.geometric(size, size, 2), s.dataType(),
                        s.gpus(), null);
                out.add(new Workload(out.size(), unique(seen, name), one, null));
            }
        }
        for (PlanSpec p : report.plans()) {
            out.add(new Workload(out.size(), unique(seen, p.name()), null, p));
        }
        return out;
    }

    private static String unique(Map<String, Integer> seen, String name) {
        int n = seen.merge(name, 1, Integer::sum);
        return n == 1 ? name : name + " #" + n;
    }

    /** A plan's scaling curve is a report's; a sweep varies {@code hosts} in the grid instead. */
    private static void scalingRefused(Located at, YamlNode root, ReportSpec report) {
        List<YamlNode> plans = root.get("plans") == null ? List.of() : root.get("plans").items();
        for (int k = 0; k < report.plans().size() && k < plans.size(); k++) {
            YamlNode n = plans.get(k).get("scaling-max-gpus");
            if (n != null) {
                at.add(n, "a sweep draws no scaling curve; vary 'hosts' under 'grid' instead, or remove"
                        + " 'scaling-max-gpus'");
            }
        }
    }
}
