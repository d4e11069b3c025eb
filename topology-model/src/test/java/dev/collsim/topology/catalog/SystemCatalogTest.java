package dev.collsim.topology.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.hardware.GpuModels;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.Nic;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Topology;
import dev.collsim.topology.paths.HostPaths;
import dev.collsim.topology.paths.PathFinder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The cloud and vendor systems of the catalog's data file against the providers' pages: GPUs, NVLinks, NICs, speed,
 * transport and GPUDirect of the built host, and the name found in data files' headers.
 */
class SystemCatalogTest {

    // Each row: -c name, GPU SKU, GPUs, NVLinks per GPU (GPU datasheet: A100 12, H100/H200 18, B200/B300/GB200 18),
    // compute NICs, Gb/s per NIC, the page's total GPU-network Gb/s, network class, GPUDirect. The page and its figure
    // are named after each row; the total is the page's own figure, so a NIC count or speed that does not multiply to
    // it fails.
    @ParameterizedTest
    @CsvSource({
        // AWS compute blog (P4d deep dive) and aws.amazon.com/ec2/instance-types/p4/: 8x A100 40 GB / 80 GB, 400 Gbps
        // EFA, GPUDirect RDMA; 4 network cards
        "p4d.24xlarge, A100-SXM4-40GB, 8, 12, 4, 100, 400, efa, true",
        "p4de.24xlarge, A100-SXM4-80GB, 8, 12, 4, 100, 400, efa, true",
        // EC2 user guide (p5-efa): P5 and P5e up to 32 network cards, 3,200 Gbps; p5 page: p5en 3200 Gbps EFAv3 over
        // 16 network cards. NCCL sees them as aws-ofi-nccl's RDMA protocol presents them (OfiRailGroups): one device
        // per GPU of the cards behind its PCIe switch, 32 / 8 = 4 x 100 and 16 / 8 = 2 x 200 Gb/s, the page's total
        "p5.48xlarge, H100-SXM5-80GB, 8, 18, 8, 400, 3200, efa, true",
        "p5e.48xlarge, H200-SXM-141GB, 8, 18, 8, 400, 3200, efa, true",
        "p5en.48xlarge, H200-SXM-141GB, 8, 18, 8, 400, 3200, efa, true",
        // aws.amazon.com/ec2/instance-types/p6/: P6-B200 3.2 Tbps EFAv4, P6-B300 6.4 Tbps
        "p6-b200.48xlarge, B200-180GB, 8, 18, 8, 400, 3200, efa, true",
        "p6-b300.48xlarge, B300-SXM6-288GB, 8, 18, 8, 800, 6400, efa, true",
        // cloud.google.com/compute/docs/gpus/gpu-network-bandwidth: A2 100 Gbps, no GPU-to-GPU networking technology
        "a2-highgpu-8g, A100-SXM4-40GB, 8, 12, 1, 100, 100, socket, false",
        "a2-ultragpu-8g, A100-SXM4-80GB, 8, 12, 1, 100, 100, socket, false",
        // same page: A3 High 1,000 Gbps = 4x 200 GPU NICs + 200 gVNIC (TCPX); A3 Mega 1,800 = 8x 200 + 200 (TCPXO)
        "a3-highgpu-8g, H100-SXM5-80GB, 8, 18, 4, 200, 800, tcpx, true",
        "a3-megagpu-8g, H100-SXM5-80GB, 8, 18, 8, 200, 1600, tcpxo, true",
        // same page: A3 Ultra and A4 eight CX-7 3,200 Gbps; A4X four CX-7 1,600 Gbps; GPUDirect RDMA (RoCE)
        "a3-ultragpu-8g, H200-SXM-141GB, 8, 18, 8, 400, 3200, roce, true",
        "a4-highgpu-8g, B200-180GB, 8, 18, 8, 400, 3200, roce, true",
        "a4x-highgpu-4g, B200 (GB200), 4, 18, 4, 400, 1600, roce, true",
        // same page: A4X Max four ConnectX-8 SuperNICs, 3,200 Gbps GPU-to-GPU networking (GB300)
        "a4x-maxgpu-4g-metal, GB300, 4, 18, 4, 800, 3200, roce, true",
        // learn.microsoft.com ND A100 v4 / NDm A100 v4: 8x 200 Gb/s HDR InfiniBand (1.6 Tb/s per VM)
        "Standard_ND96asr_v4, A100-SXM4-40GB, 8, 12, 8, 200, 1600, infiniband, true",
        "Standard_ND96amsr_A100_v4, A100-SXM4-80GB, 8, 12, 8, 200, 1600, infiniband, true",
        // learn.microsoft.com ND H100 v5 / ND H200 v5: 8x 400 Gb/s NDR InfiniBand (3.2 Tb/s per VM)
        "Standard_ND96isr_H100_v5, H100-SXM5-80GB, 8, 18, 8, 400, 3200, infiniband, true",
        "Standard_ND96isr_H200_v5, H200-SXM-141GB, 8, 18, 8, 400, 3200, infiniband, true",
        // learn.microsoft.com ND GB200 v6: 4 GB200 GPUs per VM, 4x 400 Gb/s NDR InfiniBand
        "Standard_ND128isr_NDR_GB200_v6, B200 (GB200), 4, 18, 4, 400, 1600, infiniband, true",
        // docs.oracle.com compute shapes: BM.GPU4.8 / BM.GPU.A100-v2.8 8x 2x 100 Gbps RDMA; BM.GPU.H100.8 8x 2x 200
        "BM.GPU4.8, A100-SXM4-40GB, 8, 12, 16, 100, 1600, roce, true",
        "BM.GPU.A100-v2.8, A100-SXM4-80GB, 8, 12, 16, 100, 1600, roce, true",
        "BM.GPU.H100.8, H100-SXM5-80GB, 8, 18, 16, 200, 3200, roce, true",
        // same page: BM.GPU.H200.8 and BM.GPU.B200.8 8x 400 Gbps; BM.GPU.GB200.4 4x 400 Gbps
        "BM.GPU.H200.8, H200-SXM-141GB, 8, 18, 8, 400, 3200, roce, true",
        "BM.GPU.B200.8, B200-180GB, 8, 18, 8, 400, 3200, roce, true",
        "BM.GPU.GB200.4, B200 (GB200), 4, 18, 4, 400, 1600, roce, true",
        // nvidia.com DGX B300: 8x B300, 8x ConnectX-8 800 Gb/s
        "dgx-b300, B300-SXM6-288GB, 8, 18, 8, 800, 6400, infiniband, true",
        // docs.nvidia.com GB300 NVL72 Enterprise RA (components): 4 ConnectX-8 HCAs per 4-GPU compute tray; ConnectX-8
        // firmware release notes: 800 Gb/s XDR InfiniBand
        "gb300-nvl72, GB300, 4, 18, 4, 800, 3200, infiniband, true",
        // nrel.gov Kestrel system configuration: 4 H100 SXM per GPU node, HPE Slingshot 11, 'each [accelerated] node
        // will have two 200 Gb/s NICs'; the NREL run script's NCCL_NET_GDR_LEVEL=PHB turns GPUDirect RDMA on
        "kestrel-gpu, H100-SXM5-80GB, 4, 18, 2, 200, 400, slingshot, true",
        // SURF partitions page: 4 H100 per gpu_h100 node; ibstat of an odissei-benchmarks job (runs/2nodes/
        // ib_speed.txt): 4 active InfiniBand ports at Rate 200
        "snellius-gcn-h100, H100-SXM5-80GB, 4, 18, 4, 200, 800, infiniband, true",
    })
    void systemsMatchTheirPages(String name, String sku, int gpus, int nvlinks, int nics, double gbits, double total,
            String network, boolean gdr) {
        HostType type = Catalog.hostType(name).orElseThrow();
        Topology t = Catalog.standalone(type, 1);
        assertEquals(gpus, t.gpus().size(), name);
        for (Gpu g : t.gpus()) {
            assertEquals(sku, g.model(), name);
            int links = t.graph().outgoingEdgesOf(g).stream().filter(l -> l.type() == LinkType.NVLINK)
                    .mapToInt(l -> l.count()).sum();
            assertEquals(nvlinks, links, name + " " + g.id());
        }
        List<Nic> compute = t.devices(Nic.class).stream().filter(n -> n.rail() >= 0).toList();
        assertEquals(nics, compute.size(), name);
        compute.forEach(n -> assertEquals(gbits, n.speed().gbits(), 1e-9, name));
        assertEquals(total, compute.stream().mapToDouble(n -> n.speed().gbits()).sum(), 1e-9, name);
        compute.forEach(n -> assertEquals(gdr, n.gdr(), name));
        assertEquals(NetworkClass.parse(network), t.networkClass(), name);
        assertEquals(NetworkClass.parse(network), type.networkClass(), name);
        assertTrue(type.description().contains("(source: https://"), type.description());
    }

    /** Every row of the data file is in the test above (30 systems), and each names an https page. */
    @Test
    void everyRowIsChecked() {
        assertEquals(30, Catalog.systems().size());
        Catalog.systems().forEach(e -> assertTrue(e.source().startsWith("https://"), e.name()));
    }

    /**
     * p5: 32 EFA devices, 4 behind each GPU's PCIe switch (PXB, as on the DGX boards), which aws-ofi-nccl presents to
     * NCCL as one device of 4 rails per GPU (OfiRailGroups); a GB200 tray is a rack.
     */
    @Test
    void nicsSitNextToTheirGpus() {
        Topology p5 = Catalog.standalone(Catalog.hostType("p5.48xlarge").orElseThrow(), 1);
        HostPaths hp = PathFinder.of(p5).host(0);
        for (Gpu g : hp.gpus()) {
            long near = hp.nics().stream().filter(n -> hp.path(g, n).type() == PathType.PXB).count();
            assertEquals(1, near, g.id());
        }
        assertEquals(18, Catalog.hostType("BM.GPU.GB200.4").orElseThrow().hostsPerNvlinkDomain());
        assertEquals(1, Catalog.hostType("p5").orElseThrow().hostsPerNvlinkDomain());
    }

    @Test
    void aliasesAndDgxNames() {
        assertEquals("p5.48xlarge", Catalog.hostType("P5").orElseThrow().name());
        assertEquals("standard_nd96isr_h100_v5", Catalog.hostType("nd96isr_h100_v5").orElseThrow().name());
        assertEquals("hgx-b200", Catalog.hostType("dgx-b200").orElseThrow().name());
        assertEquals("gb200-nvl72", Catalog.hostType("DGX-GB200").orElseThrow().name());
        assertEquals("dgx-b300", Catalog.hostType("hgx-b300").orElseThrow().name());
        // a B300 data file without a system name is modelled on DGX B300 (the catalog's only B300 board of its own)
        assertEquals("dgx-b300", Catalog.forGpu(GpuModels.find("NVIDIA B300").orElseThrow())
                .orElseThrow().name());
    }

    /** Names as the data files' headers write them (validation/src/test/resources/data). */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "AWS p5.48xlarge: 8x H100 80GB per node, on Amazon EKS (MPIJob)|p5.48xlarge",
        "GCP A3 Mega (a3-megagpu-8g): 8x H100 80GB HBM3 SXM per node|a3-megagpu-8g",
        "GCP A4 (a4-highgpu-8g): 8x NVIDIA B200 per node, 8x RDMA NICs|a4-highgpu-8g",
        "Azure ND96amsr_A100_v4: 8x A100 80GB SXM4|standard_nd96amsr_a100_v4",
        "Azure ND96isr_H100_v5: 8x H100 80GB HBM3 SXM5, Xeon Platinum 8480C|standard_nd96isr_h100_v5",
        "Azure ND GB200 v6: NVIDIA GB200 185GB, Grace ARM Neoverse-V2 CPU (GB200 NVL72 rack)|"
                + "standard_nd128isr_ndr_gb200_v6",
        "OCI BM.GPU4.8: 8x A100-SXM4-40GB, 2x AMD EPYC (Rome), 16x 100Gb RoCE ports|bm.gpu4.8",
        "OCI BM.GPU.GB200.4: 4x NVIDIA GB200 per host, Grace CPUs, GB200 NVL72 racks|bm.gpu.gb200.4",
        "GCP A4X Max (NVIDIA GB300 Grace Blackwell Ultra, 4 GPUs per VM/node)|a4x-maxgpu-4g-metal",
        "NVIDIA DGX H100 with 8x ConnectX-7|dgx-h100",
        "a GCP A3 Ultra cluster|a3-ultragpu-8g",
        "p5en.48xlarge and p5.48xlarge|p5en.48xlarge",
        "NREL Kestrel GPU nodes: 4x NVIDIA H100 SXM 80GB per node, dual AMD EPYC Genoa 64-core|kestrel-gpu",
        "SURF Snellius gcn H100 nodes gcn151 and gcn154 (Slurm partition gpu_h100)|snellius-gcn-h100",
    })
    void namesInHeadersAreRecognised(String text, String name) {
        assertEquals(name, Catalog.recognise(text).orElseThrow().name());
    }

    @Test
    void namesOnlyCountWhenTheyStandAlone() {
        // A4X (GB200) is not A4X Max and names no system alone; BM.GPU3.8 (V100) is not in the catalog; "p5" inside a
        // word is no name
        assertTrue(Catalog.recognise("GCP A4X (NVIDIA GB200)").isEmpty());
        assertTrue(Catalog.recognise("OCI BM.GPU3.8: 8x V100").isEmpty());
        assertTrue(Catalog.recognise("fp5 run on xp5e").isEmpty());
        assertTrue(Catalog.recognise(null).isEmpty());
    }

    /** docs/cloud-systems.md's table says what the data file says: one row per system, same GPUs, NICs, transport. */
    @Test
    void theDocsTableMatchesTheDataFile() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "cloud-systems.md"));
        Map<NetworkClass, String> words = Map.of(NetworkClass.EFA, "EFA", NetworkClass.TCPX, "TCPX", NetworkClass.TCPXO, "TCPXO",
                NetworkClass.ROCE, "RoCE", NetworkClass.INFINIBAND, "InfiniBand", NetworkClass.SOCKET, "TCP sockets",
                NetworkClass.SLINGSHOT, "HPE Slingshot");
        for (SystemEntry e : Catalog.systems()) {
            String row = doc.lines().filter(l -> l.startsWith("| `" + e.name() + "` |")).findFirst()
                    .orElseThrow(() -> new AssertionError("no docs row for " + e.name()));
            String[] c = row.split("\\|");
            assertEquals(e.provider(), c[3].strip(), row);
            assertEquals(e.gpus() + "x " + e.gpu().variant().name(), c[4].strip(), row);
            assertEquals(e.nics() + "x " + Math.round(e.nicGbits()) + " Gb/s", c[6].strip(), row);
            assertEquals(words.get(e.network()), c[7].strip(), row);
            assertEquals(e.gpuDirect() ? "yes" : "no", c[8].strip(), row);
            assertTrue(c[9].contains(e.source().split(" ")[0]), row);
        }
        assertEquals(Catalog.systems().size(), doc.lines().filter(l -> l.startsWith("| `") && !l.startsWith("| `-c`"))
                .count());
    }

    @Test
    void aMalformedRowNamesItsLine() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> SystemTable.parse(
                "# comment\nname\taliases\nx\ty\tz\n"));
        assertTrue(e.getMessage().startsWith(SystemTable.RESOURCE + ":3: found 3 columns; allowed: 15"), e.getMessage());
    }

    /**
     * A B200 host's GPU-NIC path (a4-highgpu-8g: B200, PCIe Gen6, one ConnectX-7 per GPU, GCP's page). NCCL 2.30.7
     * {@code src/graph/topo.cc}: a PCI link is {@code width x speed code / 80} GB/s, Gen5 (32 GT/s) code 240, Gen6
     * (64 GT/s) 480. The GPU and the switch are Gen6 x16, 16 x 480 / 80 = 96; the ConnectX-7's own link is Gen5 x16
     * (NVIDIA ConnectX-7 datasheet), 16 x 240 / 80 = 48, and a path is its slowest link or the NIC's port (400 Gb/s,
     * NCCL's 50 GB/s): 48 GB/s, where the Gen6 link gave min(96, 50) = 50. The physical path counts the port too: min(Gen5 x16 16 x 32 x 128/130 / 8 = 63.015, 400 / 8 =
     * 50) = 50 GB/s, as with Gen6 (121.0), so only NCCL's view moves. BM.GPU.B200.8's page names no NIC
     * model, so its NIC keeps the switch's Gen6: min(96, 50) = 50.
     */
    @Test
    void aB200HostsConnectX7RunsAtItsOwnGen5() {
        HostPaths a4 = PathFinder.of(Catalog.standalone(Catalog.hostType("a4-highgpu-8g").orElseThrow(), 1)).host(0);
        Gpu g0 = a4.gpus().get(0);
        Nic nic = a4.nics().stream().filter(n -> a4.path(g0, n).type() == PathType.PXB).findFirst().orElseThrow();
        assertEquals(48.0, a4.path(g0, nic).nccl().gbps(), 1e-9);
        assertEquals(50.0, a4.path(g0, nic).physical().gbps(), 1e-9);
        HostPaths oci = PathFinder.of(Catalog.standalone(Catalog.hostType("BM.GPU.B200.8").orElseThrow(), 1)).host(0);
        Gpu o0 = oci.gpus().get(0);
        assertTrue(oci.nics().stream().anyMatch(n -> oci.path(o0, n).type() == PathType.PXB
                && Math.abs(oci.path(o0, n).nccl().gbps() - 50.0) < 1e-9));
    }
}
