package dev.collsim.topology.io.yaml;

import dev.collsim.io.yaml.YamlFields;
import dev.collsim.io.yaml.YamlNode;
import dev.collsim.topology.io.Problems;

import dev.collsim.hardware.CpuModel;
import dev.collsim.hardware.CpuModels;
import dev.collsim.hardware.GpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.NvlinkGen;
import dev.collsim.hardware.PcieGen;
import dev.collsim.topology.io.yaml.InlineHostType.CpuSpec;
import dev.collsim.topology.io.yaml.InlineHostType.GpuSpec;
import dev.collsim.topology.io.yaml.InlineHostType.NicSpec;
import dev.collsim.topology.io.yaml.InlineHostType.NvlinkSpec;
import dev.collsim.topology.io.yaml.InlineHostType.PcieSpec;
import dev.collsim.topology.io.yaml.InlineHostType.RootPortSpec;
import dev.collsim.topology.io.yaml.InlineHostType.SwitchSpec;
import dev.collsim.units.Bandwidth;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Parses an inline host description (the {@code hosts:} mapping of a {@code collsim/v1} YAML file):
 * <pre>
 * hosts:
 *   name: my-box                       # optional
 *   gpus:   {count: 8, model: H100-SXM5-80GB, sm: 90, memory: 80 GB}   # sm may be left out for a model of the GPU
 *                                                                     # database (its compute capability)
 *   cpus:   {count: 2, vendor: GenuineIntel, model: Xeon Platinum 8480C, arch: x86_64, interconnect: 128 GB/s}
 *           (interconnect, the physical bandwidth between two CPUs per direction, defaults to the socket links of the
 *           CPU database's family the model names; required for two or more CPUs of a model it does not know)
 *   nvlink: {switches: 4, linksPerGpu: 18, bandwidthPerLink: 25 GB/s, generation: NVLink4}
 *           # or {pairs: [{gpus: [0, 1], links: 12}], bandwidthPerLink: 25 GB/s}
 *   pcie:
 *     gen: 5                           # PCIe generation 1..6
 *     width: 16                        # lanes, default 16
 *     switches: [{name: sw0, cpu: 0, hostBridge: 0, gpus: [0], nics: [0]}, {name: sw1, parent: sw0, gpus: [1]}]
 *     rootPorts: [{cpu: 1, gpus: [2]}] # devices directly on a CPU
 *     linkSpeedUnset: true             # optional: NCCL reads link_speed empty (a Hyper-V guest, or the host's
 *                                      # NCCL_TOPO_FILE leaves it empty) and takes its 8 GT/s fallback
 *   nics:   [{name: mlx5_0, speed: 400 Gb/s, rail: 0, gdr: true}]   # or {count: 8, speed: 400 Gb/s}
 * </pre>
 * Every problem is reported with its location; the result is null when there was any.
 */
final class InlineHostParser {

    static final List<String> HOST_KEYS = List.of("cpus", "gpus", "name", "nics", "nvlink", "pcie");
    private static final List<String> GPU_KEYS = List.of("count", "memory", "model", "sm");
    private static final List<String> CPU_KEYS = List.of("arch", "count", "interconnect", "model", "vendor");
    private static final List<String> NVLINK_KEYS = List.of("bandwidthPerLink", "generation", "linksPerGpu", "pairs",
            "switches");
    private static final List<String> PAIR_KEYS = List.of("gpus", "links");
    private static final List<String> PCIE_KEYS = List.of("gen", "linkSpeedUnset", "rootPorts", "switches", "width");
    private static final List<String> NIC_KEYS = List.of("gdr", "name", "rail", "speed");
    private static final List<String> NIC_COUNT_KEYS = List.of("count", "gdr", "speed");

    private final YamlFields f;
    private final Problems problems;
    private int declaredGpus;
    private int declaredCpus;

    InlineHostParser(Problems problems) {
        this.problems = problems;
        this.f = new YamlFields(problems.file(), problems::add);
    }

    InlineHostType parse(YamlNode host) {
        int before = problems.size();
        f.checkKeys(host, HOST_KEYS);
        String name = f.text(host, "name", false);
        GpuSpec gpus = gpus(f.map(host, "gpus", true));
        CpuSpec cpus = cpus(f.map(host, "cpus", true));
        int nGpus = declaredGpus;
        int nCpus = declaredCpus;
        NvlinkSpec nvlink = nvlink(f.map(host, "nvlink", false), nGpus, gpus);
        List<NicSpec> nics = nics(f.node(host, "nics", false));
        PcieSpec pcie = pcie(f.map(host, "pcie", false), host, nGpus, nCpus, nics.size());
        if (problems.size() > before) {
            return null;
        }
        String n = name == null ? "custom" : name;
        return new InlineHostType(n, n + ": " + nGpus + "x " + gpus.model() + " (inline description)", gpus, cpus,
                nvlink, pcie, nics);
    }

    private GpuSpec gpus(YamlNode g) {
        if (g == null) {
            return null;
        }
        f.checkKeys(g, GPU_KEYS);
        Integer count = f.integer(g, "count", true, 1, Integer.MAX_VALUE);
        declaredGpus = count == null ? 0 : count;
        String model = f.text(g, "model", true);
        Integer sm = f.integer(g, "sm", false, 30, Integer.MAX_VALUE);
        if (sm == null && g.get("sm") == null && model != null) {
            // a model the GPU database knows (by name, alias, SKU name, or text such as nvidia-smi prints) gives its
            // compute capability; another needs sm
            sm = GpuModels.sku(model).map(k -> k.model().sm())
                    .or(() -> GpuModels.find(model).map(GpuModel::sm)).orElse(null);
            if (sm == null) {
                problems.add(g.get("model"), "hosts.gpus.model", "found '" + model + "', a model the GPU database"
                        + " does not know; allowed: a model it knows (" + knownLike(model) + "), or this model with"
                        + " sm: compute capability x 10 (e.g. 90 for Hopper)");
            }
        }
        Long mem = f.size(g, "memory");
        if (sm != null && sm > 200) {
            problems.add(g.get("sm"), "hosts.gpus.sm", "found " + sm + "; allowed: compute capability x 10 in 30..200,"
                    + " e.g. 90 for Hopper");
            return null;
        }
        return count == null || model == null || sm == null ? null
                : new GpuSpec(count, model, sm, mem == null ? GpuModels.memoryBytes(model) : mem);
    }

    /** @return the database's model names sharing a word with the user's text, else a few examples */
    private static String knownLike(String model) {
        List<String> near = GpuModels.sharingAWord(model);
        return near.isEmpty() ? "e.g. H100-SXM5-80GB, A100-PCIE-80GB, L40S" : "e.g. " + String.join(", ", near);
    }

    private CpuSpec cpus(YamlNode c) {
        if (c == null) {
            return null;
        }
        f.checkKeys(c, CPU_KEYS);
        Integer count = f.integer(c, "count", true, 1, Integer.MAX_VALUE);
        declaredCpus = count == null ? 0 : count;
        String vendor = f.text(c, "vendor", true);
        String model = f.text(c, "model", true);
        String arch = f.text(c, "arch", false);
        // a model the CPU database knows brings its socket links (CpuModel.interSocket), as a catalog host's CPU does;
        // without a model only 'model' is reported: one the database knows needs no interconnect
        Optional<Bandwidth> known = Optional.ofNullable(model).flatMap(CpuModels::find).flatMap(CpuModel::interSocket);
        Bandwidth smp = f.bandwidth(c, "interconnect", count != null && count > 1 && model != null && known.isEmpty());
        if (count == null || vendor == null || model == null || count > 1 && smp == null && known.isEmpty()) {
            return null;
        }
        return new CpuSpec(count, arch == null ? "x86_64" : arch, vendor, model,
                smp != null ? smp : known.orElse(Bandwidth.ofGBps(1)));
    }

    /** @param gpus the host's GPUs (null when invalid), whose sm names the NVLink generation the YAML leaves out */
    private NvlinkSpec nvlink(YamlNode n, int nGpus, GpuSpec gpus) {
        if (n == null) {
            return null;
        }
        String p = "hosts.nvlink";
        f.checkKeys(n, NVLINK_KEYS);
        Bandwidth per = f.bandwidth(n, "bandwidthPerLink", true);
        String gen = f.text(n, "generation", false);
        Integer switches = f.integer(n, "switches", false, 1, Integer.MAX_VALUE);
        Integer links = f.integer(n, "linksPerGpu", switches != null, 1, Integer.MAX_VALUE);
        List<int[]> pairs = new ArrayList<>();
        List<YamlNode> items = f.list(n, "pairs");
        if (n.get("switches") != null && n.get("pairs") != null) {
            problems.add(n.get("pairs"), p + ".pairs", "give either switches (NVSwitch) or pairs (direct links), not both");
        }
        if (n.get("switches") == null && n.get("pairs") == null) {
            problems.add(n, p, "missing 'switches' or 'pairs'; allowed: switches with linksPerGpu, or pairs");
        }
        for (int i = 0; i < items.size(); i++) {
            String ip = p + ".pairs[" + i + "]";
            YamlNode it = items.get(i);
            f.checkKeys(it, PAIR_KEYS);
            List<Integer> ends = f.indices(it, "gpus");
            Integer count = f.integer(it, "links", true, 1, Integer.MAX_VALUE);
            if (ends.size() != 2 || ends.get(0).equals(ends.get(1))) {
                problems.add(it, ip + ".gpus", "found " + ends + "; allowed: two different GPU indices, e.g. [0, 1]");
                continue;
            }
            for (int e : ends) {
                if (e >= nGpus) {
                    problems.add(it.get("gpus"), ip + ".gpus", "link to undeclared GPU " + e + "; declared GPUs: 0.."
                            + (nGpus - 1));
                }
            }
            if (count != null) {
                pairs.add(new int[] {ends.get(0), ends.get(1), count});
            }
        }
        return per == null ? null : new NvlinkSpec(switches == null ? 0 : switches, links == null ? 0 : links, per,
                gen != null ? gen : gpus == null ? "NVLink" : GpuModels.nvlinkOfSm(gpus.sm()).map(NvlinkGen::label)
                        .orElse("NVLink"), pairs);
    }

    private List<NicSpec> nics(YamlNode n) {
        List<NicSpec> out = new ArrayList<>();
        if (n == null) {
            return out;
        }
        if (n.isMap()) {
            f.checkKeys(n, NIC_COUNT_KEYS);
            Integer count = f.integer(n, "count", true, 1, Integer.MAX_VALUE);
            Bandwidth speed = f.bandwidth(n, "speed", true);
            Boolean gdr = f.bool(n, "gdr");
            for (int i = 0; count != null && speed != null && i < count; i++) {
                out.add(new NicSpec("nic" + i, speed, i, gdr == null || gdr));
            }
            return out;
        }
        if (!n.isList()) {
            problems.add(n, "hosts.nics", "found " + n.found() + "; allowed: a list of NICs, or {count, speed}");
            return out;
        }
        for (int i = 0; i < n.items().size(); i++) {
            String p = "hosts.nics[" + i + "]";
            YamlNode it = n.items().get(i);
            f.checkKeys(it, NIC_KEYS);
            String name = f.text(it, "name", false);
            Bandwidth speed = f.bandwidth(it, "speed", true);
            Integer rail = it.get("rail") == null ? Integer.valueOf(i)
                    : f.integer(it, "rail", false, -1, Integer.MAX_VALUE);
            Boolean gdr = f.bool(it, "gdr");
            out.add(new NicSpec(name == null ? "nic" + i : name, speed == null ? Bandwidth.ofGBps(1) : speed,
                    rail == null ? -1 : rail, gdr == null || gdr));
        }
        return out;
    }

    private PcieSpec pcie(YamlNode p, YamlNode host, int nGpus, int nCpus, int nNics) {
        List<SwitchSpec> switches = new ArrayList<>();
        List<RootPortSpec> roots = new ArrayList<>();
        Integer gen = null;
        Integer width = 16;
        Boolean speedUnset = null;
        if (p != null) {
            f.checkKeys(p, PCIE_KEYS);
            gen = f.integer(p, "gen", true, 1, PcieGen.values().length);
            speedUnset = f.bool(p, "linkSpeedUnset");
            width = p.get("width") == null ? Integer.valueOf(16) : f.integer(p, "width", false, 1, Integer.MAX_VALUE);
            new PcieTreeChecker(f, problems, nGpus, nCpus, nNics).check(p, switches, roots);
        }
        if (nNics > 0 && p == null) {
            problems.add(host, "hosts.pcie", "the host has NICs but no pcie section to attach them to");
        }
        return new PcieSpec(gen == null ? PcieGen.GEN4 : PcieGen.of(gen), width == null ? 16 : width, switches, roots,
                Boolean.TRUE.equals(speedUnset));
    }
}
