package dev.collsim.topology.io.yaml;

import dev.collsim.io.yaml.YamlFields;
import dev.collsim.io.yaml.YamlNode;
import dev.collsim.topology.io.Problems;
import dev.collsim.topology.io.yaml.InlineHostType.RootPortSpec;
import dev.collsim.topology.io.yaml.InlineHostType.SwitchSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;


/**
 * Checks the {@code pcie} section of an inline host: switch names unique; each switch has exactly one of
 * {@code parent} (a declared switch) or {@code cpu} (a declared CPU); no parent cycles; GPU, NIC and CPU indices
 * declared; each GPU or NIC attached at most once; every NIC attached.
 */
final class PcieTreeChecker {

    private static final List<String> SWITCH_KEYS = List.of("cpu", "gpus", "hostBridge", "name", "nics", "parent");
    private static final List<String> ROOT_KEYS = List.of("cpu", "gpus", "nics");

    private final YamlFields f;
    private final Problems problems;
    private final int nGpus;
    private final int nCpus;
    private final int nNics;
    private final Map<Integer, String> gpuAt = new HashMap<>();
    private final Map<Integer, String> nicAt = new HashMap<>();

    PcieTreeChecker(YamlFields f, Problems problems, int nGpus, int nCpus, int nNics) {
        this.f = f;
        this.problems = problems;
        this.nGpus = nGpus;
        this.nCpus = nCpus;
        this.nNics = nNics;
    }

    void check(YamlNode pcie, List<SwitchSpec> switches, List<RootPortSpec> roots) {
        List<YamlNode> items = f.list(pcie, "switches");
        Map<String, YamlNode> declared = new HashMap<>();
        for (int i = 0; i < items.size(); i++) {
            String name = items.get(i).isMap() ? f.text(items.get(i), "name", true)
                    : null;
            if (name != null && declared.putIfAbsent(name, items.get(i)) != null) {
                problems.add(items.get(i).get("name"), "hosts.pcie.switches[" + i + "].name",
                        "duplicate switch name '" + name + "'; switch names must be unique");
            }
        }
        Map<String, String> parentOf = new HashMap<>();
        for (int i = 0; i < items.size(); i++) {
            String p = "hosts.pcie.switches[" + i + "]";
            YamlNode it = items.get(i);
            if (!it.isMap()) {
                problems.add(it, p, "found " + it.found() + "; allowed: a switch {name, cpu | parent, gpus, nics}");
                continue;
            }
            f.checkKeys(it, SWITCH_KEYS);
            String name = f.text(it, "name", false);
            String parent = f.text(it, "parent", false);
            Integer cpu = it.get("cpu") == null ? null : declaredCpu(it, p, false);
            Integer hb = it.get("hostBridge") == null ? Integer.valueOf(-1)
                    : f.integer(it, "hostBridge", false, 0, Integer.MAX_VALUE);
            if ((parent == null) == (it.get("cpu") == null)) {
                problems.add(it, p, "give exactly one of 'parent' (a switch name) or 'cpu' (a CPU index)");
            }
            if (parent != null && !declared.containsKey(parent)) {
                problems.add(it.get("parent"), p + ".parent", "link to undeclared device '" + parent
                        + "'; declared switches: " + String.join(", ", declared.keySet()));
                parent = null;
            }
            List<Integer> gpus = devices(it, "gpus", p, nGpus, gpuAt, "GPU");
            List<Integer> nics = devices(it, "nics", p, nNics, nicAt, "NIC");
            if (name != null && (parent != null || cpu != null)) {
                parentOf.put(name, parent);
                switches.add(new SwitchSpec(name, parent, cpu, hb == null ? -1 : hb, gpus, nics));
            }
        }
        checkCycles(parentOf, declared);
        List<YamlNode> rootItems = f.list(pcie, "rootPorts");
        for (int i = 0; i < rootItems.size(); i++) {
            String p = "hosts.pcie.rootPorts[" + i + "]";
            YamlNode it = rootItems.get(i);
            f.checkKeys(it, ROOT_KEYS);
            Integer cpu = declaredCpu(it, p, true);
            List<Integer> gpus = devices(it, "gpus", p, nGpus, gpuAt, "GPU");
            List<Integer> nics = devices(it, "nics", p, nNics, nicAt, "NIC");
            if (cpu != null) {
                roots.add(new RootPortSpec(cpu, gpus, nics));
            }
        }
        for (int n = 0; n < nNics; n++) {
            if (!nicAt.containsKey(n)) {
                problems.add(pcie, "hosts.pcie", "NIC " + n + " is not attached to any PCIe switch or root port");
            }
        }
    }

    /** @return the {@code cpu} index of a switch or root port, or null when absent, refused or not declared */
    private Integer declaredCpu(YamlNode it, String p, boolean required) {
        Integer cpu = f.integer(it, "cpu", required, 0, Integer.MAX_VALUE);
        if (cpu != null && cpu >= nCpus) {
            problems.add(it.get("cpu"), p + ".cpu", "link to undeclared CPU " + cpu + "; declared CPUs: 0.."
                    + (nCpus - 1));
            return null;
        }
        return cpu;
    }

    private List<Integer> devices(YamlNode it, String key, String p, int declaredCount, Map<Integer, String> at,
            String kind) {
        List<Integer> out = new ArrayList<>();
        for (int i : f.indices(it, key)) {
            if (i >= declaredCount) {
                problems.add(it.get(key), p + "." + key, "link to undeclared " + kind + " " + i + "; declared "
                        + kind + "s: " + (declaredCount == 0 ? "none" : "0.." + (declaredCount - 1)));
            } else if (at.putIfAbsent(i, p) != null) {
                problems.add(it.get(key), p + "." + key, kind + " " + i + " is already attached at " + at.get(i)
                        + "; a device hangs off one PCIe parent");
            } else {
                out.add(i);
            }
        }
        return out;
    }

    private void checkCycles(Map<String, String> parentOf, Map<String, YamlNode> declared) {
        for (String start : parentOf.keySet()) {
            Set<String> seen = new HashSet<>();
            String at = start;
            while (at != null && seen.add(at)) {
                at = parentOf.get(at);
            }
            if (at != null) {
                problems.add(declared.get(start), "hosts.pcie.switches", "switch '" + start
                        + "' is in a parent cycle and never reaches a CPU");
            }
        }
    }
}
