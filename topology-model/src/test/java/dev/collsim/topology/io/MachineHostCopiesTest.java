package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.io.UserInputException;
import dev.collsim.topology.Device;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.NetSwitch;
import dev.collsim.topology.Nic;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.units.Bandwidth;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code -c FILE:N}: N copies of a machine file's host on the catalog's rail-optimized fabric. The DGX A100's
 * {@code nvidia-smi topo -m} (B-topo-dgx-a100.txt, header line 11) lists GPU0..GPU7 and NIC0..NIC11, eight of them
 * PXB to a GPU (the compute NICs, one leaf switch per rail: 8 leaves); every link of a copy is the file's host's.
 */
class MachineHostCopiesTest {

    private static final String DIR = "src/test/resources/dev/collsim/topology/io/";
    private static final String DGX = DIR + "B-topo-dgx-a100.txt";
    private static final HardwareHints HINTS = HardwareHints.NONE.withGpu("A100-SXM4-80GB", 80)
            .withNicSpeed(Bandwidth.ofGbits(200));

    @Test
    void twoCopiesAreTheFilesHostTwiceOnOneLeafPerRail() throws InputException {
        Topology one = ClusterLoader.resolve(DGX, HINTS, null).topology();
        ClusterSource two = ClusterLoader.resolve(DGX + ":2", HINTS, null);
        Topology t = two.topology();
        assertEquals(ClusterSource.Origin.FILE, two.origin());
        assertEquals(2, t.hostCount());
        assertEquals(16, t.gpus().size());
        assertEquals(2 * 12, t.devices(Nic.class).size());
        assertEquals(8, t.devices(NetSwitch.class).stream().filter(s -> s.tier() == NetSwitch.Tier.LEAF).count());
        // the hints hold for every copy: 200 Gb/s = 25 GB/s per NIC
        for (Nic n : t.devices(Nic.class)) {
            assertEquals(25.0, n.speed().gbps(), 1e-9, n.id());
        }
        for (int h = 0; h < 2; h++) {
            for (Link l : one.graph().edgeSet()) {
                String from = "h" + h + one.source(l).id().substring(2);
                String to = "h" + h + one.target(l).id().substring(2);
                Device a = t.device(from).orElseThrow(() -> new AssertionError(from));
                List<Link> copies = t.outgoing(a).stream().filter(c -> t.target(c).id().equals(to)
                        && c.type() == l.type()).toList();
                assertTrue(copies.stream().anyMatch(c -> c.count() == l.count() && c.bandwidth().equals(l.bandwidth())
                        && c.ncclBandwidth().equals(l.ncclBandwidth()) && c.detail().equals(l.detail())),
                        from + " -> " + to + " " + l);
            }
            assertEquals(h, ((Gpu) t.device("h" + h + "/gpu7").orElseThrow()).host());
        }
        // each copy's NVSwitch is its own host's NVLink domain
        assertEquals(List.of(0, 1), t.devices(NvSwitch.class).stream().map(NvSwitch::domain).sorted().toList());
    }

    @Test
    void whatCannotBeCopiedIsAUsageErrorThatSaysWhy() {
        UserInputException zero = assertThrows(UserInputException.class,
                () -> ClusterLoader.resolve(DGX + ":0", HINTS, null));
        assertTrue(zero.getMessage().contains("hosts must be >= 1, found 0"), zero.getMessage());
        // the Azure NC96ads A100 v4 matrix lists no NIC: no compute NIC to join two copies
        UserInputException noNic = assertThrows(UserInputException.class, () -> ClusterLoader.resolve(DIR
                + "B-topo-azure-nc96ads-a100-v4-4xA100pcie.txt:2", HardwareHints.NONE, null));
        assertTrue(noNic.getMessage().contains("has no compute NIC"), noNic.getMessage());
        assertEquals(UserInputException.USAGE, noNic.exitCode());
    }

    /** N copies of a file are named by its base name, less its extension, and -xN; a catalog type by NAMExN. */
    @Test
    void copiesAreNamedByTheFilesBaseName() throws InputException {
        ClusterSource two = ClusterLoader.resolve(DGX + ":2", HINTS, null);
        assertEquals("B-topo-dgx-a100-x2", two.spec().hostType().hostsName(2));
        assertEquals("dgx-h100x4", Catalog.hostType("dgx-h100").orElseThrow().hostsName(4));
    }

    /**
     * nvidia-smi topo -m gives no NIC speed: without --nic-speed the copies of B-topo-dgx-a100.txt talk at NCCL's
     * 10 Gb/s fallback for a NIC without speed (NCCL 2.30 src/graph/topo.cc: speed <= 0 gives 10000 Mb/s), which a
     * multi-host prediction must say; one host, or the hint, needs no warning.
     */
    @Test
    void copiesOfAFileWithoutNicSpeedWarnThatTheirNetworkIsTheFallback() throws InputException {
        HardwareHints gpuOnly = HardwareHints.NONE.withGpu("A100-SXM4-80GB", 80);
        Topology four = ClusterLoader.resolve(DGX + ":4", gpuOnly, null).topology();
        for (Nic n : four.devices(Nic.class)) {
            assertEquals(10.0, n.speed().gbits(), 1e-9, n.id());
        }
        List<String> said = four.warnings().stream().filter(w -> w.contains("--nic-speed")).toList();
        assertEquals(1, said.size(), four.warnings().toString());
        assertTrue(said.get(0).contains("4 hosts talk at 10 Gb/s per NIC"), said.get(0));
        assertTrue(ClusterLoader.resolve(DGX + ":1", gpuOnly, null).topology().warnings().stream()
                .noneMatch(w -> w.contains("--nic-speed")));
        assertTrue(ClusterLoader.resolve(DGX + ":4", HINTS, null).topology().warnings().stream()
                .noneMatch(w -> w.contains("--nic-speed")));
    }
}
