package dev.collsim.topology.io.smi;

import dev.collsim.hardware.GpuModels;
import dev.collsim.topology.io.HardwareHints;
import dev.collsim.topology.io.Problems;

import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.Nic;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.io.smi.SmiMatrix.Cell;
import dev.collsim.units.Bandwidth;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Second pass of {@link NvidiaSmiTopoReader}: infers devices and links from one {@link SmiMatrix} so that every
 * label of the matrix is what {@code nvidia-smi} would print for the inferred graph. Grouping (union-find over the
 * labels): NUMA domains (one CPU each) join devices that are PIX, PXB, PHB or NODE apart and GPUs of equal NUMA
 * affinity; in a domain, PXB groups join PIX and PXB pairs and hang below one upper PCIe switch, PIX classes join
 * PIX pairs and share one switch; host bridges join PHB pairs, and a domain with several gets one switch per root
 * item marked with {@link PcieSwitch#hostBridge()}, so pairs across them read NODE. Every labelled pair is then
 * checked against the grouping and a contradiction is a problem. The PCIe tree is {@link SmiPcieTree}'s job, the
 * NVLinks and the sm they suggest {@link SmiNvlinks}'s. Not thread-safe; one use.
 */
final class SmiInference {

    /** A NUMA node list as nvidia-smi prints one: numbers and ranges, comma-separated. */
    private static final String NODE_LIST = "\\d+(-\\d+)?(,\\d+(-\\d+)?)*";

    private final SmiMatrix m;
    private final HardwareHints hints;
    private final Problems problems;
    private final List<String> notes;
    private final List<String> cols;
    private final int n;
    private final String[][] label;
    private final Cell[][] cell;
    private final int[] gpuNuma;

    SmiInference(SmiMatrix m, HardwareHints hints, Problems problems, List<String> notes) {
        this.m = m;
        this.hints = hints;
        this.problems = problems;
        this.notes = notes;
        this.cols = m.columns;
        this.n = cols.size();
        this.label = new String[n][n];
        this.cell = new Cell[n][n];
        this.gpuNuma = new int[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                Cell c = i == j ? null : m.cell(cols.get(i), cols.get(j));
                cell[i][j] = c;
                label[i][j] = c == null ? null : c.text();
            }
            gpuNuma[i] = numa(cols.get(i));
        }
    }

    void build(TopologyBuilder b) {
        SmiNvlinks nvlinks = new SmiNvlinks(this, m.headerLine);
        int sm = nvlinks.sm();
        String model = hints.gpuModel() != null ? hints.gpuModel() : HardwareHints.UNKNOWN_GPU_MODEL;
        long memory = GpuModels.memoryBytes(hints.gpuModel());
        boolean namesVariant = GpuModels.sku(hints.gpuModel())
                .filter(k -> k.variant().name().equalsIgnoreCase(hints.gpuModel().trim())).isPresent();
        GpuModels.find(hints.gpuModel()).filter(g -> g.variants().size() > 1 && !namesVariant)
                .ifPresent(g -> notes.add("GPU memory " + (memory >> 30) + " GiB assumed: " + g.name()
                        + "'s default variant " + g.variants().get(0).name() + " (name the variant, e.g. "
                        + g.variants().get(1).name() + ", for another)"));
        Device[] dev = new Device[n];
        int nicOrdinal = 0;
        int rails = 0;
        // NICn columns keep their n; a column named otherwise (mlx5_0, a damaged name) takes the lowest n no NICn
        // column and no earlier such column has, so two columns never share an id
        Set<Integer> taken = new HashSet<>();
        for (String c : cols) {
            if (c.matches("NIC\\d+")) {
                taken.add(Integer.parseInt(c.substring(3)));
            }
        }
        int free = 0;
        boolean[] localNic = localNics();
        for (int i = 0; i < n; i++) {
            String c = cols.get(i);
            if (SmiMatrix.isGpu(c)) {
                int idx = Integer.parseInt(c.substring(3));
                dev[i] = b.add(new Gpu("h0/gpu" + idx, 0, idx, model, sm, memory, ""));
            } else {
                int k;
                if (c.matches("NIC\\d+")) {
                    k = Integer.parseInt(c.substring(3));
                } else {
                    while (taken.contains(free)) {
                        free++;
                    }
                    k = free;
                    taken.add(k);
                }
                nicOrdinal++;
                String name = m.nicName(c);
                int rail = localNic[i] ? rails++ : -1;
                dev[i] = b.add(new Nic("h0/nic" + k, 0, name, nicSpeed(), 1, true, rail, ""));
            }
        }
        if (nicOrdinal > 0) {
            String on = rails == 1 ? "rail 0" : "rails 0.." + (rails - 1) + " in column order";
            notes.add(rails == 0 ? "no NIC is nearer than SYS to a GPU, so none is a compute NIC (all read as"
                    + " storage, management): the host has no network for NCCL" : "each GPU's nearest NICs (PIX, else"
                    + " PXB, else PHB, else NODE; as NCCL's ncclTopoGetLocal takes a GPU's NICs by path type) are"
                    + " compute NICs on " + on + ", the others (storage, management) on none");
            notes.add("NIC speed " + nicSpeed() + (hints.nicSpeed() != null ? " (hint)" : " assumed ("
                    + HardwareHints.NIC_SPEED_FALLBACK + "; pass a NIC speed hint)") + "; GPUDirect RDMA assumed (topo -m lists"
                    + " RDMA devices)");
        }
        new SmiPcieTree(this, b, dev, pcieGen(sm)).build();
        nvlinks.edges(b, dev, sm);
    }

    /**
     * The compute NICs: for each GPU, the NICs at its nearest label, PIX before PXB before PHB before NODE, as NCCL
     * 2.30.7 {@code src/graph/topo.cc ncclTopoGetLocal} takes a GPU's NICs (highest path bandwidth, then lowest path
     * type; a GPU's own NIC behind its PCIe switch on an x86 host; on a Grace superchip, where the GPU reaches its
     * CPU by NVLink-C2C and every NIC hangs off a CPU root port, the NICs of its own CPU, which topo -m labels NODE
     * and NCCL reaches by its P2C path, {@code paths.cc}). A NIC only SYS from every GPU (across the CPUs' link)
     * is no GPU's local NIC here: storage or management.
     *
     * @return per column, true for a compute NIC
     */
    private boolean[] localNics() {
        List<String> order = List.of("PIX", "PXB", "PHB", "NODE");
        boolean[] local = new boolean[n];
        for (int g = 0; g < n; g++) {
            if (!isGpu(g)) {
                continue;
            }
            int best = order.size();
            for (int i = 0; i < n; i++) {
                if (!isGpu(i) && label[g][i] != null && order.contains(label[g][i])) {
                    best = Math.min(best, order.indexOf(label[g][i]));
                }
            }
            for (int i = 0; i < n; i++) {
                local[i] |= !isGpu(i) && best < order.size() && order.get(best).equals(label[g][i]);
            }
        }
        return local;
    }

    /**
     * @param i a column
     * @return true for a GPU the matrix gives a GPU NUMA ID (a number, not N/A): its memory is a NUMA node of the
     *         host, as on Grace superchips (GH200, GB200, GB300), whose GPUs reach their Grace by NVLink-C2C
     */
    boolean c2c(int i) {
        SmiMatrix.Row r = m.rows.get(cols.get(i));
        Cell c = r == null ? null : r.affinity().get("GPU NUMA ID");
        return isGpu(i) && c != null && c.text().matches("\\d+");
    }

    String label(int i, int j) {
        return label[i][j];
    }

    Cell cell(int i, int j) {
        return cell[i][j];
    }

    int size() {
        return n;
    }

    boolean isGpu(int i) {
        return SmiMatrix.isGpu(cols.get(i));
    }

    int gpuNuma(int i) {
        return gpuNuma[i];
    }

    String column(int i) {
        return cols.get(i);
    }

    Problems problems() {
        return problems;
    }

    List<String> notes() {
        return notes;
    }

    HardwareHints hints() {
        return hints;
    }

    private int numa(String column) {
        SmiMatrix.Row r = m.rows.get(column);
        if (r != null) {
            check(r.affinity().get("CPU Affinity"), column, "CPU Affinity", "N/A|\\d+(-\\d+)?(,\\d+(-\\d+)?)*",
                    "a CPU list such as 0-31,64-95, or N/A");
            check(r.affinity().get("GPU NUMA ID"), column, "GPU NUMA ID", "N/A|\\d+", "a NUMA node number or N/A");
        }
        Cell c = r == null ? null : r.affinity().get("NUMA Affinity");
        if (c == null || c.text().equals("N/A")) {
            return -1;
        }
        // a Grace superchip lists its CPU's node, then the CPU-less nodes of GPU memory ("0,3-9,11-17"): the first
        // is the CPU's, the domain the device belongs to
        if (!c.text().matches(NODE_LIST)) {
            problems.at(c.line(), c.column(), column + "/NUMA Affinity", "found '" + c.text()
                    + "'; allowed: a NUMA node number, a list of them (0,3-9), or N/A");
            return -1;
        }
        String first = c.text().split("[,-]")[0];
        if (first.length() > 9) {
            problems.at(c.line(), c.column(), column + "/NUMA Affinity", "found '" + c.text()
                    + "'; allowed: NUMA node numbers below 1000000000");
            return -1;
        }
        return Integer.parseInt(first);
    }

    private void check(Cell c, String column, String field, String regex, String allowed) {
        if (c != null && !c.text().matches(regex)) {
            problems.at(c.line(), c.column(), column + "/" + field, "found '" + c.text() + "'; allowed: " + allowed);
        }
    }

    private Bandwidth nicSpeed() {
        if (hints.nicSpeed() != null) {
            return hints.nicSpeed();
        }
        return Bandwidth.ofGbits(NcclBandwidths.DEFAULT_NIC_MBPS / 1000.0);
    }

    private int pcieGen(int sm) {
        if (hints.pcieGen() != 0) {
            return hints.pcieGen();
        }
        int gen = sm < 80 ? 3 : sm < 90 ? 4 : 5;
        notes.add("PCIe links assumed Gen" + gen + " x16 (the generation of sm " + sm + " GPUs; topo -m shows no"
                + " link speed)");
        return gen;
    }
}
