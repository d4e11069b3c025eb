package dev.collsim.topology.io.infragraph;

import dev.collsim.topology.io.infragraph.InfraGraphModel.Edge;
import dev.collsim.topology.io.infragraph.InfraGraphModel.Graph;
import dev.collsim.topology.io.infragraph.InfraGraphModel.Instance;
import dev.collsim.topology.io.infragraph.InfraGraphModel.Node;

import dev.collsim.hardware.GpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.io.Problems;
import dev.collsim.units.Bandwidth;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Maps a parsed InfraGraph graph onto collsim devices. An instance whose device has an xpu component is a
 * host (hosts numbered in instance order, then copy); every other instance copy is one network switch (all its
 * components, ports included, are that switch). In a host: xpu -> GPU (model from the node's {@code model}
 * annotation or the component description when {@link GpuModels#find} knows it, else assumed and noted), cpu -> CPU,
 * nic -> NIC (a port joined to a NIC is that NIC; speed = its network link's bandwidth), switch -> NVSwitch when its
 * name, description or links say NVLink (all of a host's NVLink switches are one NVS node, as NCCL sees them), PCIe
 * switch when they say PCI (a custom component only by its own name or description, else it is noted and left
 * out); memory components are noted and left out. A host's NICs are numbered as NCCL numbers NET devices, once
 * per host across its NIC components ({@link Nic#ncclDev}). Node annotations written by
 * collsim (rail, name, bus_id, dev, ...) restore what the schema has no field for. Links: {@link InfraGraphLinks}.
 */
final class InfraGraphMapper {

    private final Graph g;
    private final Problems problems;
    private final String file;
    private final Map<String, Device> byNode = new HashMap<>();
    private final Map<String, Bandwidth> nicSpeed = new HashMap<>();
    private final Set<String> notes = new LinkedHashSet<>();
    private final TopologyBuilder b;

    InfraGraphMapper(Graph g, Problems problems, String file) {
        this.g = g;
        this.problems = problems;
        this.file = file;
        this.b = Topology.builder(g.name().isEmpty() ? file : g.name());
    }

    Topology map() {
        Map<String, String> portToNic = portsOfNics();
        netSpeeds(portToNic);
        int host = 0;
        for (Instance inst : g.instances()) {
            for (int k = 0; k < inst.count(); k++) {
                if (inst.device().isHost()) {
                    host(inst, k, host++);
                } else {
                    fabric(inst, k);
                }
            }
        }
        portToNic.forEach((port, nic) -> byNode.put(port, byNode.get(nic)));
        new InfraGraphLinks(b, problems, notes).add(g.edges(), byNode);
        b.source("InfraGraph " + file + (g.description().isEmpty() ? "" : " (" + firstLine(g.description()) + ")")
                + (notes.isEmpty() ? "" : "; " + String.join("; ", notes)));
        return b.build();
    }

    /** A host's port that an edge joins to a NIC of the same copy is that NIC. */
    private Map<String, String> portsOfNics() {
        Map<String, String> out = new HashMap<>();
        for (Edge e : g.edges()) {
            Node port = e.a().component().choice().equals("port") ? e.a() : e.b();
            Node nic = port == e.a() ? e.b() : e.a();
            if (port.component().choice().equals("port") && nic.component().choice().equals("nic")
                    && port.instance() == nic.instance() && port.instanceIndex() == nic.instanceIndex()
                    && port.instance().device().isHost()) {
                out.put(port.key(), nic.key());
            }
        }
        return out;
    }

    /** A host NIC's speed: the bandwidth of its first link to a network switch. */
    private void netSpeeds(Map<String, String> portToNic) {
        for (Edge e : g.edges()) {
            for (Node[] ends : new Node[][] {{e.a(), e.b()}, {e.b(), e.a()}}) {
                String nic = portToNic.getOrDefault(ends[0].key(), ends[0].key());
                boolean hostNic = ends[0].instance().device().isHost()
                        && (ends[0].component().choice().equals("nic") || portToNic.containsKey(ends[0].key()));
                if (hostNic && !ends[1].instance().device().isHost() && !Double.isNaN(e.link().gbps())) {
                    nicSpeed.putIfAbsent(nic, Bandwidth.ofGBps(e.link().gbps()));
                }
            }
        }
    }

    private void host(Instance inst, int copy, int h) {
        int gpus = 0;
        int cpus = 0;
        int rails = 0;
        int nets = 0;
        NvSwitch nvs = null;
        Map<InfraGraphModel.Component, String> kinds = new LinkedHashMap<>();
        int nvsChips = 0;
        for (InfraGraphModel.Component c : inst.device().components()) {
            if (c.choice().equals("switch") || c.choice().equals("custom")) {
                kinds.put(c, switchKind(c, new Node(inst, copy, c, 0)));
                nvsChips += kinds.get(c).equals("nvs") ? c.count() : 0;
            }
        }
        for (InfraGraphModel.Component c : inst.device().components()) {
            for (int j = 0; j < c.count(); j++) {
                Node n = new Node(inst, copy, c, j);
                Map<String, String> at = g.attributes().getOrDefault(n.key(), Map.of());
                String id = "h" + h + "/" + c.name() + j;
                switch (c.choice()) {
                    case "xpu" -> byNode.put(n.key(), b.add(gpu(id, h, gpus++, c, at)));
                    case "cpu" -> byNode.put(n.key(), b.add(new Cpu(id, h, integer(at, "numa", cpus++),
                            at.getOrDefault("arch", "x86_64"), at.getOrDefault("vendor", vendor(c.description())),
                            at.getOrDefault("model", c.description()))));
                    case "nic" -> {
                        Nic nic = nic(id, h, n, at, rails, nets++);
                        rails += nic.rail() >= 0 && !at.containsKey("rail") ? 1 : 0;
                        byNode.put(n.key(), b.add(nic));
                    }
                    case "switch", "custom" -> {
                        if (kinds.get(c).equals("nvs")) {
                            nvs = nvs != null ? nvs : b.add(new NvSwitch("h" + h + "/nvs0", h,
                                    integer(at, "domain", h), integer(at, "chips", nvsChips)));
                            byNode.put(n.key(), nvs);
                        } else if (kinds.get(c).equals("pci")) {
                            byNode.put(n.key(), b.add(new PcieSwitch(id, h, at.getOrDefault("bus_id", ""),
                                    integer(at, "host_bridge", -1))));
                        }
                    }
                    case "port" -> {
                        // joined to its NIC once all devices exist
                    }
                    default -> notes.add(c.choice() + " component '" + c.name() + "' of device '"
                            + inst.device().name() + "' is not modelled (left out)");
                }
            }
        }
    }

    private Gpu gpu(String id, int h, int index, InfraGraphModel.Component c, Map<String, String> at) {
        String text = at.getOrDefault("model", c.description());
        Optional<GpuModels.Sku> sku = GpuModels.sku(text);
        Optional<GpuModel> model = sku.map(GpuModels.Sku::model).or(() -> GpuModels.find(text));
        if (model.isEmpty()) {
            model = GpuModels.byName("H100 SXM");
            notes.add("xpu '" + c.name() + "' (" + (text.isEmpty() ? "no description" : "'" + text + "'")
                    + ") names no GPU model collsim knows; assumed " + model.orElseThrow().name());
        }
        GpuModel m = model.orElseThrow();
        String name = sku.isPresent() ? text : m.name();
        long mem = sku.map(s -> s.variant().memoryBytes()).orElse(m.defaultVariant().memoryBytes());
        return new Gpu(id, h, index, name, m.sm(), longValue(at, "memory_bytes", mem), at.getOrDefault("bus_id", ""));
    }

    /**
     * @param netDev the NIC's NET device index when no {@code dev} annotation gives it: one numbering per host over
     *               all its NIC components, in component then index order (NCCL numbers a host's NET devices 0, 1,
     *               ... as the net plugin lists them, {@code ncclTopoPopulateNics}), so two NIC components never
     *               share a number
     */
    private Nic nic(String id, int h, Node n, Map<String, String> at, int nextRail, int netDev) {
        Bandwidth speed = nicSpeed.get(n.key());
        int rail = speed == null ? -1 : nextRail;
        if (at.containsKey("speed_gbps")) {
            speed = Bandwidth.ofGbits(decimal(at, "speed_gbps"));
        }
        if (speed == null) {
            speed = Bandwidth.ofGbits(NcclBandwidths.DEFAULT_NIC_MBPS / 1000.0);
            notes.add(id + " has no network link: 10 Gb/s assumed (NCCL's default NIC speed, 10000 Mb/s)");
        }
        int dev = integer(at, "dev", netDev);
        if (dev < 0) {
            problems.add(0, 0, "annotations.dev", "found " + dev + "; allowed: a NET device index >= 0");
        }
        return new Nic(id, h, at.getOrDefault("name", n.component().name() + n.index()), speed,
                integer(at, "port", 1), !"false".equals(at.get("gdr")), integer(at, "rail", rail),
                at.getOrDefault("bus_id", ""), dev >= 0 ? dev : netDev);
    }

    /** nvs, pci, or "" after a problem: from the component's words, else from the words of its links. */
    private String switchKind(InfraGraphModel.Component c, Node n) {
        String words = (c.name() + " " + c.description()).toLowerCase(Locale.ROOT);
        StringBuilder links = new StringBuilder();
        for (Edge e : g.edges()) {
            if (e.a().component() == c || e.b().component() == c) {
                links.append(' ').append(e.link().name()).append(' ').append(e.link().description());
            }
        }
        String[] texts = c.choice().equals("custom") ? new String[] {words}
                : new String[] {words, links.toString().toLowerCase(Locale.ROOT)};
        for (String w : texts) {
            if (w.matches("(?s).*(nvl|nvs|nvswitch|nvlink).*")) {
                return "nvs";
            }
            if (w.contains("pci")) {
                return "pci";
            }
        }
        if (c.choice().equals("custom")) {
            notes.add("custom component '" + c.name() + "' is not modelled (left out)");
        } else if (n.index() == 0 && n.instanceIndex() == 0) {
            problems.add(c.at(), "components", c.choice() + " component '" + c.name() + "': cannot tell an NVLink"
                    + " switch from a PCIe switch; allowed: a name, description or link mentioning NVLink/NVSwitch or"
                    + " PCIe");
        }
        return "";
    }

    private void fabric(Instance inst, int copy) {
        String key = inst.name() + "." + copy;
        Map<String, String> at = new HashMap<>();
        g.attributes().forEach((k, v) -> {
            if (k.equals(key) || k.startsWith(key + ".")) {
                at.putAll(v);
            }
        });
        String lower = inst.name().toLowerCase(Locale.ROOT);
        NetSwitch.Tier tier = lower.contains("spine") ? NetSwitch.Tier.SPINE : lower.contains("core")
                ? NetSwitch.Tier.CORE : NetSwitch.Tier.LEAF;
        if (at.containsKey("tier")) {
            try {
                tier = NetSwitch.Tier.valueOf(at.get("tier").toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                problems.add(inst.at(), "annotations.tier", "found '" + at.get("tier") + "'; allowed: leaf, spine,"
                        + " core");
            }
        }
        NetSwitch sw = b.add(new NetSwitch(inst.name() + copy, tier, integer(at, "plane", 0)));
        for (InfraGraphModel.Component c : inst.device().components()) {
            for (int j = 0; j < c.count(); j++) {
                byNode.put(new Node(inst, copy, c, j).key(), sw);
            }
        }
    }

    private static String vendor(String text) {
        String t = text.toLowerCase(Locale.ROOT);
        return t.contains("amd") || t.contains("epyc") ? "AuthenticAMD" : t.contains("grace") ? "NVIDIA"
                : t.contains("intel") || t.contains("xeon") ? "GenuineIntel" : "";
    }

    private int integer(Map<String, String> at, String key, int absent) {
        String v = at.get(key);
        if (v == null) {
            return absent;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            problems.add(0, 0, "annotations." + key, "found '" + v + "'; allowed: a whole number");
            return absent;
        }
    }

    private long longValue(Map<String, String> at, String key, long absent) {
        try {
            return at.containsKey(key) ? Long.parseLong(at.get(key).trim()) : absent;
        } catch (NumberFormatException e) {
            problems.add(0, 0, "annotations." + key, "found '" + at.get(key) + "'; allowed: a whole number");
            return absent;
        }
    }

    private double decimal(Map<String, String> at, String key) {
        try {
            double v = Double.parseDouble(at.get(key).trim());
            if (v > 0 && Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problems.add(0, 0, "annotations." + key, "found '" + at.get(key) + "'; allowed: a number > 0");
        return 10;
    }

    private static String firstLine(String s) {
        return s.lines().findFirst().orElse("");
    }
}
