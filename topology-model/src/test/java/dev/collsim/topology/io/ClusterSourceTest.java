package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.edit.ClusterEdits;
import dev.collsim.topology.edit.ClusterEditor;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.units.Bandwidth;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ClusterLoader#resolve}: one resolution for every {@code -c}, keeping the spec of catalog-built clusters. Host
 * and GPU counts by hand: a DGX H100, a DGX A100 and a DGX-1 (V100) have 8 GPUs each (their user guides); {@code configs/dgx-h100-32x-rail.yaml} names
 * 32 such hosts on a rail-optimized fabric with 32 host ports per leaf.
 */
class ClusterSourceTest {

    @Test
    void shorthandKeepsItsSpecInBothForms() throws InputException {
        for (String c : new String[] {"dgx-h100:2", "dgx-h100x2"}) {
            ClusterSource s = ClusterLoader.resolve(c, HardwareHints.NONE, null);
            assertEquals(ClusterSource.Origin.HOSTS, s.origin(), c);
            assertEquals(16, s.topology().gpus().size(), c);
            assertEquals(2, s.spec().count(), c);
            assertEquals(FabricKind.RAIL_OPTIMIZED, s.spec().fabric().kind(), c);
            assertEquals(8, s.gpusPerHost(), c);
        }
    }

    @Test
    void aBareCatalogNameIsOneHostWithoutFabric() throws InputException {
        ClusterSource s = ClusterLoader.resolve(" dgx1-v100 ", HardwareHints.NONE, null);
        assertEquals("dgx1-v100", s.name());
        assertEquals(ClusterSource.Origin.HOST_TYPE, s.origin());
        assertEquals(1, s.spec().count());
        assertNull(s.spec().fabric());
        assertEquals(8, s.topology().gpus().size());
    }

    /** A shipped config shadows a catalog type of the same name (configs/dgx-h100.yaml: one such host). */
    @Test
    void aConfigComesBeforeTheCatalog() throws InputException {
        ClusterSource s = ClusterLoader.resolve("dgx-h100", HardwareHints.NONE, null);
        assertEquals(ClusterSource.Origin.CONFIG, s.origin());
        assertEquals(1, s.spec().count());
        assertEquals("dgx-h100", s.spec().hostType().name());
    }

    @Test
    void aConfigOnCatalogHostsKeepsTheSpecItsYamlGives() throws InputException {
        ClusterSource s = ClusterLoader.resolve("dgx-h100-32x-rail", HardwareHints.NONE, null);
        assertEquals(ClusterSource.Origin.CONFIG, s.origin());
        assertEquals(32, s.spec().count());
        assertEquals("dgx-h100", s.spec().hostType().name());
        assertEquals(FabricKind.RAIL_OPTIMIZED, s.spec().fabric().kind());
        assertEquals(32, s.spec().fabric().leafRadix());
        assertEquals(256, s.topology().gpus().size());
    }

    /**
     * An inline host keeps its spec, so what-if edits (NIC speed, host count, fabric) apply to it as to a catalog host.
     * By hand, from the YAML: 2 hosts of 4 L40S, one 100 Gb/s NIC each, on one switch; edited to 400 Gb/s the NIC is
     * 400 / 8 = 50 GB/s per direction, the host count 3 gives 12 GPUs, and the PCIe links stay (4 GPU links, 1 NIC
     * link and 1 switch uplink per host: 6 per host, 18 for 3 hosts, each counted in both directions).
     */
    @Test
    void inlineHostsKeepTheirSpecForEdits(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("l40s.yaml"), "schema: collsim/v1\nname: l40s\nhosts:\n  name: l40s-4\n"
                + "  gpus: {count: 4, model: L40S}\n"
                + "  cpus: {count: 2, vendor: GenuineIntel, model: Xeon 8462Y+, interconnect: 64 GB/s}\n"
                + "  pcie:\n    gen: 4\n    switches: [{name: sw0, cpu: 0, gpus: [0, 1], nics: [0]}]\n"
                + "    rootPorts: [{cpu: 1, gpus: [2, 3]}]\n  nics: [{name: eth0, speed: 100 Gb/s}]\ncount: 2\n"
                + "fabric: {kind: single-switch, linkSpeed: 100 Gb/s}\n");
        ClusterSource inline = ClusterLoader.resolve("l40s.yaml", HardwareHints.NONE, dir);
        assertTrue(inline.editable(), "inline host description");
        assertEquals(2, inline.spec().count());
        Topology t = ClusterEditor.build(inline.spec(), new ClusterEdits(3, null,
                Bandwidth.ofGbits(400), null, null, null, null, null));
        assertEquals(12, t.gpus().size());
        assertEquals(3, t.devices(Nic.class).size());
        for (Nic n : t.devices(Nic.class)) {
            assertEquals(50.0, n.speed().gbps(), 1e-9);
        }
        assertEquals(18 * 2, t.graph().edgeSet().stream().filter(l -> l.type() == LinkType.PCIE).count());
    }

    @Test
    void machineFilesHaveNoSpec(@TempDir Path dir) throws Exception {
        Path smi = dir.resolve("machine.txt");
        Files.writeString(smi, TestFiles.text("B-topo-dell-c4140-4xV100-sxm2-nv2.txt"));
        ClusterSource m = ClusterLoader.resolve("machine.txt", HardwareHints.NONE.withGpu("V100-SXM2-16GB", 70), dir);
        assertEquals(ClusterSource.Origin.FILE, m.origin());
        assertNull(m.spec());
        assertEquals(4, m.gpusPerHost());
    }

    @Test
    void aFileNextToTheSpecResolvesAgainstItsFolder(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("two.yaml"), "schema: collsim/v1\nname: two\nhosts: dgx-a100\ncount: 2\n"
                + "fabric:\n  kind: fat-tree\n");
        ClusterSource s = ClusterLoader.resolve("two.yaml", HardwareHints.NONE, dir);
        assertEquals("two.yaml", s.name());
        assertEquals(2, s.spec().count());
        assertEquals(FabricKind.FAT_TREE, s.spec().fabric().kind());
        InputException e = assertThrows(InputException.class,
                () -> ClusterLoader.resolve("two.yaml", HardwareHints.NONE, null));
        assertEquals("two.yaml: -c/--cluster: no such file", e.problems().get(0).toString());
    }

    @Test
    void hostsOfACatalogTypeAreTheShorthand() throws InputException {
        ClusterSource s = ClusterLoader.hosts(Catalog.hostType("dgx-a100").orElseThrow(), 3);
        assertEquals("dgx-a100x3", s.name());
        assertEquals(ClusterLoader.shorthand("dgx-a100:3").orElseThrow(), s.spec());
        assertEquals(24, s.topology().gpus().size());
    }
}
