package dev.collsim.cli;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.topology.catalog.OwnNvlinkDomain;
import dev.collsim.topology.catalog.SystemHost;
import dev.collsim.topology.fabric.ClusterLimits;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricWarnings;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.topology.io.ClusterSource;
import dev.collsim.topology.io.HardwareHints;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The one {@code -c/--cluster} option of every command that needs a cluster (a picocli mixin: add
 * {@code @Mixin ClusterOption cluster;} to a command), with the hardware hints a machine file may need. The value is
 * resolved by {@link ClusterLoader#resolve}: a file path (YAML cluster spec, nvidia-smi topo -m text or NCCL topology
 * XML, detected by content), a shipped config name (e.g. {@code dgx-h100-32x-rail}), a catalog host type name (e.g.
 * {@code dgx-h100}) or N hosts of one ({@code dgx-h100x2}, {@code dgx-h100:2}); without {@code -c} the built-in
 * {@code default} cluster (compare and calibrate instead build the cluster from each measurement file). The resolved
 * cluster is kept, so a command resolves it once. The reader's warnings ({@link Topology#warnings()}) are printed on
 * the command's stderr when the cluster is resolved, one {@code collsim: warning: } line each.
 */
public final class ClusterOption {

    @Mixin
    private HardwareHintsOptions hardware = new HardwareHintsOptions();

    @Option(names = {"-c", "--cluster"}, paramLabel = "CLUSTER",
            description = "Cluster: a file (YAML, nvidia-smi topo -m text or NCCL topology XML), a config name"
                    + " shipped in configs/, a catalog host type, or N hosts of one as NAMExN or NAME:N (dgx-h100x2,"
                    + " dgx-h100:2; rail-optimized fabric); for a rack-scale type N counts racks (gb300-nvl72x2: 2"
                    + " racks, 36 trays); FILE:N is N copies of a machine file's host on that fabric"
                    + " (machine.txt:2). Default: " + ClusterLoader.DEFAULT + " (compare,"
                    + " calibrate: built from what each measurement file reveals; diagnose: none). predict also reads nccl-tests'"
                    + " data check, -c followed by a bare number (-c 1), next to a -c CLUSTER.")
    private List<String> clusters = new ArrayList<>();

    @Spec(Spec.Target.MIXEE)
    private CommandSpec mixee;

    @Option(names = "--network", paramLabel = "CLASS",
            description = "Network transport between the hosts: infiniband (default), roce, efa (AWS EFA,"
                    + " aws-ofi-nccl), tcpx (GCP GPUDirect-TCPX), tcpxo (GCP GPUDirect-TCPXO),"
                    + " socket (NCCL's TCP sockets) or slingshot (HPE Slingshot, aws-ofi-nccl on libfabric's CXI"
                    + " provider); sets the per-send cost, added latency per network hop and NIC derating of"
                    + " PerformanceParameters.netClasses.")
    private String network;

    @Option(names = "--trays-per-domain", paramLabel = "N",
            description = "Trays of a rack-scale host type (NVL72: 18 trays of 4 GPUs per rack) per NVLink domain,"
                    + " 1 to 18: 1 puts every tray in an NVLink domain of its own (trays of different racks, joined"
                    + " only by their NICs), so NCCL sees one node per tray. Default: the rack's 18. As a YAML"
                    + " cluster's traysPerDomain.")
    private Integer traysPerDomain;

    private ClusterSource resolved;

    /**
     * nccl-tests' {@code -c N} is its data check (number of check iterations, {@code src/common.cu}); a pasted
     * nccl-tests command line gives a bare number, possibly next to a {@code -c CLUSTER}. Every {@code -c} value of
     * only digits that is not a file is taken out of the cluster values.
     *
     * @return true when such a check flag was taken out
     */
    public boolean dropNcclTestsCheck() {
        int before = clusters.size();
        if (resolved == null) {
            clusters.removeIf(v -> v.matches("[0-9]+") && !Files.exists(Path.of(v)));
        }
        return clusters.size() < before;
    }

    /** @return true when the user gave {@code -c} */
    public boolean given() {
        return !clusters.isEmpty();
    }

    /**
     * @return what the user passed (or {@code default})
     * @throws UserError (usage) when {@code -c} names two clusters
     */
    public String value() {
        if (clusters.size() > 1) {
            throw new UserError("-c/--cluster names " + clusters.size() + " clusters (" + String.join(", ", clusters)
                    + "); give one (only 'collsim predict' also reads nccl-tests' data check, -c with a bare number)",
                    ExitCodes.USAGE);
        }
        return clusters.isEmpty() ? ClusterLoader.DEFAULT : clusters.get(0);
    }

    /**
     * Resolves the cluster (once; later calls return the same source).
     *
     * @return the cluster with its spec and origin
     * @throws InputException when the cluster cannot be resolved or its description has problems (exit code 3)
     * @throws UserError      (exit code 2) when hardware hints are given for a cluster that is not a file
     */
    public ClusterSource source() throws InputException {
        if (resolved == null) {
            HardwareHints hints = hardware.hints();
            ClusterSource s = ClusterLoader.resolve(value(), hints, null);
            if (!hints.equals(HardwareHints.NONE) && s.origin() != ClusterSource.Origin.FILE) {
                // the hints fill in facts a machine file lacks; a config or catalog cluster has them all, so they
                // would be silently ignored
                throw new UserError("--gpu-model, --gpu-sm, --nic-speed, --pcie-gen, --nvlink, --cpu-vendor and"
                        + " --cpu-model only fill in facts a machine file (nvidia-smi topo -m text, NCCL topology XML) lacks; -c " + value()
                        + " is a config or catalog cluster, which has them. For a NIC-speed what-if use "
                        + nicSpeedWhatIf(), ExitCodes.USAGE);
            }
            resolved = withNetwork(withTrays(s));
            if (mixee != null) {
                s.topology().warnings().forEach(w -> mixee.commandLine().getErr().println("collsim: warning: " + w));
                oneNodeWarning(resolved).ifPresent(w -> mixee.commandLine().getErr().println("collsim: warning: " + w));
                fabricWarnings(resolved).forEach(w -> mixee.commandLine().getErr().println("collsim: warning: " + w));
                mixee.commandLine().getErr().flush();
            }
        }
        return resolved;
    }

    /**
     * @return how this command answers a NIC-speed what-if on a catalog cluster: {@code --backend flow --link-speed}
     *         where the command has those options (predict), and a report variant's {@code nic-speed} always
     */
    private String nicSpeedWhatIf() {
        String variant = "a report variant's nic-speed (collsim report SPEC.yaml; docs/report.md)";
        return mixee != null && mixee.findOption("--link-speed") != null && mixee.findOption("--backend") != null
                ? "--backend flow --fabric KIND --link-speed BW, or " + variant : variant;
    }

    /**
     * The warning that {@code --network} changes nothing: NCCL runs one host, or the trays of one NVLink domain (an NVL72
     * rack, or a --trays-per-domain domain), as one node, so no traffic crosses the network.
     *
     * @param s the resolved cluster
     * @return the warning, empty without --network or on several NCCL nodes
     */
    private Optional<String> oneNodeWarning(ClusterSource s) {
        if (network == null) {
            return Optional.empty();
        }
        int hosts = s.topology().hostCount();
        if (hosts < 2) {
            return Optional.of("--network " + network + " changes nothing on one host (no traffic leaves it); give a"
                    + " cluster of several hosts, e.g. -c NAMEx2");
        }
        ClusterSpec spec = s.spec();
        int perDomain = spec == null ? 1 : Math.max(1, spec.hostType().hostsPerNvlinkDomain());
        if (spec == null || perDomain < 2 || spec.count() > perDomain) {
            return Optional.empty();
        }
        return Optional.of("--network " + network + " changes nothing in one NVLink domain (NCCL runs its " + hosts
                + " trays as one node: no traffic leaves it); give several domains, e.g. -c NAMEx2 or"
                + " --trays-per-domain");
    }

    /** @return the cluster with {@code --trays-per-domain} trays in each NVLink domain, when given */
    private ClusterSource withTrays(ClusterSource s) throws InputException {
        if (traysPerDomain == null) {
            return s;
        }
        ClusterSpec spec = s.spec();
        HostType type = spec == null ? null : spec.hostType() instanceof OwnNvlinkDomain o ? o.tray() : spec.hostType();
        if (type == null || type.hostsPerNvlinkDomain() < 2) {
            throw new UserError("--trays-per-domain " + traysPerDomain + ": -c " + value() + " is not built of trays"
                    + " of a multi-host NVLink domain; allowed only with a rack-scale catalog type (an NVL72 type"
                    + " such as gb300-nvl72, a4x-maxgpu-4g-metal) or a YAML cluster of one", ExitCodes.USAGE);
        }
        ClusterSpec split;
        try {
            split = spec.withTraysPerDomain(traysPerDomain);
        } catch (IllegalArgumentException e) {
            throw new UserError("--trays-per-domain: " + e.getMessage(), ExitCodes.USAGE);
        }
        if (split.unjoinedHostsProblem().isPresent()) {
            // a YAML cluster of one rack may leave out its fabric; split into several domains, nothing joins them
            throw new UserError("--trays-per-domain " + traysPerDomain + ": -c " + value() + " has no fabric, so its "
                    + spec.count() + " trays in domains of " + traysPerDomain + " would not be joined; allowed: "
                    + Math.max(1, spec.hostType().hostsPerNvlinkDomain()) + " (one NVLink domain), or a 'fabric:'"
                    + " section in the cluster's YAML", ExitCodes.USAGE);
        }
        Topology t;
        try {
            t = split.build().withNetworkClass(s.topology().networkClass());
        } catch (IllegalArgumentException e) {
            throw new InputException(new InputProblem(value(), 0, 0, "--trays-per-domain", e.getMessage()));
        }
        return new ClusterSource(s.name(), s.origin(), t, split);
    }

    /** @return the cluster with the {@code --network} class, when given */
    private ClusterSource withNetwork(ClusterSource s) {
        if (network == null) {
            return s;
        }
        NetworkClass c = NetworkClass.parse(network);
        if (c == null) {
            throw new UserError("--network: '" + network + "' is not a network class; allowed: "
                    + NetworkClass.allowed(network), ExitCodes.USAGE);
        }
        return new ClusterSource(s.name(), s.origin(), s.topology().withNetworkClass(c), s.spec());
    }

    /**
     * @return for a cloud or vendor system of the catalog's data file ({@code -c p5.48xlarge}, {@code -c
     *         a3-megagpu-8gx4}, or a YAML cluster whose hosts are one), the line {@code System: } with the instance,
     *         its hardware and the provider's page, and with {@code --network} of another class the network in force;
     *         empty for other clusters
     * @throws InputException as {@link #source()}
     */
    public Optional<String> systemLine() throws InputException {
        ClusterSpec s = source().spec();
        HostType type = s == null ? null : OwnNvlinkDomain.trayOf(s.hostType());
        if (!(type instanceof SystemHost h)) {
            return Optional.empty();
        }
        // trays in NVLink domains smaller than their rack: the System line names the cluster's domain, not the rack's
        String described = s.hostType() instanceof OwnNvlinkDomain o ? h.description(o.trays()) : h.description();
        NetworkClass inForce = source().topology().networkClass();
        return Optional.of("System: " + described + (network == null || inForce == h.networkClass() ? ""
                : "; network in force: " + inForce.label() + " (--network " + network + "), not the system's "
                        + h.networkClass().label()));
    }

    /**
     * @param topo the cluster's topology (as built from {@link #source()})
     * @return its size in words ({@link ClusterSpec#sizeText()}: {@code 2 hosts, 16 GPUs}; trays of NVLink domains
     *         name the domains: {@code 36 trays in 2 NVLink domains (up to 18 trays per domain), 144 GPUs}); a
     *         cluster read from a machine file: its hosts and GPUs
     */
    public String sizeText(Topology topo) {
        ClusterSpec s = resolved == null ? null : resolved.spec();
        if (s != null && s.count() == topo.hostCount()) {
            return s.sizeText();
        }
        int hosts = topo.hostCount();
        return hosts + (hosts == 1 ? " host, " : " hosts, ") + topo.gpus().size() + " GPUs";
    }

    /**
     * @return true when the resolved cluster's hosts are trays of a rack-scale NVLink domain type (NVL72,
     *         {@link ClusterSpec#ofTrays()}), so a count of its hosts is said in trays
     */
    public boolean ofTrays() {
        ClusterSpec s = resolved == null ? null : resolved.spec();
        return s != null && s.ofTrays();
    }

    /** @return true when the user gave {@code --network} */
    public boolean networkGiven() {
        return network != null;
    }

    /**
     * For a command that, without {@code -c}, builds each data file's cluster from its header, network class included
     * ({@code compare}, {@code calibrate}, {@code tune -m}): {@code --network} alone would change nothing there, so it
     * is refused rather than ignored.
     *
     * @param command the command's name, for the message
     * @throws UserError (usage) when {@code --network} is given without {@code -c}
     */
    public void requireClusterForNetwork(String command) {
        if (network != null && !given()) {
            throw new UserError("--network " + network + " needs -c CLUSTER in '" + command + "': without -c each"
                    + " file's cluster, its network included, is built from the file (the 'assumed: network class'"
                    + " line); give -c with the cluster to time the files on another network", ExitCodes.USAGE);
        }
    }

    /**
     * The fabric options the cluster's shape makes meaningless ({@link FabricWarnings#of}: a {@code fabric.linkSpeed}
     * above the NICs', an oversubscription no traffic reaches), printed once on stderr by every command that resolves
     * {@code -c} (predict, plan, compare, topo check) and by report for its base cluster.
     *
     * Only a fabric a YAML spec wrote is judged (a file or a shipped config): a catalog {@code NAMExN} gets collsim's
     * own non-blocking fabric, and is not built for it (predict answers {@code dgx-h100x100000} without building
     * its hosts), nor is a cluster past {@link ClusterLimits#hostsProblem the host limit}.
     *
     * @param s a resolved cluster
     * @return the warning lines (no leading "warning:"), empty for a cluster without a YAML spec or fabric
     */
    public static List<String> fabricWarnings(ClusterSource s) {
        boolean written = s.origin() == ClusterSource.Origin.FILE || s.origin() == ClusterSource.Origin.CONFIG;
        return !written || s.spec() == null || s.spec().fabric() == null
                || ClusterLimits.hostsProblem(s.spec().count()) != null ? List.of()
                : FabricWarnings.of(s.spec(), s.topology());
    }

    /**
     * @return the cluster's topology
     * @throws InputException as {@link #source()}
     */
    public Topology load() throws InputException {
        return source().topology();
    }
}
