package dev.collsim.validation.diagnose;

import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.PathType;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.NcclLog;
import dev.collsim.validation.ingest.NcclRelease;
import dev.collsim.validation.ingest.NetworkLog;
import dev.collsim.validation.ingest.Note;
import dev.collsim.validation.ingest.RunEnv;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Transport problems: NET/Socket instead of IB (NCCL_IB_DISABLE=1, "Using network Socket", NET/Socket
 * connections, a TCP fabric in the header, a Slingshot or EFA run titled without its network plugin), GPUDirect RDMA off (NET connections without {@code GDRDMA},
 * "GPU Direct RDMA Disabled", NCCL_NET_GDR_LEVEL=0/LOC), and GPU-to-GPU traffic through the CPU inside a host
 * (SHM connections, NCCL_P2P_DISABLE=1, NCCL_P2P_LEVEL=LOC, "P2P not supported", a series labelled SHM), and a run
 * across hosts over RoCE far below its bound with NCCL's RoCE defaults left in place ({@link #roce}).
 */
final class TransportCheck implements Check {

    /** A fabric NCCL reaches only through a libfabric plugin: Slingshot (CXI) or EFA. */
    private static final Pattern PLUGIN_ONLY_FABRIC = Pattern.compile("slingshot|\\bcxi\\b|\\befa\\b");

    /** A title that says the network plugin or its hook is off: "plugin hook not enabled", "without the OFI plugin". */
    private static final Pattern NO_PLUGIN = Pattern.compile("(plugin|hook|ofi)[^,;()]*\\b(not|no|disabled|off)\\b"
            + "|\\b(without|no)\\b[^,;()]*(plugin|hook|aws-ofi|ofi)");

    /** RoCE named as a word ({@code RoCE}, {@code RoCEv2}, {@code RoCE v2}), not inside another ({@code process}). */
    private static final Pattern ROCE = Pattern.compile("(?i)\\broce");

    /**
     * A network plugin of its own on a RoCE fabric (Google's gIB): it reads its own settings, not those of NCCL's IB
     * verbs transport ({@code src/transport/net_ib}) that {@link #roce} names.
     */
    private static final Pattern OWN_PLUGIN = Pattern.compile("(?i)\\bgib\\b");

    /**
     * Hosts cabled to each other with no switch between them ("direct QSFP cable", "back-to-back"): one path, so no
     * ECMP hashing for more queue pairs to spread over.
     */
    private static final Pattern DIRECT_CABLE = Pattern.compile("(?i)\\bdirect(ly)?[- ](connected|cabled?|attach)"
            + "|\\bdirect\\s+\\w+\\s+cable|back[- ]to[- ]back");

    /** NCCL's queue pairs per connection (NCCL v2.10.3-1 {@code src/transport/net_ib.cc} line 353, default 1). */
    private static final String QPS = "NCCL_IB_QPS_PER_CONNECTION";

    /** NCCL's GID index (default 0 to 2.20, v2.20.5-1 {@code src/transport/net_ib.cc} line 80; -1 from 2.21). */
    private static final String GID = "NCCL_IB_GID_INDEX";

    /** The first NCCL 2 minor release with NCCL_IB_QPS_PER_CONNECTION (v2.10.3-1; v2.9.9-1 has none). */
    private static final int QPS_FROM_MINOR = 10;

    /** The first NCCL 2 minor release that picks the GID itself (v2.21.5-1 {@code ncclIbGetGidIndex}). */
    private static final int GID_AUTO_FROM_MINOR = 21;

    @Override
    public List<Finding> run(Subject s) {
        List<Finding> out = new ArrayList<>();
        socket(s).ifPresent(out::add);
        gdr(s).ifPresent(out::add);
        p2p(s).ifPresent(out::add);
        roce(s).ifPresent(out::add);
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
     * A run across hosts over RoCE far below its bound ({@link BoundCheck#farBelow}) with NCCL's RoCE defaults in
     * place gets them as candidate causes, which the file cannot show or rule out. (1) NCCL_IB_QPS_PER_CONNECTION not
     * set: one queue pair per connection (default 1 in every release that has it, NCCL v2.10.3-1
     * {@code src/transport/net_ib.cc} line 353 to v2.30.7-1 {@code src/transport/net_ib/connect.cc} line 60; none
     * before 2.10). NCCL sets the GRH flow label to 0 (v2.26.5-1 {@code net_ib.cc} line 1125, v2.30.7-1
     * {@code connect.cc} line 416), so a RoCE v2 packet's UDP source port comes from the QP numbers and each QP is one
     * ECMP path: few paths, hashed onto the same links, collide (not said of a run titled as cabled host to host, with
     * no switch and so one path). (2) NCCL_IB_GID_INDEX not set on a release before
     * 2.21 (or one the file does not state or date): GID index 0 (v2.20.5-1 {@code net_ib.cc} line 80), a link-local
     * or RoCE v1 GID on many hosts; from 2.21 the default is -1 and NCCL picks a RoCE v2 GID itself (v2.21.5-1
     * {@code ncclIbGetGidIndex}, line 292). RoCE is what the run's NCCL INFO log shows (IB verbs devices on an
     * Ethernet link layer), else what its title or its part of the {@code #@ interconnect} header names; a run whose
     * log shows another network, that sets NCCL_NET, or whose header names Google's gIB plugin, is left out.
     *
     * @param s the subject
     * @return the finding, empty when the run is not over RoCE, not far below its bound, or sets both settings
     */
    static Optional<Finding> roce(Subject s) {
        Dataset d = s.dataset();
        Optional<Finding.Evidence> roce = roceShown(s);
        if (s.singleHost() || roce.isEmpty() || BoundCheck.farBelow(s).isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> env = d.env();
        NcclRelease release = d.runRelease();
        boolean oneQp = !env.containsKey(QPS) && !DIRECT_CABLE.matcher(d.label()).find();
        boolean gid0 = !env.containsKey(GID) && !(release.known() && release.minor() >= GID_AUTO_FROM_MINOR);
        if (!oneQp && !gid0) {
            return Optional.empty();
        }
        List<String> causes = new ArrayList<>();
        if (oneQp) {
            causes.add((release.before(QPS_FROM_MINOR) ? "NCCL " + release + " has one queue pair (QP) per connection"
                    + " and no setting for more (NCCL_IB_QPS_PER_CONNECTION comes with 2.10.3)" : QPS + " is not set,"
                    + " so each connection has one queue pair (QP; NCCL's default 1)") + ": NCCL sets the flow label to"
                    + " 0, so a RoCE v2 packet's UDP source port comes from its QP numbers and each QP takes one ECMP"
                    + " path through the fabric, so few flows hashed onto the same links collide; more QPs per connection"
                    + " (" + QPS + "=4) spread them");
        }
        if (gid0) {
            causes.add(GID + " is not set and " + (release.known() ? "NCCL " + release + " predates 2.21"
                    : "the file states no NCCL release (before 2.21)") + ", so NCCL uses GID index 0, a link-local or"
                    + " RoCE v1 address on many hosts; set " + GID + " to the host's RoCE v2 entry (show_gids; 3 on"
                    + " many ConnectX hosts), as NCCL 2.21 and later pick it by themselves");
        }
        List<Finding.Evidence> ev = new ArrayList<>();
        ev.add(roce.get());
        for (String key : gid0 ? List.of("env", "nccl_version") : List.of("env")) {
            if (d.header().line(key) > 0) {
                ev.add(s.header(key));
            }
        }
        s.peakPoint().ifPresent(p -> ev.add(s.at(p)));
        return Optional.of(s.finding(Finding.Kind.ROCE_DEFAULTS, Finding.Severity.INFO, "over RoCE, far below its"
                + " bound, with NCCL's RoCE defaults in place; candidate causes the file cannot show: "
                + String.join("; ", causes), ev));
    }

    /**
     * @return the line that shows the run's inter-host transport is RoCE through NCCL's IB verbs transport: the first
     *         IB device its NCCL INFO log lists when the log shows RoCE, else its title or its {@code #@ interconnect}
     *         header line naming RoCE; empty when the log shows another network, NCCL_NET is set, or the header
     *         names Google's gIB plugin
     */
    private static Optional<Finding.Evidence> roceShown(Subject s) {
        Dataset d = s.dataset();
        NetworkLog net = d.log().net();
        Optional<NetworkClass> logged = net.networkClass();
        String header = d.header().text("interconnect") + " " + d.header().text("hardware");
        if (d.env().containsKey("NCCL_NET") || OWN_PLUGIN.matcher(header + " " + d.label()).find()
                || logged.isPresent() && logged.get() != NetworkClass.ROCE) {
            return Optional.empty();
        }
        if (logged.isPresent()) {
            return net.usedDevices().stream().filter(x -> x.transport().equals("IB")).findFirst()
                    .map(x -> s.at(x.line()));
        }
        if (ROCE.matcher(d.label()).find()) {
            return Optional.of(s.at(d.line()));
        }
        return ROCE.matcher(RunEnv.textForRun(d.header().text("interconnect"), d.label())).find()
                ? Optional.of(s.header("interconnect")) : Optional.empty();
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
