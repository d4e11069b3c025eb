package dev.collsim.topology.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.paths.HostPaths;
import dev.collsim.topology.paths.PathFinder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The HGX 4-GPU board layout ({@link SystemEntry.Layout#HGX4}) as the NREL Kestrel GPU node builds it: 4 H100 SXM
 * joined directly by NVLink, no NVSwitch; each GPU and NIC on a CPU root port.
 */
class HgxFourGpuBoardTest {

    private static HostPaths kestrel() {
        return PathFinder.of(Catalog.standalone(Catalog.hostType("kestrel-gpu").orElseThrow(), 1)).host(0);
    }

    /**
     * NVIDIA HGX H100 datasheet: the 4-GPU board has no NVSwitch; the H100 SXM has 18 NVLink4 (H100 datasheet), so
     * over 3 peers 18 / 3 = 6 links a pair ({@code NV6}). NCCL 2.21.5 {@code src/graph/topo.h} {@code
     * SM90_NVLINK_BW} 20.6 GB/s per link: 6 x 20.6 = 123.6 GB/s per pair, every pair NVL (one hop).
     */
    @Test
    void everyGpuPairHasSixNvlinksOfItsOwn() {
        HostPaths hp = kestrel();
        List<Gpu> g = hp.gpus();
        assertEquals(4, g.size());
        for (Gpu a : g) {
            for (Gpu b : g) {
                if (a != b) {
                    assertEquals(PathType.NVL, hp.path(a, b).type(), a.id() + "-" + b.id());
                    assertEquals(123.6, hp.path(a, b).nccl().gbps(), 1e-9, a.id() + "-" + b.id());
                }
            }
        }
        Topology t = Catalog.standalone(Catalog.hostType("kestrel-gpu").orElseThrow(), 1);
        assertTrue(t.devices(NvSwitch.class).isEmpty());
    }

    /**
     * GPUs 0-1 and NIC 0 on socket 0, GPUs 2-3 and NIC 1 on socket 1, each on a root port: a GPU and its socket's NIC
     * are PHB apart (through the CPU), the other socket's NIC SYS. NCCL 2.21.5 {@code src/graph/paths.cc}
     * {@code ncclTopoCheckGdr}: default level PXB, so GDR needs NCCL_NET_GDR_LEVEL=PHB, as the NREL run script sets.
     */
    @Test
    void eachGpuIsPhbFromItsSocketsNic() {
        HostPaths hp = kestrel();
        assertEquals(2, hp.nics().size());
        for (int i = 0; i < 4; i++) {
            Gpu g = hp.gpus().get(i);
            assertEquals(PathType.PHB, hp.path(g, hp.nics().get(i / 2)).type(), g.id());
            assertEquals(PathType.SYS, hp.path(g, hp.nics().get(1 - i / 2)).type(), g.id());
        }
    }

    /**
     * The SURF Snellius gcn H100 node ({@link SystemEntry.Layout#HGX4_SWITCHED}): each GPU with its own NIC under one
     * PCIe switch, so GPU i and NIC i are PXB apart and NCCL's default GDR level (PXB, NCCL 2.22.3 {@code
     * src/graph/paths.cc ncclTopoCheckGdr}) turns GPU Direct RDMA on; every other NIC is reached through its own GPU
     * over NVLink (PXN: {@code ncclTopoComputePaths} needs that GPU's path to the NIC at PXB or closer). The
     * dataset's NCCL 2.22.3 log (A-allreduce-2x4xH100-snellius-ib-4x200g-nccl2.22.txt, no NCCL_NET_GDR_LEVEL set)
     * shows both: each ring channel's NET/IB connection {@code /GDRDMA}, and GPU 3's send through GPU 0's NIC as
     * {@code NET/IB/2(0)}. The GPUs stay NV6 to each other.
     */
    @Test
    void snelliusHasEachGpuPxbFromItsOwnNicAndPxnToTheOthers() {
        HostPaths hp = PathFinder.of(Catalog.standalone(Catalog.hostType("snellius-gcn-h100").orElseThrow(), 1))
                .host(0);
        assertEquals(4, hp.nics().size());
        for (int i = 0; i < 4; i++) {
            Gpu g = hp.gpus().get(i);
            for (int n = 0; n < 4; n++) {
                assertEquals(n == i ? PathType.PXB : PathType.PXN, hp.path(g, hp.nics().get(n)).type(), g.id() + n);
            }
            for (int j = 0; j < 4; j++) {
                if (j != i) {
                    assertEquals(123.6, hp.path(g, hp.gpus().get(j)).nccl().gbps(), 1e-9);
                }
            }
        }
    }

    @Test
    void aFourGpuBoardHasFourGpusAndNoNvswitch() {
        String row = String.join("\t", "x", "", "NREL", "H100-SXM5-80GB", "%d", "hgx4", "%d", "2", "200", "-",
                "slingshot", "yes", "AMD EPYC Genoa", "https://example.org", "");
        assertThrows(IllegalStateException.class, () -> SystemTable.parse(String.format(row, 8, 0)));
        assertThrows(IllegalStateException.class, () -> SystemTable.parse(String.format(row, 4, 4)));
        assertEquals(1, SystemTable.parse(String.format(row, 4, 0)).size());
        String switched = row.replace("hgx4", "hgx4_switched");
        assertThrows(IllegalStateException.class, () -> SystemTable.parse(String.format(switched, 4, 0)));
        assertEquals(1, SystemTable.parse(String.format(switched.replace("\t2\t200", "\t4\t200"), 4, 0)).size());
    }
}
