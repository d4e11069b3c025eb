package dev.collsim.topology.paths;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NCCL paths and nvidia-smi labels of catalog hosts, against vendor documents and real {@code nvidia-smi topo -m}
 * outputs (copied from the shared data set into {@code src/test/resources/data}).
 */
class CatalogPathsTest {

    private static final double EPS = 1e-9;

    private static Topology one(String name) {
        return Catalog.standalone(Catalog.hostType(name).orElseThrow(), 1);
    }

    /** Maps smi row/column names (GPU0, mlx5_3, NIC3) to devices of host 0. */
    private static Map<String, Device> smiNames(Topology t, boolean nicByIndexName) {
        Map<String, Device> m = new HashMap<>();
        for (Gpu g : t.gpusOf(0)) {
            m.put("GPU" + g.index(), g);
        }
        for (Nic n : t.devices(Nic.class)) {
            m.put(n.name(), n);
            if (nicByIndexName) {
                m.put("NIC" + n.name().substring("mlx5_".length()), n);
            }
        }
        return m;
    }

    private static int compareLabels(Topology t, String file, boolean nicByIndexName) throws IOException {
        SmiTable table = SmiTable.load(file);
        HostPaths hp = PathFinder.of(t).host(0);
        Map<String, Device> names = smiNames(t, nicByIndexName);
        int compared = 0;
        for (var row : table.rows.entrySet()) {
            Device a = names.get(row.getKey());
            for (var cell : row.getValue().entrySet()) {
                Device b = names.get(cell.getKey());
                assertTrue(a != null && b != null, "no device for " + row.getKey() + "/" + cell.getKey());
                assertEquals(cell.getValue(), hp.path(a, b).smiLabel(),
                        file + ": " + row.getKey() + " -> " + cell.getKey());
                compared++;
            }
        }
        return compared;
    }

    /**
     * DGX A100 (DGX A100 User Guide; A100 datasheet): every GPU pair is NV12 through the NVSwitches, 12 links x 25
     * GB/s per direction = 300 GB/s physical; NCCL counts 12 x 20 GB/s = 240 (NCCL 2.30 topo.h SM80_NVLINK_BW).
     */
    @Test
    void dgxA100EveryGpuPairIsNv12WithThreeHundredPhysicalAndTwoFortyNccl() {
        Topology t = one("dgx-a100");
        HostPaths hp = PathFinder.of(t).host(0);
        assertEquals(8, hp.gpus().size());
        for (Gpu a : hp.gpus()) {
            for (Gpu b : hp.gpus()) {
                if (a == b) {
                    continue;
                }
                DevicePath p = hp.path(a, b);
                assertEquals(PathType.NVL, p.type());
                assertEquals("NV12", p.smiLabel());
                assertEquals(300.0, p.physical().gbps(), EPS);
                assertEquals(240.0, p.nccl().gbps(), EPS);
                assertEquals(2, p.hopCount());
            }
        }
    }

    /** Every label of the real DGX A100 {@code topo -m} (8 GPUs x 12 NICs, 20 x 20 cells) matches the catalog host. */
    @Test
    void dgxA100LabelsMatchTheRealTopoOutput() throws IOException {
        assertEquals(20 * 20, compareLabels(one("dgx-a100"), "B-topo-dgx-a100.txt", false));
    }

    /**
     * DGX A100 GPU0 and its NIC mlx5_0 sit on one PCIe Gen4 switch complex: NCCL type PXB, NCCL bandwidth
     * min(Gen4 x16 = 16 x 120 / 80 = 24, 200 Gb/s = 25) = 24 GB/s. GPU0 to mlx5_2 (GPU2's NIC, another NUMA node)
     * goes through GPU2 over NVLink: PXN with the same 24 GB/s bottleneck.
     */
    @Test
    void dgxA100GpuToNicTypes() {
        PathFinder pf = PathFinder.of(one("dgx-a100"));
        DevicePath local = pf.path("h0/gpu0", "h0/nic0");
        assertEquals(PathType.PXB, local.type());
        assertEquals(24.0, local.nccl().gbps(), EPS);
        assertEquals(25.0, local.physical().gbps(), EPS);
        DevicePath pxn = pf.path("h0/gpu0", "h0/nic2");
        assertEquals(PathType.PXN, pxn.type());
        assertEquals(24.0, pxn.nccl().gbps(), EPS);
        assertEquals(PathType.NVL, pf.path("h0/gpu0", "h0/gpu2").type());
    }

    /**
     * DGX H100 (DGX H100 User Guide; H100 datasheet): 18 NVLink4 links per GPU, 450 GB/s per direction physical,
     * NCCL 18 x 20.6 = 370.8 GB/s (NCCL 2.30 topo.h SM90_NVLINK_BW).
     */
    @Test
    void dgxH100GpuPairsAreNv18() {
        HostPaths hp = PathFinder.of(one("dgx-h100")).host(0);
        DevicePath p = hp.path(hp.gpus().get(0), hp.gpus().get(7));
        assertEquals("NV18", p.smiLabel());
        assertEquals(PathType.NVL, p.type());
        assertEquals(450.0, p.physical().gbps(), EPS);
        assertEquals(370.8, p.nccl().gbps(), 1e-6);
        assertEquals(8 * 7, gpuPairs(hp, PathType.NVL));
    }

    /** The GPU rows of the real DGX H100 {@code topo -m} (8 x 20 cells, NIC rows 0-5 too) match. */
    @Test
    void dgxH100LabelsMatchTheRealTopoOutput() throws IOException {
        assertEquals(14 * 20, compareLabels(one("dgx-h100"), "B-topo-dgx-h100-12nic-partial.txt", true));
    }

    /**
     * DGX H100 GPU0 to GPU1's NIC: PCIe would cross the CPU (PHB), so NCCL relays through GPU1 over NVLink (PXN);
     * bottleneck min(370.8, Gen5 x16 = 48, 400 Gb/s = 50) = 48 GB/s.
     */
    @Test
    void dgxH100UsesPxnForAnotherGpusNic() {
        DevicePath p = PathFinder.of(one("dgx-h100")).path("h0/gpu0", "h0/nic1");
        assertEquals(PathType.PXN, p.type());
        assertEquals(48.0, p.nccl().gbps(), EPS);
        DevicePath back = PathFinder.of(one("dgx-h100")).path("h0/nic1", "h0/gpu0");
        assertEquals(PathType.PHB, back.type(), "PXN is only used in the GPU to NIC direction");
    }

    /** Every cell of the real 8x RTX 4090 (no PCIe switch) {@code topo -m} matches: all GPU pairs SYS. */
    @Test
    void rtx4090LabelsMatchTheRealTopoOutput() throws IOException {
        Topology t = one("pcie-8x-rtx4090");
        assertEquals(12 * 12, compareLabels(t, "B-topo-8xRTX4090-dual-epyc7542-nopcieswitch.txt", true));
        DevicePath p = PathFinder.of(t).path("h0/gpu0", "h0/gpu1");
        assertEquals(PathType.SYS, p.type());
        assertEquals(16.0, p.nccl().gbps(), EPS, "NCCL AMD inter-CPU 16 GB/s < Gen4 x16 24 GB/s");
    }

    /**
     * DGX-1 V100: the GPU-NIC and NIC-NIC cells of the real {@code topo -mp} match, and GPU pairs without a direct
     * NVLink are SYS there. In NCCL those pairs are NVB (two NVLink hops through a GPU, white paper cube-mesh): GPU0 to
     * GPU5 via GPU1 (1 + 2 links) or GPU4 (2 + 1 links): min = one sm70 link, 20 GB/s.
     */
    @Test
    void dgx1V100PcieLabelsAndNvb() throws IOException {
        Topology t = one("dgx1-v100");
        SmiTable table = SmiTable.load("B-topo-dgx1-v100-pcie-paths.txt");
        HostPaths hp = PathFinder.of(t).host(0);
        Map<String, Device> names = smiNames(t, false);
        int compared = 0;
        for (var row : table.rows.entrySet()) {
            for (var cell : row.getValue().entrySet()) {
                DevicePath p = hp.path(names.get(row.getKey()), names.get(cell.getKey()));
                if (!p.smiLabel().startsWith("NV")) {
                    assertEquals(cell.getValue(), p.smiLabel(), row.getKey() + " -> " + cell.getKey());
                    compared++;
                }
            }
        }
        assertEquals(12 * 12 - 32, compared, "32 ordered GPU pairs have a direct NVLink");
        DevicePath nvb = hp.path(names.get("GPU0"), names.get("GPU5"));
        assertEquals(PathType.NVB, nvb.type());
        assertEquals(20.0, nvb.nccl().gbps(), EPS);
        for (Gpu g : hp.gpus()) {
            int links = hp.gpus().stream().filter(o -> o != g).mapToInt(o -> {
                String l = hp.path(g, o).smiLabel();
                return l.startsWith("NV") ? Integer.parseInt(l.substring(2)) : 0;
            }).sum();
            assertEquals(6, links, "V100 has 6 NVLinks (V100 datasheet)");
        }
    }

    /** @return ordered GPU pairs (no GPU with itself) of a host whose path is of {@code type} */
    static long gpuPairs(HostPaths hp, PathType type) {
        return hp.gpus().stream().mapToLong(a -> hp.gpus().stream()
                .filter(b -> a != b && hp.path(a, b).type() == type).count()).sum();
    }
}
