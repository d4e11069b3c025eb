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
                int rail = nearGpu(i) ? rails++ : -1;
                dev[i] = b.add(new Nic("h0/nic" + k, 0, name, nicSpeed(), 1, true, rail, ""));
            }
        }
        if (nicOrdinal > 0) {
            String on = rails == 1 ? "rail 0" : "rails 0.." + (rails - 1) + " in column order";
            notes.add(rails == 0 ? "no NIC is PIX or PXB to a GPU, so none is a compute NIC (all read as storage,"
                    + " management): the host has no network for NCCL" : "NICs PIX or PXB to a GPU are compute NICs on "
                    + on + ", the others (storage, management) on none");
            notes.add("NIC speed " + nicSpeed() + (hints.nicSpeed() != null ? " (hint)" : " assumed (NCCL's fallback"
                    + " for a NIC without speed; pass a NIC speed hint)") + "; GPUDirect RDMA assumed (topo -m lists"
                    + " RDMA devices)");
        }
        new SmiPcieTree(this, b, dev, pcieGen(sm)).build();
        nvlinks.edges(b, dev, sm);
    }

    /** @return true when device i has a PIX or PXB label to some GPU (a NIC behind a GPU's PCIe switch) */
    private boolean nearGpu(int i) {
        for (int j = 0; j < n; j++) {
            if (isGpu(j) && ("PIX".equals(label[i][j]) || "PXB".equals(label[i][j]))) {
                return true;
            }
        }
        return false;
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
        try {
            return Integer.parseInt(c.text());
        } catch (NumberFormatException e) {
            problems.at(c.line(), c.column(), column + "/NUMA Affinity", "found '" + c.text()
                    + "'; allowed: a NUMA node number or N/A");
            return -1;
        }
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
