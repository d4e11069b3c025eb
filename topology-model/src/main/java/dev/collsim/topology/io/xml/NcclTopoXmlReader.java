package dev.collsim.topology.io.xml;

import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.io.HardwareHints;
import dev.collsim.topology.io.Problems;

import dev.collsim.io.InputException;
import dev.collsim.io.TopologyReader;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.paths.Reachability;
import dev.collsim.topology.io.xml.PciSpecs.GpuElement;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

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
 *
 * <p>Passes: {@link NcclTopoXmlCollector} reads the elements into specs, {@link NcclTopoXmlAssembly} makes the
 * devices and links ({@link NcclTopoXmlNvLinks} the NVLink and C2C ones), then what NCCL could not join is refused.
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
        new NcclTopoXmlAssembly(c, b, problems, notes).run();
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

    /** Detail of the virtual link of a {@code nic} placed directly under a {@code cpu}. */
    public static final String VIRTUAL_NIC_LINK = "virtual: nic under cpu (NCCL LOC_BW)";
}
