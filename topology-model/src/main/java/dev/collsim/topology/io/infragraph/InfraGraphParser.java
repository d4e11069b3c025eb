package dev.collsim.topology.io.infragraph;

import dev.collsim.topology.io.infragraph.InfraGraphModel.Component;
import dev.collsim.topology.io.infragraph.InfraGraphModel.DeviceDef;
import dev.collsim.topology.io.infragraph.InfraGraphModel.Edge;
import dev.collsim.topology.io.infragraph.InfraGraphModel.Graph;
import dev.collsim.topology.io.infragraph.InfraGraphModel.Instance;
import dev.collsim.topology.io.infragraph.InfraGraphModel.LinkDef;
import dev.collsim.topology.io.infragraph.InfraGraphModel.Node;

import dev.collsim.io.yaml.YamlNode;
import dev.collsim.topology.io.Problems;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the located YAML tree of an InfraGraph file into an {@link InfraGraphModel.Graph}, expanding the edges'
 * Python slice notation ({@code xpu[0:2]}) and schemes (one2one pairs the i-th ends, many2many every pair) as
 * {@code schema/edge.yaml} describes them. Every problem goes to {@link Problems} with its line and column.
 */
final class InfraGraphParser {

    static final Set<String> CHOICES = Set.of("custom", "device", "cpu", "xpu", "nic", "memory", "port", "switch");
    private static final Pattern SLICE = Pattern.compile("([^\\[\\]]+)(?:\\[(-?\\d*)(?::(-?\\d*))?\\])?");

    private Problems problems;
    /** Names of components and instances whose count was refused: their slices are not judged on the stand-in 1. */
    private final Set<String> uncounted = new HashSet<>();

    InfraGraphParser(Problems problems) {
        this.problems = problems;
    }

    Graph parse(YamlNode root) {
        YamlNode infra = root.get("infrastructure") != null ? root.get("infrastructure") : root;
        if (infra.get("connections") != null || anyDeviceHas(infra, "connections")) {
            problems.add(infra.get("connections") != null ? infra.get("connections") : infra, "connections",
                    "the older connection-string form (e.g. 'xpu.0.pcie.nic.0') is not read; allowed: 'edges' with"
                    + " ep1/ep2 endpoints (InfraGraph schema 2.4.0)");
        }
        Map<String, DeviceDef> devices = new LinkedHashMap<>();
        for (YamlNode d : list(infra, "devices")) {
            DeviceDef def = device(d);
            if (def != null && devices.putIfAbsent(def.name(), def) != null) {
                problems.add(d, "devices.name", "device '" + def.name() + "' is defined twice");
            }
        }
        List<Instance> instances = new ArrayList<>();
        for (YamlNode i : list(infra, "instances")) {
            String dev = text(i, "device", true);
            DeviceDef def = devices.get(dev);
            if (dev != null && def == null) {
                problems.add(i.get("device"), "instances.device", "'" + dev + "' is not a device of this file;"
                        + " allowed: " + devices.keySet());
            }
            String name = text(i, "name", true);
            int count = count(i, "count", name);
            if (def != null && name != null) {
                instances.add(new Instance(name, def, count, i));
            }
        }
        List<Edge> edges = new ArrayList<>();
        Problems reported = problems;
        for (Instance inst : instances) {
            for (int k = 0; k < inst.count(); k++) {
                // a device edge's problem is the same in every copy: reported once, from the first
                problems = k == 0 ? reported : new Problems(reported.file());
                for (YamlNode e : list(inst.device().edges())) {
                    deviceEdge(inst, k, e, edges);
                }
            }
        }
        problems = reported;
        Map<String, LinkDef> links = links(infra.get("links"));
        for (YamlNode e : list(infra, "edges")) {
            infraEdge(instances, links, e, edges);
        }
        return new Graph(orEmpty(infra.get("name")), orEmpty(infra.get("description")), instances, edges,
                attributes(root.get("annotations")));
    }

    private boolean anyDeviceHas(YamlNode infra, String key) {
        return list(infra, "devices").stream().anyMatch(d -> d.get(key) != null);
    }

    private DeviceDef device(YamlNode d) {
        String name = text(d, "name", true);
        List<Component> comps = new ArrayList<>();
        for (YamlNode c : list(d, "components")) {
            String choice = text(c, "choice", false);
            if (choice == null) {
                choice = text(c, "type", false);
            }
            if (choice == null || !CHOICES.contains(choice)) {
                problems.add(c.get("choice") != null ? c.get("choice") : c, "components.choice", "found "
                        + (choice == null ? "nothing" : "'" + choice + "'") + "; allowed: " + CHOICES.stream().sorted()
                        .toList());
                continue;
            }
            String cname = text(c, "name", true);
            if (cname != null) {
                comps.add(new Component(cname, count(c, "count", cname), choice, orEmpty(c.get("description")), c));
            }
        }
        return name == null ? null : new DeviceDef(name, comps, links(d.get("links")), d.get("edges"));
    }

    private Map<String, LinkDef> links(YamlNode list) {
        Map<String, LinkDef> out = new LinkedHashMap<>();
        for (YamlNode l : list(list)) {
            String name = text(l, "name", true);
            if (name == null) {
                continue;
            }
            YamlNode phys = l.get("physical") != null ? l.get("physical") : l;
            out.put(name, new LinkDef(name, orEmpty(l.get("description")), LinkUnits.gbps(phys.get("bandwidth"),
                    problems), LinkUnits.latencyUs(phys.get("latency"), problems), l));
        }
        return out;
    }

    private void deviceEdge(Instance inst, int copy, YamlNode e, List<Edge> edges) {
        LinkDef link = inst.device().links().get(text(e, "link", true));
        if (link == null) {
            problems.add(e, "edges.link", "found " + found(e.get("link")) + "; allowed: the links of device '"
                    + inst.device().name() + "': " + inst.device().links().keySet());
            return;
        }
        List<Node> a = ends(List.of(inst), copy, e.get("ep1"), "ep1");
        List<Node> b = ends(List.of(inst), copy, e.get("ep2"), "ep2");
        connect(a, b, link, e, edges);
    }

    private void infraEdge(List<Instance> instances, Map<String, LinkDef> links, YamlNode e, List<Edge> edges) {
        LinkDef link = links.get(text(e, "link", true));
        if (link == null) {
            problems.add(e, "edges.link", "found " + found(e.get("link")) + "; allowed: the infrastructure links: "
                    + links.keySet());
            return;
        }
        List<Node> a = ends(instances, -1, e.get("ep1"), "ep1");
        List<Node> b = ends(instances, -1, e.get("ep2"), "ep2");
        connect(a, b, link, e, edges);
    }

    private void connect(List<Node> a, List<Node> b, LinkDef link, YamlNode e, List<Edge> edges) {
        if (a == null || b == null) {
            return;
        }
        String scheme = e.get("scheme") == null ? "one2one" : e.get("scheme").text();
        if ("many2many".equals(scheme)) {
            boolean same = a.equals(b);
            for (Node x : a) {
                for (Node y : b) {
                    if (!x.equals(y) && (!same || x.key().compareTo(y.key()) < 0)) {
                        edges.add(new Edge(x, y, link, e));
                    }
                }
            }
        } else if ("one2one".equals(scheme)) {
            if (a.size() != b.size()) {
                problems.add(e, "edges.scheme", "one2one pairs the ends one by one, but ep1 names " + a.size()
                        + " nodes and ep2 " + b.size());
                return;
            }
            for (int i = 0; i < a.size(); i++) {
                edges.add(new Edge(a.get(i), b.get(i), link, e));
            }
        } else {
            problems.add(e.get("scheme"), "edges.scheme", "found " + found(e.get("scheme"))
                    + "; allowed: one2one, many2many (ring is not read yet)");
        }
    }

    /** The nodes an endpoint names; copy >= 0 for a device edge (its instance copy), -1 for an infrastructure one. */
    private List<Node> ends(List<Instance> instances, int copy, YamlNode ep, String field) {
        if (ep == null || !ep.isMap()) {
            problems.add(ep, "edges." + field, "found " + found(ep) + "; allowed: a mapping with 'component'"
                    + (copy < 0 ? " and 'instance'" : ""));
            return null;
        }
        if (ep.get("device") != null) {
            problems.add(ep.get("device"), "edges." + field + ".device", "device composition is not read; describe"
                    + " the composed device's components in the device itself");
            return null;
        }
        List<Instance> chosen = new ArrayList<>();
        List<Integer> copies = new ArrayList<>();
        if (copy >= 0) {
            chosen.add(instances.get(0));
            copies.add(copy);
        } else {
            Matcher m = slice(ep, "instance", field);
            if (m == null) {
                return null;
            }
            Instance inst = instances.stream().filter(i -> i.name().equals(m.group(1))).findFirst().orElse(null);
            if (inst == null) {
                problems.add(ep.get("instance"), "edges." + field + ".instance", "'" + m.group(1) + "' is not an"
                        + " instance; allowed: " + instances.stream().map(Instance::name).toList());
                return null;
            }
            for (int k : indices(m, inst.count(), ep.get("instance"), field)) {
                chosen.add(inst);
                copies.add(k);
            }
        }
        Matcher c = slice(ep, "component", field);
        if (c == null) {
            return null;
        }
        Component comp = chosen.isEmpty() ? null : chosen.get(0).device().component(c.group(1));
        if (comp == null) {
            problems.add(ep.get("component"), "edges." + field + ".component", "'" + c.group(1) + "' is not a"
                    + " component of device " + (chosen.isEmpty() ? "?" : chosen.get(0).device().name()));
            return null;
        }
        List<Integer> idx = indices(c, comp.count(), ep.get("component"), field);
        List<Node> out = new ArrayList<>();
        for (int k = 0; k < chosen.size(); k++) {
            for (int j : idx) {
                out.add(new Node(chosen.get(k), copies.get(k), comp, j));
            }
        }
        return out;
    }

    private Matcher slice(YamlNode ep, String key, String field) {
        YamlNode v = ep.get(key);
        Matcher m = v == null || v.text() == null ? null : SLICE.matcher(v.text().trim());
        if (m == null || !m.matches()) {
            problems.add(v == null ? ep : v, "edges." + field + "." + key, "found " + found(v) + "; allowed: a name"
                    + " with an optional Python slice, e.g. xpu, xpu[3], xpu[0:4]");
            return null;
        }
        return m;
    }

    private List<Integer> indices(Matcher m, int count, YamlNode at, String field) {
        List<Integer> out = new ArrayList<>();
        if (m.group(2) == null) {
            for (int i = 0; i < count; i++) {
                out.add(i);
            }
            return out;
        }
        int start = bound(m.group(2), 0, count);
        int end = m.group(3) == null ? start + 1 : bound(m.group(3), count, count);
        if (start < 0 || end > count || start >= end) {
            if (uncounted.contains(m.group(1))) {
                return out; // its count was refused already; the slice may fit the count the author meant
            }
            problems.add(at, "edges." + field, "slice [" + m.group(2) + (m.group(3) == null ? "" : ":" + m.group(3))
                    + "] selects nothing of " + m.group(1) + " (count " + count + ")");
            return out;
        }
        for (int i = start; i < end; i++) {
            out.add(i);
        }
        return out;
    }

    private static int bound(String text, int absent, int count) {
        if (text.isEmpty()) {
            return absent;
        }
        try {
            int v = Integer.parseInt(text);
            return v < 0 ? count + v : v;
        } catch (NumberFormatException tooLarge) {
            return Integer.MAX_VALUE;
        }
    }

    private Map<String, Map<String, String>> attributes(YamlNode annotations) {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        for (YamlNode n : list(annotations, "nodes")) {
            String name = text(n, "name", true);
            for (YamlNode a : list(n, "attributes")) {
                String key = text(a, "attribute", true);
                if (name != null && key != null) {
                    out.computeIfAbsent(name, k -> new LinkedHashMap<>()).put(key, orEmpty(a.get("value")));
                }
            }
        }
        return out;
    }

    /** @return the count under key, 1 when absent; a refused count is a problem, 1 stands in and owner is noted */
    private int count(YamlNode parent, String key, String owner) {
        YamlNode v = parent.get(key);
        if (v == null) {
            return 1;
        }
        if (v.kind() == YamlNode.Kind.NUMBER && v.text().matches("\\d{1,6}") && Integer.parseInt(v.text()) >= 1) {
            return Integer.parseInt(v.text());
        }
        problems.add(v, key, "found " + v.found() + "; allowed: a whole number from 1 to 999999");
        if (owner != null) {
            uncounted.add(owner);
        }
        return 1;
    }

    private String text(YamlNode parent, String key, boolean required) {
        YamlNode v = parent == null ? null : parent.get(key);
        if (v == null || !v.isScalar()) {
            if (required) {
                problems.add(v == null ? parent : v, key, "found " + found(v) + "; allowed: a name");
            }
            return null;
        }
        return v.text();
    }

    private List<YamlNode> list(YamlNode parent, String key) {
        return list(parent == null ? null : parent.get(key));
    }

    private List<YamlNode> list(YamlNode v) {
        if (v == null || v.isNull()) {
            return List.of();
        }
        if (!v.isList()) {
            problems.add(v, v.path(), "found " + v.found() + "; allowed: a list");
            return List.of();
        }
        return v.items();
    }

    private static String orEmpty(YamlNode v) {
        return v == null || v.text() == null ? "" : v.text().strip();
    }

    private static String found(YamlNode v) {
        return v == null ? "nothing" : v.found();
    }
}
