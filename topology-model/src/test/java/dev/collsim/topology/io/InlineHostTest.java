package dev.collsim.topology.io;

import dev.collsim.io.InputException;
import dev.collsim.topology.io.yaml.YamlClusterReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.Nic;
import dev.collsim.topology.PathType;
import dev.collsim.topology.Link;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.NcclBandwidths;
import dev.collsim.topology.Topology;
import dev.collsim.topology.fabric.Bisection;
import dev.collsim.topology.paths.DevicePath;
import dev.collsim.topology.paths.PathFinder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An inline host with NVSwitch NVLink, a two-level PCIe tree on two sockets and a NIC list, checked against values
 * worked out by hand from NCCL 2.30's constants (sm90 NVLink 20.6 GB/s per link; Gen5 x16 = 48 GB/s; Sapphire Rapids
 * UPI 22 GB/s) and nvidia-smi's legend.
 */
class InlineHostTest {

    private static final String YAML = String.join("\n",
            "schema: collsim/v1",
            "name: inline-4gpu",
            "source: test",
            "hosts:",
            "  name: box",
            "  gpus: {count: 4, model: H100-SXM5-80GB, sm: 90, memory: 80 GiB}",
            "  cpus: {count: 2, vendor: GenuineIntel, model: Xeon Platinum 8480C, interconnect: 128 GB/s}",
            "  nvlink: {switches: 4, linksPerGpu: 18, bandwidthPerLink: 25 GB/s, generation: NVLink4}",
            "  pcie:",
            "    gen: 5",
            "    switches:",
            "      - {name: top0, cpu: 0, hostBridge: 0}",
            "      - {name: g0, parent: top0, gpus: [0]}",
            "      - {name: n0, parent: top0, nics: [0]}",
            "      - {name: top1, cpu: 0, hostBridge: 1, gpus: [1]}",
            "      - {name: top2, cpu: 1, hostBridge: 2, gpus: [2, 3], nics: [1]}",
            "  nics:",
            "    - {name: mlx5_0, speed: 400 Gb/s}",
            "    - {name: mlx5_1, speed: 400 Gb/s}",
            "count: 2",
            "fabric: {kind: single-switch, switchLatency: 600 ns}",
            "");

    /** NVLink: NV18, 18 x 25 = 450 physical, 18 x 20.6 = 370.8 NCCL. */
    @Test
    void nvlinkThroughTheSwitch() throws Exception {
        Topology t = new YamlClusterReader().read("inline.yaml", YAML);
        DevicePath p = PathFinder.of(t).path("h0/gpu0", "h0/gpu3");
        assertEquals("NV18", p.smiLabel());
        assertEquals(450.0, p.physical().gbps(), 1e-9);
        assertEquals(370.8, p.nccl().gbps(), 1e-9);
    }

    /**
     * {@code linkSpeedUnset}: NCCL reads each PCIe link's speed as unset and takes 8 GT/s (speed code 60) x16 / 80 =
     * 12 GB/s (NCCL 2.30.7 {@code src/graph/topo.cc ncclTopoAddPci}); the physical link stays Gen5 x16, 32 GT/s x 16
     * lanes x 128/130 / 8 = 63.0 GB/s, and collsim's as-built rate is NCCL's formula on Gen5 x16, 16 x 240 / 80 = 48.
     */
    @Test
    void linkSpeedUnsetTakesNcclsFallback() throws Exception {
        Topology t = new YamlClusterReader().read("inline.yaml", YAML.replace("    gen: 5\n",
                "    gen: 5\n    linkSpeedUnset: true\n"));
        Link l = t.outgoing(t.device("h0/gpu1").orElseThrow()).stream().filter(x -> x.type() == LinkType.PCIE)
                .findFirst().orElseThrow();
        assertEquals(12.0, l.ncclBandwidth().gbps(), 1e-9);
        assertEquals(63.0, l.bandwidth().gbps(), 0.05);
        assertEquals(48.0, NcclBandwidths.asBuilt(l).gbps(), 1e-9);
    }

    /**
     * NVLink pairs without {@code generation} take the GPU model's: H100 PCIe is sm 90 (Hopper), NVLink4 (H100
     * datasheet), so the bridge of 12 links reads "NVLink4 x12" like the catalog's "NVLink4 x18", not "NVLink x12".
     */
    @Test
    void nvlinkGenerationFollowsTheGpuWhenLeftOut() throws Exception {
        String yaml = YAML.replace("H100-SXM5-80GB, sm: 90", "H100-PCIE-80GB")
                .replace("{switches: 4, linksPerGpu: 18, bandwidthPerLink: 25 GB/s, generation: NVLink4}",
                        "{bandwidthPerLink: 25 GB/s, pairs: [{gpus: [0, 1], links: 12}, {gpus: [2, 3], links: 12}]}");
        Topology t = new YamlClusterReader().read("inline.yaml", yaml);
        Link l = t.outgoing(t.device("h0/gpu0").orElseThrow()).stream().filter(x -> x.type() == LinkType.NVLINK)
                .findFirst().orElseThrow();
        assertEquals("NVLink4 x12", l.detail());
        assertEquals(300.0, l.bandwidth().gbps(), 1e-9);
    }

    /**
     * PCIe: GPU0 and NIC0 under top0 on separate bridges: PXB (NCCL and smi). GPU1 to NIC0: through CPU 0 between
     * host bridges 1 and 0: smi NODE; NCCL relays through GPU0 over NVLink (PXN). GPU2 and NIC1 on one switch: PIX.
     * NIC1 to GPU0: across the sockets, SYS, NCCL bottleneck 22 GB/s (UPI).
     */
    @Test
    void pcieLevels() throws Exception {
        PathFinder pf = PathFinder.of(new YamlClusterReader().read("inline.yaml", YAML));
        assertEquals(PathType.PXB, pf.path("h0/gpu0", "h0/nic0").type());
        assertEquals("PXB", pf.path("h0/gpu0", "h0/nic0").smiLabel());
        assertEquals("NODE", pf.path("h0/gpu1", "h0/nic0").smiLabel());
        assertEquals(PathType.PXN, pf.path("h0/gpu1", "h0/nic0").type());
        assertEquals(PathType.PIX, pf.path("h0/gpu2", "h0/nic1").type());
        DevicePath sys = pf.path("h0/nic1", "h0/gpu0");
        assertEquals(PathType.SYS, sys.type());
        assertEquals("SYS", sys.smiLabel());
        assertEquals(22.0, sys.nccl().gbps(), 1e-9);
    }

    /** Two hosts x 2 NICs of 50 GB/s on one switch: bisection 2 x 50 = 100 GB/s; the cable latency is 0.6 us. */
    @Test
    void fabricFromInlineNics() throws Exception {
        Topology t = new YamlClusterReader().read("inline.yaml", YAML);
        assertEquals(100.0, Bisection.of(t).gbps(), 1e-9);
        DevicePath p = PathFinder.of(t).path("h0/gpu2", "h1/gpu2");
        assertEquals(PathType.NET, p.type());
        double latency = p.links().stream().mapToDouble(l -> l.latency().micros()).sum();
        assertEquals(0.6, latency, 1e-9, "one switch traversal");
    }

    /**
     * YAML 1.1 spells booleans yes/no and on/off too (Jackson reads {@code yes} as true); {@code gdr: yes} was read
     * as false when only the text "true" counted.
     */
    @Test
    void gdrAcceptsYamlBooleanWords() throws Exception {
        String yaml = YAML.replace("{name: mlx5_0, speed: 400 Gb/s}", "{name: mlx5_0, speed: 400 Gb/s, gdr: yes}")
                .replace("{name: mlx5_1, speed: 400 Gb/s}", "{name: mlx5_1, speed: 400 Gb/s, gdr: off}");
        List<Nic> nics = new YamlClusterReader().read("inline.yaml", yaml).devices(Nic.class);
        assertEquals(List.of(true, false), nics.stream().filter(n -> n.host() == 0).map(Nic::gdr).toList());
    }

    /**
     * A GPU's memory written as a datasheet writes it, {@code 80 GB}, is 80 GiB (JEDEC gigabytes, as the database
     * holds it): 80 x 2^30 = 85,899,345,920 B, not 80e9.
     */
    @Test
    void datasheetGigabytesOfMemoryAreGib() throws Exception {
        Topology t = new YamlClusterReader().read("inline.yaml", YAML.replace("memory: 80 GiB", "memory: 80 GB"));
        assertEquals(85_899_345_920L, t.gpus().get(0).memoryBytes());
    }

    /**
     * sm may be left out for a model the GPU database knows: the H100 SXM is compute capability 9.0 (NVIDIA CUDA C++
     * Programming Guide, compute capabilities table), so sm 90. An unknown model still needs it: the problem names
     * the field the user wrote, hosts.gpus.model, at its value (line 6, column 27 of YAML: "  gpus: {count: 4, model: "
     * is 26 characters).
     */
    @Test
    void smComesFromTheGpuDatabaseForAKnownModel() throws Exception {
        Topology t = new YamlClusterReader().read("inline.yaml", YAML.replace("sm: 90, ", ""));
        assertEquals(90, t.gpus().get(0).sm());
        InputException e = assertThrows(InputException.class, () -> new YamlClusterReader().read("inline.yaml",
                YAML.replace("model: H100-SXM5-80GB, sm: 90, ", "model: Acme X1, ")));
        assertEquals(1, e.problems().size(), e.getMessage());
        assertTrue(e.problems().get(0).toString().startsWith("inline.yaml:6:27: hosts.gpus.model: found 'Acme X1',"
                + " a model the GPU database does not know; allowed: a model it knows (e.g. "), e.getMessage());
        assertTrue(e.getMessage().contains("or this model with sm: compute capability x 10"), e.getMessage());
    }

    /**
     * A model written as nvidia-smi or a vendor writes it is found by the database's text rules, as a data file's
     * header is: "H100 PCIe 80GB" is the H100 PCIe, compute capability 9.0, 80 GB (NVIDIA H100 datasheet, PCIe
     * column), and its memory comes from the database when the file leaves it out. An unknown model's refusal names
     * the database's models sharing a word with it ("H100 NVL" for "H999 NVL").
     */
    @Test
    void modelTextAsPrintedIsFoundAndAMissNamesCloseModels() throws Exception {
        Topology t = new YamlClusterReader().read("inline.yaml",
                YAML.replace("model: H100-SXM5-80GB, sm: 90, memory: 80 GiB", "model: H100 PCIe 80GB"));
        assertEquals(90, t.gpus().get(0).sm());
        assertEquals(80L << 30, t.gpus().get(0).memoryBytes());
        InputException e = assertThrows(InputException.class, () -> new YamlClusterReader().read("inline.yaml",
                YAML.replace("model: H100-SXM5-80GB, sm: 90, ", "model: H999 NVL, ")));
        assertTrue(e.getMessage().contains("allowed: a model it knows (e.g. ") && e.getMessage().contains("H100 NVL"),
                e.getMessage());
    }

    /**
     * Two CPUs of a model the CPU database knows need no {@code interconnect}: a Xeon Platinum 8480C (Sapphire Rapids,
     * 4 UPI links at 16 GT/s x 2 B = 128 GB/s per direction, Intel ARK 8480+) and an EPYC 7V13 (Milan, 4 xGMI x16 at
     * 16 GT/s = 128 GB/s) take it from there; NCCL's view stays its own (SRP_QPI_BW 22 GB/s, AMD_BW 16, NCCL 2.30
     * src/graph/topo.h). A model it does not know still needs the key, named with its line and column.
     */
    @Test
    void aKnownCpuModelBringsItsSocketLinks() throws Exception {
        Topology intel = new YamlClusterReader().read("inline.yaml", YAML.replace(", interconnect: 128 GB/s", ""));
        Link upi = TestFiles.link(intel, "h0/cpu0", "h0/cpu1", LinkType.SMP);
        assertEquals(128.0, upi.bandwidth().gbps(), 1e-9);
        assertEquals(22.0, upi.ncclBandwidth().gbps(), 1e-9);
        Topology amd = new YamlClusterReader().read("inline.yaml", YAML.replace(
                "vendor: GenuineIntel, model: Xeon Platinum 8480C, interconnect: 128 GB/s",
                "vendor: AuthenticAMD, model: EPYC 7V13"));
        Link xgmi = TestFiles.link(amd, "h0/cpu0", "h0/cpu1", LinkType.SMP);
        assertEquals(128.0, xgmi.bandwidth().gbps(), 1e-9);
        assertEquals(16.0, xgmi.ncclBandwidth().gbps(), 1e-9);
        InputException e = assertThrows(InputException.class, () -> new YamlClusterReader().read("inline.yaml",
                YAML.replace("model: Xeon Platinum 8480C, interconnect: 128 GB/s", "model: Pentium 4")));
        assertTrue(e.getMessage().contains("inline.yaml:7:9: hosts.cpus.interconnect: missing required key"),
                e.getMessage());
    }
}
