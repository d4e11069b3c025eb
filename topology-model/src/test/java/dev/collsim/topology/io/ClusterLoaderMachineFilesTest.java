package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.topology.LinkType;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.units.Bandwidth;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ClusterLoader} picks the machine-file readers by content and passes the hints on. */
class ClusterLoaderMachineFilesTest {

    @Test
    void topoTextAndNcclXmlFilesAreDetectedByContent(@TempDir Path dir) throws Exception {
        Path smi = dir.resolve("machine.txt");
        Files.writeString(smi, TestFiles.text("B-topo-dell-c4140-4xV100-sxm2-nv2.txt"));
        Topology t = ClusterLoader.load(smi.toString(), HardwareHints.NONE.withGpu("V100-SXM2-16GB", 70));
        assertEquals(4, t.gpus().size());
        assertEquals("V100-SXM2-16GB", t.gpus().get(0).model());
        assertEquals(2, TestFiles.link(t, "h0/gpu1", "h0/gpu2", LinkType.NVLINK).count()); // NV2
        Path xml = dir.resolve("machine.xml");
        Files.writeString(xml, TestFiles.text("C-topo-azure-ndv4-8xA100.xml"));
        Topology x = ClusterLoader.load(xml.toString(), HardwareHints.NONE.withNicSpeed(Bandwidth.ofGbits(200)));
        assertEquals(8, x.gpus().size());
        assertEquals(25.0, ((Nic) x.device("h0/nic0").orElseThrow()).speed().gbps(), 1e-9);
    }

    @Test
    void aTruncatedXmlIsAnInputErrorWithItsLocation(@TempDir Path dir) throws Exception {
        Path xml = dir.resolve("partial.xml");
        Files.writeString(xml, TestFiles.text(
                "C-topodump-partial-8xH200-emeraldrapids-cx7-baremetal-and-vm-issue-nccltests256.xml"));
        InputException e = assertThrows(InputException.class, () -> ClusterLoader.load(xml.toString()));
        assertTrue(e.getMessage().startsWith(xml + ":79:"), e.getMessage());
        assertTrue(e.getMessage().contains("truncated XML"), e.getMessage());
    }

    /**
     * Azure's NC A100 v4 graph file (its first element, {@code <graphs version="1">}, is at line 11, column 1) is NCCL's
     * channels, not a machine: the message says which file would do, instead of "unrecognized format", and where the
     * graph file itself goes ({@code topo show --graph-dump}).
     */
    @Test
    void anNcclGraphFileSaysWhichFileDescribesTheMachine(@TempDir Path dir) throws Exception {
        Path xml = dir.resolve("graph.xml");
        Files.writeString(xml, TestFiles.text("C-graph-azure-ncv4-4xA100pcie.xml"));
        InputException e = assertThrows(InputException.class, () -> ClusterLoader.load(xml.toString()));
        assertTrue(e.getMessage().startsWith(xml + ":11:1: graphs: an NCCL graph file"), e.getMessage());
        assertTrue(e.getMessage().contains("NCCL_TOPO_DUMP_FILE=topo.xml"), e.getMessage());
        assertTrue(e.getMessage().contains("topo show -c topo.xml --graph-dump " + xml), e.getMessage());
    }

    /**
     * An nccl-tests log given to -c (a user mixing up -c and -m): the message says it is a measurement and where it
     * goes, at the line of its column header (line 3 of the text below: a bare table, as a user pastes it), and an
     * NCCL INFO log at its first INFO line (line 2).
     */
    @Test
    void aMeasurementGivenAsAClusterSaysWhereItGoes() {
        String table = "# nThread 1 nGpus 1 minBytes 8 maxBytes 8\n#\n#       size         count      type   redop    root"
                + "     time   algbw   busbw #wrong\n           8             2     float     sum      -1    10.00"
                + "    0.00    0.00      0\n";
        InputException e = assertThrows(InputException.class, () -> ClusterLoader.read("my-run.log", table));
        assertTrue(e.getMessage().startsWith("my-run.log:3:1: holds nccl-tests output or an NCCL INFO log, a"
                + " measurement, not a machine; give it to compare or diagnose (collsim compare -m my-run.log"),
                e.getMessage());
        InputException info = assertThrows(InputException.class, () -> ClusterLoader.read("nccl.log",
                "NCCL version 2.28.9+cuda12.9\nnode01:880:887 [0] NCCL INFO Bootstrap : Using eth0\n"));
        assertTrue(info.getMessage().startsWith("nccl.log:2:1: holds nccl-tests output"), info.getMessage());
    }
}
