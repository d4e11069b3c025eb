package dev.collsim.topology.io.smi;

import dev.collsim.hardware.GpuModels;
import dev.collsim.hardware.NvlinkGen;
import dev.collsim.topology.Device;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.io.smi.SmiMatrix.Cell;
import dev.collsim.units.Bandwidth;
import dev.collsim.units.Latency;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The NVLink part of {@link SmiInference}: reads the {@code NV#} cells of a {@code nvidia-smi topo -m} matrix into
 * link counts per GPU pair (a pair whose counts differ by direction is warned of and read with the larger), infers the
 * GPUs' sm when no hint or known model gives it, and adds the NVLinks: through one NVSwitch node for GPUs with equal
 * counts to every peer summing above one GPU's links ({@link NcclBandwidths#maxNvlinks}), else direct. Not
 * thread-safe; one use.
 */
final class SmiNvlinks {

    private final SmiInference in;
    private final int headerLine;
    private final int n;
    /** NVLinks from column i to column j, as the matrix gives them. */
    private final int[][] nv;

    /**
     * @param in         the matrix as the inference reads it
     * @param headerLine line of the matrix's header, where a problem of the NVLinks as a whole is located
     */
    SmiNvlinks(SmiInference in, int headerLine) {
        this.in = in;
        this.headerLine = headerLine;
        this.n = in.size();
        this.nv = counts();
    }

    private int[][] counts() {
        int[][] nv = new int[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                String l = in.label(i, j);
                if (l != null && l.startsWith("NV")) {
                    if (!in.isGpu(i) || !in.isGpu(j)) {
                        Cell c = in.cell(i, j);
                        in.problems().at(c.line(), c.column(), in.column(i) + "/" + in.column(j), "found '" + l
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
     * then read with the larger count, both ways, so the NVSwitch test ({@link #switchLike}) and the sm guess see
     * the count the warning names.
     */
    private void asymmetry(int[][] nv) {
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                Cell a = in.cell(i, j);
                Cell z = in.cell(j, i);
                if (nv[i][j] != nv[j][i] && a != null && z != null) {
                    in.notes().add(String.format(Locale.ROOT, "warning: %s/%s is %s at %d:%d but %s/%s is %s at"
                            + " %d:%d; NVLinks are bidirectional, the pair is read as NV%d", in.column(i),
                            in.column(j), a.text(), a.line(), a.column(), in.column(j), in.column(i), z.text(),
                            z.line(), z.column(),
                            Math.max(nv[i][j], nv[j][i])));
                }
                if (nv[i][j] != nv[j][i]) {
                    nv[i][j] = Math.max(nv[i][j], nv[j][i]);
                    nv[j][i] = nv[i][j];
                }
            }
        }
    }

    /** True when GPU i has the same NV count to every NV peer and their sum exceeds one GPU's links. */
    private boolean switchLike(int i, int smOrZero) {
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

    /**
     * The GPUs' compute capability: the hint's, else the GPU model's in the GPU database, else a guess from the NVLink
     * counts (NVSwitch systems by links per GPU, NV12 pairs A100 bridges, NV4 pairs GA10x bridges, at most 6 links
     * V100), each said in the notes.
     *
     * @return sm x 10
     */
    int sm() {
        if (in.hints().gpuSm() != 0) {
            in.notes().add("GPU model " + (in.hints().gpuModel() == null ? "unknown" : in.hints().gpuModel()) + ", sm "
                    + in.hints().gpuSm() + " (hint)");
            return in.hints().gpuSm();
        }
        // a model the GPU database knows fixes the sm (and with it the NVLink generation and PCIe generation); the
        // link counts below are only a guess for a file that names no model
        if (GpuModels.find(in.hints().gpuModel()).isPresent()) {
            int sm = GpuModels.find(in.hints().gpuModel()).orElseThrow().sm();
            in.notes().add("GPU model " + in.hints().gpuModel() + " (hint), sm " + sm + " from the GPU database");
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
            viaSwitch |= switchLike(i, 0);
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
        in.notes().add((in.hints().gpuModel() == null ? "GPU model unknown" : "GPU model " + in.hints().gpuModel()
                + " (hint) not in the GPU database") + ", sm " + sm + " assumed from " + why + "; pass a GPU hint"
                + (in.hints().gpuModel() == null ? "" : " (--gpu-sm)") + " to set it");
        return sm;
    }

    /**
     * Adds the NVLinks: one NVSwitch node per group of GPUs that reach each other with equal counts above one GPU's
     * links ({@link #switchLike}), direct links between the others; an NVLink on GPUs whose sm has none is a problem.
     *
     * @param b   where the links go
     * @param dev the devices, by matrix column
     * @param sm  the GPUs' sm ({@link #sm})
     */
    void edges(TopologyBuilder b, Device[] dev, int sm) {
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
            in.problems().at(headerLine, 1, "NV#", "the matrix shows NVLinks but GPUs of sm " + sm + " have none;"
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
            boolean viaSwitch = group.stream().allMatch(i -> switchLike(i, sm));
            if (viaSwitch) {
                NvSwitch s = b.add(new NvSwitch("h0/nvs" + switches, 0, switches));
                switches++;
                for (int i : group) {
                    int c = group.stream().mapToInt(j -> nv[i][j]).max().orElse(0);
                    b.connect(dev[i], s, LinkType.NVLINK, c, perLink.times(c), Latency.ZERO, gen);
                }
                in.notes().add(String.format(Locale.ROOT, "GPUs %s reach each other through one NVSwitch node (equal NV"
                        + " counts to every peer, more than one GPU's links)", group.stream().map(in::column).toList()));
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
