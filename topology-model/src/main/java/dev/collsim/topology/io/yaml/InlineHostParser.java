package dev.collsim.topology.io.yaml;

import dev.collsim.io.yaml.YamlNode;
import dev.collsim.topology.io.Problems;

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
import java.util.Set;

/**
 * Parses an inline host description (the {@code hosts:} mapping of a {@code collsim/v1} YAML file):
 * <pre>
 * hosts:
 *   name: my-box                       # optional
 *   gpus:   {count: 8, model: H100-SXM5-80GB, sm: 90, memory: 80 GB}
 *   cpus:   {count: 2, vendor: GenuineIntel, model: Xeon Platinum 8480C, arch: x86_64, interconnect: 128 GB/s}
 *   nvlink: {switches: 4, linksPerGpu: 18, bandwidthPerLink: 25 GB/s, generation: NVLink4}
 *           # or {pairs: [{gpus: [0, 1], links: 12}], bandwidthPerLink: 25 GB/s}
 *   pcie:
 *     gen: 5                           # PCIe generation 1..6
 *     width: 16                        # lanes, default 16
 *     switches: [{name: sw0, cpu: 0, hostBridge: 0, gpus: [0], nics: [0]}, {name: sw1, parent: sw0, gpus: [1]}]
 *     rootPorts: [{cpu: 1, gpus: [2]}] # devices directly on a CPU
 *   nics:   [{name: mlx5_0, speed: 400 Gb/s, rail: 0, gdr: true}]   # or {count: 8, speed: 400 Gb/s}
 * </pre>
 * Every problem is reported with its location; the result is null when there was any.
 */
final class InlineHostParser {

    static final Set<String> HOST_KEYS = Set.of("name", "gpus", "cpus", "nvlink", "pcie", "nics");
    private static final Set<String> GPU_KEYS = Set.of("count", "model", "sm", "memory");
    private static final Set<String> CPU_KEYS = Set.of("count", "vendor", "model", "arch", "interconnect");
    private static final Set<String> NVLINK_KEYS = Set.of("switches", "linksPerGpu", "bandwidthPerLink",
            "generation", "pairs");
    private static final Set<String> PAIR_KEYS = Set.of("gpus", "links");
    private static final Set<String> PCIE_KEYS = Set.of("gen", "width", "switches", "rootPorts");
    private static final Set<String> NIC_KEYS = Set.of("name", "speed", "rail", "gdr");
    private static final Set<String> NIC_COUNT_KEYS = Set.of("count", "speed", "gdr");

    private final Fields f;
    private final Problems problems;
    private int declaredGpus;
    private int declaredCpus;

    InlineHostParser(Problems problems) {
        this.problems = problems;
        this.f = new Fields(problems);
    }

    InlineHostType parse(YamlNode host) {
        int before = problems.size();
        f.checkKeys(host, "hosts", HOST_KEYS);
        String name = f.text(host, "name", "hosts", false);
        GpuSpec gpus = gpus(f.map(host, "gpus", "hosts", true));
        CpuSpec cpus = cpus(f.map(host, "cpus", "hosts", true));
        int nGpus = declaredGpus;
        int nCpus = declaredCpus;
        NvlinkSpec nvlink = nvlink(f.map(host, "nvlink", "hosts", false), nGpus);
        List<NicSpec> nics = nics(f.node(host, "nics", "hosts", false));
        PcieSpec pcie = pcie(f.map(host, "pcie", "hosts", false), host, nGpus, nCpus, nics.size());
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
        f.checkKeys(g, "hosts.gpus", GPU_KEYS);
        Integer count = f.integer(g, "count", "hosts.gpus", true, 1);
        declaredGpus = count == null ? 0 : count;
        String model = f.text(g, "model", "hosts.gpus", true);
        Integer sm = f.integer(g, "sm", "hosts.gpus", true, 30);
        Long mem = f.size(g, "memory", "hosts.gpus");
        if (sm != null && sm > 200) {
            problems.add(g.get("sm"), "hosts.gpus.sm", "found " + sm + "; allowed: compute capability x 10 in 30..200,"
                    + " e.g. 90 for Hopper");
            return null;
        }
        return count == null || model == null || sm == null ? null
                : new GpuSpec(count, model, sm, mem == null ? 0 : mem);
    }

    private CpuSpec cpus(YamlNode c) {
        if (c == null) {
            return null;
        }
        f.checkKeys(c, "hosts.cpus", CPU_KEYS);
        Integer count = f.integer(c, "count", "hosts.cpus", true, 1);
        declaredCpus = count == null ? 0 : count;
        String vendor = f.text(c, "vendor", "hosts.cpus", true);
        String model = f.text(c, "model", "hosts.cpus", true);
        String arch = f.text(c, "arch", "hosts.cpus", false);
        Bandwidth smp = f.bandwidth(c, "interconnect", "hosts.cpus", count != null && count > 1);
        if (count == null || vendor == null || model == null || count > 1 && smp == null) {
            return null;
        }
        return new CpuSpec(count, arch == null ? "x86_64" : arch, vendor, model, smp == null ? Bandwidth.ofGBps(1) : smp);
    }

    private NvlinkSpec nvlink(YamlNode n, int nGpus) {
        if (n == null) {
            return null;
        }
        String p = "hosts.nvlink";
        f.checkKeys(n, p, NVLINK_KEYS);
        Bandwidth per = f.bandwidth(n, "bandwidthPerLink", p, true);
        String gen = f.text(n, "generation", p, false);
        Integer switches = f.integer(n, "switches", p, false, 1);
        Integer links = f.integer(n, "linksPerGpu", p, switches != null, 1);
        List<int[]> pairs = new ArrayList<>();
        List<YamlNode> items = f.list(n, "pairs", p);
        if (n.get("switches") != null && n.get("pairs") != null) {
            problems.add(n.get("pairs"), p + ".pairs", "give either switches (NVSwitch) or pairs (direct links), not both");
        }
        if (n.get("switches") == null && n.get("pairs") == null) {
            problems.add(n, p, "missing 'switches' or 'pairs'; allowed: switches with linksPerGpu, or pairs");
        }
        for (int i = 0; i < items.size(); i++) {
            String ip = p + ".pairs[" + i + "]";
            YamlNode it = items.get(i);
            f.checkKeys(it, ip, PAIR_KEYS);
            List<Integer> ends = f.intList(it, "gpus", ip);
            Integer count = f.integer(it, "links", ip, true, 1);
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
                gen == null ? "NVLink" : gen, pairs);
    }

    private List<NicSpec> nics(YamlNode n) {
        List<NicSpec> out = new ArrayList<>();
        if (n == null) {
            return out;
        }
        if (n.isMap()) {
            f.checkKeys(n, "hosts.nics", NIC_COUNT_KEYS);
            Integer count = f.integer(n, "count", "hosts.nics", true, 1);
            Bandwidth speed = f.bandwidth(n, "speed", "hosts.nics", true);
            Boolean gdr = f.bool(n, "gdr", "hosts.nics");
            for (int i = 0; count != null && speed != null && i < count; i++) {
                out.add(new NicSpec("nic" + i, speed, i, gdr == null || gdr));
            }
            return out;
        }
        if (!n.isList()) {
            problems.add(n, "hosts.nics", "found " + n.found() + "; expected a list of NICs or {count, speed}");
            return out;
        }
        for (int i = 0; i < n.items().size(); i++) {
            String p = "hosts.nics[" + i + "]";
            YamlNode it = n.items().get(i);
            f.checkKeys(it, p, NIC_KEYS);
            String name = f.text(it, "name", p, false);
            Bandwidth speed = f.bandwidth(it, "speed", p, true);
            Integer rail = it.get("rail") == null ? Integer.valueOf(i) : f.integer(it, "rail", p, false, -1);
            Boolean gdr = f.bool(it, "gdr", p);
            out.add(new NicSpec(name == null ? "nic" + i : name, speed == null ? Bandwidth.ofGBps(1) : speed,
                    rail == null ? -1 : rail, gdr == null || gdr));
        }
        return out;
    }

    private PcieSpec pcie(YamlNode p, YamlNode host, int nGpus, int nCpus, int nNics) {
        String path = "hosts.pcie";
        List<SwitchSpec> switches = new ArrayList<>();
        List<RootPortSpec> roots = new ArrayList<>();
        Integer gen = null;
        Integer width = 16;
        if (p != null) {
            f.checkKeys(p, path, PCIE_KEYS);
            gen = f.integer(p, "gen", path, true, 1);
            if (gen != null && gen > 6) {
                problems.add(p.get("gen"), path + ".gen", "found " + gen + "; allowed: 1, 2, 3, 4, 5, 6");
                gen = null;
            }
            width = p.get("width") == null ? Integer.valueOf(16) : f.integer(p, "width", path, false, 1);
            new PcieTreeChecker(f, problems, nGpus, nCpus, nNics).check(p, switches, roots);
        }
        if (nNics > 0 && p == null) {
            problems.add(host, "hosts.pcie", "the host has NICs but no pcie section to attach them to");
        }
        return new PcieSpec(gen == null ? PcieGen.GEN4 : PcieGen.of(gen), width == null ? 16 : width, switches, roots);
    }
}
