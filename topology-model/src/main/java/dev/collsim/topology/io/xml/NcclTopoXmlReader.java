package dev.collsim.topology.io.xml;

import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.NvlinkGen;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.io.HardwareHints;
import dev.collsim.topology.io.Problems;

import dev.collsim.io.InputException;
import dev.collsim.io.TopologyReader;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.paths.Reachability;
import dev.collsim.topology.io.xml.PciSpecs.GpuElement;
import dev.collsim.topology.io.xml.PciSpecs.NicElement;
import dev.collsim.topology.io.xml.PciSpecs.NvLinkElement;
import dev.collsim.topology.io.xml.PciSpecs.SwitchElement;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads an NCCL topology XML file ({@code NCCL_TOPO_FILE} input or {@code NCCL_TOPO_DUMP_FILE} output; element
 * and attribute meanings as NCCL 2.30 {@code src/graph/topo.cc} and {@code xml.cc} read them) into a
 * {@link Topology}.
 *
 * <p>Devices: one {@link Cpu} per {@code cpu} ({@code h{host}/cpu{numaid}}, hosts told apart by {@code host_hash});
 * a {@code pci} element with a {@code gpu} child (or of class 0x03xxxx) is a {@link Gpu}
 * ({@code h{host}/gpu{dev}}); with a {@code nic} child (or of class 0x02xxxx) one {@link Nic} per {@code net}
 * ({@code h{host}/nic{dev}}; rail from NCCL's {@code rail} attribute or collsim's {@code collsim_rail}, else the
 * NIC's position in dev order, as NCCL uses every NIC it finds); any other {@code pci} is a {@link PcieSwitch} ({@code h{host}/pcisw{k}}, document
 * order), as NCCL makes every other class a PCI node. NVSwitch-class and CPU-class {@code pci} elements are
 * ignored, as NCCL does.
 *
 * <p>Links (physical bandwidth per direction): each {@code pci} to its parent, PCIe from {@code link_speed} and
 * {@code link_width} ({@link PcieGen#physical}), count = width, detail {@code PCIe GenN xW}, NCCL bandwidth
 * {@link NcclBandwidths#pcie}. An empty speed or a width of 0 (a VM guest such as Azure's NC A100 v4) gives NCCL's
 * fallback (8 GT/s, x16: 12 GB/s) as the NCCL bandwidth, as NCCL's {@code ncclTopoAddPci} takes it, while the
 * physical link of a GPU takes the generation and width of its model in the GPU database (or {@code --pcie-gen}); the
 * detail names the real link and notes NCCL's fallback ({@link NcclBandwidths#asBuilt}), and a warning names the
 * file, line and field. A {@code nic} directly under a {@code cpu}
 * gets a virtual PCIe link of NCCL's LOC_BW (5000 GB/s), as NCCL connects it. Every pair of CPUs of a host gets
 * an SMP link ({@link NcclBandwidths#interCpu}, NCCL's own value, so physical and NCCL bandwidth are equal), as NCCL's
 * {@code ncclTopoConnectCpus}. {@code nvlink} elements: to a
 * GPU (tclass 0x03xxxx) one directed NVLink edge per element direction, as NCCL adds them; to a CPU (0x068001) an
 * NVLink both ways; any other tclass or an invisible target ({@code fffffff:ff:ff.0}) goes to one shared
 * {@link NvSwitch} per host ({@code h{host}/nvs0}). Elements to the same remote are merged into one edge whose
 * count is the sum (NCCL adds their bandwidth), bandwidth = count x the datasheet per-link rate of the sm's NVLink
 * generation ({@link GpuModels#nvlinkOfSm}).
 * {@code c2c}: a C2C link to the enclosing CPU of {@code bw x count / 1000} GB/s ({@code bw} is MB/s per link).
 *
 * <p>What the graph cannot hold (a GPU's {@code nvlink} to itself, which some vendor files use, NIC latency,
 * CPU affinity, GPU {@code gdr}) is named in {@link Topology#source()}. This class is immutable and thread-safe.
 */
public final class NcclTopoXmlReader implements TopologyReader {

    private final HardwareHints hints;

    /** A reader without hints: GPUs without {@code gpu} element are assumed sm 80, and say so. */
    public NcclTopoXmlReader() {
        this(HardwareHints.NONE);
    }

    /** @param hints GPU sm/model and NIC speed for {@code pci} elements that lack them */
    public NcclTopoXmlReader(HardwareHints hints) {
        this.hints = Objects.requireNonNull(hints, "hints");
    }

    @Override
    public String format() {
        return "nccl-xml";
    }

    /** @return true when the first element of the text (after {@code #} header lines and comments) is {@code <system} */
    @Override
    public boolean accepts(String content) {
        return firstElement(content).equals("system");
    }

    /** @return the name of the first element of an XML text, or empty */
    public static String firstElement(String content) {
        String t = XmlTree.stripHashHeader(content);
        int i = 0;
        while ((i = t.indexOf('<', i)) >= 0) {
            if (t.startsWith("<?", i) || t.startsWith("<!", i)) {
                int end = t.startsWith("<!--", i) ? t.indexOf("-->", i) : t.indexOf('>', i);
                if (end < 0) {
                    return "";
                }
                i = end + 1;
                continue;
            }
            int j = i + 1;
            while (j < t.length() && (Character.isLetterOrDigit(t.charAt(j)) || t.charAt(j) == '_')) {
                j++;
            }
            return t.substring(i + 1, j);
        }
        return "";
    }

    @Override
    public Topology read(String fileName, String content) throws InputException {
        XmlNode root = XmlTree.parse(fileName, content);
        Problems problems = new Problems(fileName);
        List<String> notes = new ArrayList<>();
        NcclTopoXmlCollector c = new NcclTopoXmlCollector(problems, hints, notes);
        c.system(root);
        problems.throwIfAny();
        TopologyBuilder b = Topology.builder(baseName(fileName));
        new Assembly(c, b, problems, notes).run();
        problems.throwIfAny();
        StringBuilder source = new StringBuilder("NCCL topology XML " + fileName);
        for (String n : notes) {
            source.append("; ").append(n);
        }
        Problems.warnings(fileName, notes, b);
        Topology t = b.source(source.toString()).build();
        unreachable(t, c.gpus, problems);
        problems.throwIfAny();
        return t;
    }

    /**
     * Refuses what NCCL could not join ({@link Reachability}): each gap at the {@code <gpu>} element it is about (for
     * an unreachable host, that host's first GPU), since the file has no line for what is missing.
     */
    private static void unreachable(Topology t, List<GpuElement> gpus, Problems problems) {
        for (Reachability.Gap g : Reachability.of(t)) {
            String allowed = switch (g.kind()) {
                case GPU_PAIR -> "every <gpu> inside a <pci> under a <cpu>, or joined by <nvlink>";
                case NO_WAY_OUT -> "with several hosts (host_hash), a <nic> with a <net> on a PCIe or CPU route from"
                        + " every GPU, or an <nvlink> to a shared NVSwitch";
                case HOST -> "hosts that a NIC of each or a shared NVLink domain joins";
            };
            String message = "host " + g.host() + ": " + g.message() + "; allowed: " + allowed;
            gpus.stream().filter(e -> e.host() == g.host() && e.busId().equals(g.gpu().busId())).findFirst()
                    .ifPresentOrElse(e -> problems.at(e.node(), message), () -> problems.at(0, 0, "gpu", message));
        }
    }

    public static String baseName(String fileName) {
        String n = Path.of(fileName).getFileName() == null ? fileName : Path.of(fileName).getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot > 0 ? n.substring(0, dot) : n;
    }

    /** Second pass: creates devices and links from the collected specs. */
    private static final class Assembly {
        private final NcclTopoXmlCollector c;
        private final TopologyBuilder b;
        private final Problems problems;
        private final List<String> notes;
        private final Map<Long, Gpu> gpuByBus = new LinkedHashMap<>();
        private final Map<Long, String> switchByBus = new LinkedHashMap<>();

        Assembly(NcclTopoXmlCollector c, TopologyBuilder b, Problems problems, List<String> notes) {
            this.c = c;
            this.b = b;
            this.problems = problems;
            this.notes = notes;
        }

        void run() {
            c.cpus.forEach(b::add);
            for (SwitchElement s : c.switches) {
                b.add(new PcieSwitch(s.id(), s.host(), s.busId(), s.hostBridge()));
                switchByBus.put(PciSpecs.key(s.busId()), s.id());
                pcie(s.id(), s.parentId(), s.link());
            }
            List<Gpu> gpus = gpus();
            nics();
            smp();
            for (int i = 0; i < gpus.size(); i++) {
                nvlinks(gpus.get(i), c.gpus.get(i));
            }
            pciLinks();
        }

        private void pcie(String childId, String parentId, PciSpecs.PcieLink l) {
            Device child = b.device(childId).orElseThrow();
            Device parent = b.device(parentId).orElseThrow();
            b.connect(child, parent, LinkType.PCIE, l.realWidth(), l.physical(), l.nccl(), Latency.ZERO, l.detail());
        }

        private List<Gpu> gpus() {
            Set<String> used = new HashSet<>();
            for (GpuElement g : c.gpus) {
                if (g.dev() >= 0 && !used.add(g.host() + "/" + g.dev())) {
                    problems.at(g.node(), "a second GPU with dev " + g.dev() + " on host " + g.host()
                            + "; allowed: unique NVML indices");
                }
            }
            List<GpuElement> noDev = c.gpus.stream().filter(g -> g.dev() < 0)
                    .sorted(Comparator.comparingLong(g -> PciSpecs.key(g.busId()))).toList();
            Map<GpuElement, Integer> assigned = new LinkedHashMap<>();
            for (GpuElement g : noDev) {
                int k = 0;
                while (used.contains(g.host() + "/" + k)) {
                    k++;
                }
                used.add(g.host() + "/" + k);
                assigned.put(g, k);
            }
            if (!noDev.isEmpty()) {
                notes.add(noDev.size() + " GPU(s) without <gpu> element numbered in bus id order");
            }
            List<Gpu> out = new ArrayList<>();
            for (GpuElement g : c.gpus) {
                int dev = g.dev() >= 0 ? g.dev() : assigned.get(g);
                String id = "h" + g.host() + "/gpu" + dev;
                if (b.has(id)) {
                    out.add((Gpu) b.device(id).orElseThrow());
                    continue;
                }
                long memory = GpuModels.memoryBytes(g.model());
                Gpu gpu = b.add(new Gpu(id, g.host(), dev, g.model(), g.sm(), memory, g.busId()));
                gpuByBus.put(PciSpecs.key(g.busId()), gpu);
                pcie(id, g.parentId(), g.link());
                out.add(gpu);
            }
            return out;
        }

        private void nics() {
            Set<String> used = new HashSet<>();
            c.nics.stream().filter(n -> n.dev() >= 0).forEach(n -> {
                if (!used.add(n.host() + "/" + n.dev())) {
                    problems.at(n.node(), "dev", "a second net with dev " + n.dev() + " on host " + n.host()
                            + "; allowed: unique NET device indices");
                }
            });
            List<NicElement> ordered = new ArrayList<>(c.nics.stream().filter(n -> n.dev() >= 0)
                    .sorted(Comparator.comparingInt(NicElement::host).thenComparingInt(NicElement::dev)).toList());
            c.nics.stream().filter(n -> n.dev() < 0).sorted(Comparator.comparingLong(n -> PciSpecs.key(n.busId())))
                    .forEach(ordered::add);
            Map<Integer, Integer> railByHost = new LinkedHashMap<>();
            for (NicElement n : ordered) {
                int dev = n.dev();
                if (dev < 0) {
                    dev = 0;
                    while (used.contains(n.host() + "/" + dev)) {
                        dev++;
                    }
                    used.add(n.host() + "/" + dev);
                }
                String id = "h" + n.host() + "/nic" + dev;
                if (b.has(id)) {
                    continue;
                }
                int rail = n.rail() != NcclTopoXmlCollector.NO_RAIL ? n.rail()
                        : railByHost.merge(n.host(), 1, Integer::sum) - 1;
                b.add(new Nic(id, n.host(), n.name() == null ? "" : n.name(), Bandwidth.ofGbits(n.speedMbps() / 1000.0),
                        n.port(), n.gdr(), rail, n.busId()));
                if (n.link() == null) {
                    Bandwidth loc = Bandwidth.ofGBps(NcclBandwidths.LOC_BW);
                    b.connect(b.device(id).orElseThrow(), b.device(n.parentId()).orElseThrow(), LinkType.PCIE, 1,
                            loc, loc, Latency.ZERO, VIRTUAL_NIC_LINK);
                } else {
                    pcie(id, n.parentId(), n.link());
                }
            }
        }

        private void smp() {
            for (int i = 0; i < c.cpus.size(); i++) {
                for (int j = i + 1; j < c.cpus.size(); j++) {
                    Cpu a = c.cpus.get(i);
                    Cpu z = c.cpus.get(j);
                    if (a.host() != z.host()) {
                        continue;
                    }
                    int[] ids = c.cpuIds.get(a.id());
                    NcclBandwidths.Smp rate = NcclBandwidths.interCpu(a.arch(), a.vendor(), ids[0], ids[1]);
                    b.connect(a, z, LinkType.SMP, 1, rate.bandwidth(), rate.bandwidth(), Latency.ZERO, rate.detail());
                }
            }
        }

        private void nvlinks(Gpu gpu, GpuElement spec) {
            Map<String, Integer> counts = new LinkedHashMap<>();
            Map<String, StringBuilder> chips = new LinkedHashMap<>();
            for (NvLinkElement l : spec.nvlinks()) {
                String remote = remote(gpu, spec, l);
                if (remote == null) {
                    continue;
                }
                counts.merge(remote, l.count(), Integer::sum);
                if (remote.endsWith("/nvs0") && !PciSpecs.isInvisible(l.target())) {
                    StringBuilder s = chips.computeIfAbsent(remote, r -> new StringBuilder());
                    s.append(s.length() == 0 ? "" : ",").append(l.target()).append('=').append(l.count());
                }
            }
            if (counts.isEmpty()) {
                spec.c2c().forEach(cc -> c2c(gpu, spec, cc));
                return;
            }
            Optional<NvlinkGen> gen = GpuModels.nvlinkOfSm(gpu.sm());
            if (gen.isEmpty()) {
                problems.at(spec.nvlinks().get(0).node(), "nvlink on a GPU of sm " + gpu.sm()
                        + ", which has no NVLink; allowed: sm " + GpuModels.nvlinkSms().stream().map(String::valueOf)
                        .collect(Collectors.joining(", ")));
                return;
            }
            Bandwidth perLink = gen.get().perLink();
            for (Map.Entry<String, Integer> e : counts.entrySet()) {
                Device remote = b.device(e.getKey()).orElseThrow();
                String detail = gen.get().label()
                        + (chips.containsKey(e.getKey()) ? "; switches " + chips.get(e.getKey()) : "");
                Bandwidth bw = perLink.times(e.getValue());
                if (remote instanceof Gpu) {
                    b.connectOneWay(gpu, remote, LinkType.NVLINK, e.getValue(), bw, Latency.ZERO, detail);
                } else {
                    b.connect(gpu, remote, LinkType.NVLINK, e.getValue(), bw, Latency.ZERO, detail);
                }
            }
            spec.c2c().forEach(cc -> c2c(gpu, spec, cc));
        }

        private String remote(Gpu gpu, GpuElement spec, NvLinkElement l) {
            if (l.tclass().startsWith("0x03")) {
                Gpu remote = PciSpecs.isInvisible(l.target()) ? null : gpuByBus.get(PciSpecs.key(l.target()));
                if (remote == gpu) {
                    notes.add("GPU " + gpu.id() + " declares " + l.count() + " NVLinks to itself (line "
                            + l.node().line() + "); a graph has no self link, so they are dropped");
                    return null;
                }
                if (remote == null || remote.host() != gpu.host()) {
                    notes.add(Problems.WARNING + "nvlink target " + l.target() + " of " + gpu.id() + " (line "
                            + l.node().line() + ") has GPU class " + l.tclass() + " but is not a GPU of this host;"
                            + " its " + l.count() + " NVLinks are ignored, as NCCL does");
                    return null;
                }
                return remote.id();
            }
            if (l.tclass().equals(PciSpecs.CLASS_CPU)) {
                return spec.cpuId();
            }
            if (!l.tclass().equals(PciSpecs.CLASS_NVSWITCH) && !PciSpecs.isInvisible(l.target())) {
                notes.add(Problems.WARNING + "nvlink target " + l.target() + " of " + gpu.id() + " (line "
                        + l.node().line() + ") has class " + l.tclass() + ", which is neither a GPU (0x03...), a CPU ("
                        + PciSpecs.CLASS_CPU + ") nor an NVSwitch (" + PciSpecs.CLASS_NVSWITCH + "); its " + l.count()
                        + " NVLinks are taken to the NVSwitch, as NCCL 2.30 src/graph/topo.cc (ncclTopoAddNvLinks)"
                        + " does for any class but GPU and CPU");
            }
            String id = "h" + gpu.host() + "/nvs0";
            if (!b.has(id)) {
                b.add(new NvSwitch(id, gpu.host(), gpu.host()));
            }
            return id;
        }

        private void c2c(Gpu gpu, GpuElement spec, double[] bwCount) {
            Device cpu = b.device(spec.cpuId()).orElseThrow();
            int count = (int) bwCount[1];
            b.connect(gpu, cpu, LinkType.C2C, count, Bandwidth.ofGBps(bwCount[0] * count / 1000.0), Latency.ZERO,
                    "NVLink-C2C");
        }

        private void pciLinks() {
            for (int i = 0; i < c.pciLinks.size(); i++) {
                String[] l = c.pciLinks.get(i);
                String target = PciSpecs.isBusId(l[1]) ? switchByBus.get(PciSpecs.key(l[1])) : null;
                if (target == null) {
                    problems.at(c.pciLinkNodes.get(i), "target", "found '" + l[1] + "'; allowed: the bus id of a"
                            + " PCI switch in this file");
                    continue;
                }
                b.connectOneWay(b.device(l[0]).orElseThrow(), b.device(target).orElseThrow(), LinkType.LOC, 1,
                        Bandwidth.ofGBps(NcclBandwidths.LOC_BW), Latency.ZERO, "pcilink");
            }
        }
    }

    /** Detail of the virtual link of a {@code nic} placed directly under a {@code cpu}. */
    public static final String VIRTUAL_NIC_LINK = "virtual: nic under cpu (NCCL LOC_BW)";
}
