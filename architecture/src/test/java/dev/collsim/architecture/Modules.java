package dev.collsim.architecture;

import java.util.List;

/**
 * collsim's Maven modules as the architecture rules see them: the packages each module owns and its facade, the
 * packages other modules may use. This is the one place the facades are listed; change a list here when a module's
 * facade changes.
 *
 * <p>Package names follow ArchUnit's syntax: {@code dev.collsim.simulator} is that package alone,
 * {@code dev.collsim.simulator..} that package and every package below it.
 */
enum Modules {
    /** Graph of devices and links, readers and writers, catalog, the shared run schema and units. */
    TOPOLOGY_MODEL("topology-model",
            List.of("dev.collsim.topology..", "dev.collsim.io..", "dev.collsim.nccl..", "dev.collsim.perf..",
                    "dev.collsim.units..", "dev.collsim.hardware.."),
            List.of("dev.collsim.topology", "dev.collsim.topology.catalog", "dev.collsim.topology.fabric",
                    "dev.collsim.topology.paths", "dev.collsim.topology.edit", "dev.collsim.topology.io",
                    "dev.collsim.topology.io.export", "dev.collsim.io", "dev.collsim.io.yaml", "dev.collsim.hardware", "dev.collsim.nccl", "dev.collsim.nccl.env", "dev.collsim.perf",
                    "dev.collsim.units"),
            List.of("dev.collsim.topology.io.xml.NcclGraphXmlReader", "dev.collsim.topology.io.xml.NcclGraphDump")),
    /** Channels, NCCL's tuning model, the prediction; the facade is the root package and its bounds. */
    SIMULATOR("simulator", List.of("dev.collsim.simulator.."),
            List.of("dev.collsim.simulator", "dev.collsim.simulator.bound"),
            List.of("dev.collsim.simulator.perf.PerformanceParameters", "dev.collsim.simulator.perf.PerfEstimate",
                    "dev.collsim.simulator.tuning.NcclVersion", "dev.collsim.simulator.tuning.GpuGeneration",
                    "dev.collsim.simulator.network.FlowRecord", "dev.collsim.simulator.network.Multipath",
                    "dev.collsim.simulator.network.FabricFailures", "dev.collsim.simulator.network.RankPlacement",
                    "dev.collsim.simulator.network.RoutingOptions", "dev.collsim.simulator.network.Placement",
                    "dev.collsim.simulator.channel.NetPluginLatency")),
    /** NCCL through JavaCPP; the only module that sees org.bytedeco. */
    EXECUTOR("executor", List.of("dev.collsim.executor.."), List.of("dev.collsim.executor")),
    /** Measurement readers, comparison, calibration, diagnosis. */
    VALIDATION("validation", List.of("dev.collsim.validation.."),
            List.of("dev.collsim.validation.calibration", "dev.collsim.validation.compare",
                    "dev.collsim.validation.diagnose", "dev.collsim.validation.ingest",
                    "dev.collsim.validation.tune")),
    /** Charts, what-if reports and capacity plans. */
    REPORTS("reports", List.of("dev.collsim.reports.."),
            List.of("dev.collsim.reports.whatif", "dev.collsim.reports.plan", "dev.collsim.reports.spec"),
            List.of("dev.collsim.reports.cluster.SimulatorResolver", "dev.collsim.reports.io.AtomicFolder",
                    "dev.collsim.reports.io.CsvTable", "dev.collsim.reports.chart.ChartStyle")),
    /** The command line; nothing uses it. */
    CLI("cli", List.of("dev.collsim.cli.."), List.of()),
    /** Design-space sweeps on Apache Spark (its own launcher entry point); nothing uses it. */
    SWEEP("sweep", List.of("dev.collsim.sweep.."), List.of());

    private final String artifact;
    private final List<String> packages;
    private final List<String> facade;
    private final List<String> facadeTypes;

    Modules(String artifact, List<String> packages, List<String> facade) {
        this(artifact, packages, facade, List.of());
    }

    /**
     * @param facadeTypes value types outside the facade packages that other modules may use (fully qualified
     *                    names; their nested types included), e.g. the simulator's PerformanceParameters
     */
    Modules(String artifact, List<String> packages, List<String> facade, List<String> facadeTypes) {
        this.artifact = artifact;
        this.packages = packages;
        this.facade = facade;
        this.facadeTypes = facadeTypes;
    }

    /**
     * @param className a fully qualified class name (nested classes with {@code $})
     * @return whether it is one of the facade types or nested in one
     */
    boolean isFacadeType(String className) {
        return facadeTypes.stream().anyMatch(t -> className.equals(t) || className.startsWith(t + "$"));
    }

    /** @return the module's directory name, e.g. {@code topology-model} */
    String artifact() {
        return artifact;
    }

    /** @return the packages the module owns, in ArchUnit syntax */
    String[] packages() {
        return packages.toArray(String[]::new);
    }

    /** @return the facade packages, in ArchUnit syntax (possibly none) */
    String[] facade() {
        return facade.toArray(String[]::new);
    }
}
