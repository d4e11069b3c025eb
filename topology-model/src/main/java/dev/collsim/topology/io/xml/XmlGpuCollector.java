package dev.collsim.topology.io.xml;

import dev.collsim.hardware.GpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.io.Decimals;
import dev.collsim.topology.io.HardwareHints;
import dev.collsim.topology.io.Problems;
import dev.collsim.topology.io.xml.PciSpecs.GpuElement;
import dev.collsim.topology.io.xml.PciSpecs.NvLinkElement;
import dev.collsim.topology.io.xml.PciSpecs.PcieLink;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * The GPU part of {@link NcclTopoXmlCollector}'s first pass: reads a GPU's {@code pci} element and its {@code <gpu>}
 * child (with its {@code <nvlink>} and {@code <c2c>} children) the way NCCL 2.30 {@code src/graph/topo.cc} does
 * ({@code ncclTopoAddGpu}, {@code ncclTopoAddNvLinks}, {@code ncclTopoAddC2c}), fills in what the file leaves out
 * from the hints and the GPU database (a GPU without {@code <gpu>}, a hidden PCIe link, NVLinks the hint declares)
 * and says so in the notes, GPUs alike sharing one note. Bad values become problems; nothing is thrown here. Not
 * thread-safe.
 */
final class XmlGpuCollector {

    private final Problems problems;
    private final HardwareHints hints;
    private final List<String> notes;
    private final List<GpuElement> gpus;
    /** GPUs without a {@code <gpu>} element, by the words that say where their sm came from ({@link #bareSm}). */
    private final Map<String, List<String>> bare = new LinkedHashMap<>();
    private final List<String> declared = new ArrayList<>();
    /** GPU {@code pci} elements whose link the file hides, by the warning text (after line and column). */
    private final Map<String, List<XmlNode>> hidden = new LinkedHashMap<>();

    /**
     * @param problems where bad values go
     * @param hints    GPU facts the file may lack
     * @param notes    where the notes and warnings go
     * @param gpus     where the GPUs read go
     */
    XmlGpuCollector(Problems problems, HardwareHints hints, List<String> notes, List<GpuElement> gpus) {
        this.problems = problems;
        this.hints = hints;
        this.notes = notes;
        this.gpus = gpus;
    }

    /** Adds the notes of every GPU read: those without {@code <gpu>}, hidden links, NVLinks from the hint. */
    void addNotes() {
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
    }

    /**
     * Reads one GPU: a {@code pci} element of a GPU and its {@code <gpu>} child (null when the file has none), as
     * NCCL's {@code ncclTopoAddGpu} does.
     *
     * @param pci      the {@code pci} element
     * @param g        its {@code <gpu>} child, null when absent
     * @param host     host index
     * @param busId    the PCI bus id
     * @param parentId id of the device above (CPU or PCIe switch)
     * @param cpuId    id of the CPU the GPU hangs off
     * @param ncclLink the PCIe link as NCCL reads it
     */
    void add(XmlNode pci, XmlNode g, int host, String busId, String parentId, String cpuId, PcieLink ncclLink) {
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
}
