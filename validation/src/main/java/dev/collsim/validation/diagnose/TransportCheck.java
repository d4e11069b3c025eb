package dev.collsim.validation.diagnose;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.PathType;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.NcclLog;
import dev.collsim.validation.ingest.Note;
import dev.collsim.validation.ingest.RunEnv;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Transport problems: NET/Socket instead of IB (NCCL_IB_DISABLE=1, "Using network Socket", NET/Socket
 * connections, a TCP fabric in the header, a Slingshot or EFA run titled without its network plugin), GPUDirect RDMA off (NET connections without {@code GDRDMA},
 * "GPU Direct RDMA Disabled", NCCL_NET_GDR_LEVEL=0/LOC), and GPU-to-GPU traffic through the CPU inside a host
 * (SHM connections, NCCL_P2P_DISABLE=1, NCCL_P2P_LEVEL=LOC, "P2P not supported", a series labelled SHM).
 */
final class TransportCheck implements Check {

    /** A fabric NCCL reaches only through a libfabric plugin: Slingshot (CXI) or EFA. */
    private static final Pattern PLUGIN_ONLY_FABRIC = Pattern.compile("slingshot|\\bcxi\\b|\\befa\\b");

    /** A title that says the network plugin or its hook is off: "plugin hook not enabled", "without the OFI plugin". */
    private static final Pattern NO_PLUGIN = Pattern.compile("(plugin|hook|ofi)[^,;()]*\\b(not|no|disabled|off)\\b"
            + "|\\b(without|no)\\b[^,;()]*(plugin|hook|aws-ofi|ofi)");

    @Override
    public List<Finding> run(Subject s) {
        List<Finding> out = new ArrayList<>();
        socket(s).ifPresent(out::add);
        gdr(s).ifPresent(out::add);
        p2p(s).ifPresent(out::add);
        return out;
    }

    private static Optional<Finding> socket(Subject s) {
        Dataset d = s.dataset();
        if (s.singleHost()) {
            return Optional.empty();
        }
        List<Finding.Evidence> ev = new ArrayList<>();
        NcclLog log = d.log();
        if (log.network().equalsIgnoreCase("Socket")) {
            ev.add(s.at(log.networkLine()));
        }
        log.transports().stream().filter(t -> t.transport().startsWith("NET/Socket")).findFirst()
                .ifPresent(t -> ev.add(s.at(t.line())));
        if ("1".equals(d.env().get("NCCL_IB_DISABLE"))) {
            ev.add(new Finding.Evidence(d.file(), d.header().line("env") > 0 && d.header().text("env")
                    .contains("NCCL_IB_DISABLE=1") ? d.header().line("env") : d.line(), "NCCL_IB_DISABLE=1"));
        }
        String net = RunEnv.textForRun(d.header().text("interconnect"), d.label()).toLowerCase(Locale.ROOT);
        if (net.contains("net/socket") || net.matches("(?s).*\\btcp\\b.*") && !net.contains("tcpx")) {
            ev.add(s.header("interconnect"));
        }
        if (ev.isEmpty() && withoutNetPlugin(d)) {
            ev.add(s.at(d.line()));
            ev.add(s.header("interconnect"));
        }
        if (ev.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(s.finding(Finding.Kind.SOCKET_INSTEAD_OF_IB, Finding.Severity.PROBLEM,
                "inter-host traffic goes over TCP sockets (NET/Socket), not InfiniBand/RoCE verbs: every byte is "
                        + "copied through host memory by proxy threads, which caps a host at a few GB/s to about "
                        + "the line rate of one NIC; " + (withoutNetPlugin(d) ? "this fabric (Slingshot or EFA) is"
                        + " driven by a libfabric network plugin, which this run's title says is not loaded: load it"
                        + " (aws-ofi-nccl; NCCL_NET_PLUGIN, the container's hook), then NCCL_DEBUG=INFO prints"
                        + " 'Using network' with the plugin's name" : "enable the IB/RoCE transport "
                        + "(NCCL_IB_DISABLE=0, NCCL_IB_HCA)"), ev));
    }

    /**
     * @return true when the run's title says its network plugin (or the container hook that loads it) is not used,
     *         on a fabric NCCL reaches only through such a plugin: HPE Slingshot (CXI) and AWS EFA are libfabric
     *         providers, which NCCL's own transports (IB verbs, {@code src/transport/net_ib}, and sockets, {@code
     *         net_socket.cc}) do not drive, so without aws-ofi-nccl NCCL falls back to its socket transport (CSCS's
     *         cscs-docs {@code docs/software/communication/nccl.md}, on NCCL_NET: with its default value, without
     *         the plugin "applications would instead fall back to e.g. TCP", re-read 2026-12-07)
     */
    static boolean withoutNetPlugin(Dataset d) {
        String fabric = (d.header().text("interconnect") + " " + d.header().text("hardware")).toLowerCase(Locale.ROOT);
        if (!PLUGIN_ONLY_FABRIC.matcher(fabric).find()) {
            return false;
        }
        return NO_PLUGIN.matcher(d.label().toLowerCase(Locale.ROOT)).find();
    }

    private static Optional<Finding> gdr(Subject s) {
        Dataset d = s.dataset();
        List<Finding.Evidence> ev = new ArrayList<>();
        d.log().transports().stream().filter(t -> t.family().equals("NET") && !t.transport().startsWith("NET/Socket")
                && !t.gdr()).findFirst().ifPresent(t -> ev.add(s.at(t.line())));
        for (Note n : d.log().flagged()) {
            if (n.text().toLowerCase(Locale.ROOT).contains("gpu direct rdma disabled")) {
                ev.add(s.at(n.line()));
            }
        }
        if (settings(d).netGdrLevel().orElse(null) == PathType.LOC) {
            ev.add(new Finding.Evidence(d.file(), d.header().line("env"), "NCCL_NET_GDR_LEVEL="
                    + d.env().get("NCCL_NET_GDR_LEVEL")));
        }
        if (ev.isEmpty() || s.singleHost()) {
            return Optional.empty();
        }
        return Optional.of(s.finding(Finding.Kind.GDR_OFF, Finding.Severity.PROBLEM,
                "GPUDirect RDMA is not used: the NIC reads and writes host memory and data is staged through it, "
                        + "which adds copies and usually costs 20-50% of network bandwidth; check nvidia-peermem "
                        + "(or dma-buf), ACS/IOMMU settings and NCCL_NET_GDR_LEVEL", ev));
    }

    private static Optional<Finding> p2p(Subject s) {
        Dataset d = s.dataset();
        if (d.nRanks() < 2) {
            return Optional.empty();
        }
        List<Finding.Evidence> ev = new ArrayList<>();
        d.log().transports().stream().filter(t -> t.family().equals("SHM")).findFirst()
                .ifPresent(t -> ev.add(s.at(t.line())));
        NcclSettings nccl = settings(d);
        if (nccl.p2pDisable()) {
            ev.add(new Finding.Evidence(d.file(), d.header().line("env"), "NCCL_P2P_DISABLE=1"));
        }
        if (nccl.p2pLevel().orElse(null) == PathType.LOC) {
            ev.add(new Finding.Evidence(d.file(), d.header().line("env"), "NCCL_P2P_LEVEL="
                    + d.env().get("NCCL_P2P_LEVEL")));
        }
        for (Note n : d.log().flagged()) {
            String t = n.text().toLowerCase(Locale.ROOT);
            if (t.contains("p2p is disabled") || t.contains("p2p not supported") || t.contains("via shm")) {
                ev.add(s.at(n.line()));
            }
        }
        String net = (d.header().text("interconnect") + " " + d.header().text("hardware")).toLowerCase(Locale.ROOT);
        if (net.contains("p2p not supported") || net.contains("p2p unavailable") || net.contains("not using nvlink p2p")) {
            ev.add(s.header(d.header().text("interconnect").toLowerCase(Locale.ROOT).contains("p2p")
                    ? "interconnect" : "hardware"));
        }
        if (d.label().toUpperCase(Locale.ROOT).contains("SHM")) {
            ev.add(s.at(d.line()));
            if (net.contains("phb") || net.contains("root complex")) {
                ev.add(s.header("hardware"));
            }
        }
        if (ev.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(s.finding(Finding.Kind.P2P_THROUGH_CPU, Finding.Severity.PROBLEM,
                "GPU-to-GPU traffic inside the host goes through the CPU (SHM transport or P2P disabled): each "
                        + "transfer is a copy into host memory and out again, which halves the bandwidth of the "
                        + "PCIe path or worse; enable P2P (NCCL_P2P_LEVEL=SYS where the platform supports it, "
                        + "ACS off, a P2P-capable driver)", ev));
    }

    /**
     * @return the run's settings that collsim models (NCCL_P2P_LEVEL 0 and LOC both read as LOC, as NCCL's
     *         {@code src/graph/paths.cc} does); NCCL's defaults when the recorded ones contradict each other
     */
    private static NcclSettings settings(Dataset d) {
        try {
            return NcclSettings.modelled(d.env());
        } catch (IllegalArgumentException e) {
            return NcclSettings.DEFAULTS;
        }
    }
}
