package dev.collsim.topology.io.xml;

import dev.collsim.hardware.CpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.io.Problems;
import dev.collsim.topology.io.xml.PciSpecs.GpuElement;
import dev.collsim.topology.io.xml.PciSpecs.NicElement;
import dev.collsim.topology.io.xml.PciSpecs.SwitchElement;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The second pass of {@link NcclTopoXmlReader}: creates the devices and links of the specs {@link NcclTopoXmlCollector}
 * collected (CPUs, PCI switches, GPUs numbered by NVML index or else bus id, NICs with their rails, SMP links between
 * a host's CPUs, {@code pcilink}s); NVLinks and C2C: {@link NcclTopoXmlNvLinks}. Problems and notes go to the
 * reader's lists. One use; not thread-safe.
 */
final class NcclTopoXmlAssembly {
    private final NcclTopoXmlCollector c;
    private final TopologyBuilder b;
    private final Problems problems;
    private final List<String> notes;
    private final Map<Long, Gpu> gpuByBus = new LinkedHashMap<>();
    private final Map<Long, String> switchByBus = new LinkedHashMap<>();

    NcclTopoXmlAssembly(NcclTopoXmlCollector c, TopologyBuilder b, Problems problems, List<String> notes) {
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
        NcclTopoXmlNvLinks nvlinks = new NcclTopoXmlNvLinks(b, problems, notes, gpuByBus);
        for (int i = 0; i < gpus.size(); i++) {
            nvlinks.add(gpus.get(i), c.gpus.get(i));
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
                        loc, loc, Latency.ZERO, NcclTopoXmlReader.VIRTUAL_NIC_LINK);
            } else {
                pcie(id, n.parentId(), n.link());
            }
        }
    }

    /**
     * SMP links between a host's CPUs: NCCL's figure ({@code ncclTopoGetInterCpuBw}) as the NCCL view, and the CPU
     * database's socket links ({@link XmlCpuFacts#database}) as the physical one, NCCL's figure when it has none.
     */
    private void smp() {
        Set<String> said = new HashSet<>();
        for (int i = 0; i < c.cpus.size(); i++) {
            for (int j = i + 1; j < c.cpus.size(); j++) {
                Cpu a = c.cpus.get(i);
                Cpu z = c.cpus.get(j);
                if (a.host() != z.host()) {
                    continue;
                }
                XmlCpuFacts f = c.cpuFacts.get(a.id());
                NcclBandwidths.Smp rate = NcclBandwidths.interCpu(a.arch(), a.vendor(), f.family(), f.model());
                Optional<CpuModel> db = f.database().filter(m -> m.interSocket().isPresent());
                Bandwidth physical = db.flatMap(CpuModel::interSocket).orElse(rate.bandwidth());
                String note = "CPUs joined by SMP links of " + rate.bandwidth() + " per direction: " + rate.detail()
                        + db.map(m -> "; physically " + physical + " (" + m.family() + ": " + m.socketLinks() + " "
                        + m.socketLink() + " links, the CPU database)").orElse("");
                if (said.add(note)) {
                    notes.add(note);
                }
                b.connect(a, z, LinkType.SMP, 1, physical, rate.bandwidth(), Latency.ZERO, rate.detail());
            }
        }
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
