package dev.collsim.simulator.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.hardware.GpuModels;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.catalog.PcieEightGpu;
import dev.collsim.topology.catalog.SynthesizedHost;
import dev.collsim.topology.io.xml.NcclTopoXmlReader;
import dev.collsim.units.Bandwidth;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The channel search's node model and search on catalog hosts, worked out by hand from NCCL 2.30.7
 * {@code src/graph/paths.cc} and {@code src/graph/search.cc} with NCCL's constants ({@code src/graph/topo.h}: sm70
 * NVLink 20 GB/s per link, Gen3 x16 12, Gen4 x16 24, Sapphire Rapids UPI 22 GB/s).
 */
class HostModelTest {

    private static final double EPS = 1e-9;

    private static HostModel model(Topology t, Map<String, String> env) {
        return new HostModel(t, Set.of(0), t.gpus(), NcclSettings.parse(env), 30);
    }

    /**
     * DGX-1 V100, GPU0 and NIC1 (rail 1, on GPU2/GPU3's PCIe switch under the same CPU): GPU0 to NIC1 is PXN through
     * GPU2 (NVLink 20, then PCIe 12 and 12: 3 hops, bottleneck 12), NIC1 to GPU0 stays PHB (sw1, CPU0, sw0: 4 PCIe
     * hops of 12), because NCCL adds PXN only in the GPU to NIC direction. NCCL_PXN_DISABLE=1 leaves PHB both ways.
     */
    @Test
    void pxnOnlyFromGpuToNic() {
        Topology t = Catalog.standalone(Catalog.hostType("dgx1-v100").orElseThrow(), 1);
        HostModel h = model(t, Map.of());
        assertEquals("h0/nic1", h.nics.get(1).id());
        HostPath out = h.gpuToNic[0][1];
        assertEquals(PathType.PXN, out.type());
        assertEquals(3, out.hops());
        assertEquals(12.0, out.bandwidth(), EPS);
        assertEquals(20.0, h.capacity[out.links()[0]], EPS, "one sm70 NVLink GPU0-GPU2");
        HostPath in = h.nicToGpu[1][0];
        assertEquals(PathType.PHB, in.type());
        assertEquals(4, in.hops());
        assertEquals(12.0, in.bandwidth(), EPS);
        HostModel off = model(t, Map.of("NCCL_PXN_DISABLE", "1"));
        assertEquals(PathType.PHB, off.gpuToNic[0][1].type());
        assertEquals(4, off.gpuToNic[0][1].hops());
    }

    /**
     * 8x L40S (PCIe only): maxBw = 24 (PIX pairs), totalBw = 24 (one Gen4 x16 link per GPU). sm89 intra speeds 40, 30,
     * 20, 18, 15, 12, 10, 9, ...: the first at most 24 is 20. A ring over both sockets crosses the 22 GB/s UPI once in
     * each direction, and every GPU's 24 GB/s switch link once each way, so one channel of 20 fits and a second does not
     * (40 > 24). Lower speeds: 18 (1 channel), 15 (1), 12 (2 channels need 24 > 22 on the UPI: 1), 10 (2 x 10 = 20, a
     * tie with more hops, not better); 9 / 20 = 0.45 < 0.49 stops. No dup (20 < 25); pass 2 at 30 fails (30 > 24). So
     * ring 1 x 20 GB/s, type SYS. Tree: 1 channel (the ring's), first speed with 1 x speed <= 24 x 8/7 and <= maxBw is
     * 20: 1 x 20.
     */
    @Test
    void pcieOnlyHostSearch() {
        Topology t = Catalog.standalone(PcieEightGpu.l40s(), 1);
        ChannelPlan p = ChannelSearch.search(t, t.gpus(), NcclSettings.parse(Map.of()), NcclVersion.V2_30_7);
        assertEquals(1, p.graphs().ring().nChannels());
        assertEquals(20.0, p.graphs().ring().bwIntra(), EPS);
        assertEquals(PathType.SYS, p.graphs().ring().typeIntra());
        assertEquals(1, p.graphs().tree().nChannels());
        assertEquals(20.0, p.graphs().tree().bwIntra(), EPS);
        HostModel h = model(t, Map.of());
        assertEquals(24.0, h.totalBw(), EPS);
        assertEquals(PathType.PHB, h.gpuToGpu[0][2].type(), "through CPU0 (beyond P2P level PXB)");
        assertEquals(PathType.SYS, h.gpuToGpu[0][4].type());
        assertEquals(22.0, h.gpuToGpu[0][4].bandwidth(), EPS);
    }
    /**
     * DGX H100 (catalog: GPU0 and NIC0 on separate bridges of one PCIe Gen5 switch, one x16 uplink to CPU0, NCCL 48
     * GB/s per direction, {@code src/graph/topo.h}). Default (GDR on, NCCL 2.30 {@code src/graph/paths.cc}
     * {@code ncclTopoCheckGdr}): GPU0 to NIC0 and back stay inside the switch, 4 hops each, sharing no hop. At
     * NCCL_NET_GDR_LEVEL=LOC both go through CPU0 (6 hops each) and share exactly the uplink's two directed hops
     * (switch to CPU0, CPU0 to switch), 48 each: the send and the receive flow of the NIC now load both directions of
     * the one uplink.
     */
    @Test
    void gdrOffPutsBothNicFlowsOnTheSwitchUplink() {
        Topology t = Catalog.standalone(Catalog.hostType("dgx-h100").orElseThrow(), 1);
        HostModel on = model(t, Map.of());
        assertEquals("h0/nic0", on.nics.get(0).id());
        assertEquals(4, on.gpuToNic[0][0].hops());
        assertEquals(0, shared(on.gpuToNic[0][0].links(), on.nicToGpu[0][0].links()).length);
        HostModel off = model(t, Map.of("NCCL_NET_GDR_LEVEL", "LOC"));
        assertEquals(PathType.PHB, off.gpuToNic[0][0].type());
        assertEquals(6, off.gpuToNic[0][0].hops());
        assertEquals(6, off.nicToGpu[0][0].hops());
        int[] uplink = shared(off.gpuToNic[0][0].links(), off.nicToGpu[0][0].links());
        assertEquals(2, uplink.length);
        for (int hop : uplink) {
            assertEquals(48.0, off.capacity[hop], EPS);
        }
    }

    /**
     * Two DGX H100 hosts, NCCL's ring search. With GDR, a GPU's NIC flows stay inside its PCIe switch and the ring runs
     * 8 channels of 48 GB/s (NCCL's Gen5 x16 figure), through NICs at PXB. At NCCL_NET_GDR_LEVEL=LOC each channel's
     * entry (NIC to GPU) and exit (GPU to NIC) each cross their switch's uplink once in each direction, so per
     * direction the 8 uplinks of a host (8 x 48 = 384 GB/s) carry 2 x nChannels x bwInter: at most 384, and the ring
     * is reported PHB. NCCL_NET_GDR_LEVEL=PXB is the default on this host: the same ring.
     */
    @Test
    void gdrOffRingFitsTheSwitchUplinks() {
        Topology t = Catalog.standalone(Catalog.hostType("dgx-h100").orElseThrow(), 2);
        GraphSummary on = ChannelSearch.search(t, t.gpus(), NcclSettings.parse(Map.of()), NcclVersion.V2_30_7)
                .graphs().ring();
        assertEquals(8, on.nChannels());
        assertEquals(48.0, on.bwInter(), EPS);
        assertEquals(PathType.PXB, on.typeInter());
        GraphSummary off = ChannelSearch.search(t, t.gpus(), NcclSettings.parse(Map.of("NCCL_NET_GDR_LEVEL", "LOC")),
                NcclVersion.V2_30_7).graphs().ring();
        assertEquals(PathType.PHB, off.typeInter());
        assertTrue(2 * off.nChannels() * off.bwInter() <= 8 * 48.0 + EPS, off.toString());
        assertEquals(on, ChannelSearch.search(t, t.gpus(), NcclSettings.parse(Map.of("NCCL_NET_GDR_LEVEL", "PXB")),
                NcclVersion.V2_30_7).graphs().ring());
    }

    private static int[] shared(int[] a, int[] b) {
        Set<Integer> inB = Arrays.stream(b).boxed().collect(Collectors.toSet());
        return Arrays.stream(a).filter(inB::contains).toArray();
    }

    /**
     * The GPU's way out the {@code # Hardware:} line names, by hand from the datasheets: DGX H100, 18 NVLink4 links
     * of 25 GB/s per direction to the NVSwitches = 450 GB/s (H100 SXM5 datasheet, 900 GB/s bidirectional); DGX-1
     * V100, 6 NVLink2 links of 25 GB/s = 150 GB/s to 4 peers (DGX-1 hybrid cube mesh: two peers over two links, two
     * over one); H100 PCIe boards bridged in pairs, 12 NVLink4 links = 300 GB/s to one peer (datasheet: NVLink bridge
     * 600 GB/s bidirectional); L40S, no NVLink, PCIe Gen4 x16 = 16 GT/s x 16 x 128/130 / 8 = 31.5 GB/s.
     */
    @Test
    void scaleUpNamesWhatTheGpuReaches() {
        ScaleUp h100 = model(Catalog.standalone(Catalog.hostType("dgx-h100").orElseThrow(), 1), Map.of())
                .physicalScaleUp();
        assertEquals(450.0, h100.gbps(), 1e-6);
        assertEquals("450.0 GB/s scale-up per GPU", h100.describe());
        ScaleUp v100 = model(Catalog.standalone(Catalog.hostType("dgx1-v100").orElseThrow(), 1), Map.of())
                .physicalScaleUp();
        assertEquals(150.0, v100.gbps(), 1e-6);
        assertEquals("150.0 GB/s NVLink per GPU to 4 peers (PCIe beyond them)", v100.describe());
        Topology pairs = Catalog.standalone(new SynthesizedHost(GpuModels.sku("H100 PCIe").orElseThrow(), 4,
                Bandwidth.ofGbits(200)), 1);
        ScaleUp bridged = model(pairs, Map.of()).physicalScaleUp();
        assertEquals(300.0, bridged.gbps(), 1e-6);
        assertEquals(1, bridged.nvlinkPeers());
        assertEquals("300.0 GB/s NVLink per GPU to 1 peer (PCIe beyond it)", bridged.describe());
        ScaleUp l40s = model(Catalog.standalone(Catalog.hostType("pcie-8x-l40s").orElseThrow(), 1), Map.of())
                .physicalScaleUp();
        assertEquals(31.5, l40s.gbps(), 0.05);
        assertEquals("no NVLink: 31.5 GB/s PCIe per GPU", l40s.describe());
    }

    /**
     * The search numbers a node's NICs as NCCL numbers its NET devices: by {@code dev}, the net plugin's device index
     * (NCCL 2.28.9 {@code src/graph/topo.cc ncclTopoPopulateNics}: {@code xmlSetAttrInt(netNode, "dev", n)} for plugin
     * device n; a graph's {@code <net dev>} and {@code ncclTopoGetNetDev} name a NIC by it), not by the rail collsim
     * cables it to. Here mlx5_0 (dev 0) is cabled to rail 1 and mlx5_1 (dev 1) to rail 0: position 0 is mlx5_0, the
     * same NIC {@link Topology#nicsOf} puts at 0, so a channel's NIC position reads back as the NIC the search used.
     */
    @Test
    void nicsInNetDevOrderNotRailOrder() throws Exception {
        String xml = """
                <system version="1">
                  <cpu numaid="0" arch="x86_64" vendor="GenuineIntel" familyid="6" modelid="143">
                    <pci busid="0000:1a:00.0" class="0x060400" link_speed="32.0 GT/s PCIe" link_width="16">
                      <pci busid="0000:1b:00.0" class="0x030200" link_speed="32.0 GT/s PCIe" link_width="16">
                        <gpu dev="0" sm="90" rank="0" gdr="1"/>
                      </pci>
                      <pci busid="0000:1c:00.0" class="0x020000" link_speed="32.0 GT/s PCIe" link_width="16">
                        <nic><net name="mlx5_0" dev="0" speed="400000" port="1" gdr="1" rail="1"/></nic>
                      </pci>
                    </pci>
                    <pci busid="0000:2a:00.0" class="0x060400" link_speed="32.0 GT/s PCIe" link_width="16">
                      <pci busid="0000:2b:00.0" class="0x030200" link_speed="32.0 GT/s PCIe" link_width="16">
                        <gpu dev="1" sm="90" rank="1" gdr="1"/>
                      </pci>
                      <pci busid="0000:2c:00.0" class="0x020000" link_speed="32.0 GT/s PCIe" link_width="16">
                        <nic><net name="mlx5_1" dev="1" speed="400000" port="1" gdr="1" rail="0"/></nic>
                      </pci>
                    </pci>
                  </cpu>
                </system>
                """;
        Topology t = new NcclTopoXmlReader().read("rails.xml", xml);
        HostModel h = model(t, Map.of());
        assertEquals(List.of("mlx5_0", "mlx5_1"), h.nics.stream().map(Nic::name).toList());
        assertEquals(List.of(1, 0), h.nics.stream().map(Nic::rail).toList(), "rails as the file cables them");
        assertEquals(t.nicsOf(0), h.nics);
    }
}
