package dev.collsim.reports.cluster;

import dev.collsim.io.InputException;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.VariantSpec;
import dev.collsim.reports.whatif.ResolvedVariant;
import dev.collsim.reports.whatif.VariantResolver;
import dev.collsim.simulator.CollectivePredictor;
import dev.collsim.simulator.FlowPredictor;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Topology;
import dev.collsim.topology.edit.ClusterEditException;
import dev.collsim.topology.edit.ClusterEditor;
import dev.collsim.topology.edit.ClusterEdits;
import dev.collsim.topology.fabric.ClusterLimits;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricWarnings;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.topology.io.ClusterSource;
import dev.collsim.topology.io.HardwareHints;
import dev.collsim.validation.calibration.ParametersFile;
import dev.collsim.validation.calibration.ProfileClass;
import dev.collsim.validation.calibration.ProfileSelector;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Resolves report variants with the real simulator: the base cluster from {@link ClusterLoader#resolve} (relative
 * files next to the spec), changes applied by {@link ClusterEditor}, NCCL settings as the spec reader parsed them ({@link NcclSettings}), one {@link NcclPredictor}
 * per calibration profile, wrapped for variants whose backend is flow in a {@link FlowPredictor} that takes the slower
 * of that prediction and NCCL's choice simulated on the fabric. Built clusters are cached per (changes, host count), so scaling curves of several
 * variants share them. {@link #resolve} is called from one thread; the variants' {@code withHosts} functions may be
 * called from several at once (the cache is concurrent and builds each cluster once).
 */
public final class SimulatorResolver implements VariantResolver {

    /** {@link #flowNote}'s words. */
    public static final String FLOW_NOTE = "; with backend flow it corrects only the analytical time: the flow time,"
            + " the prediction wherever it is slower, is not calibrated";

    private final Function<String, CollectivePredictor> calibrated;
    private final Map<String, ClusterSource> bases = new HashMap<>();
    private final Map<ClusterEdits, Topology> built = new ConcurrentHashMap<>();
    private final CollectivePredictor plain = new NcclPredictor();
    private final Set<String> selections = new LinkedHashSet<>();
    private final Set<String> fabricWarnings = new LinkedHashSet<>();
    private final Map<String, CollectivePredictor> auto = new HashMap<>();
    private final Map<String, String> autoLabels = new HashMap<>();
    private final String fallback;

    /** A resolver that reads calibration profiles as {@link #profilePredictor} does. */
    public SimulatorResolver() {
        this(SimulatorResolver::profilePredictor, null);
    }

    /**
     * A resolver that reads calibration profiles as {@link #profilePredictor} does, with a calibration for the
     * variants that name none ({@code collsim report --calibration}).
     *
     * @param fallback for variants without {@code calibration}: null for the shipped profile of their cluster's class,
     *                 {@code none} for the bare model, or an absolute path of a profile or parameters file
     * @return the resolver
     */
    public static SimulatorResolver withFallback(String fallback) {
        return new SimulatorResolver(SimulatorResolver::profilePredictor, fallback);
    }

    /**
     * Reads a calibration profile with {@link ParametersFile} (the format {@code collsim predict --params} reads).
     *
     * @param file the profile
     * @return a predictor for the newest NCCL with those parameters
     * @throws IllegalArgumentException naming the file and the first problem when it cannot be read
     */
    public static CollectivePredictor profilePredictor(String file) {
        try {
            return new NcclPredictor(NcclVersion.DEFAULT, ParametersFile.read(Path.of(file)));
        } catch (InputException e) {
            throw new IllegalArgumentException(e.problems().get(0).toString());
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot be read (" + e.getMessage() + ")");
        }
    }

    /**
     * @param calibrated makes a predictor from a calibration profile path (absolute), or null when this build cannot
     *                   read profiles (a variant naming one is then an input error)
     */
    public SimulatorResolver(Function<String, CollectivePredictor> calibrated) {
        this(calibrated, null);
    }

    private SimulatorResolver(Function<String, CollectivePredictor> calibrated, String fallback) {
        this.calibrated = calibrated;
        this.fallback = fallback;
    }

    /**
     * @return one line per variant, {@code VARIANT: calibration: WHAT}, in resolution order: a variant without
     *         {@code calibration} gets the resolver's fallback, by default the profile of its cluster's class
     *         ({@link ProfileSelector}, whose line says when none ships and the bare model is used);
     *         {@code calibration: none} the bare model; a file that file
     */
    public List<String> selections() {
        return List.copyOf(selections);
    }

    /**
     * The fabric options a variant's edits leave meaningless ({@link FabricWarnings#of} on the variant's spec and
     * cluster: an oversubscription no traffic reaches because every NIC sits under one leaf, a base
     * {@code fabric.linkSpeed} above the variant's NICs), the ones the base cluster already has left out (report
     * prints those for the base). A variant past {@link ClusterLimits#hostsProblem the host limit} is not judged.
     *
     * @return one line per warning, {@code variant NAME: WHAT} (no leading "warning:"), in resolution order
     */
    public List<String> fabricWarnings() {
        return List.copyOf(fabricWarnings);
    }

    private void judgeFabric(ClusterSource b, VariantSpec v, ClusterSpec spec, Topology t) {
        if (spec == null || v.edits().isEmpty() || ClusterLimits.hostsProblem(spec.count()) != null
                || ClusterLimits.hostsProblem(b.spec().count()) != null) {
            return;
        }
        List<String> base = FabricWarnings.of(b.spec(), b.topology());
        FabricWarnings.of(spec, t).stream().filter(w -> !base.contains(w))
                .forEach(w -> fabricWarnings.add("variant " + v.name() + ": " + w));
    }

    @Override
    public String calibrationLabel(VariantSpec variant) {
        if (autoLabels.containsKey(variant.name())) {
            return autoLabels.get(variant.name());
        }
        if (variant.calibration() != null) {
            return variant.calibration();
        }
        return fallback != null ? Path.of(fallback).getFileName().toString()
                : autoLabels.getOrDefault(variant.name(), "");
    }

    @Override
    public ResolvedVariant resolve(ReportSpec spec, VariantSpec v) throws InputException {
        ClusterSource base = bases.get(spec.cluster());
        if (base == null) {
            base = ClusterLoader.resolve(spec.cluster(), HardwareHints.NONE, spec.folder());
            bases.put(spec.cluster(), base);
        }
        ClusterSource b = base;
        if (!v.edits().isEmpty() && b.spec() == null) {
            throw new InputException(v.problem(spec.file(), "the base cluster '"
                    + b.name() + "' is a machine file (nvidia-smi topo -m, NCCL XML or InfraGraph), so only 'env' and"
                    + " 'calibration' can vary; 'cluster: " + b.name() + ":1' takes its host as a host type whose"
                    + " hosts, NICs and fabric vary, or describe it as a collsim YAML cluster (a catalog host type or"
                    + " an inline host)"));
        }
        Topology t;
        try {
            t = v.edits().isEmpty() ? b.topology() : cluster(b, v.edits());
        } catch (ClusterEditException e) {
            // at the key that cannot be applied, e.g. a trays-per-domain that does not divide the trays
            throw new InputException(v.problem(spec.file(), e.field().key(), e.detail()));
        } catch (IllegalArgumentException e) {
            throw new InputException(v.problem(spec.file(), e.getMessage()));
        }
        CollectivePredictor predictor = predictor(spec, v, t);
        if (v.backend().flow()) {
            predictor = new FlowPredictor(predictor, FlowPredictor.Mode.SLOWER, v.backend().routing(),
                    v.backend().seed());
        }
        IntFunction<Topology> withHosts = h -> {
            if (b.spec() == null) {
                throw new IllegalArgumentException("scaling needs a base cluster built from a host type (a"
                        + " collsim YAML cluster or a catalog name); '" + b.name() + "' is a machine file read as it"
                        + " is: 'cluster: " + b.name() + ":1' takes its host as one");
            }
            return cluster(b, v.edits().withHosts(h));
        };
        int perHost = v.edits().hostType() == null ? b.gpusPerHost() : t.gpusOf(0).size();
        ClusterSpec built = b.spec() == null ? null : v.edits().isEmpty() ? b.spec()
                : ClusterEditor.spec(b.spec(), v.edits());
        judgeFabric(b, v, built, t);
        return new ResolvedVariant(v, t, predictor, withHosts, perHost,
                built != null && built.ofTrays() ? built.sizeText() : null);
    }

    /** The variant's predictor by its calibration (its own, else the fallback, else its class's shipped profile). */
    private CollectivePredictor predictor(ReportSpec spec, VariantSpec v, Topology t)
            throws InputException {
        String cal = v.calibration() != null ? v.calibration() : fallback;
        if (cal == null) {
            ProfileSelector.Choice choice = ProfileSelector.select(t, spec.ranksSpanned(v, t));
            selections.add(v.name() + ": " + choice.line() + (choice.calibration().isEmpty() ? "" : flowNote(v)));
            String band = choice.band().map(x -> BAND + x.regimes() + (x.wide() ? " (wide)" : "")).orElse("");
            if (choice.calibration().isEmpty()) {
                autoLabels.put(v.name(), "- (bare model" + band + ")");
                return plain;
            }
            autoLabels.put(v.name(), "auto: " + choice.profileClass().key() + ".yaml" + band);
            return auto.computeIfAbsent(choice.profileClass().key(), k -> new NcclPredictor(
                    NcclVersion.DEFAULT, choice.calibration().get().parameters()));
        }
        if ("none".equals(cal)) {
            selections.add(v.name() + ": " + ProfileSelector.NONE_LINE);
            ProfileSelector.bare(ProfileClass.ofRanks(t, spec.ranksSpanned(v, t))).band().ifPresent(x -> autoLabels.put(v.name(), "none" + BAND
                    + x.regimes() + (x.wide() ? " (wide)" : "")));
            return plain;
        }
        if (calibrated == null) {
            throw new InputException(v.problem(spec.file(), "calibration",
                    "this build cannot read calibration profiles yet; remove 'calibration'"));
        }
        String file = v.calibration() != null ? spec.folder().resolve(cal).toString() : cal;
        try {
            CollectivePredictor p = calibrated.apply(file);
            selections.add(v.name() + ": calibration: " + (v.calibration() != null ? cal : file) + flowNote(v));
            return p;
        } catch (IllegalArgumentException e) {
            throw new InputException(v.problem(spec.file(), "calibration", e.getMessage()));
        }
    }

    /**
     * A flow variant is timed as the slower of the calibrated analytical prediction and the flow backend's time
     * ({@link FlowPredictor.Mode#SLOWER}); a profile's parameters correct the analytical time (NCCL's protocol
     * efficiencies, caps, launch, step and latency terms, fitted against that time) and have no counterpart in the
     * flow time, so they do not reach it, as {@code predict --backend flow} says on its {@code Calibration:} line.
     *
     * @param v a variant whose predictor applies a profile
     * @return what its calibration line adds for the flow backend; empty for an analytical variant
     */
    static String flowNote(VariantSpec v) {
        return v.backend().flow() ? FLOW_NOTE : "";
    }

    /**
     * The variant's cluster: the base's network class (a YAML {@code fabric.network}) stays unless the variant sets
     * its own {@code network} or another host type (which brings its own class, e.g. EFA for p5.48xlarge).
     */
    private Topology cluster(ClusterSource b, ClusterEdits edits) {
        return built.computeIfAbsent(edits, e -> {
            Topology t = ClusterEditor.build(b.spec(), e);
            return e.network() == null && e.hostType() == null ? t.withNetworkClass(b.topology().networkClass()) : t;
        });
    }
}
