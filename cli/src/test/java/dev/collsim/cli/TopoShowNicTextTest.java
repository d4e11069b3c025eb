package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code topo show}'s NIC bandwidth per GPU keeps its fraction. By hand: 2 NICs at NCCL's 10 Gb/s fallback for 8 GPUs
 * are 20 / 8 = 2.5 Gb/s per GPU (whole numbers printed 3, next to "= 0.3 GB/s"); 8 x 400 Gb/s for 8 GPUs are 400;
 * 1000 Gb/s for 3 GPUs are 333.33.
 */
class TopoShowNicTextTest {

    @Test
    void perGpuNicBandwidthKeepsItsFraction() {
        assertEquals("2.5", TopoShowCommand.gbitsText(2 * 10.0 / 8));
        assertEquals("400", TopoShowCommand.gbitsText(8 * 400.0 / 8));
        assertEquals("333.33", TopoShowCommand.gbitsText(1000.0 / 3));
    }

    /**
     * A workstation of 4 L40S with no network cards (the YAML has no nics key) says it has none for the network; it
     * printed "0 compute (), 0 other; NIC bandwidth per GPU 0 Gb/s = 0.0 GB/s". Its GPUs on root ports of one CPU are
     * PHB to each other (nvidia-smi's legend: through a PCIe host bridge).
     */
    @Test
    void aHostWithoutNicsSaysSo(@TempDir Path dir) throws Exception {
        Path yaml = Files.writeString(dir.resolve("ws.yaml"), String.join("\n", "schema: collsim/v1", "name: ws",
                "hosts:", "  gpus: {count: 4, model: L40S}", "  cpus: {count: 1, vendor: AuthenticAMD, model: EPYC"
                + " 9354P}", "  pcie: {gen: 4, rootPorts: [{cpu: 0, gpus: [0]}, {cpu: 0, gpus: [1, 2, 3]}]}",
                "count: 1", ""));
        CliRun r = CliRun.run("topo", "show", "-c", yaml.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("\nNICs       per host: none for the network\n"), r.out());
        // topo paths printed an empty "NIC legend:" heading for it
        CliRun paths = CliRun.run("topo", "paths", "-c", yaml.toString(), "--smi");
        assertEquals(0, paths.code(), paths.err());
        assertTrue(paths.out().contains("GPU0   X     PHB   PHB   PHB"), paths.out());
        assertTrue(!paths.out().contains("NIC legend"), paths.out());
    }
}
