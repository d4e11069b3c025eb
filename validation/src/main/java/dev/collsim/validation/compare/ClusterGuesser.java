package dev.collsim.validation.compare;

import dev.collsim.hardware.GpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.io.InputException;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.HostType;
import dev.collsim.topology.catalog.OwnNvlinkDomain;
import dev.collsim.topology.catalog.SynthesizedHost;
import dev.collsim.units.Bandwidth;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.HeaderNics;
import dev.collsim.validation.ingest.NcclRelease;
import dev.collsim.validation.ingest.NetworkLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.IntUnaryOperator;

/**
 * Builds a cluster from what a dataset reveals: the GPU model picks a catalog host type, or, when the catalog has
 * none, a host is synthesized from the GPU database ({@link SynthesizedHost}); the rank lines (or header) give hosts
 * and GPUs per host; the hosts are built as {@code -c NAMExN} builds them
 * ({@link ClusterLoader#hosts}: a non-blocking rail-optimized fabric). Everything not read from the file is listed as
 * an assumption.
 */
public final class ClusterGuesser {

    /** Single-host machines with no catalog host type but a shipped cluster config (configs/*.yaml). */
    private static final Map<String, String> CONFIG_BY_GPU = Map.of(
            "A100 PCIe (NVLink bridge pairs)", "azure-nc96ads-a100-v4");

    private ClusterGuesser() {
    }

    private static Optional<ClusterGuess> fromConfig(Dataset d, String config) {
        Topology topo;
        try {
            topo = ClusterLoader.load(config);
        } catch (InputException e) {
            return Optional.empty();
        }
        List<Gpu> g = topo.gpusOf(0);
        if (g.size() < d.nRanks()) {
            return Optional.empty();
        }
        return Optional.of(new ClusterGuess(topo, g.subList(0, d.nRanks()), "config:" + config,
                List.of("cluster config " + config + " from the GPU model '" + d.gpuModel() + "'")));
    }

    /**
     * @param d the dataset
     * @return the guessed cluster, or empty with no catalog host for the GPU (the reason is {@link #why})
     */
    public static Optional<ClusterGuess> guess(Dataset d) {
        Optional<GpuModel> gpu = GpuModels.find(d.gpuModel()).or(() -> GpuModels.find(d.header().text("hardware")));
        if (gpu.isPresent() && CONFIG_BY_GPU.containsKey(gpu.get().name()) && d.nHosts() <= 1) {
            return fromConfig(d, CONFIG_BY_GPU.get(gpu.get().name()));
        }
        List<String> assumptions = new ArrayList<>();
        Optional<HostType> named = HeaderSystem.of(d, gpu, assumptions);
        int perHostRun = d.nHosts() > 0 ? (int) Math.ceil(d.nRanks() / (double) d.nHosts()) : 1;
        Optional<HostType> shown = named.isPresent() ? Optional.empty()
                : HeaderSystem.byNetwork(d, gpu, perHostRun, assumptions);
        Optional<HostType> host = named.or(() -> shown).or(() -> gpu.flatMap(Catalog::forGpu));
        if (host.isEmpty()) {
            return gpu.flatMap(g -> synthesized(d, g));
        }
        int hosts = d.nHosts() > 0 ? d.nHosts() : (int) Math.ceil(d.nRanks() / (double) host.get().gpusPerHost());
        Optional<String> apart = hosts > 1 && host.get().hostsPerNvlinkDomain() > 1 ? HeaderNvlDomains.apart(d)
                : Optional.empty();
        HostType type = apart.isPresent() ? new OwnNvlinkDomain(host.get()) : host.get();
        apart.ifPresent(from -> assumptions.add("each host in an NVLink domain of its own (read from " + from + "): "
                + hosts + " NCCL nodes joined by the network"));
        if (named.isEmpty() && shown.isEmpty() && !gpu.get().name().equals("H100 SXM")
                && type.name().equals("dgx-h100")) {
            assumptions.add(gpu.get().name() + " modelled as a DGX H100 host (same NVLink4 count per GPU)");
        }
        if (d.nHosts() == 0) {
            assumptions.add(hosts + " host(s) assumed from " + d.nRanks() + " ranks and " + type.gpusPerHost()
                    + " GPUs per " + type.name() + " host");
        }
        int perHost = (int) Math.ceil(d.nRanks() / (double) hosts);
        if (perHost > type.gpusPerHost()) {
            return Optional.empty();
        }
        int perDomain = HeaderRacks.hostsPerDomain(d, type, hosts, assumptions);
        int built = HeaderRacks.builtHost(hosts - 1, perDomain, type.hostsPerNvlinkDomain()) + 1;
        Topology topo = network(d, LogNics.apply(d, type, built, assumptions)
                .orElseGet(() -> CatalogNics.apply(d, type, built, assumptions)), type, assumptions);
        List<Gpu> ranks = BusNuma.place(d, topo, assumptions).orElseGet(() -> ranks(topo, hosts, perHost, d.nRanks(),
                h -> HeaderRacks.builtHost(h, perDomain, type.hostsPerNvlinkDomain())));
        assumptions.add("host type " + type.name() + (named.isPresent() ? " (named in the file)" : shown.isPresent()
                ? " (the one system of its GPU and network)" : " from the GPU model '" + d.gpuModel() + "'")
                + (hosts > 1 && apart.isEmpty() ? "; hosts joined as -c " + type.name() + "x" + built + " joins them (a"
                + " non-blocking rail-optimized fabric), NICs as in the catalog" : hosts > 1 ? "; hosts joined by a"
                + " non-blocking rail-optimized fabric, NICs as in the catalog" : ""));
        return Optional.of(new ClusterGuess(topo, ranks, "catalog:" + type.name(), assumptions));
    }

    /**
     * The catalog system a data file names ({@link HeaderSystem#of}) or shows by its network and GPU
     * ({@link HeaderSystem#byNetwork}), for diagnose's bound where the file states no NICs.
     *
     * @param d the dataset
     * @return the system's host type and the words saying how it was found, empty when the file shows none
     */
    public static Optional<Map.Entry<HostType, String>> system(Dataset d) {
        Optional<GpuModel> gpu = GpuModels.find(d.gpuModel()).or(() -> GpuModels.find(d.header().text("hardware")));
        List<String> scratch = new ArrayList<>();
        Optional<HostType> named = HeaderSystem.of(d, gpu, scratch);
        if (named.isPresent()) {
            return Optional.of(Map.entry(named.get(), named.get().name() + " (named in the file)"));
        }
        int perHost = d.nHosts() > 0 ? (int) Math.ceil(d.nRanks() / (double) d.nHosts()) : 1;
        return HeaderSystem.byNetwork(d, gpu, perHost, scratch).map(t -> Map.entry(t, t.name() + " (the one catalog"
                + " system of the file's GPU over its network; -c to name another)"));
    }

    private static List<Gpu> ranks(Topology topo, int hosts, int perHost, int nRanks) {
        return ranks(topo, hosts, perHost, nRanks, h -> h);
    }

    /** The first perHost GPUs of each of the run's hosts, the run's host h being the built host {@code place(h)}. */
    private static List<Gpu> ranks(Topology topo, int hosts, int perHost, int nRanks, IntUnaryOperator place) {
        List<Gpu> ranks = new ArrayList<>();
        for (int h = 0; h < hosts && ranks.size() < nRanks; h++) {
            List<Gpu> g = topo.gpusOf(place.applyAsInt(h));
            for (int i = 0; i < perHost && ranks.size() < nRanks; i++) {
                ranks.add(g.get(i));
            }
        }
        return ranks;
    }

    /**
     * Hosts synthesized from the GPU model when the catalog has no host type for it ({@link SynthesizedHost}): GPUs
     * per host from the rank lines or header (else all ranks on one host, at most 8), NIC speed from the header's
     * interconnect text (else {@link HeaderNics#ASSUMED_GBITS}); on several hosts, the NICs on a NUMA node of their
     * own when the header says the GPUs sit on other NUMA nodes than the NIC ({@link HeaderPcie#nicNuma}).
     */
    private static Optional<ClusterGuess> synthesized(Dataset d, GpuModel gpu) {
        List<String> assumptions = new ArrayList<>();
        int hosts = d.nHosts() > 0 ? d.nHosts() : (int) Math.ceil(d.nRanks() / 8.0);
        if (d.nHosts() == 0) {
            assumptions.add(hosts + " host(s) assumed from " + d.nRanks() + " ranks (no host count in the file; at most"
                    + " 8 GPUs per synthesized host)");
        }
        int perHost = (int) Math.ceil(d.nRanks() / (double) hosts);
        OptionalDouble logged = d.log().net().nicGbits();
        OptionalDouble read = logged.isPresent() ? logged
                : HeaderNics.gbits(d.header().text("interconnect") + " " + d.header().text("hardware"));
        double gbits = read.orElse(HeaderNics.ASSUMED_GBITS);
        GpuModels.Sku sku = GpuModels.sku(gpu.name()).orElseThrow();
        if (sku.model().hasNvlink() && HeaderPcie.noNvlinkBridge(d)) {
            sku = new GpuModels.Sku(sku.model().withoutNvlink(), sku.variant());
            assumptions.add("no NVLink bridge between the GPUs, read from the header");
        }
        SynthesizedHost.NicNuma numa = hosts > 1 ? HeaderPcie.nicNuma(d, perHost).orElse(null) : null;
        boolean nicOnCpu = hosts > 1 && numa == null && loggedGpuNicPath(d).orElse(PathType.PIX) == PathType.PHB;
        SynthesizedHost type = new SynthesizedHost(sku, perHost,
                Bandwidth.ofGbits(gbits), HeaderPcie.gpusPerSwitch(d, perHost), numa, nicOnCpu);
        assumptions.addAll(type.assumptions(hosts));
        if (hosts > 1) {
            String from = logged.isPresent() ? "read from the NCCL INFO log"
                    : read.isPresent() ? "read from the header" : "assumed (no speed in the header)";
            assumptions.add("NIC speed " + Math.round(gbits) + " Gb/s " + from
                    + "; hosts joined by a non-blocking rail-optimized fabric");
        }
        Topology topo = network(d, build(type, hosts), type, assumptions);
        return Optional.of(new ClusterGuess(topo, ranks(topo, hosts, perHost, d.nRanks()), "synthesized:"
                + type.name(), assumptions));
    }

    /**
     * The GPU-NIC path type a run's NCCL INFO log prints on its GPU Direct RDMA line ({@code (distance 6 > 4)}), read
     * with the run's release ({@link NcclRelease#pathType}). Taken from an Enabled line, or a Disabled one whose level
     * is PXB or farther: NCCL routes a path it refuses GDR through the CPU before connecting (NCCL 2.16.5
     * {@code src/graph/paths.cc ncclTopoComputePaths}, {@code addInterStep} when {@code ncclTopoCheckGdr} says no), so
     * under a level below PXB a PIX path may print as PHB; at PXB or farther a refused path was already beyond PXB.
     *
     * @param d the dataset
     * @return the type; empty when the log prints no distance, the release is unknown, or the line is not conclusive
     */
    static Optional<PathType> loggedGpuNicPath(Dataset d) {
        NetworkLog.GdrDistance g = d.log().net().gdrDistance();
        NcclRelease r = d.ncclRelease();
        Optional<PathType> level = r.pathType(g.level());
        if (!d.log().net().gdr().on() && level.map(l -> l.ordinal() < PathType.PXB.ordinal()).orElse(true)) {
            return Optional.empty();
        }
        return r.pathType(g.distance());
    }

    /**
     * The network transport between the hosts, as the file names it ({@link HeaderNetworkClass}), else the host type's
     * (a cloud instance's own transport; InfiniBand, the model's reference class, for the others); one host has no
     * network.
     */
    private static Topology network(Dataset d, Topology topo, HostType type, List<String> assumptions) {
        if (topo.hostCount() < 2) {
            return topo;
        }
        Optional<HeaderNetworkClass> read = HeaderNetworkClass.of(d);
        NetworkClass c = read.map(HeaderNetworkClass::networkClass).orElse(type.networkClass());
        boolean own = type.networkClass() != NetworkClass.INFINIBAND;
        assumptions.add("network class " + c.yamlName() + " (" + c.label() + ") " + read.map(r -> "read from "
                + r.from()).orElse(own ? "of the host type " + type.name() : "assumed (the file names no transport)"));
        return topo.withNetworkClass(c);
    }

    /** @return why {@link #guess} found nothing for this dataset */
    public static String why(Dataset d) {
        Optional<GpuModel> gpu = GpuModels.find(d.gpuModel()).or(() -> GpuModels.find(d.header().text("hardware")));
        int hosts = Math.max(1, (d.nRanks() + 7) / 8);
        String example = " (a catalog type with a host count, a shipped config or a machine file, e.g. -c dgx-h100:"
                + hosts + " for " + d.nRanks() + " ranks on " + hosts + " 8-GPU DGX H100 host" + (hosts > 1 ? "s" : "")
                + ")";
        if (gpu.isEmpty() && (d.gpuModel() == null || d.gpuModel().isBlank())) {
            return "the file names no GPU model (no nccl-tests '#  Rank  0 ... device  0 [...] NVIDIA ...' lines),"
                    + " so the cluster it ran on is unknown; give it with -c" + example;
        }
        return gpu.map(g -> "no catalog host type or shipped config for " + g.name() + "; give the cluster with -c")
                .orElse("GPU model '" + d.gpuModel() + "' not recognised; give the cluster with -c" + example);
    }

    /** N hosts of a catalog type as {@code -c NAMExN} builds them (one loader for every cluster). */
    private static Topology build(HostType type, int hosts) {
        try {
            return ClusterLoader.hosts(type, hosts).topology();
        } catch (InputException e) {
            throw new IllegalStateException("host type " + type.name() + " must build", e);
        }
    }
}
