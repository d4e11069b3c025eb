package dev.collsim.topology.io.xml;

import dev.collsim.topology.io.HardwareHints;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.io.Decimals;
import dev.collsim.topology.io.Problems;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.io.xml.PciSpecs.GpuElement;
import dev.collsim.topology.io.xml.PciSpecs.NicElement;
import dev.collsim.topology.io.xml.PciSpecs.PcieLink;
import dev.collsim.topology.io.xml.PciSpecs.SwitchElement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * First pass of {@link NcclTopoXmlReader}: walks the {@code system/cpu/pci/...} tree, checks every attribute the
 * way NCCL 2.30 {@code src/graph/topo.cc} reads it ({@code ncclTopoAddCpu}, {@code ncclTopoAddPci},
 * {@code ncclTopoAddGpu}, {@code ncclTopoAddNic}, {@code ncclTopoAddNvLinks}, {@code ncclTopoAddC2c}) and collects
 * device specs; the GPU elements are {@link XmlGpuCollector}'s job. Bad values become problems; nothing is thrown here.
 * Not thread-safe.
 */
final class NcclTopoXmlCollector {

    private static final Pattern SPEED = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*GT/s.*");
    private static final String ALLOWED_SPEED =
            "2.5, 5, 8, 16, 32 or 64 GT/s as sysfs writes it (e.g. '16.0 GT/s PCIe'), empty or 'Unknown'";

    private final Problems problems;
    private final HardwareHints hints;
    private final List<String> notes;
    final List<Cpu> cpus = new ArrayList<>();
    final List<SwitchElement> switches = new ArrayList<>();
    final List<GpuElement> gpus = new ArrayList<>();
    final List<NicElement> nics = new ArrayList<>();
    /** pcilink elements: from switch id to target bus id. */
    final List<String[]> pciLinks = new ArrayList<>();
    final List<XmlNode> pciLinkNodes = new ArrayList<>();
    private final Map<String, Integer> hostByHash = new LinkedHashMap<>();
    private final Map<Integer, Integer> switchCount = new LinkedHashMap<>();
    /** The CPU facts in force (familyid and modelid, -1 when absent; the CPU database's family) per CPU id. */
    final Map<String, XmlCpuFacts> cpuFacts = new LinkedHashMap<>();

    /** Rail value of a NIC whose file names no rail: the reader numbers it. */
    static final int NO_RAIL = -2;

    private final List<String> bareNics = new ArrayList<>();
    /** Reads the GPU elements into {@link #gpus}. */
    private final XmlGpuCollector gpuReader;

    NcclTopoXmlCollector(Problems problems, HardwareHints hints, List<String> notes) {
        this.problems = problems;
        this.hints = hints;
        this.notes = notes;
        this.gpuReader = new XmlGpuCollector(problems, hints, notes, gpus);
    }

    void system(XmlNode root) {
        if (!root.name().equals("system")) {
            problems.at(root, "found root element <" + root.name() + ">; allowed: <system version=\"1\">");
            return;
        }
        String version = root.attr("version");
        if (version == null || !version.trim().equals("1")) {
            problems.at(root, "version", "found " + (version == null ? "nothing" : "'" + version + "'")
                    + "; allowed: 1 (NCCL_TOPO_XML_VERSION, NCCL 2.30 src/graph/topo.h)");
        }
        int ordinal = 0;
        for (XmlNode c : root.children()) {
            if (c.name().equals("cpu")) {
                cpu(c, ordinal++);
            } else {
                problems.at(c, "unexpected element <" + c.name() + "> in <system>; allowed: <cpu>");
            }
        }
        if (ordinal == 0) {
            problems.at(root, "no <cpu> element; allowed: one <cpu> per NUMA node holding <pci> and <nic> elements");
        }
        gpuReader.addNotes();
        if (!bareNics.isEmpty()) {
            double gbits = hints.nicSpeed() != null ? hints.nicSpeed().gbits()
                    : NcclBandwidths.DEFAULT_NIC_MBPS / 1000.0;
            notes.add(bareNics.size() + " NIC(s) " + bareNics + " have no <net> element: speed "
                    + Decimals.plain(gbits) + " Gb/s " + (hints.nicSpeed() != null ? "(hint)"
                    : "(assumed: " + HardwareHints.NIC_SPEED_FALLBACK + "; pass a NIC speed hint)")
                    + ", GPUDirect RDMA assumed (NCCL detects it at run time)");
        }
    }

    private void cpu(XmlNode n, int ordinal) {
        String hash = n.attr("host_hash") == null ? "" : n.attr("host_hash").trim();
        int host = hostByHash.computeIfAbsent(hash, h -> hostByHash.size());
        int numa = problems.integer(n, "numaid", false, -1, 4095, -1);
        String arch = n.attr("arch") == null ? "x86_64" : n.attr("arch").trim();
        if (!List.of("x86_64", "arm64", "ppc64").contains(arch)) {
            problems.at(n, "arch", "found '" + arch + "'; allowed: x86_64, arm64, ppc64");
        }
        XmlCpuFacts f = XmlCpuFacts.of(n.attr("vendor") == null ? "" : n.attr("vendor").trim(),
                problems.integer(n, "familyid", false, 0, Integer.MAX_VALUE, -1),
                problems.integer(n, "modelid", false, 0, Integer.MAX_VALUE, -1), hints);
        f.conflict().filter(c -> !notes.contains(c)).ifPresent(notes::add);
        String vendor = f.vendor();
        int family = f.family();
        int model = f.model();
        String id = "h" + host + "/cpu" + (numa >= 0 ? numa : ordinal);
        if (cpus.stream().anyMatch(c -> c.id().equals(id))) {
            problems.at(n, "numaid", "a second <cpu> with numaid " + numa + " on the same host; allowed: one <cpu>"
                    + " per NUMA node");
            return;
        }
        String modelText = family >= 0 && model >= 0 ? "family " + family + " model " + model : "";
        cpus.add(new Cpu(id, host, numa, arch, vendor, modelText));
        cpuFacts.put(id, f);
        for (XmlNode c : n.children()) {
            switch (c.name()) {
                case "pci" -> pci(c, host, id, id);
                case "nic" -> nets(c, host, "", id, null);
                default -> problems.at(c, "unexpected element <" + c.name() + "> in <cpu>; allowed: <pci>, <nic>");
            }
        }
    }

    private void pci(XmlNode n, int host, String parentId, String cpuId) {
        String busId = problems.text(n, "busid", "a PCI bus id such as 0000:1b:00.0");
        if (busId != null && !PciSpecs.isBusId(busId)) {
            problems.at(n, "busid", "found '" + busId + "'; allowed: a PCI bus id dddd:bb:dd.f (hex)");
            busId = "0000:00:00.0";
        }
        String cls = problems.text(n, "class", "a PCI class such as 0x060400 (bridge), 0x030200 (GPU), 0x020700 (NIC)");
        if (cls != null && !PciSpecs.isPciClass(cls)) {
            problems.at(n, "class", "found '" + cls + "'; allowed: 0x followed by 6 hex digits, e.g. 0x060400");
            cls = "0x000000";
        }
        PcieLink link = link(n);
        busId = busId == null ? "0000:00:00.0" : busId;
        cls = cls == null ? "0x000000" : cls;
        cls = cls.toLowerCase(Locale.ROOT);
        List<XmlNode> gpuNodes = n.children("gpu");
        List<XmlNode> nicNodes = n.children("nic");
        if (!gpuNodes.isEmpty() || (nicNodes.isEmpty() && cls.startsWith("0x03"))) {
            gpuReader.add(n, gpuNodes.isEmpty() ? null : gpuNodes.get(0), host, busId, parentId, cpuId, link);
        } else if (!nicNodes.isEmpty() || cls.startsWith("0x02")) {
            if (nicNodes.isEmpty()) {
                nicWithoutNet(n, host, busId, parentId, link);
            } else {
                for (XmlNode nic : nicNodes) {
                    nets(nic, host, busId, parentId, link);
                }
            }
        } else if (cls.equals(PciSpecs.CLASS_NVSWITCH) || cls.equals(PciSpecs.CLASS_CPU)) {
            notes.add("pci " + busId + " of class " + cls + " (line " + n.line() + ") ignored, as NCCL does");
        } else {
            int k = switchCount.merge(host, 1, Integer::sum) - 1;
            String id = "h" + host + "/pcisw" + k;
            int hostBridge = problems.integer(n, PciSpecs.HOST_BRIDGE_ATTR, false, 0, 4095, -1);
            switches.add(new SwitchElement(id, host, busId, hostBridge, parentId, link));
            for (XmlNode c : n.children()) {
                switch (c.name()) {
                    case "pci" -> pci(c, host, id, cpuId);
                    case "pcilink" -> {
                        String t = problems.text(c, "target", "the bus id of another PCI switch");
                        if (t != null) {
                            pciLinks.add(new String[] {id, t});
                            pciLinkNodes.add(c);
                        }
                    }
                    default -> problems.at(c, "unexpected element <" + c.name() + "> in a PCI switch; allowed: <pci>,"
                            + " <pcilink>");
                }
            }
        }
    }

    private PcieLink link(XmlNode n) {
        String speed = n.attr("link_speed");
        boolean speedUnset = speed == null || speed.isBlank() || speed.trim().equalsIgnoreCase("Unknown");
        int gen = 3;
        if (!speedUnset) {
            Matcher m = SPEED.matcher(speed);
            PcieGen g = m.matches() ? PcieGen.ofGtPerSecond(Double.parseDouble(m.group(1))) : null;
            if (g == null) {
                problems.at(n, "link_speed", "found '" + speed + "'; allowed: " + ALLOWED_SPEED);
            } else {
                gen = g.number();
            }
        }
        int width = problems.integer(n, "link_width", false, 0, 32, -1);
        boolean widthZero = width <= 0;
        return new PcieLink(gen, widthZero ? 16 : width, speedUnset, widthZero);
    }

    private void nicWithoutNet(XmlNode n, int host, String busId, String parentId, PcieLink link) {
        double mbps = hints.nicSpeed() != null ? hints.nicSpeed().gbits() * 1000 : NcclBandwidths.DEFAULT_NIC_MBPS;
        bareNics.add(busId);
        nics.add(new NicElement(host, busId, -1, null, mbps, 1, true, NO_RAIL, parentId, link, n));
    }

    /** Slowest NIC speed a file may give, Mb/s (1 Mb/s; below it a value is a typo or a denormal such as 1e-320). */
    private static final double MIN_NET_MBPS = 1;
    /** Fastest NIC speed a file may give, Mb/s (100 Tb/s: far above any NIC sold, 800 Gb/s in 2025). */
    private static final double MAX_NET_MBPS = 1e8;

    private void nets(XmlNode nic, int host, String busId, String parentId, PcieLink link) {
        for (XmlNode net : nic.children()) {
            if (!net.name().equals("net")) {
                problems.at(net, "unexpected element <" + net.name() + "> in <nic>; allowed: <net>");
                continue;
            }
            String name = net.attr("name") == null ? "" : net.attr("name").trim();
            int dev = problems.integer(net, "dev", false, 0, 1023, -1);
            double speed = problems.decimal(net, "speed", false, -1, 0);
            if (speed > 0 && (speed < MIN_NET_MBPS || speed > MAX_NET_MBPS)) {
                problems.at(net, "speed", "found '" + net.attr("speed") + "'; allowed: a speed in Mb/s (NCCL's unit:"
                        + " 400 Gb/s is 400000) from 1 to 100000000, or 0 for NCCL's fallback");
                speed = 0;
            }
            if (speed <= 0) {
                notes.add("net " + name + " has no positive speed: " + NcclBandwidths.DEFAULT_NIC_MBPS
                        + " Mb/s assumed (NCCL 2.30 topo.cc fallback)");
                speed = NcclBandwidths.DEFAULT_NIC_MBPS;
            }
            int port = problems.integer(net, "port", false, 0, 255, 1);
            int gdr = problems.integer(net, "gdr", false, 0, 1, 0);
            int rail = net.has("rail") ? problems.integer(net, "rail", false, 0, 4095, -1)
                    : problems.integer(net, PciSpecs.RAIL_ATTR, false, -1, 4095, NO_RAIL);
            problems.decimal(net, "latency", false, 0, 0);
            nics.add(new NicElement(host, busId, dev, name, speed, port, gdr == 1, rail, parentId, link, net));
        }
    }
}
