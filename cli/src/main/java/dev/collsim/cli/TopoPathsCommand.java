package dev.collsim.cli;

import dev.collsim.io.InputException;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.paths.BandwidthView;
import dev.collsim.topology.paths.DevicePath;
import dev.collsim.topology.paths.HostPaths;
import dev.collsim.topology.paths.PathFinder;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code collsim topo paths}: an nvidia-smi-style matrix per host, GPU and NIC rows and columns, each cell NCCL's
 * path type and bottleneck bandwidth (GB/s per direction) from the row device to the column device; or, with
 * {@code --smi}, the {@code nvidia-smi topo -m} labels.
 */
@Command(name = "paths", mixinStandardHelpOptions = true, exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:internal error", "2:usage error (bad option or value)",
            "3:invalid or unreadable cluster (every problem is listed with file, line and column)"},
        description = "Path matrix per host: NCCL path type and bottleneck bandwidth (GB/s) from row to column.")
public final class TopoPathsCommand implements Callable<Integer> {

    @Mixin
    private ClusterOption cluster;

    @Option(names = "--host", paramLabel = "N", defaultValue = "0", description = "Host index. Default: ${DEFAULT-VALUE}.")
    private int host;

    @Option(names = "--all-hosts", description = "Print every host's matrix.")
    private boolean allHosts;

    @Option(names = "--bw", paramLabel = "VIEW", defaultValue = "nccl", converter = ViewConverter.class,
            completionCandidates = ViewNames.class,
            description = "Bandwidth view: ${COMPLETION-CANDIDATES} (NCCL's link constants or datasheet values)."
                    + " Default: ${DEFAULT-VALUE}.")
    private BandwidthView view;

    @Option(names = "--smi", description = "Print nvidia-smi topo -m labels (X, NV#, PIX, PXB, PHB, NODE, SYS)"
            + " instead of NCCL path types.")
    private boolean smi;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws InputException {
        Topology t = cluster.load();
        if (host < 0 || host >= t.hostCount()) {
            throw new UserError("--host " + host + " is out of range; allowed: 0.." + (t.hostCount() - 1),
                    ExitCodes.USAGE);
        }
        PathFinder pf = PathFinder.of(t);
        PrintWriter out = spec.commandLine().getOut();
        if (cluster.ofTrays()) {
            // the matrix is one tray's; which trays share its NVLink domain (--trays-per-domain) is said here
            out.printf(Locale.ROOT, "cluster: %s; GPUs of one NVLink domain reach each other over NVLink (NVL, through"
                    + " the domain's NVSwitch), GPUs of other domains only through the NICs (NET)%n%n",
                    cluster.sizeText(t));
        }
        int from = allHosts ? 0 : host;
        int to = allHosts ? t.hostCount() - 1 : host;
        for (int h = from; h <= to; h++) {
            print(pf.host(h), out);
        }
        legend(out);
        return ExitCodes.OK;
    }

    private void print(HostPaths hp, PrintWriter out) {
        List<Device> ends = new ArrayList<>(hp.gpus());
        ends.addAll(hp.nics());
        List<String> names = new ArrayList<>();
        hp.gpus().forEach(g -> names.add("GPU" + g.index()));
        for (int i = 0; i < hp.nics().size(); i++) {
            names.add("NIC" + i);
        }
        int w = smi ? 6 : 11;
        out.printf(Locale.ROOT, "host %d: %s%n", hp.host(), smi ? "nvidia-smi topo -m labels"
                : "NCCL path type and bottleneck GB/s per direction (" + view.name().toLowerCase(Locale.ROOT)
                        + " view), row to column");
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-7s", ""));
        names.forEach(n -> header.append(String.format(Locale.ROOT, "%-" + w + "s", n)));
        out.println(header.append("NUMA").toString().stripTrailing());
        for (int r = 0; r < ends.size(); r++) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-7s", names.get(r)));
            for (Device c : ends) {
                row.append(String.format(Locale.ROOT, "%-" + w + "s", cell(hp.path(ends.get(r), c))));
            }
            row.append(numa(hp, ends.get(r)));
            out.println(row.toString().stripTrailing());
        }
        out.println();
        if (hp.nics().isEmpty()) {
            return; // a host without NICs: no empty "NIC legend:" heading
        }
        out.println("NIC legend:");
        for (int i = 0; i < hp.nics().size(); i++) {
            Nic n = hp.nics().get(i);
            out.printf(Locale.ROOT, "  NIC%d: %s %s %.0f Gb/s%s%s%n", i, n.id(), n.name(), n.speed().gbits(),
                    n.rail() >= 0 ? ", rail " + n.rail() : ", not on the compute fabric", n.gdr() ? "" : ", no GDR");
        }
        out.println();
    }

    private String cell(DevicePath p) {
        if (smi) {
            return p.smiLabel().isEmpty() ? "-" : p.smiLabel();
        }
        if (p.type() == PathType.LOC) {
            return "X";
        }
        if (p.type() == PathType.DIS) {
            return "-";
        }
        return p.type() + " " + String.format(Locale.ROOT, "%.4g", p.bandwidth(view).gbps()).replaceAll("\\.?0+$", "");
    }

    private static String numa(HostPaths hp, Device d) {
        Cpu best = null;
        int hops = Integer.MAX_VALUE;
        for (Cpu c : hp.cpus()) {
            int h = hp.path(d, c).hopCount();
            if (h > 0 && h < hops) {
                hops = h;
                best = c;
            }
        }
        return best == null ? "" : Integer.toString(best.numaId());
    }

    private void legend(PrintWriter out) {
        if (smi) {
            out.println("Legend (nvidia-smi): X self; NV# # bonded NVLinks (direct or through NVSwitch); PIX at most one"
                    + " PCIe bridge; PXB several PCIe bridges; PHB through a PCIe host bridge (CPU); NODE between host"
                    + " bridges of one NUMA node; SYS across the inter-NUMA/socket link.");
            return;
        }
        out.println("Legend (NCCL 2.30 src/graph/paths.cc): NVL NVLink (also via NVSwitch); NVB NVLink through a GPU;"
                + " C2C GPU-CPU NVLink-C2C; PIX one PCIe switch; PXB several PCIe switches; P2C GPU-C2C-CPU-PCIe-NIC;"
                + " PXN via a peer GPU's NVLink to its NIC; PHB through a CPU; SYS across CPUs; - no path.");
    }

    /** The {@code --bw} values as the docs write them: lower case. */
    static final class ViewNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(BandwidthView.values()).map(v -> v.name().toLowerCase(Locale.ROOT))
                    .iterator();
        }
    }

    /** Reads {@code --bw} case-insensitively; an unknown value names the lower-case values allowed. */
    static final class ViewConverter implements CommandLine.ITypeConverter<BandwidthView> {
        @Override
        public BandwidthView convert(String value) {
            for (BandwidthView v : BandwidthView.values()) {
                if (v.name().equalsIgnoreCase(value.trim())) {
                    return v;
                }
            }
            throw new CommandLine.TypeConversionException("'" + value + "' is not a bandwidth view; allowed: "
                    + String.join(", ", new ViewNames()));
        }
    }
}
