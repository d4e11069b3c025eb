package dev.collsim.cli;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.hardware.PcieGen;
import dev.collsim.io.InputProblem;
import dev.collsim.topology.Cpu;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.TopologyBuilder;
import dev.collsim.topology.catalog.HostContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A connectivity problem names a real position of the file, or says why the file has none. Two hosts of an NCCL XML
 * (told apart by {@code host_hash}) with no NIC: {@code topo check} names each GPU's {@code <pci>} element (line 3
 * and line 8, column 5, counted by hand in topology-model's test file {@code machines/two-hosts-no-nic.xml}), and
 * {@code predict}, which printed a time of "inf" and exited 0 on this file, refuses it the same way (exit 3).
 */
class TopoCheckPositionsTest {

    /** Shared with topology-model's MachineFileUnjoinedHostsTest. */
    private static final Path TWO_HOSTS_NO_NIC_FILE =
            Path.of("../topology-model/src/test/resources/machines/two-hosts-no-nic.xml");

    @Test
    void topoCheckNamesTheGpuElementsOfAnUnjoinedHost(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("two.xml");
        Files.copy(TWO_HOSTS_NO_NIC_FILE, f);
        CliRun r = run("topo", "check", "-c", f.toString());
        assertEquals(3, r.code(), r.err());
        assertTrue(r.err().contains(f + ":3:5: pci: host 0: GPU 0 reaches no NIC"), r.err());
        assertTrue(r.err().contains(f + ":8:5: pci: host 1: GPU 0 reaches no NIC"), r.err());
        assertFalse(r.err().contains(f + ": host "), "no problem without a line: " + r.err());
    }

    @Test
    void predictRefusesAnUnjoinedHostInsteadOfAnInfiniteTime(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("two.xml");
        Files.copy(TWO_HOSTS_NO_NIC_FILE, f);
        CliRun r = run("predict", "-c", f.toString(), "allreduce", "-b", "1M", "-e", "1M");
        assertEquals(3, r.code(), r.out() + r.err());
        assertFalse(r.out().contains("inf"), r.out());
        assertTrue(r.err().contains(f + ":8:5: pci: host 1: GPU 0 reaches no NIC"), r.err());
    }

    /**
     * What no reader refuses (a cluster built in code, as the catalog builds its hosts) has no line: the problem says
     * why, for a file and for a catalog name.
     */
    @Test
    void aGapWithoutALineSaysWhy() {
        TopologyBuilder b = Topology.builder("two-hosts");
        for (int h = 0; h < 2; h++) {
            HostContext ctx = new HostContext(b, h);
            Cpu cpu = ctx.cpu(0, "x86_64", "GenuineIntel", "Xeon Platinum 8480C");
            Gpu g = ctx.gpu(0, "H100", 90, 0);
            ctx.pcie(cpu, g, PcieGen.GEN5, 16);
        }
        Topology t = b.build();
        List<InputProblem> catalog = TopoCheckCommand.check(t, "two-hosts", false);
        assertEquals(2, catalog.size(), catalog.toString());
        assertEquals("two-hosts: host 1: GPU 0 reaches no NIC and no multi-host NVLink switch, so no other host"
                + " (two-hosts is built from collsim's catalog, not from lines of a file)", catalog.get(1).toString());
        List<InputProblem> file = TopoCheckCommand.check(t, "m.txt", true);
        assertTrue(file.get(0).toString().startsWith("m.txt: host 0: GPU 0 reaches no NIC")
                && file.get(0).toString().endsWith("(no line of the file states it: what is missing is a route"
                        + " between the devices it lists)"), file.get(0).toString());
    }
}
