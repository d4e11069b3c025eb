package dev.collsim.topology.io.export;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.Topology;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jgrapht.nio.Attribute;
import org.jgrapht.nio.AttributeType;
import org.jgrapht.nio.DefaultAttribute;
import org.jgrapht.nio.dot.DOTExporter;
import org.jgrapht.nio.graphml.GraphMLExporter;
import org.jgrapht.nio.graphml.GraphMLExporter.AttributeCategory;

/**
 * Exports a topology to DOT (Graphviz) and GraphML with jgrapht-io. Every device becomes a vertex carrying its id,
 * kind and facts (model, sm, speed); every directed link an edge with its type, lane count, physical and NCCL
 * bandwidth (GB/s per direction), latency (microseconds) and detail.
 */
public final class TopologyExporters {

    private TopologyExporters() {
    }

    /** @param t the topology; @return DOT text (vertex ids are the device ids, quoted) */
    public static String dot(Topology t) {
        DOTExporter<Device, Link> ex = new DOTExporter<>(d -> '"' + d.id() + '"');
        ex.setGraphIdProvider(() -> '"' + t.name() + '"');
        ex.setVertexAttributeProvider(d -> {
            Map<String, Attribute> m = new LinkedHashMap<>();
            m.put("label", DefaultAttribute.createAttribute(d.id() + "\\n" + summary(d)));
            m.put("shape", DefaultAttribute.createAttribute(d instanceof Gpu ? "box" : "ellipse"));
            return m;
        });
        ex.setEdgeAttributeProvider(l -> {
            Map<String, Attribute> m = new LinkedHashMap<>();
            m.put("label", DefaultAttribute.createAttribute(String.format(Locale.ROOT, "%s x%d %.1f GB/s",
                    l.type().ncclName(), l.count(), l.bandwidth().gbps())));
            return m;
        });
        StringWriter w = new StringWriter();
        ex.exportGraph(t.graph(), w);
        return w.toString();
    }

    /** @param t the topology; @return GraphML text with typed node and edge attributes */
    public static String graphml(Topology t) {
        GraphMLExporter<Device, Link> ex = new GraphMLExporter<>(Device::id);
        ex.setEdgeIdProvider(Link::id);
        ex.registerAttribute("kind", AttributeCategory.NODE, AttributeType.STRING);
        ex.registerAttribute("host", AttributeCategory.NODE, AttributeType.INT);
        ex.registerAttribute("detail", AttributeCategory.NODE, AttributeType.STRING);
        ex.registerAttribute("type", AttributeCategory.EDGE, AttributeType.STRING);
        ex.registerAttribute("count", AttributeCategory.EDGE, AttributeType.INT);
        ex.registerAttribute("bandwidth_GBps", AttributeCategory.EDGE, AttributeType.DOUBLE);
        ex.registerAttribute("nccl_bandwidth_GBps", AttributeCategory.EDGE, AttributeType.DOUBLE);
        ex.registerAttribute("latency_us", AttributeCategory.EDGE, AttributeType.DOUBLE);
        ex.registerAttribute("link_detail", AttributeCategory.EDGE, AttributeType.STRING);
        ex.setVertexAttributeProvider(d -> {
            Map<String, Attribute> m = new LinkedHashMap<>();
            m.put("kind", DefaultAttribute.createAttribute(d.ncclType()));
            m.put("host", DefaultAttribute.createAttribute(d.host()));
            m.put("detail", DefaultAttribute.createAttribute(summary(d)));
            return m;
        });
        ex.setEdgeAttributeProvider(l -> {
            Map<String, Attribute> m = new LinkedHashMap<>();
            m.put("type", DefaultAttribute.createAttribute(l.type().ncclName()));
            m.put("count", DefaultAttribute.createAttribute(l.count()));
            m.put("bandwidth_GBps", DefaultAttribute.createAttribute(l.bandwidth().gbps()));
            m.put("nccl_bandwidth_GBps", DefaultAttribute.createAttribute(l.ncclBandwidth().gbps()));
            m.put("latency_us", DefaultAttribute.createAttribute(l.latency().micros()));
            m.put("link_detail", DefaultAttribute.createAttribute(l.detail()));
            return m;
        });
        StringWriter w = new StringWriter();
        ex.exportGraph(t.graph(), w);
        return w.toString();
    }

    /** @param d a device; @return a short human description, e.g. {@code H100-SXM5-80GB sm90} */
    static String summary(Device d) {
        if (d instanceof Gpu g) {
            return g.model() + " sm" + g.sm();
        }
        if (d instanceof Nic n) {
            return String.format(Locale.ROOT, "%s %.0f Gb/s%s", n.name(), n.speed().gbits(), n.rail() >= 0
                    ? " rail " + n.rail() : "");
        }
        if (d instanceof Cpu c) {
            return c.vendor() + " " + c.model() + " NUMA " + c.numaId();
        }
        if (d instanceof NvSwitch s) {
            return "NVSwitch x" + s.chips();
        }
        if (d instanceof PcieSwitch p) {
            return "PCIe switch";
        }
        if (d instanceof NetSwitch n) {
            return n.tier().name().toLowerCase(Locale.ROOT) + " plane " + n.plane();
        }
        return d.ncclType();
    }
}
