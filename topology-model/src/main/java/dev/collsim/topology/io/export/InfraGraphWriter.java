package dev.collsim.topology.io.export;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes a topology as InfraGraph YAML (schema 2.4.0 of github.com/Keysight/infragraph: an {@code infrastructure}
 * with devices, links, instances and edges, plus {@code annotations} on nodes), which
 * {@link dev.collsim.topology.io.infragraph.InfraGraphReader} reads back into the same devices, links, bandwidths and
 * NCCL paths. Each host is a device ({@code host}, one per run of identical hosts, as instance {@code host} with a
 * count); its devices are components named by their id without the host prefix and index ({@code h0/gpu3} is
 * {@code gpu[3]}); a link definition per distinct link, named {@code TYPE-N} after NCCL's link type with its detail
 * (and {@code xN} lanes) as description and its bandwidth in gigabytes per second (1e9 B/s). Each network switch is
 * a copy of an instance named by its id without the index ({@code leaf3} is {@code leaf[3]}), with one port per
 * cable. Per-device facts the schema has no field for (GPU model and bus id, NIC name, rail, speed, CPU vendor, NVS
 * chips, switch tier and plane) are node annotations. Hosts must use ids {@code hH/NAMEi}, fabric switches
 * {@code NAMEi}.
 */
public final class InfraGraphWriter {

    private static final Pattern LOCAL = Pattern.compile("h(\\d+)/([A-Za-z_-]+)(\\d+)");
    private static final Pattern FABRIC = Pattern.compile("([A-Za-z_-]+)(\\d+)");

    private final Map<String, Map<String, Object>> hostLinks = new LinkedHashMap<>();
    private final List<Map<String, Object>> annotations = new ArrayList<>();
    private final Map<Integer, String> hostSlot = new LinkedHashMap<>();

    /**
     * @param t the topology
     * @return InfraGraph YAML text
     * @throws IllegalArgumentException when a device id does not follow collsim's {@code hH/NAMEi} / {@code NAMEi}
     *                                  form, or a non-network link joins two hosts
     */
    public String write(Topology t) {
        Map<String, Object> infra = new LinkedHashMap<>();
        infra.put("name", t.name().replaceAll("[^\\sa-zA-Z0-9_()<>\\[\\]-]", "-"));
        infra.put("description", t.source().isEmpty() ? "written by collsim" : t.source());
        List<Object> devices = new ArrayList<>();
        List<Object> instances = new ArrayList<>();
        Map<String, Object> netLinks = new LinkedHashMap<>();
        List<Object> edges = new ArrayList<>();
        hosts(t, devices, instances);
        Map<String, int[]> ports = new TreeMap<>();
        for (Link l : t.graph().edgeSet()) {
            Device a = t.source(l);
            Device b = t.target(l);
            if ((a.host() != b.host() || a.host() < 0) && a.id().compareTo(b.id()) < 0) {
                if (l.type() != LinkType.NET) {
                    throw new IllegalArgumentException("InfraGraph export: " + l.type().ncclName() + " link "
                            + a.id() + " - " + b.id() + " joins two hosts; only network links may");
                }
                // the switch latency sits on the direction entering the switch (topology.fabric.FabricBuilder)
                Link in = t.graph().getAllEdges(b, a).stream().filter(r -> r.type() == LinkType.NET)
                        .filter(r -> r.latency().micros() > l.latency().micros()).findFirst().orElse(l);
                String name = linkName(netLinks, in);
                edges.add(edge(end(a, ports), end(b, ports), name));
            }
        }
        fabric(t, ports, devices, instances);
        infra.put("devices", devices);
        infra.put("links", new ArrayList<>(netLinks.values()));
        infra.put("instances", instances);
        infra.put("edges", edges);
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("infrastructure", infra);
        root.put("annotations", ordered("nodes", annotations));
        try {
            return new ObjectMapper(YAMLFactory.builder().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES).build()).writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("writing maps and lists cannot fail", e);
        }
    }

    private void hosts(Topology t, List<Object> devices, List<Object> instances) {
        Map<String, Object> last = null;
        Map<String, Object> lastInstance = null;
        for (int h = 0; h < t.hostCount(); h++) {
            Map<String, Object> dev = hostDevice(t, h);
            if (dev.equals(last)) {
                lastInstance.put("count", (Integer) lastInstance.get("count") + 1);
            } else {
                String name = "host" + (devices.isEmpty() ? "" : "-" + devices.size());
                Map<String, Object> named = new LinkedHashMap<>();
                named.put("name", name);
                named.putAll(dev);
                devices.add(named);
                lastInstance = new LinkedHashMap<>(); // insertion order (see ordered)
                lastInstance.put("name", name);
                lastInstance.put("device", name);
                lastInstance.put("count", 1);
                instances.add(lastInstance);
                last = dev;
            }
            int copy = (Integer) lastInstance.get("count") - 1;
            hostSlot.put(h, lastInstance.get("name") + "[" + copy + "]");
            annotate(t, h, (String) lastInstance.get("name"), copy);
        }
    }

    private Map<String, Object> hostDevice(Topology t, int h) {
        Map<String, Map<String, Object>> comps = new LinkedHashMap<>();
        Map<String, Object> links = new LinkedHashMap<>();
        List<Object> edges = new ArrayList<>();
        for (Device d : t.devices(Device.class).stream().filter(d -> d.host() == h).toList()) {
            Matcher m = local(d);
            Map<String, Object> c = comps.computeIfAbsent(m.group(2), k -> component(k, d));
            c.put("count", Math.max((Integer) c.get("count"), Integer.parseInt(m.group(3)) + 1));
            for (Link l : t.outgoing(d)) {
                Device o = t.target(l);
                if (o.host() == h && d.id().compareTo(o.id()) < 0) {
                    edges.add(edge(ordered("component", slot(d)), ordered("component", slot(o)),
                            linkName(links, l)));
                }
            }
        }
        Map<String, Object> dev = new LinkedHashMap<>();
        dev.put("components", new ArrayList<>(comps.values()));
        dev.put("links", new ArrayList<>(links.values()));
        dev.put("edges", edges);
        return dev;
    }

    private static Map<String, Object> component(String name, Device d) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("name", name);
        c.put("description", d instanceof Gpu g ? g.model() : d instanceof Cpu c2 ? (c2.vendor() + " "
                + c2.model()).trim() : d instanceof NvSwitch ? "NVSwitch" : d instanceof PcieSwitch ? "PCIe switch"
                : d.ncclType());
        c.put("count", 0);
        c.put("choice", d instanceof Gpu ? "xpu" : d instanceof Cpu ? "cpu" : d instanceof Nic ? "nic" : "switch");
        return c;
    }

    private void annotate(Topology t, int h, String instance, int copy) {
        for (Device d : t.devices(Device.class).stream().filter(d -> d.host() == h).toList()) {
            Map<String, Object> a = new LinkedHashMap<>();
            if (d instanceof Gpu g) {
                a.put("model", g.model());
                a.put("memory_bytes", g.memoryBytes());
                a.put("bus_id", g.busId());
            } else if (d instanceof Nic n) {
                a.put("name", n.name());
                a.put("speed_gbps", n.speed().gbits());
                a.put("port", n.port());
                a.put("gdr", n.gdr());
                a.put("rail", n.rail());
                a.put("bus_id", n.busId());
                a.put("dev", n.ncclDev());
            } else if (d instanceof Cpu c) {
                a.put("numa", c.numaId());
                a.put("arch", c.arch());
                a.put("vendor", c.vendor());
                a.put("model", c.model());
            } else if (d instanceof NvSwitch s) {
                a.put("chips", s.chips());
                a.put("domain", s.domain());
            } else if (d instanceof PcieSwitch p) {
                a.put("bus_id", p.busId());
                a.put("host_bridge", p.hostBridge());
            }
            Matcher m = local(d);
            node(instance + "." + copy + "." + m.group(2) + "." + m.group(3), a);
        }
    }

    private void node(String name, Map<String, Object> attrs) {
        List<Object> list = new ArrayList<>();
        attrs.forEach((k, v) -> list.add(ordered("attribute", k, "value", String.valueOf(v))));
        annotations.add(ordered("name", name, "attributes", list));
    }

    private void fabric(Topology t, Map<String, int[]> ports, List<Object> devices, List<Object> instances) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        Map<String, Integer> maxPorts = new LinkedHashMap<>();
        for (NetSwitch s : t.devices(NetSwitch.class)) {
            Matcher m = fabricId(s);
            counts.merge(m.group(1), Integer.parseInt(m.group(2)) + 1, Math::max);
            maxPorts.merge(m.group(1), ports.getOrDefault(s.id(), new int[1])[0], Math::max);
            node(m.group(1) + "." + m.group(2) + ".asic.0", ordered("tier", s.tier().name().toLowerCase(Locale.ROOT),
                    "plane", s.plane()));
        }
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            String dev = e.getKey() + "-switch";
            int p = Math.max(1, maxPorts.get(e.getKey()));
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("name", dev);
            d.put("components", List.of(ordered("name", "asic", "count", 1, "choice", "switch"),
                    ordered("name", "port", "count", p, "choice", "port")));
            d.put("links", List.of(ordered("name", "internal", "description", "switch ASIC to its ports")));
            d.put("edges", List.of(edge(ordered("component", "asic[0]"), ordered("component", "port[0:" + p + "]"),
                    "internal", "many2many")));
            devices.add(d);
            instances.add(ordered("name", e.getKey(), "device", dev, "count", e.getValue()));
        }
    }

    /** An infrastructure endpoint; a network switch's next free port. */
    private Map<String, Object> end(Device d, Map<String, int[]> ports) {
        if (d instanceof NetSwitch s) {
            Matcher m = fabricId(s);
            int port = ports.computeIfAbsent(s.id(), k -> new int[1])[0]++;
            return ordered("instance", m.group(1) + "[" + m.group(2) + "]", "component", "port[" + port + "]");
        }
        Matcher m = local(d);
        return ordered("instance", hostSlot.get(d.host()), "component", m.group(2) + "[" + m.group(3) + "]");
    }

    private static String linkName(Map<String, Object> links, Link l) {
        String detail = l.detail();
        // a PCIe detail carries its lanes, at its end or before a note ("PCIe Gen4 x16 (link_speed unset: ...)")
        boolean pcieLanes = l.type() == LinkType.PCIE && (detail.endsWith(" x" + l.count())
                || detail.matches("(?s).*\\sx" + l.count() + "\\s\\([^)]*\\)"));
        // lanes as " xN" when there are several, or when the detail itself ends like that (the reader strips one)
        boolean lanes = !pcieLanes && (l.count() > 1 || detail.matches("(?s).*\\sx\\d{1,4}"));
        String description = lanes ? (detail + " x" + l.count()).trim() : detail;
        String key = l.type() + "|" + description + "|" + l.bandwidth().gbps() + "|" + l.latency().micros();
        Object known = links.get(key);
        if (known != null) {
            return (String) ((Map<?, ?>) known).get("name");
        }
        String name = l.type().ncclName().toLowerCase(Locale.ROOT) + "-" + links.size();
        Map<String, Object> physical = new LinkedHashMap<>();
        physical.put("bandwidth", ordered("choice", "gigabytes_per_second", "gigabytes_per_second",
                l.bandwidth().gbps()));
        if (l.latency().micros() > 0) {
            physical.put("latency", ordered("choice", "us", "us", l.latency().micros()));
        }
        Map<String, Object> def = new LinkedHashMap<>();
        def.put("name", name);
        def.put("description", description);
        def.put("physical", physical);
        links.put(key, def);
        return name;
    }

    private static Map<String, Object> edge(Map<String, Object> ep1, Map<String, Object> ep2, String link) {
        return edge(ep1, ep2, link, "one2one");
    }

    private static Map<String, Object> edge(Map<String, Object> ep1, Map<String, Object> ep2, String link,
            String scheme) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("ep1", ep1);
        e.put("ep2", ep2);
        e.put("scheme", scheme);
        e.put("link", link);
        return e;
    }

    private static String slot(Device d) {
        Matcher m = local(d);
        return m.group(2) + "[" + m.group(3) + "]";
    }

    private static Matcher local(Device d) {
        Matcher m = LOCAL.matcher(d.id());
        if (!m.matches()) {
            throw new IllegalArgumentException("InfraGraph export: device id '" + d.id() + "' is not of the form"
                    + " hH/NAMEi");
        }
        return m;
    }

    private static Matcher fabricId(NetSwitch s) {
        Matcher m = FABRIC.matcher(s.id());
        if (!m.matches()) {
            throw new IllegalArgumentException("InfraGraph export: switch id '" + s.id() + "' is not of the form"
                    + " NAMEi");
        }
        return m;
    }

    /**
     * A map in the order of its key-value pairs, so the written file's keys keep one order ({@code Map.of} iterates
     * in an order that changes from one JVM run to the next).
     */
    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }
}
