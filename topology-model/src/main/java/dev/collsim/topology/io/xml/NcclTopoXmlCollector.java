package dev.collsim.topology.io.xml;

import dev.collsim.hardware.GpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.topology.io.HardwareHints;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.io.Decimals;
import dev.collsim.topology.io.Problems;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.io.xml.PciSpecs.GpuElement;
import dev.collsim.topology.io.xml.PciSpecs.NicElement;
import dev.collsim.topology.io.xml.PciSpecs.NvLinkElement;
import dev.collsim.topology.io.xml.PciSpecs.PcieLink;
import dev.collsim.topology.io.xml.PciSpecs.SwitchElement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * First pass of {@link NcclTopoXmlReader}: walks the {@code system/cpu/pci/...} tree, checks every attribute the
 * way NCCL 2.30 {@code src/graph/topo.cc} reads it ({@code ncclTopoAddCpu}, {@code ncclTopoAddPci},
 * {@code ncclTopoAddGpu}, {@code ncclTopoAddNic}, {@code ncclTopoAddNvLinks}, {@code ncclTopoAddC2c}) and collects
 * device specs. Bad values become problems; nothing is thrown here. Not thread-safe.
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

    /** GPUs without a {@code <gpu>} element, by the words that say where their sm came from ({@link #bareSm}). */
    private final Map<String, List<String>> bare = new LinkedHashMap<>();
    private final List<String> bareNics = new ArrayList<>();
    private final List<String> declared = new ArrayList<>();
    /** GPU {@code pci} elements whose link the file hides, by the warning text (after line and column). */
    private final Map<String, List<XmlNode>> hidden = new LinkedHashMap<>();

    NcclTopoXmlCollector(Problems problems, HardwareHints hints, List<String> notes) {
        this.problems = problems;
        this.hints = hints;
        this.notes = notes;
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
        bare.forEach((sm, ids) -> notes.add(ids.size() + " GPU(s) " + ids + " have no <gpu> element: model "
                + (hints.gpuModel() != null ? hints.gpuModel() : "from the pci device id (else unknown)") + ", sm " + sm
                + (hints.nvswitchLinks() != 0 ? "" : ", no NVLinks (NCCL detects those at run time)")));
        hidden.forEach((text, at) -> notes.add(Problems.WARNING + at.get(0).line() + ":" + at.get(0).column() + text
                + (at.size() == 1 ? "" : " (" + at.size() + " GPUs alike, lines " + at.stream()
                        .map(x -> String.valueOf(x.line())).collect(Collectors.joining(", ")) + ")")));
        if (!declared.isEmpty()) {
            notes.add(declared.size() + " GPU(s) " + declared + " given NVLinks to an NVSwitch by the NVLink hint"
                    + " (the file has none for them)");
        }
        if (!bareNics.isEmpty()) {
            double gbits = hints.nicSpeed() != null ? hints.nicSpeed().gbits()
                    : NcclBandwidths.DEFAULT_NIC_MBPS / 1000.0;
            notes.add(bareNics.size() + " NIC(s) " + bareNics + " have no <net> element: speed "
                    + Decimals.plain(gbits) + " Gb/s " + (hints.nicSpeed() != null ? "(hint)"
                    : "(assumed: NCCL's fallback for a NIC without speed; pass a NIC speed hint)")
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
            gpu(n, gpuNodes.isEmpty() ? null : gpuNodes.get(0), host, busId, parentId, cpuId, link);
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

    private void gpu(XmlNode pci, XmlNode g, int host, String busId, String parentId, String cpuId, PcieLink ncclLink) {
        String model = pci.has("device") ? modelOf(pci)
                : hints.gpuModel() != null ? hints.gpuModel() : HardwareHints.UNKNOWN_GPU_MODEL;
        PcieLink link = realGpuLink(pci, model, ncclLink);
        if (g == null) {
            OptionalInt byLink = link.speedUnset() ? OptionalInt.empty() : GpuModels.lowestSmOnPcieGen(link.gen());
            int sm = hints.gpuSm() != 0 ? hints.gpuSm()
                    : GpuModels.find(model).map(GpuModel::sm).orElse(byLink.orElse(80));
            bare.computeIfAbsent(bareSm(sm, model, byLink.isPresent() ? link.gen() : 0), k -> new ArrayList<>())
                    .add(busId);
            gpus.add(new GpuElement(host, busId, -1, sm, model, parentId, cpuId, link, declaredNvlinks(model, pci),
                    List.of(), pci));
            return;
        }
        int dev = problems.integer(g, "dev", true, 0, 1023, -1);
        int sm = problems.integer(g, "sm", true, 30, 200, -1);
        problems.integer(g, "gdr", false, 0, 1, 0);
        if (problems.integer(g, "rank", false, -1, Integer.MAX_VALUE, -1) < 0) {
            notes.add("GPU " + busId + " has no rank (NCCL would skip it); kept");
        }
        List<NvLinkElement> nvlinks = new ArrayList<>();
        List<double[]> c2c = new ArrayList<>();
        for (XmlNode c : g.children()) {
            if (c.name().equals("nvlink")) {
                String target = problems.text(c, "target", "the bus id of the remote GPU or NVSwitch");
                int count = problems.integer(c, "count", true, 1, 64, -1);
                String tclass = problems.text(c, "tclass", "a PCI class: 0x030200 (GPU), 0x068000 (NVSwitch),"
                        + " 0x068001 (CPU)");
                if (target != null && !PciSpecs.isBusId(target) && !PciSpecs.isInvisible(target)) {
                    problems.at(c, "target", "found '" + target + "'; allowed: a PCI bus id dddd:bb:dd.f, or"
                            + " fffffff:ff:ff.0 for an NVSwitch hidden from a VM");
                    target = null;
                }
                if (tclass != null && !PciSpecs.isPciClass(tclass)) {
                    problems.at(c, "tclass", "found '" + tclass + "'; allowed: 0x followed by 6 hex digits");
                    tclass = null;
                }
                if (target != null && count > 0 && tclass != null) {
                    nvlinks.add(new NvLinkElement(target, count, tclass.toLowerCase(Locale.ROOT), c));
                }
            } else if (c.name().equals("c2c")) {
                double bw = problems.decimal(c, "bw", true, 1, -1);
                int count = problems.integer(c, "count", true, 1, 64, -1);
                if (bw > 0 && count > 0) {
                    c2c.add(new double[] {bw, count});
                }
            } else {
                problems.at(c, "unexpected element <" + c.name() + "> in <gpu>; allowed: <nvlink>, <c2c>");
            }
        }
        if (dev >= 0 && sm > 0) {
            gpus.add(new GpuElement(host, busId, dev, sm, model, parentId, cpuId, link,
                    nvlinks.isEmpty() ? declaredNvlinks(model, pci) : nvlinks, c2c, pci));
        }
    }

    /**
     * The real generation and width of a GPU's PCIe link that the file hides (empty {@code link_speed}, {@code
     * link_width} 0: a Hyper-V guest), where NCCL takes its fallback, 8 GT/s x16 = 12 GB/s (NCCL 2.22.3 and 2.30.7
     * {@code src/graph/topo.cc ncclTopoAddPci}), for its own paths: the generation of {@code --pcie-gen}, else of the
     * GPU's model in the GPU database ({@link GpuModel#pcieGen}, {@link GpuModel#pcieWidth}: the A100 PCIe is Gen4
     * x16 by its datasheet), else NCCL's. GPUs alike share one warning: file, line, field, what was found and what
     * was assumed, and the lines of the others.
     */
    private PcieLink realGpuLink(XmlNode pci, String model, PcieLink link) {
        if (!link.speedUnset() && !link.widthZero()) {
            return link;
        }
        Optional<GpuModel> m = GpuModels.find(model);
        int gen = !link.speedUnset() ? link.gen() : hints.pcieGen() != 0 ? hints.pcieGen()
                : m.map(x -> x.pcieGen().number()).orElse(link.gen());
        int width = !link.widthZero() ? link.width() : m.map(GpuModel::pcieWidth).orElse(link.width());
        if (gen == link.gen() && width == link.width() && (m.isPresent() || hints.pcieGen() != 0)) {
            return link; // NCCL's fallback is the known link itself (width 0 read as x16 on an x16 GPU): no warning
        }
        String from = m.isPresent() ? "the " + model + "'s in the GPU database" : "NCCL's: " + model
                + " is not in the GPU database; pass --gpu-model or --pcie-gen";
        if (link.speedUnset() && hints.pcieGen() != 0) {
            from = "--pcie-gen " + hints.pcieGen() + (link.widthZero() ? ", width " + from : "");
        }
        List<String> names = new ArrayList<>();
        if (link.speedUnset()) {
            names.add("link_speed");
        }
        if (link.widthZero()) {
            names.add("link_width");
        }
        String found = names.stream().map(a -> pci.attr(a) == null ? "nothing" : "'" + pci.attr(a).trim() + "'")
                .collect(Collectors.joining(" and "));
        hidden.computeIfAbsent(": pci." + String.join(", ", names) + ": found " + found + "; NCCL's paths take "
                + Decimals.plain(PcieGen.of(link.gen()).gtPerSecond()) + " GT/s x" + link.width() + " = "
                + Decimals.plain(link.nccl().gbps()) + " GB/s (its fallback, NCCL src/graph/topo.cc ncclTopoAddPci),"
                + " the physical link is taken as " + PcieGen.of(gen).detail(width) + " (" + from + ")",
                k -> new ArrayList<>()).add(pci);
        return link.withReal(gen, width);
    }

    /**
     * The NVLinks a hint declares for a GPU the file gives none: one {@code <nvlink>} to the host's NVSwitch hidden
     * from the VM (target {@code fffffff:ffff:ff}, class 0x068000), as NCCL itself records NVSwitch links it finds
     * through NVML, with the hint's count or the GPU model's ({@link GpuModel#nvlinks}).
     */
    private List<NvLinkElement> declaredNvlinks(String model, XmlNode at) {
        if (hints.nvswitchLinks() == 0) {
            return List.of();
        }
        int count = hints.nvswitchLinks() > 0 ? hints.nvswitchLinks()
                : GpuModels.find(model).map(GpuModel::nvlinks).orElse(0);
        if (count == 0) {
            problems.at(at, "NVLinks were declared with the GPU model's own count, but the model ('" + model
                    + "') has no NVLink or is unknown; allowed: a GPU model with NVLink (--gpu-model), or a count"
                    + " (--nvlink nvswitch:N)");
            return List.of();
        }
        declared.add(at.attr("busid") == null ? "?" : at.attr("busid").trim());
        return List.of(new NvLinkElement("fffffff:ffff:ff", count, "0x068000", at));
    }

    /**
     * @param sm    the sm given to a GPU without a {@code <gpu>} element
     * @param model its model (from the pci device id, else the hint)
     * @param gen   the PCIe generation of its link when that set the sm ({@link GpuModels#lowestSmOnPcieGen}), else 0
     * @return the sm and where it came from, for the note; GPUs of one text share one note
     */
    private String bareSm(int sm, String model, int gen) {
        if (hints.gpuSm() != 0) {
            return sm + " (hint)";
        }
        if (GpuModels.find(model).isPresent()) {
            return sm + " (from the GPU model " + model + ")";
        }
        return gen != 0 ? sm + " (assumed: the lowest of the GPU database's PCIe Gen" + gen + " GPUs, from the link"
                + " speed; pass a GPU hint)" : sm + " (assumed; pass a GPU hint)";
    }

    private String modelOf(XmlNode pci) {
        int id = problems.integer(pci, "device", false, 0, 0xffff, -1);
        return id < 0 ? HardwareHints.UNKNOWN_GPU_MODEL : PciSpecs.gpuModelName(id);
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
