package dev.collsim.topology.paths;

import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PcieSwitch;
import java.util.Arrays;
import java.util.List;

/**
 * The label {@code nvidia-smi topo -m} prints for a pair of devices of one host (its legend, reproduced in the
 * {@code B-topo-*.txt} files of the shared data):
 * <ul>
 *   <li>{@code X}: the same device;</li>
 *   <li>{@code NV#}: GPUs joined by a bonded set of # NVLinks, directly or through an NVSwitch (then # is the smaller
 *       of the two GPUs' link counts to the switch);</li>
 *   <li>otherwise the shortest PCIe route (PCIe, C2C and SMP links, never through a GPU or NIC) decides:
 *       {@code SYS} if it crosses an SMP link between NUMA nodes; {@code NODE} if it crosses a CPU between two
 *       different host bridges ({@link PcieSwitch#hostBridge()}) or when an end has NVLink-C2C to that CPU (a Grace
 *       superchip's GPU and a NIC on that Grace's root port read NODE, as topo -m prints on a GB200 tray); {@code PHB} if it
 *       crosses a CPU otherwise;
 *       {@code PIX} if it crosses at most one PCIe switch; {@code PXB} if it crosses several.</li>
 * </ul>
 * NCCL itself has no NODE level: NODE pairs are PHB in NCCL's path types.
 */
final class SmiLabels {

    private SmiLabels() {
    }

    static String label(ScopeGraph g, Device a, Device b) {
        return labels(g, a, List.of(b))[0];
    }

    /**
     * Labels from one device to several, with one breadth-first search over the PCIe route.
     *
     * @return one label per target, empty where nvidia-smi shows none
     */
    static String[] labels(ScopeGraph g, Device a, List<? extends Device> targets) {
        String[] out = new String[targets.size()];
        Route route = null;
        for (int i = 0; i < out.length; i++) {
            Device b = targets.get(i);
            if (a == b || a.equals(b)) {
                out[i] = "X";
                continue;
            }
            if (!(a instanceof Gpu || a instanceof Nic) || !(b instanceof Gpu || b instanceof Nic)) {
                out[i] = "";
                continue;
            }
            if (a instanceof Gpu && b instanceof Gpu) {
                int nv = nvlinks(g, a, b);
                if (nv > 0) {
                    out[i] = "NV" + nv;
                    continue;
                }
            }
            if (route == null) {
                route = new Route(g, g.indexOf(a));
            }
            out[i] = route.label(g.indexOf(b));
        }
        return out;
    }

    private static int linkCount(ScopeGraph g, Device from, Device to) {
        int n = 0;
        for (Hop h : g.out.get(g.indexOf(from))) {
            if (h.to().equals(to) && h.type() == LinkType.NVLINK) {
                n += h.count();
            }
        }
        return n;
    }

    private static int nvlinks(ScopeGraph g, Device a, Device b) {
        int direct = linkCount(g, a, b);
        if (direct > 0) {
            return direct;
        }
        int best = 0;
        for (Hop h : g.out.get(g.indexOf(a))) {
            if (h.type() == LinkType.NVLINK && h.to() instanceof NvSwitch) {
                int viaB = linkCount(g, b, h.to());
                best = Math.max(best, Math.min(h.count(), viaB));
            }
        }
        return best;
    }

    /** Shortest PCIe/SMP/C2C routes from one device (never through a GPU or NIC). */
    private static final class Route {
        private final ScopeGraph g;
        private final int src;
        private final int[] prev;
        private final Hop[] via;

        Route(ScopeGraph g, int src) {
            this.g = g;
            this.src = src;
            int n = g.size();
            prev = new int[n];
            via = new Hop[n];
            Arrays.fill(prev, -2);
            prev[src] = -1;
            int[] queue = new int[n];
            int head = 0;
            int tail = 0;
            queue[tail++] = src;
            while (head < tail) {
                int at = queue[head++];
                Device d = g.nodes[at];
                if (at != src && (d instanceof Gpu || d instanceof Nic)) {
                    continue;
                }
                for (Hop h : g.out.get(at)) {
                    if (h.type() != LinkType.PCIE && h.type() != LinkType.SMP && h.type() != LinkType.C2C) {
                        continue;
                    }
                    int t = g.indexOf(h.to());
                    if (prev[t] == -2) {
                        prev[t] = at;
                        via[t] = h;
                        queue[tail++] = t;
                    }
                }
            }
        }

        String label(int dst) {
            if (dst < 0 || prev[dst] == -2) {
                return "";
            }
            boolean smp = false;
            boolean node = false;
            boolean cpu = false;
            int switches = 0;
            for (int at = dst; at != src; at = prev[at]) {
                if (via[at].type() == LinkType.SMP) {
                    smp = true;
                }
                int before = prev[at];
                if (before != src && g.nodes[before] instanceof Cpu) {
                    cpu = true;
                    node |= differentHostBridges(g.nodes[prev[before]], g.nodes[at])
                            || c2c(g, g.nodes[src], g.nodes[before]) || c2c(g, g.nodes[dst], g.nodes[before]);
                }
                if (before != src && g.nodes[before] instanceof PcieSwitch) {
                    switches++;
                }
            }
            if (smp) {
                return "SYS";
            }
            if (cpu) {
                return node ? "NODE" : "PHB";
            }
            return switches <= 1 ? "PIX" : "PXB";
        }
    }

    /** @return true when the device has an NVLink-C2C link to the CPU (a Grace superchip's GPU) */
    private static boolean c2c(ScopeGraph g, Device device, Device cpu) {
        for (Hop h : g.out.get(g.indexOf(device))) {
            if (h.type() == LinkType.C2C && h.to().equals(cpu)) {
                return true;
            }
        }
        return false;
    }

    private static boolean differentHostBridges(Device left, Device right) {
        int hl = left instanceof PcieSwitch ps ? ps.hostBridge() : -1;
        int hr = right instanceof PcieSwitch ps ? ps.hostBridge() : -1;
        return hl >= 0 && hr >= 0 && hl != hr;
    }
}
