package dev.collsim.cli;

import static dev.collsim.units.DecimalText.fixed;

import dev.collsim.io.InputException;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.GraphDumpComparison;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.topology.fabric.Bisection;
import dev.collsim.topology.io.MissingNvlinks;
import dev.collsim.topology.io.xml.NcclGraphDump;
import dev.collsim.topology.io.xml.NcclGraphXmlReader;
import dev.collsim.topology.paths.DevicePath;
import dev.collsim.topology.paths.HostPaths;
import dev.collsim.topology.paths.PathFinder;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code collsim topo show}: hosts, GPUs per host and model, links by type with counts and bandwidths (physical and
 * NCCL's), NIC bandwidth per GPU, NCCL's GPU-GPU and GPU-NIC paths on the first host, and the fabric's switches and
 * bisection bandwidth; with {@code --graph-dump}, NCCL's dumped graphs beside collsim's search
 * ({@link GraphDumpComparison}).
 */
@Command(name = "show", mixinStandardHelpOptions = true, exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:internal error", "2:usage error (bad option or value)",
            "3:invalid or unreadable cluster (every problem is listed with file, line and column)"},
        description = "Summarize a cluster: hosts, GPUs, links by type, NIC bandwidth per GPU, NCCL paths, bisection.")
public final class TopoShowCommand implements Callable<Integer> {

    @Mixin
    private ClusterOption cluster;

    @Spec
    private CommandSpec spec;

    @Option(names = "--graph-dump", paramLabel = "FILE",
            description = "an NCCL graph XML (NCCL_GRAPH_DUMP_FILE) of a run on this cluster: print its ring, tree,"
                    + " NVLS and CollNet graphs (channels, GB/s per channel inside and between nodes, path types)"
                    + " beside the graphs collsim's search finds, every GPU a rank, NCCL's default settings")
    private Path graphDump;

    @Option(names = "--nccl-version", paramLabel = "V", defaultValue = "2.30",
            description = "with --graph-dump: the NCCL release whose search speeds to use (default: ${DEFAULT-VALUE})")
    private String ncclVersion;

    @Option(names = "--env", paramLabel = "NCCL_X=V", mapFallbackValue = EnvOption.NO_VALUE,
            description = "with --graph-dump: an NCCL variable of that run as it was exported (NCCL_NVLS_ENABLE,"
                    + " NCCL_P2P_LEVEL, NCCL_CROSS_NIC, NCCL_MIN/MAX_NCHANNELS, ...); repeatable")
    private Map<String, String> env = new LinkedHashMap<>();

    @Override
    public Integer call() throws InputException {
        EnvOption.requireValues(env);
        Topology t = cluster.load();
        PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "cluster    %s%n", t.name());
        out.printf(Locale.ROOT, "source     %s%n", t.source());
        cluster.systemLine().map(l -> l.substring("System: ".length())).filter(l -> !t.source().equals(l))
                .ifPresent(l -> out.printf(Locale.ROOT, "system     %s%n", l));
        MissingNvlinks.warning(t).ifPresent(w -> out.printf(Locale.ROOT, "warning    %s%n", w));
        // trays of a rack-scale type (NVL72): the count in trays and the NVLink domains they fill
        // (--trays-per-domain / YAML traysPerDomain), as predict's Cluster line says it
        boolean trays = cluster.ofTrays();
        String host = trays ? "tray" : "host";
        out.printf(Locale.ROOT, "hosts      %s%n", trays ? cluster.sizeText(t) : Integer.toString(t.hostCount()));
        Map<String, Long> kinds = t.gpus().stream().collect(Collectors.groupingBy(
                g -> String.format(Locale.ROOT, "%s (sm%d, %s)", g.model(), g.sm(), memory(g.memoryBytes())),
                TreeMap::new, Collectors.counting()));
        out.printf(Locale.ROOT, "GPUs       %d: %s; %d per %s%n", t.gpus().size(), kinds.entrySet().stream()
                .map(e -> e.getValue() + "x " + e.getKey()).collect(Collectors.joining(", ")), t.gpusOf(0).size(), host);
        nics(t, out, host);
        links(t, out);
        paths(t, out);
        fabric(t, out);
        if (t.hostCount() > 1) {
            out.printf(Locale.ROOT, "network    %s between hosts%n", t.networkClass().label());
        }
        if (graphDump != null) {
            NcclSettings nccl = EnvOption.settings(env);
            nccl.passedOverWarning().ifPresent(w -> spec.commandLine().getErr().println("collsim: warning: --env " + w));
            GraphDumpComparison.print(graphDump, readGraphDump(), t, version(), nccl, out);
        }
        return ExitCodes.OK;
    }

    private NcclGraphDump readGraphDump() throws InputException {
        InputFiles.require(graphDump, "--graph-dump");
        try {
            return new NcclGraphXmlReader().read(graphDump.toString(), Files.readString(graphDump));
        } catch (IOException e) {
            throw InputFiles.failed(graphDump, e, "--graph-dump");
        }
    }

    private NcclVersion version() {
        try {
            return NcclVersion.parse(ncclVersion);
        } catch (IllegalArgumentException e) {
            throw new UserError("--nccl-version: " + e.getMessage(), ExitCodes.USAGE);
        }
    }

    /**
     * @return GPU memory in GiB (2^30 B, the unit plan and report print it in; datasheets' "GB" for memory is GiB):
     *         {@code 80 GiB}, or one decimal when not whole ({@code 140.4 GiB} for nvidia-smi's 143,771 MiB)
     */
    private static String memory(long bytes) {
        if (bytes <= 0) {
            return "memory unknown";
        }
        return bytes % (1L << 30) == 0 ? (bytes >> 30) + " GiB"
                : String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }

    private static void nics(Topology t, PrintWriter out, String host) {
        var hostNics = t.devices(Nic.class).stream().filter(n -> n.host() == 0).toList();
        var compute = hostNics.stream().filter(n -> n.rail() >= 0).toList();
        double gbits = compute.stream().mapToDouble(n -> n.speed().gbits()).sum();
        int gpus = Math.max(1, t.gpusOf(0).size());
        if (compute.isEmpty()) {
            // a workstation or a host without network cards: no "0 compute (), ... 0 Gb/s = 0.0 GB/s" line
            out.printf(Locale.ROOT, "NICs       per %s: none for the network%s%n", host, hostNics.isEmpty() ? ""
                    : " (" + hostNics.size() + " other: storage, management)");
            return;
        }
        Map<String, Long> speeds = compute.stream().collect(Collectors.groupingBy(
                n -> gbitsText(n.speed().gbits()) + " Gb/s", TreeMap::new, Collectors.counting()));
        out.printf(Locale.ROOT, "NICs       per %s: %d compute (%s), %d other; NIC bandwidth per GPU %s Gb/s"
                + " = %.1f GB/s%n", host, compute.size(), speeds.entrySet().stream().map(e -> e.getValue() + "x "
                + e.getKey()).collect(Collectors.joining(", ")), hostNics.size() - compute.size(),
                gbitsText(gbits / gpus), gbits / gpus / 8);
    }

    /**
     * @return Gb/s with up to 2 decimals and no trailing zeros: 2 NICs of 10 Gb/s for 8 GPUs read 2.5, not the 3 that
     *         whole numbers would print (the GB/s figure after it, 0.3, would then contradict it)
     */
    static String gbitsText(double gbits) {
        return new BigDecimal(fixed(gbits, 2)).stripTrailingZeros().toPlainString();
    }

    /** Widest link detail shown in full; longer ones are cut with "..." so the columns stay aligned. */
    private static final int MAX_DETAIL = 48;

    private static String clip(String detail) {
        return detail.length() <= MAX_DETAIL ? detail : detail.substring(0, MAX_DETAIL - 3) + "...";
    }

    private static void links(Topology t, PrintWriter out) {
        Map<String, long[]> rows = new TreeMap<>();
        Map<String, double[]> bw = new LinkedHashMap<>();
        int width = Math.min(MAX_DETAIL, Math.max(26,
                t.graph().edgeSet().stream().mapToInt(l -> l.detail().length()).max().orElse(0)));
        for (Link l : t.graph().edgeSet()) {
            String key = String.format(Locale.ROOT, "%-4s %-" + width + "s", l.type().ncclName(), clip(l.detail()));
            String full = key + String.format(Locale.ROOT, "|%.1f|%.1f", l.bandwidth().gbps(), l.ncclBandwidth().gbps());
            rows.computeIfAbsent(full, k -> new long[1])[0]++;
            bw.put(full, new double[] {l.bandwidth().gbps(), l.ncclBandwidth().gbps()});
        }
        out.println();
        out.println("links (each physical link counted once; bandwidth per direction)");
        out.printf(Locale.ROOT, "  %-4s %-" + width + "s %7s %14s %10s%n", "type", "detail", "count", "physical GB/s",
                "NCCL GB/s");
        for (var e : rows.entrySet()) {
            String[] parts = e.getKey().split("\\|");
            double[] b = bw.get(e.getKey());
            out.printf(Locale.ROOT, "  %s %7d %14.1f %10.1f%n", parts[0], e.getValue()[0] / 2, b[0], b[1]);
        }
    }

    private static void paths(Topology t, PrintWriter out) {
        HostPaths hp = PathFinder.of(t).host(0);
        Map<String, Integer> pairs = new TreeMap<>();
        for (Gpu a : hp.gpus()) {
            for (Gpu b : hp.gpus()) {
                if (a.index() < b.index()) {
                    pairs.merge(describe(hp.path(a, b)), 1, Integer::sum);
                }
            }
        }
        out.println();
        out.println("NCCL paths on host 0 (type, NCCL / physical bottleneck per direction)");
        pairs.forEach((k, v) -> out.printf(Locale.ROOT, "  GPU-GPU  %3d pairs  %s%n", v, k));
        Map<String, Integer> nic = new TreeMap<>();
        for (Gpu g : hp.gpus()) {
            hp.nearestNic(g).ifPresent(n -> nic.merge(describe(hp.path(g, n)), 1, Integer::sum));
        }
        nic.forEach((k, v) -> out.printf(Locale.ROOT, "  GPU-NIC  %3d GPUs   %s  (nearest NIC)%n", v, k));
    }

    private static String describe(DevicePath p) {
        return String.format(Locale.ROOT, "%-4s %7.1f / %7.1f GB/s", p.type(), p.nccl().gbps(), p.physical().gbps());
    }

    private static void fabric(Topology t, PrintWriter out) {
        var switches = t.devices(NetSwitch.class);
        out.println();
        if (switches.isEmpty()) {
            out.println("fabric     none (no network switches)");
            return;
        }
        Map<NetSwitch.Tier, Long> tiers = switches.stream().collect(Collectors.groupingBy(NetSwitch::tier,
                TreeMap::new, Collectors.counting()));
        long planes = switches.stream().mapToInt(NetSwitch::plane).distinct().count();
        out.printf(Locale.ROOT, "fabric     %s; %d plane%s%n", tiers.entrySet().stream().map(e -> e.getValue() + " "
                + e.getKey().name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", ")), planes,
                planes == 1 ? "" : "s");
        int half = t.hostCount() / 2;
        out.printf(Locale.ROOT, "bisection  %.1f GB/s per direction (hosts %s vs %s, max-flow min-cut)%n",
                Bisection.of(t).gbps(), hostRange(0, half - 1), hostRange(half, t.hostCount() - 1));
    }

    /** @return "3" for one host, "0..3" for several */
    private static String hostRange(int first, int last) {
        return first == last ? Integer.toString(first) : first + ".." + last;
    }
}
