package dev.collsim.topology.io;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PcieSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.xml.NcclTopoXmlReader;
import dev.collsim.topology.io.xml.PciSpecs;
import dev.collsim.units.Bandwidth;
import java.util.List;
import org.junit.jupiter.api.Test;

import static dev.collsim.topology.io.TestFiles.count;
import static dev.collsim.topology.io.TestFiles.link;
import static dev.collsim.topology.io.TestFiles.links;
import static dev.collsim.topology.io.TestFiles.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;


/**
 * Reads the real NCCL topology XML files (Azure's vendor-shipped NCCL_TOPO_FILEs, a bare-metal H200 dump from
 * nccl-tests issue 256, the dump of the lent H200 machine). Every expected number is worked out by hand from the
 * file's attributes: PCIe bandwidth = GT/s x 128/130 x width / 8 (PCI-SIG; Gen4 x16 = 31.5, Gen5 x16 = 63 GB/s),
 * NVLink = count x 25 GB/s for sm80 and sm90 (A100 and H100 datasheets), NIC = speed Mb/s / 8000 GB/s, SMP from
 * NCCL 2.30 topo.h (AMD_BW 16, SRP_QPI_BW 22 for Intel family 6 model 143, ERP_QPI_BW 40 for model 207).
 */
class NcclTopoXmlReaderTest {

    /** PCIe x16 per direction: GT/s x 128/130 (Gen3-5 encoding) x 16 lanes / 8 bits. */
    private static final double GEN4_X16 = 16.0 * 128 / 130 * 16 / 8;
    private static final double GEN5_X16 = 32.0 * 128 / 130 * 16 / 8;

    private final NcclTopoXmlReader reader = new NcclTopoXmlReader();

    @Test
    void azureNcv4GpusSitDirectlyOnFourAmdNumaNodesWithNcclDefaultPcieAndNoSelfNvlink() throws InputException {
        Topology t = reader.read("ncv4.xml", text("C-topo-azure-ncv4-4xA100pcie.xml"));
        assertEquals(4, t.gpus().size());
        assertEquals(4, t.devices(Cpu.class).size());
        Gpu g0 = (Gpu) t.device("h0/gpu0").orElseThrow();
        assertEquals("0001:00:00.0", g0.busId());
        assertEquals(80, g0.sm());
        assertEquals("A100-PCIE-80GB", g0.model()); // device 0x20b5, the header says A100 80GB PCIe
        // link_speed="" and link_width="0": NCCL assumes 8 GT/s x16 (12 GB/s) for its paths; the physical link is the
        // A100 PCIe's own, Gen4 x16 (A100 datasheet, PCIe column)
        Link up = link(t, "h0/gpu0", "h0/cpu0", LinkType.PCIE);
        assertEquals(GEN4_X16, up.bandwidth().gbps(), 1e-9);
        assertEquals(16 * 60 / 80.0, up.ncclBandwidth().gbps(), 1e-9);
        assertEquals(16, up.count());
        assertTrue(up.detail().startsWith("PCIe Gen4 x16 (link_speed unset: NCCL assumes 8 GT/s"), up.detail());
        // the file's nvlink targets each GPU's own bus id: no NVLink edge can represent that
        assertEquals(0, count(t, LinkType.NVLINK));
        assertTrue(t.source().contains("NVLinks to itself"));
        // 4 CPUs fully connected: 6 pairs x 2 directions, AMD -> 16 GB/s
        assertEquals(12, count(t, LinkType.SMP));
        assertEquals(16.0, link(t, "h0/cpu0", "h0/cpu3", LinkType.SMP).bandwidth().gbps(), 1e-9);
        Nic eth0 = (Nic) t.device("h0/nic0").orElseThrow();
        assertEquals("eth0", eth0.name());
        assertEquals(12.5, eth0.speed().gbps(), 1e-9); // 100000 Mb/s
        assertFalse(eth0.gdr());
        // a nic directly under a cpu: a virtual link of NCCL LOC_BW (NCCL 2.30 src/graph/topo.h: 5000.0)
        assertEquals(5000.0, link(t, "h0/nic0", "h0/cpu0", LinkType.PCIE).bandwidth().gbps(), 1e-9);
        assertEquals(8 + 2 + 12, t.graph().edgeSet().size());
    }

    @Test
    void azureNcv4Of2023PairsGpusWithTwelveNvlinkThreeLinks() throws InputException {
        Topology t = reader.read("ncv4-2023.xml", text("C-topo-azure-ncv4-4xA100pcie-2023-nvlink-pairs.xml"));
        assertEquals(4, count(t, LinkType.NVLINK)); // 0->1, 1->0, 2->3, 3->2
        Link l = link(t, "h0/gpu0", "h0/gpu1", LinkType.NVLINK);
        assertEquals(12, l.count());
        assertEquals(12 * 25.0, l.bandwidth().gbps(), 1e-9);
        assertEquals("NVLink3", l.detail());
        assertEquals(1, links(t, "h0/gpu3", "h0/gpu2", LinkType.NVLINK).size());
        assertEquals(0, links(t, "h0/gpu0", "h0/gpu2", LinkType.NVLINK).size());
    }

    @Test
    void azureNdv4GpusAndNicsWithoutChildElementsTakeTheHintsAndBusIdOrder() throws InputException {
        HardwareHints a100 = HardwareHints.NONE.withGpu("A100-SXM4-80GB", 80).withNicSpeed(Bandwidth.ofGbits(200));
        Topology t = new NcclTopoXmlReader(a100).read("ndv4.xml", text("C-topo-azure-ndv4-8xA100.xml"));
        assertEquals(8, t.gpus().size());
        assertEquals(8, t.devices(Nic.class).size());
        assertEquals(4, t.devices(PcieSwitch.class).size());
        // bus ids in order: 0001, 0002, 0003, 0004, 000b, 000c, 000d, 000e
        assertEquals("000b:00:00.0", ((Gpu) t.device("h0/gpu4").orElseThrow()).busId());
        assertEquals("0105:00:00.0", ((Nic) t.device("h0/nic4").orElseThrow()).busId());
        assertEquals(25.0, ((Nic) t.device("h0/nic4").orElseThrow()).speed().gbps(), 1e-9);
        // GPU 000b sits under switch ffff:ff:04.0 on NUMA 3, "16 GT/s" x16 = Gen4 31.5 GB/s
        String sw = TestFiles.pcieParent(t, "h0/gpu4", "pcisw");
        assertEquals("h0/cpu3", TestFiles.pcieParent(t, sw, "cpu"));
        assertEquals(GEN4_X16, link(t, "h0/gpu4", sw, LinkType.PCIE).bandwidth().gbps(), 1e-9);
        assertEquals(8 + 16 + 16 + 12, t.graph().edgeSet().size());
        assertTrue(t.source().contains("(hint)"));
    }

    @Test
    void azureNdv5SapphireRapidsPairsOneGpuAndOneNicPerGen5Switch() throws InputException {
        Topology t = reader.read("ndv5.xml", text("C-topo-azure-ndv5-8xH100.xml"));
        // <cpu vendor="GenuineIntel" familyid="6" modelid="143"> (line 12) is Sapphire Rapids (Linux intel-family.h
        // SAPPHIRERAPIDS_X 0x8F): NCCL's SRP_QPI_BW 22 GB/s (NCCL 2.30 src/graph/topo.h) is the NCCL view; physically
        // 4 UPI links at 16 GT/s x 2 B = 128 GB/s per direction (Intel ARK Xeon Platinum 8480+)
        Link smp = link(t, "h0/cpu0", "h0/cpu1", LinkType.SMP);
        assertEquals(22.0, smp.ncclBandwidth().gbps(), 1e-9);
        assertEquals(128.0, smp.bandwidth().gbps(), 1e-9);
        assertTrue(t.source().contains("physically 128.0 GB/s (Intel Xeon Scalable 4th gen (Sapphire Rapids)"),
                t.source());
        assertEquals(8, t.devices(PcieSwitch.class).size());
        assertEquals(TestFiles.pcieParent(t, "h0/gpu7", "pcisw"), TestFiles.pcieParent(t, "h0/nic7", "pcisw"));
        assertEquals(GEN5_X16, link(t, "h0/gpu7", TestFiles.pcieParent(t, "h0/gpu7", "pcisw"), LinkType.PCIE)
                .bandwidth().gbps(), 1e-9);
        assertEquals(8 * 2 * 3 + 2, t.graph().edgeSet().size());
        // no <gpu> element and no device id: the GPUs' 32 GT/s links say PCIe Gen5, whose first GPU is Hopper (H100
        // PCIe, the GPU database's lowest Gen5 sm), so sm 90, not the A100's 80 (a new user's trial caught sm80)
        assertTrue(t.source().contains("sm 90 (assumed: the lowest of the GPU database's PCIe Gen5 GPUs"), t.source());
        assertEquals(90, t.gpus().get(0).sm());
    }

    @Test
    void bareMetalH200DumpMergesFourNvswitchChipsIntoEighteenLinks() throws InputException {
        Topology t = reader.read("bm.xml", text("C-topodump-h200-baremetal-numa0-closed.xml"));
        assertEquals(3, t.gpus().size());
        Link nv = link(t, "h0/gpu1", "h0/nvs0", LinkType.NVLINK);
        assertEquals(4 + 5 + 5 + 4, nv.count());
        assertEquals(18 * 25.0, nv.bandwidth().gbps(), 1e-9); // H100/H200 datasheet: 900 GB/s over 18 links
        assertEquals(18 * 25.0, link(t, "h0/nvs0", "h0/gpu1", LinkType.NVLINK).bandwidth().gbps(), 1e-9);
        Nic mlx = (Nic) t.device("h0/nic1").orElseThrow();
        assertEquals("mlx5_1", mlx.name());
        assertEquals(50.0, mlx.speed().gbps(), 1e-9); // 400000 Mb/s
        assertTrue(mlx.gdr());
        assertEquals(TestFiles.pcieParent(t, "h0/gpu1", "pcisw"), TestFiles.pcieParent(t, "h0/nic1", "pcisw"));
        assertEquals("H200-SXM-141GB", t.gpus().get(0).model());
        assertEquals(0, count(t, LinkType.SMP));
    }

    /**
     * NCCL's own view of the same links (nccl-model.md section 5.2, NCCL 2.30 topo.h/topo.cc): PCIe
     * width x 240 / 80 = 48 for Gen5 x16, NVLink 18 x 20.6 = 370.8 for sm90, SMP 22 for Sapphire Rapids.
     */
    @Test
    void ncclBandwidthsAreNcclsOwnNumbers() throws InputException {
        Topology bm = reader.read("bm.xml", text("C-topodump-h200-baremetal-numa0-closed.xml"));
        assertEquals(18 * 20.6, link(bm, "h0/gpu0", "h0/nvs0", LinkType.NVLINK).ncclBandwidth().gbps(), 1e-9);
        Topology ndv5 = reader.read("ndv5.xml", text("C-topo-azure-ndv5-8xH100.xml"));
        assertEquals(16 * 240 / 80.0, link(ndv5, "h0/gpu0", TestFiles.pcieParent(ndv5, "h0/gpu0", "pcisw"),
                LinkType.PCIE).ncclBandwidth().gbps(), 1e-9);
        assertEquals(22.0, link(ndv5, "h0/cpu1", "h0/cpu0", LinkType.SMP).ncclBandwidth().gbps(), 1e-9);
        Topology ncv4 = reader.read("ncv4.xml", text("C-topo-azure-ncv4-4xA100pcie.xml"));
        assertEquals(16 * 60 / 80.0, link(ncv4, "h0/gpu2", "h0/cpu2", LinkType.PCIE).ncclBandwidth().gbps(), 1e-9);
        assertEquals(5000.0, link(ncv4, "h0/cpu0", "h0/nic0", LinkType.PCIE).ncclBandwidth().gbps(), 1e-9);
    }

    @Test
    void vmDumpWithInvisibleNvswitchTargetStillReachesTheSwitch() throws InputException {
        Topology t = reader.read("vm.xml", text("C-topodump-h200-vm-closed.xml"));
        assertEquals(18, link(t, "h0/gpu0", "h0/nvs0", LinkType.NVLINK).count());
        assertEquals(GEN4_X16, link(t, "h0/gpu0", "h0/cpu0", LinkType.PCIE).bandwidth().gbps(), 1e-9);
        assertEquals(-1, ((Cpu) t.device("h0/cpu0").orElseThrow()).numaId());
    }

    @Test
    void lentH200MachineHasOneGpuWithWidthZeroAndATenGigabitEth0() throws InputException {
        Topology t = reader.read("h200-1gpu-topo.xml", text("h200-1gpu-topo.xml"));
        assertEquals(1, t.gpus().size());
        Link up = link(t, "h0/gpu0", "h0/cpu0", LinkType.PCIE);
        assertEquals(GEN5_X16, up.bandwidth().gbps(), 1e-9); // 32 GT/s, width 0 -> x16
        assertTrue(up.detail().contains(PciSpecs.PcieLink.WIDTH_ZERO));
        assertEquals(1.25, ((Nic) t.device("h0/nic0").orElseThrow()).speed().gbps(), 1e-9);
    }

    @Test
    void truncatedDumpNamesTheEndOfFileAndTheOpenElements() {
        InputException e = assertThrows(InputException.class, () -> reader.read("partial.xml",
                text("C-topodump-partial-8xH200-emeraldrapids-cx7-baremetal-and-vm-issue-nccltests256.xml")));
        InputProblem p = e.problems().get(0);
        assertTrue(p.line() >= 78, p.toString());
        assertTrue(p.message().contains("truncated XML"), p.toString());
        assertTrue(p.message().contains("<nic> (63:9)"), p.toString());
    }

    /**
     * Two GPUs without a {@code <gpu>} element or device id, one on a 16 GT/s link (PCIe Gen4), one on 32 GT/s (Gen5):
     * each takes the lowest sm of its own generation's GPUs, and the note names each GPU with its own. The first
     * NVIDIA GPUs on Gen4 are Ampere's (A100 datasheet: PCIe Gen4; Volta and Turing are Gen3), so sm 80; on Gen5,
     * Hopper's (H100 PCIe datasheet: PCIe Gen5), so sm 90. Before, one note said "2 GPU(s) ... sm 90" for both.
     */
    @Test
    void bareGpusOnLinksOfTwoGenerationsGetOneNoteEach() throws InputException {
        String xml = """
                <system version="1">
                  <cpu numaid="0" arch="x86_64" vendor="GenuineIntel" familyid="6" modelid="143">
                    <pci busid="0000:1b:00.0" class="0x030200" link_speed="16.0 GT/s PCIe" link_width="16"/>
                    <pci busid="0000:2b:00.0" class="0x030200" link_speed="32.0 GT/s PCIe" link_width="16"/>
                  </cpu>
                </system>
                """;
        Topology t = reader.read("two-gens.xml", xml);
        assertEquals(80, ((Gpu) t.device("h0/gpu0").orElseThrow()).sm());
        assertEquals(90, ((Gpu) t.device("h0/gpu1").orElseThrow()).sm());
        assertTrue(t.source().contains("1 GPU(s) [0000:1b:00.0] have no <gpu> element: model from the pci device id"
                + " (else unknown), sm 80 (assumed: the lowest of the GPU database's PCIe Gen4 GPUs"), t.source());
        assertTrue(t.source().contains("1 GPU(s) [0000:2b:00.0] have no <gpu> element: model from the pci device id"
                + " (else unknown), sm 90 (assumed: the lowest of the GPU database's PCIe Gen5 GPUs"), t.source());
    }

    @Test
    void everyBadAttributeIsReportedWithLineColumnFoundAndAllowed() {
        String xml = """
                <system version="1">
                  <cpu numaid="0" arch="x86_64" vendor="GenuineIntel">
                    <pci busid="zz:1" class="0x060400" link_speed="16 GT/s" link_width="16"/>
                    <pci busid="0000:1b:00.0" class="0x030200" link_speed="9 GT/s" link_width="wide">
                      <gpu dev="0" sm="9x" rank="0" gdr="1"/>
                    </pci>
                  </cpu>
                </system>
                """;
        InputException e = assertThrows(InputException.class, () -> reader.read("bad.xml", xml));
        List<String> lines = e.problems().stream().map(InputProblem::toString).toList();
        assertEquals(4, lines.size(), lines.toString());
        assertEquals("bad.xml:3:10: pci.busid: found 'zz:1'; allowed: a PCI bus id dddd:bb:dd.f (hex)", lines.get(0));
        assertTrue(lines.get(1).startsWith("bad.xml:4:48: pci.link_speed: found '9 GT/s'; allowed: 2.5, 5, 8, 16"),
                lines.get(1));
        assertTrue(lines.get(2).startsWith("bad.xml:4:68: pci.link_width: found 'wide'"), lines.get(2));
        assertTrue(lines.get(3).startsWith("bad.xml:5:20: gpu.sm: found '9x'; allowed: an integer in [30, 200]"),
                lines.get(3));
    }

    @Test
    void wrongVersionAndRootAreRejected() {
        InputException e = assertThrows(InputException.class,
                () -> reader.read("v2.xml", "<system version=\"2\"><cpu numaid=\"0\"/></system>"));
        assertTrue(e.getMessage().contains("v2.xml:1:9: system.version: found '2'; allowed: 1"), e.getMessage());
        assertTrue(reader.accepts(text("C-topo-azure-ndv5-8xH100.xml")));
        assertFalse(reader.accepts(text("C-graph-azure-ncv4-4xA100pcie.xml")));
        assertFalse(reader.accepts(text("B-topo-dgx-a100.txt")));
    }
}
