package dev.collsim.topology.io.infragraph;

import dev.collsim.topology.io.infragraph.InfraGraphModel.Edge;
import dev.collsim.topology.io.infragraph.InfraGraphModel.LinkDef;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.io.Problems;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns InfraGraph edges into collsim links. Parallel edges between the same two devices over the same link are one
 * collsim link whose lane count and bandwidth are the sums. The link type: a link named as collsim writes it
 * ({@code nvl-0}, {@code pci-1}, {@code sys-0}, {@code c2c-0}, {@code net-0}), else from the ends (a network switch:
 * NET; two CPUs: SYS; GPUs and NVSwitches: NVLink unless the link says PCI; a link saying C2C: C2C; else PCIe).
 * A description ending in {@code xN} gives N lanes per edge (PCIe keeps it in its detail, e.g.
 * {@code PCIe Gen5 x16}). Edges inside one device (a switch's ports) are not links; edges to left-out components
 * are noted. A network link's latency is paid on entering a switch (the way back to a NIC has none).
 */
final class InfraGraphLinks {

    private static final Pattern OWN = Pattern.compile("(nvl|pci|sys|c2c|net|loc)-\\d+");
    private static final Pattern LANES = Pattern.compile("^(.*?)\\s+x(\\d{1,4})$");
    /** A PCIe description's lanes, at its end or before a note in parentheses, as collsim's PCIe details write them. */
    private static final Pattern PCIE_LANES = Pattern.compile("^(.*?)\\s+x(\\d{1,4})(?:\\s\\([^)]*\\))?$");

    private final TopologyBuilder b;
    private final Problems problems;
    private final Set<String> notes;

    InfraGraphLinks(TopologyBuilder b, Problems problems, Set<String> notes) {
        this.b = b;
        this.problems = problems;
        this.notes = notes;
    }

    void add(List<Edge> edges, Map<String, Device> byNode) {
        Map<String, List<Edge>> groups = new LinkedHashMap<>();
        int unmapped = 0;
        for (Edge e : edges) {
            Device x = byNode.get(e.a().key());
            Device y = byNode.get(e.b().key());
            if (x == null || y == null) {
                unmapped++;
                continue;
            }
            if (x != y) {
                boolean fwd = x.id().compareTo(y.id()) < 0;
                String key = (fwd ? x.id() + "|" + y.id() : y.id() + "|" + x.id()) + "|" + e.link().name();
                groups.computeIfAbsent(key, k -> new ArrayList<>()).add(e);
            }
        }
        if (unmapped > 0) {
            notes.add(unmapped + " edges end at components collsim does not model; left out");
        }
        for (List<Edge> group : groups.values()) {
            Edge e = group.get(0);
            link(byNode.get(e.a().key()), byNode.get(e.b().key()), e, group.size());
        }
    }

    private void link(Device x, Device y, Edge e, int parallel) {
        LinkDef l = e.link();
        LinkType type = type(x, y, l);
        if (type == null) {
            problems.add(e.at(), "edges", "link '" + l.name() + "' joins " + x.id() + " and " + y.id() + " of"
                    + " different hosts; allowed across hosts: network links (NIC to network switch)");
            return;
        }
        if (Double.isNaN(l.gbps())) {
            problems.add(l.at(), "links.physical.bandwidth", "link '" + l.name() + "' (used by " + x.id() + " - "
                    + y.id() + ") has no bandwidth; collsim needs one (gigabits_per_second or gigabytes_per_second)");
            return;
        }
        Matcher m = (type == LinkType.PCIE ? PCIE_LANES : LANES).matcher(l.description());
        int lanes = m.matches() ? Integer.parseInt(m.group(2)) : 1;
        String detail = m.matches() && type != LinkType.PCIE ? m.group(1) : l.description();
        Bandwidth bw = Bandwidth.ofGBps(l.gbps() * parallel);
        int count = Math.max(1, lanes * parallel);
        Latency latency = Latency.ofMicros(l.latencyUs());
        if (type == LinkType.NET) {
            // a network link's latency is the switch's, paid on entering it (as topology.fabric.FabricBuilder cables)
            b.connectOneWay(x, y, type, count, bw, y instanceof NetSwitch ? latency : Latency.ZERO, detail);
            b.connectOneWay(y, x, type, count, bw, x instanceof NetSwitch ? latency : Latency.ZERO, detail);
        } else {
            b.connect(x, y, type, count, bw, latency, detail);
        }
    }

    /** @return the link type, or null for a non-network link between hosts */
    static LinkType type(Device x, Device y, LinkDef l) {
        Matcher own = OWN.matcher(l.name());
        if (own.matches()) {
            for (LinkType t : LinkType.values()) {
                if (t.ncclName().equalsIgnoreCase(own.group(1))) {
                    return t;
                }
            }
        }
        if (x instanceof NetSwitch || y instanceof NetSwitch) {
            return LinkType.NET;
        }
        if (x.host() != y.host()) {
            return x instanceof Nic && y instanceof Nic ? LinkType.NET : null;
        }
        String words = (l.name() + " " + l.description()).toLowerCase(Locale.ROOT);
        if (x instanceof Cpu && y instanceof Cpu) {
            return LinkType.SMP;
        }
        if (words.contains("c2c")) {
            return LinkType.C2C;
        }
        boolean nvx = x instanceof Gpu || x instanceof NvSwitch;
        boolean nvy = y instanceof Gpu || y instanceof NvSwitch;
        return nvx && nvy && !words.contains("pci") ? LinkType.NVLINK : LinkType.PCIE;
    }
}
