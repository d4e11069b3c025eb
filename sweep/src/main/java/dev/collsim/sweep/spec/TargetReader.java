package dev.collsim.sweep.spec;

import dev.collsim.io.yaml.YamlNode;
import dev.collsim.reports.spec.PlanSpec;
import dev.collsim.units.Bandwidth;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads the spec's {@code targets:}, plus one target per plan that gives {@code target-tokens-per-s}:
 * <pre>
 * targets:
 *   - name: 70B at 1M tokens/s     # required
 *     workload: 70B tp8 dp16       # a plan's name or a collective workload (e.g. allreduce 1G); default: every
 *                                  # workload the bounds apply to
 *     tokens-per-s: 1e6            # plans: at least
 *     step-ms: 900                 # plans: at most
 *     time-us: 5000                # collectives: at most
 *     busbw: 300 GB/s              # collectives: at least
 * </pre>
 * Stateless.
 */
final class TargetReader {

    static final List<String> KEYS = List.of("name", "workload", "tokens-per-s", "step-ms", "time-us", "busbw");

    private TargetReader() {
    }

    /** @return the targets (problems recorded in {@code at}) */
    static List<Target> read(Located at, YamlNode root, List<Workload> workloads) {
        List<Target> out = new ArrayList<>();
        for (Workload w : workloads) {
            PlanSpec p = w.plan();
            if (p != null && !Double.isNaN(p.targetTokensPerS())) {
                out.add(new Target(String.format(Locale.ROOT, "%s at %.6g tokens/s", p.name(), p.targetTokensPerS()),
                        w.name(), p.targetTokensPerS(), Double.NaN, Double.NaN, Double.NaN));
            }
        }
        YamlNode list = root.get("targets");
        if (list == null) {
            return out;
        }
        if (!list.isList()) {
            at.add(list, "expected a list (items starting with '- '); found " + list.found());
            return out;
        }
        for (YamlNode t : list.items()) {
            if (!at.mapping(t, KEYS)) {
                continue;
            }
            Target target = target(at, t, workloads);
            if (target != null) {
                out.add(target);
            }
        }
        return out;
    }

    private static Target target(Located at, YamlNode t, List<Workload> workloads) {
        int before = at.problems().size();
        String name = at.text(t, "name");
        if (name == null) {
            at.add(t, "missing 'name'; every target needs a name for the table");
        }
        String workload = at.text(t, "workload");
        Optional<Workload> w = workloads.stream().filter(x -> x.name().equals(workload)).findFirst();
        if (workload != null && w.isEmpty()) {
            at.add(t.get("workload"), "no workload '" + workload + "'; allowed: " + String.join(", ",
                    workloads.stream().map(Workload::name).toList()));
        }
        Target r = new Target(name, workload, number(at, t, "tokens-per-s"), number(at, t, "step-ms"),
                number(at, t, "time-us"), busbw(at, t));
        boolean given = Stream.of("tokens-per-s", "step-ms", "time-us", "busbw").anyMatch(k -> t.get(k) != null);
        if (!r.forPlans() && !r.forCollectives()) {
            // a bound given but not readable is reported at its value above
            if (!given) {
                at.add(t, "no bound: give tokens-per-s or step-ms (plans), time-us or busbw (collectives)");
            }
        } else if (r.forPlans() && r.forCollectives()) {
            at.add(t, "mixes plan bounds (tokens-per-s, step-ms) with collective bounds (time-us, busbw); make two"
                    + " targets");
        } else if (w.isPresent() && w.get().isPlan() != r.forPlans()) {
            at.add(t, "workload '" + workload + "' is a " + w.get().kind() + "; its bounds are "
                    + (w.get().isPlan() ? "tokens-per-s, step-ms" : "time-us, busbw"));
        }
        return at.problems().size() > before ? null : r;
    }

    private static double number(Located at, YamlNode t, String key) {
        String s = at.text(t, key);
        if (s == null) {
            return Double.NaN;
        }
        try {
            double v = Double.parseDouble(s);
            if (v > 0 && Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        at.add(t.get(key), "'" + s + "' is not a number > 0");
        return Double.NaN;
    }

    private static double busbw(Located at, YamlNode t) {
        String s = at.text(t, "busbw");
        if (s == null) {
            return Double.NaN;
        }
        try {
            return Bandwidth.parse(s).gbps();
        } catch (IllegalArgumentException e) {
            at.add(t.get("busbw"), e.getMessage());
            return Double.NaN;
        }
    }
}
