package dev.collsim.reports.spec;

import dev.collsim.io.IoMessages;
import dev.collsim.io.InputException;
import dev.collsim.io.InputLimits;
import dev.collsim.io.yaml.YamlFields;
import dev.collsim.io.yaml.YamlNode;
import dev.collsim.io.yaml.YamlTree;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.SizeSweep;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.reports.plan.JobBuilder;
import dev.collsim.reports.plan.ModelPreset;
import dev.collsim.reports.plan.RankOrder;
import dev.collsim.reports.plan.Recompute;
import dev.collsim.reports.plan.TrainingJob;
import dev.collsim.simulator.network.Multipath;
import dev.collsim.topology.edit.ClusterEdits;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.topology.io.HardwareHints;
import dev.collsim.topology.io.Problems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * Reads a what-if report spec (YAML). Every problem is reported at once with file, line, column, field, what was
 * found and what is allowed. The format, with every key (all optional except where noted):
 * <pre>
 * title: text
 * cluster: default                 # base cluster: a name collsim knows, or a cluster file next to the spec
 * base-name: text                  # legend name of the unchanged base (default "base")
 * backend: analytical              # how every variant is timed: analytical (default) | flow
 * routing: ecmp                    # flow backend: ecmp (default) | spray
 * seed: 0                          # flow backend: ECMP hash seed (default 0)
 * variants:                        # each changes the base; the base itself is always included first
 *   - name: NIC 200 Gb/s           # required
 *     hosts: 4                     # host count (trays for a rack-scale type such as gb300-nvl72)
 *     trays-per-domain: 1          # trays of a rack-scale type per NVLink domain, as --trays-per-domain
 *     host-type: dgx-a100          # catalog host type
 *     nic-speed: 200 Gb/s          # every compute NIC
 *     nics-per-host: 4             # compute NICs (rails) per host
 *     fabric: fat-tree             # single-switch | fat-tree | rail-optimized
 *     oversubscription: 2          # fat-tree leaf down/up ratio, 1 to 64; or "2:1" as in cluster YAML
 *     leaf-radix: 8                # host-facing ports per leaf switch
 *     nvlink: NVLink3              # NVLink2..5 or a bandwidth per GPU and direction, e.g. 300 GB/s
 *     network: roce                # transport between hosts: infiniband | roce | efa | tcpxo | socket
 *     env: {NCCL_ALGO: Ring, NCCL_MAX_NCHANNELS: 8}
 *     calibration: profile.yaml    # a calibration profile (collsim calibrate); none: the bare model; left out:
 *                                  # the shipped profile of the cluster's class (configs/calibration/auto)
 *     backend: flow                # this variant's backend (default: the top-level one); routing, seed likewise
 * sweeps:
 *   - collective: allreduce        # required; nccl-tests names
 *     min: 8                       # sizes as nccl-tests -b/-e (K/M/G = 2^10/2^20/2^30), default 8 and 8G
 *     max: 8G
 *     factor: 2                    # default 2
 *     datatype: float              # default float, as nccl-tests
 *     gpus: 16                     # first N GPUs; default all
 *     measured: results.txt        # nccl-tests output to compare with
 * plans:
 *   - name: 70B tp8                # required
 *     params: 70B                  # required; then any collsim plan option without the leading --
 *     dp: 4                        # default: fill the base cluster, GPUs / (tp x pp x cp), as collsim plan
 *     tp: 8
 *     target-tokens-per-s: 1e6
 *     scaling-max-gpus: 1024       # draw a scaling curve up to this many GPUs
 * algorithm-map: {collective: allreduce, min: 1K, max: 8G}   # choice over sizes x rank counts, base cluster
 * </pre>
 * Stateless.
 */
public final class ReportSpecReader {

    private static final Set<String> TOP = ordered("title", "cluster", "base-name", "backend", "routing", "seed",
            "variants", "sweeps", "plans", "algorithm-map");
    private static final Set<String> SWEEP = ordered("collective", "min", "max", "factor", "datatype", "gpus",
            "measured");
    private static final Set<String> PLAN = ordered("name", "model", "params", "hidden", "layers", "ffn-hidden",
            "swiglu", "moe-ffn-hidden", "first-dense-layers", "grad-reduce-dtype",
            "param-bytes", "act-bytes", "dp", "tp", "pp", "cp", "virtual-stages", "ep", "experts", "topk", "moe-every",
            "capacity-factor", "zero", "fsdp", "sequence-parallel", "seq-len", "micro-batch", "global-batch",
            "step-compute-ms", "mfu", "kernel-efficiency", "compute-precision", "recompute", "overlap", "order", "target-tokens-per-s",
            "scaling-max-gpus");

    private ReportSpecReader() {
    }

    static Set<String> ordered(String... keys) {
        return new LinkedHashSet<>(List.of(keys));
    }

    /**
     * @param key a key the spec's top level does not take
     * @return where a variant key written at the top belongs (the base is the cluster as {@code cluster:} gives it),
     *         else empty
     */
    static String topKeyHint(String key) {
        return VariantReader.KEYS.contains(key) && !key.equals("name") ? " ('" + key + "' changes a variant: write"
                + " it under variants:; the base is the cluster as cluster: names it, so for a base with another "
                + key + " point cluster: at a cluster YAML, e.g. fabric.network for the network (docs/topology.md))"
                : "";
    }

    /** @return {@code value}, or {@code def} when it is null (absent or refused) */
    static <T> T or(T value, T def) {
        return value == null ? def : value;
    }

    /**
     * @param file    the spec file
     * @return the spec
     * @throws InputException listing every problem
     */
    public static ReportSpec read(Path file) throws InputException {
        String text = InputLimits.readText(file, file.toString());
        Path folder = file.toAbsolutePath().getParent();
        return read(file.toString(), text, folder);
    }

    /**
     * @param fileName name to cite in problems
     * @param content  the YAML text
     * @param folder   folder that relative file names resolve against
     * @return the spec
     * @throws InputException listing every problem
     */
    public static ReportSpec read(String fileName, String content, Path folder) throws InputException {
        Problems problems = new Problems(fileName);
        NotASpec.of(fileName, content).ifPresent(problems::add);
        problems.throwIfAny();
        YamlFields f = new YamlFields(fileName, problems::add);
        YamlNode root = YamlTree.parse(fileName, content, problems::add);
        if (!root.isMap()) {
            f.mapping(root, TOP);
            problems.throwIfAny();
        }
        f.checkKeys(root, TOP, ReportSpecReader::topKeyHint);
        String title = or(f.text(root, "title", false), "collsim what-if report");
        String cluster = or(f.text(root, "cluster", false), "default");
        String baseName = or(f.text(root, "base-name", false), "base");
        BackendSpec top = backend(f, root, BackendSpec.ANALYTICAL);
        List<VariantSpec> variants = new ArrayList<>();
        variants.add(new VariantSpec(baseName, ClusterEdits.NONE, NcclSettings.DEFAULTS, null, top, 0));
        Set<String> names = new HashSet<>();
        names.add(baseName);
        for (YamlNode v : f.list(root, "variants")) {
            VariantSpec spec = VariantReader.variant(f, v, folder, top);
            if (spec != null && !names.add(spec.name())) {
                f.add(v, "duplicate variant name '" + spec.name() + "'; names must be unique (the base is '"
                        + baseName + "')");
            } else if (spec != null) {
                variants.add(spec);
            }
        }
        List<SweepSpec> sweeps = new ArrayList<>();
        for (YamlNode s : f.list(root, "sweeps")) {
            SweepSpec spec = sweep(f, s, folder);
            if (spec != null) {
                sweeps.add(spec);
            }
        }
        List<PlanSpec> plans = new ArrayList<>();
        int[] gpus = {-1}; // resolved once, and only when a plan leaves out dp
        IntSupplier baseGpus = () -> gpus[0] >= 0 ? gpus[0] : (gpus[0] = baseGpus(cluster, folder));
        for (YamlNode p : f.list(root, "plans")) {
            PlanSpec spec = plan(f, problems, p, baseGpus);
            if (spec != null) {
                plans.add(spec);
            }
        }
        if (!top.flow() && variants.stream().noneMatch(v -> v.backend().flow())) {
            flowOnly(f, root, "the report");
        }
        SweepSpec map = root.get("algorithm-map") != null ? sweep(f, root.get("algorithm-map"), folder)
                : null;
        if (sweeps.isEmpty() && plans.isEmpty() && problems.isEmpty()) {
            f.add(root, "nothing to predict: give at least one entry under 'sweeps' or 'plans'");
        }
        problems.throwIfAny();
        return new ReportSpec(fileName, folder, title, cluster, baseName, variants, sweeps, plans, map);
    }

    /**
     * Reads {@code backend}, {@code routing} and {@code seed} of a mapping; absent keys keep the inherited values.
     */
    static BackendSpec backend(YamlFields f, YamlNode m, BackendSpec inherited) {
        BackendSpec.Backend b = or(f.value(m, "backend", BackendSpec.Backend::parse), inherited.backend());
        Multipath r = or(f.value(m, "routing", Multipath::parse), inherited.routing());
        int seed = or(f.integer(m, "seed", false, 0, Integer.MAX_VALUE), (int) inherited.seed());
        return new BackendSpec(b, r, seed);
    }

    /** Reports {@code routing} and {@code seed} set where nothing is timed by the flow backend. */
    static void flowOnly(YamlFields f, YamlNode m, String what) {
        for (String key : List.of("routing", "seed")) {
            YamlNode n = m.get(key);
            if (n != null) {
                f.add(n, "'" + key + "' applies only to the flow backend, and " + what + " is timed by the"
                        + " analytical one; add 'backend: flow' (allowed backends: " + String.join(", ",
                        BackendSpec.NAMES) + ") or remove '" + key + "'");
            }
        }
    }

    private static SweepSpec sweep(YamlFields f, YamlNode s, Path folder) {
        if (!f.mapping(s, SWEEP)) {
            return null;
        }
        Collective c = f.value(s, "collective", Collective::parse);
        if (s.get("collective") == null) {
            f.add(s, "missing 'collective'; allowed: " + Collective.allowed());
        }
        long min = or(f.value(s, "min", t -> SizeSweep.parseBytes("min", t)), 8L);
        long max = or(f.value(s, "max", t -> SizeSweep.parseBytes("max", t)), 8L << 30);
        int factor = or(f.integer(s, "factor", false, 2, 1024), 2);
        SizeSweep sizes = null;
        try {
            sizes = SizeSweep.geometric(min, max, factor);
        } catch (IllegalArgumentException e) {
            f.add(s, e.getMessage().replace("-b", "min").replace("-e", "max").replace("-f", "factor"));
        }
        DataType dt = or(f.value(s, "datatype", DataType::parse), DataType.FLOAT);
        int gpus = or(f.value(s, "gpus", t -> {
            if (t.equals("all")) {
                return 0;
            }
            try {
                int n = Integer.parseInt(t);
                if (n >= 1) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException("found '" + t + "'; allowed: all, or a whole number >= 1");
        }), 0);
        String measured = f.text(s, "measured", false);
        if (measured != null && !Files.isRegularFile(folder.resolve(measured))) {
            f.add(s.get("measured"), "measurement file '" + measured + "': " + IoMessages.NO_SUCH_FILE + " (looked in "
                    + folder + ")");
        }
        return c == null || sizes == null ? null : new SweepSpec(c, sizes, dt, gpus, measured);
    }

    /**
     * @return the GPUs of the base cluster, which a plan without {@code dp} fills as {@code collsim plan} does; 0 when
     *         the cluster cannot be read (the report then names that problem when it resolves the base)
     */
    private static int baseGpus(String cluster, Path folder) {
        try {
            return ClusterLoader.resolve(cluster, HardwareHints.NONE, folder).topology().gpus().size();
        } catch (InputException | IllegalArgumentException e) {
            return 0;
        }
    }

    private static PlanSpec plan(YamlFields f, Problems problems, YamlNode p, IntSupplier baseGpus) {
        if (!f.mapping(p, PLAN)) {
            return null;
        }
        int before = problems.size();
        String name = f.text(p, "name", false);
        if (name == null) {
            f.add(p, "missing 'name'; every plan needs a name for tables and charts");
        }
        JobBuilder b = new JobBuilder();
        b.model = f.text(p, "model", false);
        b.params = f.text(p, "params", false);
        if (b.params == null && b.model == null) {
            f.add(p, "missing 'params' (parameter count, e.g. 70B) or 'model' (" + ModelPreset.names() + ")");
        }
        b.ffnHidden = or(f.integer(p, "ffn-hidden", false, 1, 1 << 24), b.ffnHidden);
        b.gated = or(f.bool(p, "swiglu"), b.gated);
        b.moeFfnHidden = or(f.integer(p, "moe-ffn-hidden", false, 1, 1 << 24), b.moeFfnHidden);
        b.firstDenseLayers = or(f.integer(p, "first-dense-layers", false, 0, 100_000), b.firstDenseLayers);
        b.hidden = or(f.integer(p, "hidden", false, 1, 1 << 20), b.hidden);
        b.layers = or(f.integer(p, "layers", false, 1, 100_000), b.layers);
        b.gradReduceDtype = or(f.text(p, "grad-reduce-dtype", false), b.gradReduceDtype);
        b.paramBytes = or(f.integer(p, "param-bytes", false, 1, 8), b.paramBytes);
        b.actBytes = or(f.integer(p, "act-bytes", false, 1, 8), b.actBytes);
        b.dp = or(f.integer(p, "dp", false, 1, 1 << 24), b.dp);
        b.tp = or(f.integer(p, "tp", false, 1, 1024), b.tp);
        b.pp = or(f.integer(p, "pp", false, 1, 1024), b.pp);
        b.cp = or(f.integer(p, "cp", false, 1, 1024), b.cp);
        if (p.get("dp") == null) {
            b.dp = b.clusterFillingDp(baseGpus.getAsInt()); // as collsim plan: fill the base cluster
        }
        b.virtualStages = or(f.integer(p, "virtual-stages", false, 1, 1024), b.virtualStages);
        b.ep = or(f.integer(p, "ep", false, 1, 1 << 20), b.ep);
        b.experts = or(f.integer(p, "experts", false, 0, 1 << 20), b.experts);
        b.topk = or(f.integer(p, "topk", false, 1, 1 << 20), b.topk);
        b.moeEvery = or(f.integer(p, "moe-every", false, 1, 1024), b.moeEvery);
        b.capacityFactor = or(f.number(p, "capacity-factor", false, 1, 64), b.capacityFactor);
        b.zero = or(f.integer(p, "zero", false, 0, 3), b.zero);
        b.fsdp = or(f.bool(p, "fsdp"), b.fsdp);
        b.sequenceParallel = or(f.bool(p, "sequence-parallel"), b.sequenceParallel);
        b.seqLen = or(f.integer(p, "seq-len", false, 1, 1 << 24), b.seqLen);
        b.microBatch = or(f.integer(p, "micro-batch", false, 1, 1 << 20), b.microBatch);
        b.globalBatch = or(f.integer(p, "global-batch", false, 1, 1 << 28), b.globalBatch);
        b.stepComputeMs = or(f.number(p, "step-compute-ms", false, 1e-6, 1e9), b.stepComputeMs);
        b.mfu = or(f.number(p, "mfu", false, 1e-6, 1), b.mfu);
        b.kernelEfficiency = or(f.number(p, "kernel-efficiency", false, 1e-6, 1), b.kernelEfficiency);
        b.recompute = or(f.value(p, "recompute", Recompute::parse), b.recompute);
        b.overlap = or(f.number(p, "overlap", false, 0, 1), b.overlap);
        b.computePrecision = or(f.text(p, "compute-precision", false), b.computePrecision);
        RankOrder order = or(f.value(p, "order", RankOrder::parse), RankOrder.TP_PP_DP);
        double target = or(f.number(p, "target-tokens-per-s", false, 1e-9, 1e15), Double.NaN);
        int maxGpus = or(f.integer(p, "scaling-max-gpus", false, 1, 1 << 24), 0);
        if (problems.size() > before || name == null) {
            return null;
        }
        try {
            TrainingJob job = b.build();
            return new PlanSpec(name, job, order, target, maxGpus);
        } catch (IllegalArgumentException e) {
            rule(f, p, e.getMessage().replace("--", ""));
            return null;
        }
    }

    /**
     * Records a rule the job breaks at the key it names first, as the other problems are placed: the planner's
     * messages start with their option ({@code tp 3 must divide ...}, {@code model: 'x' is not a preset}), which is
     * the plan's key; a message about no key of the plan stays at the plan.
     */
    private static void rule(YamlFields f, YamlNode plan, String message) {
        int end = 0;
        while (end < message.length() && message.charAt(end) != ' ' && message.charAt(end) != ':') {
            end++;
        }
        String key = message.substring(0, end);
        YamlNode at = key.isEmpty() ? null : plan.get(key);
        if (at == null) {
            f.add(plan, message);
        } else {
            f.add(at, message.startsWith(key + ": ") ? message.substring(key.length() + 2) : message);
        }
    }
}
