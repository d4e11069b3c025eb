package dev.collsim.topology.io.xml;

import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.NvlinkGen;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.io.Problems;
import dev.collsim.topology.io.xml.PciSpecs.GpuElement;
import dev.collsim.topology.io.xml.PciSpecs.NvLinkElement;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The NVLink and C2C edges of an NCCL topology XML file, as NCCL 2.30 {@code src/graph/topo.cc} adds them
 * ({@code ncclTopoAddNvLinks}, {@code ncclTopoAddC2c}): an {@code nvlink} to a GPU of the same host one directed edge
 * per element direction, to a CPU ({@link PciSpecs#CLASS_CPU}) both ways, to any other class or an invisible target
 * the host's one shared {@link NvSwitch} ({@code h{host}/nvs0}); a {@code c2c} a C2C link to the enclosing CPU of
 * {@code bw x count / 1000} GB/s. Part of {@link NcclTopoXmlAssembly}; one use, not thread-safe.
 */
final class NcclTopoXmlNvLinks {

    private final TopologyBuilder b;
    private final Problems problems;
    private final List<String> notes;
    /** The file's GPUs by bus id key ({@link PciSpecs#key}). */
    private final Map<Long, Gpu> gpuByBus;

    NcclTopoXmlNvLinks(TopologyBuilder b, Problems problems, List<String> notes, Map<Long, Gpu> gpuByBus) {
        this.b = b;
        this.problems = problems;
        this.notes = notes;
        this.gpuByBus = gpuByBus;
    }

    /**
     * Adds a GPU's NVLink edges (elements to the same remote merged, count summed; bandwidth count x the per-link rate
     * of the sm's NVLink generation) and its C2C links.
     *
     * @param gpu  the GPU, already added
     * @param spec its element
     */
    void add(Gpu gpu, GpuElement spec) {
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
}
