package dev.collsim.topology.io.smi;

import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.NvlinkGen;
import dev.collsim.topology.io.HardwareHints;
import dev.collsim.topology.io.Problems;

import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.io.smi.SmiMatrix.Cell;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Second pass of {@link NvidiaSmiTopoReader}: infers devices and links from one {@link SmiMatrix} so that every
 * label of the matrix is what {@code nvidia-smi} would print for the inferred graph. Grouping (union-find over the
 * labels): NUMA domains (one CPU each) join devices that are PIX, PXB, PHB or NODE apart and GPUs of equal NUMA
 * affinity; in a domain, PXB groups join PIX and PXB pairs and hang below one upper PCIe switch, PIX classes join
 * PIX pairs and share one switch; host bridges join PHB pairs, and a domain with several gets one switch per root
 * item marked with {@link PcieSwitch#hostBridge()}, so pairs across them read NODE. Every labelled pair is then
 * checked against the grouping and a contradiction is a problem. Not thread-safe; one use.
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
        int[][] nv = nvlinks();
        int sm = sm(nv);
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
        nvlinkEdges(b, dev, nv, sm);
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

    private int[][] nvlinks() {
        int[][] nv = new int[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                String l = label[i][j];
                if (l != null && l.startsWith("NV")) {
                    if (!isGpu(i) || !isGpu(j)) {
                        Cell c = cell[i][j];
                        problems.at(c.line(), c.column(), cols.get(i) + "/" + cols.get(j), "found '" + l
                                + "' between a GPU and a NIC; allowed: PIX, PXB, PHB, NODE, SYS");
                        continue;
                    }
                    nv[i][j] = Integer.parseInt(l.substring(2));
                }
            }
        }
        asymmetry(nv);
        return nv;
    }

    /**
     * Notes, as a warning, every GPU pair whose NV counts differ by direction (NV6 one way, NV12 the other): an
     * NVLink is bidirectional, so a real matrix is symmetric and such a file was edited or damaged. The pair is
     * then read with the larger count.
     */
    private void asymmetry(int[][] nv) {
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                Cell a = cell[i][j];
                Cell z = cell[j][i];
                if (nv[i][j] != nv[j][i] && a != null && z != null) {
                    notes.add(String.format(Locale.ROOT, "warning: %s/%s is %s at %d:%d but %s/%s is %s at %d:%d;"
                            + " NVLinks are bidirectional, the pair is read as NV%d", cols.get(i), cols.get(j),
                            a.text(), a.line(), a.column(), cols.get(j), cols.get(i), z.text(), z.line(), z.column(),
                            Math.max(nv[i][j], nv[j][i])));
                }
            }
        }
    }

    /** True when GPU i has the same NV count to every NV peer and their sum exceeds one GPU's links. */
    private boolean switchLike(int[][] nv, int i, int smOrZero) {
        int c = 0;
        int peers = 0;
        for (int j = 0; j < n; j++) {
            if (nv[i][j] > 0) {
                if (c != 0 && nv[i][j] != c) {
                    return false;
                }
                c = nv[i][j];
                peers++;
            }
        }
        return peers > 0 && c * peers > NcclBandwidths.maxNvlinks(smOrZero);
    }

    private int sm(int[][] nv) {
        if (hints.gpuSm() != 0) {
            notes.add("GPU model " + (hints.gpuModel() == null ? "unknown" : hints.gpuModel()) + ", sm "
                    + hints.gpuSm() + " (hint)");
            return hints.gpuSm();
        }
        // a model the GPU database knows fixes the sm (and with it the NVLink generation and PCIe generation); the
        // link counts below are only a guess for a file that names no model
        if (GpuModels.find(hints.gpuModel()).isPresent()) {
            int sm = GpuModels.find(hints.gpuModel()).orElseThrow().sm();
            notes.add("GPU model " + hints.gpuModel() + " (hint), sm " + sm + " from the GPU database");
            return sm;
        }
        int maxPair = 0;
        int maxTotal = 0;
        boolean viaSwitch = false;
        for (int i = 0; i < n; i++) {
            int total = 0;
            for (int j = 0; j < n; j++) {
                maxPair = Math.max(maxPair, nv[i][j]);
                total += nv[i][j];
            }
            maxTotal = Math.max(maxTotal, total);
            viaSwitch |= switchLike(nv, i, 0);
        }
        int sm;
        String why;
        if (maxPair == 0) {
            sm = 80;
            why = "no NVLink in the matrix and no hint";
        } else if (viaSwitch) {
            sm = maxPair >= 18 ? 90 : maxPair >= 12 ? 80 : 70;
            why = "NVSwitch system with " + maxPair + " links per GPU (18: NVLink4, 12: NVLink3, 6: NVLink2)";
        } else if (maxPair == 12) {
            sm = 80;
            why = "NV12 direct pairs: A100 NVLink bridge (12 NVLink3 links)";
        } else if (maxPair == 4 && maxTotal == 4) {
            sm = 86;
            why = "NV4 pairs: GA10x NVLink bridge (RTX 3090 / RTX A6000 class, 4 links)";
        } else if (maxTotal <= 6) {
            sm = 70;
            why = "at most 6 NVLinks per GPU: V100 NVLink2";
        } else {
            sm = 80;
            why = "direct NVLinks, up to " + maxTotal + " per GPU";
        }
        notes.add((hints.gpuModel() == null ? "GPU model unknown" : "GPU model " + hints.gpuModel()
                + " (hint) not in the GPU database") + ", sm " + sm + " assumed from " + why + "; pass a GPU hint"
                + (hints.gpuModel() == null ? "" : " (--gpu-sm)") + " to set it");
        return sm;
    }

    private void nvlinkEdges(TopologyBuilder b, Device[] dev, int[][] nv, int sm) {
        NvlinkGen nvlink = GpuModels.nvlinkOfSm(sm).orElse(null);
        UnionFind comp = new UnionFind(n);
        boolean any = false;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (nv[i][j] > 0) {
                    comp.union(i, j);
                    any = true;
                }
            }
        }
        if (!any) {
            return;
        }
        if (nvlink == null) {
            problems.at(m.headerLine, 1, "NV#", "the matrix shows NVLinks but GPUs of sm " + sm + " have none;"
                    + " allowed GPU hints with NVLink: sm " + GpuModels.nvlinkSms().stream().map(String::valueOf)
                    .collect(Collectors.joining(", ")));
            return;
        }
        Bandwidth perLink = nvlink.perLink();
        String gen = nvlink.label();
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(i);
        }
        int switches = 0;
        for (List<Integer> group : comp.groups(all)) {
            if (group.size() < 2) {
                continue;
            }
            boolean viaSwitch = group.stream().allMatch(i -> switchLike(nv, i, sm));
            if (viaSwitch) {
                NvSwitch s = b.add(new NvSwitch("h0/nvs" + switches, 0, switches));
                switches++;
                for (int i : group) {
                    int c = group.stream().mapToInt(j -> nv[i][j]).max().orElse(0);
                    b.connect(dev[i], s, LinkType.NVLINK, c, perLink.times(c), Latency.ZERO, gen);
                }
                notes.add(String.format(Locale.ROOT, "GPUs %s reach each other through one NVSwitch node (equal NV"
                        + " counts to every peer, more than one GPU's links)", group.stream().map(cols::get).toList()));
            } else {
                for (int i : group) {
                    for (int j : group) {
                        if (i < j && (nv[i][j] > 0 || nv[j][i] > 0)) {
                            int c = Math.max(nv[i][j], nv[j][i]);
                            b.connect(dev[i], dev[j], LinkType.NVLINK, c, perLink.times(c), Latency.ZERO, gen);
                        }
                    }
                }
            }
        }
    }
}
