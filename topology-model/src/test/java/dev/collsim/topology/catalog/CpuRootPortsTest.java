package dev.collsim.topology.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.hardware.CpuModels;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Topology;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Catalog hosts' CPU side from the CPU database: a link on a CPU root port runs at the lower of the device's and the
 * CPU's PCIe generation (link training settles on the highest rate both ends support), and the sockets are joined by
 * the CPU's own socket links.
 */
class CpuRootPortsTest {

    /** @return the distinct details of the PCIe links leaving the devices of one kind on host 0 */
    private static Set<String> pcieOut(Topology t, Class<? extends Device> kind) {
        return t.devices(kind).stream().filter(d -> d.host() == 0)
                .flatMap(d -> t.outgoing(d).stream()).filter(l -> l.type() == LinkType.PCIE).map(Link::detail)
                .collect(Collectors.toSet());
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        // host; CPU root-port links; GPU's own PCIe link; socket-to-socket GB/s per direction
        // p5: EPYC 7R13 = Milan (AMD EPYC 7003: PCIe 4.0) under H100 (datasheet: PCIe Gen5); xGMI 4 x16 x 16 GT/s / 8
        "p5.48xlarge; PCIe Gen4 x16; PCIe Gen5 x16; 128",
        "p5e.48xlarge; PCIe Gen4 x16; PCIe Gen5 x16; 128",
        // p4d: Xeon 8275CL = Cascade Lake (ARK 8280: PCIe 3.0, 3 UPI at 10.4 GT/s x 2 B) under A100 (PCIe Gen4)
        "p4d.24xlarge; PCIe Gen3 x16; PCIe Gen4 x16; 62.4",
        // GCP A2: Cascade Lake (highgpu) and Milan (ultragpu) with A100, the NIC on a CPU root port (no GPUDirect)
        "a2-highgpu-8g; PCIe Gen3 x16; PCIe Gen4 x16; 62.4",
        "a2-ultragpu-8g; PCIe Gen4 x16; PCIe Gen4 x16; 128",
        // A3 Mega: Xeon 8481C = Sapphire Rapids (ARK 8480+: PCIe 5.0, 4 UPI at 16 GT/s x 2 B) under H100 Gen5
        "a3-megagpu-8g; PCIe Gen5 x16; PCIe Gen5 x16; 128",
        // p6-b200: Xeon 8575C = Emerald Rapids (ARK 8570: PCIe 5.0, 4 UPI at 20 GT/s) under B200 (PCIe Gen6)
        "p6-b200.48xlarge; PCIe Gen5 x16; PCIe Gen6 x16; 160",
        // DGX H100: Xeon 8480C (PCIe 5.0), switches Gen5 (HgxEightGpu)
        "dgx-h100; PCIe Gen5 x16; PCIe Gen5 x16; 128",
        // DGX A100: EPYC 7742 = Rome (AMD EPYC 7002: PCIe 4.0) under A100 Gen4
        "dgx-a100; PCIe Gen4 x16; PCIe Gen4 x16; 128",
    })
    void rootPortsRunAtTheLowerGeneration(String host, String cpuLinks, String gpuLink, double socketGBps) {
        Topology t = Catalog.standalone(Catalog.hostType(host).orElseThrow(), 1);
        assertEquals(Set.of(cpuLinks), pcieOut(t, Cpu.class), host);
        assertEquals(Set.of(gpuLink), pcieOut(t, Gpu.class), host);
        // the first CPU's link to the last one: the other socket (2 sockets, or DGX A100's NUMA 0 to NUMA 7)
        List<Cpu> cpus = t.devices(Cpu.class);
        Link smp = t.outgoing(cpus.get(0)).stream().filter(l -> l.type() == LinkType.SMP
                && t.target(l).equals(cpus.get(cpus.size() - 1))).findFirst().orElseThrow();
        assertEquals(socketGBps, smp.bandwidth().gbps(), 1e-9, host);
    }

    /** Every CPU a catalog host is built with names a family of the CPU database. */
    @Test
    void everyCatalogCpuIsInTheCpuDatabase() {
        for (String name : Catalog.names()) {
            Topology t = Catalog.standalone(Catalog.hostType(name).orElseThrow(), 1);
            assertFalse(t.devices(Cpu.class).isEmpty(), name);
            t.devices(Cpu.class).forEach(c -> assertTrue(CpuModels.find(c.model()).isPresent(), name + ": "
                    + c.model()));
        }
    }
}
