package dev.collsim.cli;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code collsim topo ...} run in-process through {@link Main#run}. Expected numbers come from vendor documents
 * (DGX H100 User Guide: 18 NVLink4 x 25 GB/s = 450 GB/s per GPU; DGX A100: 12 x 25 = 300) and NCCL 2.30
 * {@code src/graph/topo.h} (18 x 20.6 = 370.8; 12 x 20 = 240), and from hand-worked bisections.
 */
class TopoCommandTest {

    /** Captured result of one run. */
    /** The default cluster: 4 DGX H100 (32 GPUs), 8 x 400 Gb/s NICs per host = 50 GB/s per GPU, bisection 16 x 50. */
    @Test
    void showDefaultCluster() {
        CliRun r = run("topo", "show");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("hosts      4"), r.out());
        assertTrue(r.out().contains("32: 32x H100-SXM5-80GB (sm90, 80 GiB)"), r.out());
        assertTrue(r.out().contains("NIC bandwidth per GPU 400 Gb/s = 50.0 GB/s"), r.out());
        assertTrue(r.out().contains("GPU-GPU   28 pairs  NVL    370.8 /   450.0 GB/s"), r.out());
        assertTrue(r.out().contains("bisection  800.0 GB/s per direction"), r.out());
    }

    /** A single DGX A100 by catalog name: NCCL 240, physical 300 for all 28 GPU pairs; no fabric. */
    @Test
    void showDgxA100() {
        CliRun r = run("topo", "show", "-c", "dgx-a100");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("GPU-GPU   28 pairs  NVL    240.0 /   300.0 GB/s"), r.out());
        assertTrue(r.out().contains("fabric     none"), r.out());
    }

    /** The nvidia-smi view of the DGX A100 reproduces the real file's GPU0 row (B-topo-dgx-a100.txt). */
    @Test
    void pathsSmiLabels() {
        CliRun r = run("topo", "paths", "-c", "dgx-a100", "--smi");
        assertEquals(0, r.code(), r.err());
        String gpu0 = r.out().lines().filter(l -> l.startsWith("GPU0 ")).findFirst().orElseThrow();
        assertEquals("GPU0   X     NV12  NV12  NV12  NV12  NV12  NV12  NV12  PXB   PXB   SYS   SYS   SYS   SYS   SYS   SYS"
                + "   SYS   SYS   SYS   SYS   3", gpu0);
    }

    /** NCCL view with types and bandwidths: DGX H100 GPU0 to its own NIC is PXB at 48 GB/s (Gen5 x16). */
    @Test
    void pathsNcclView() {
        CliRun r = run("topo", "paths", "-c", "dgx-h100");
        assertEquals(0, r.code(), r.err());
        String gpu0 = r.out().lines().filter(l -> l.startsWith("GPU0 ")).findFirst().orElseThrow();
        assertTrue(gpu0.contains("NVL 370.8") && gpu0.contains("PXB 48") && gpu0.contains("PXN 48"), gpu0);
        CliRun phys = run("topo", "paths", "-c", "dgx-h100", "--bw", "physical");
        assertTrue(phys.out().contains("NVL 450"), phys.out());
        assertEquals(2, run("topo", "paths", "-c", "dgx-h100", "--host", "3").code());
    }

    /** A bad file: exit 3, every problem as file:line:column: field, no stack trace. */
    @Test
    void checkBadFile(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("bad.yaml");
        Files.writeString(f, "schema: collsim/v1\nname: x\nhosts: dgx-h100\ncount: 2\nfabric: {kind: fat-tree, "
                + "linkSpeed: 400}\nextra: 1\n");
        CliRun r = run("topo", "check", "-c", f.toString());
        assertEquals(3, r.code());
        // problems are diagnostics: stderr, as in every other command; nothing on stdout
        assertTrue(r.err().contains(f + ":5:37: fabric.linkSpeed: found the bare number 400 without a unit"), r.err());
        assertTrue(r.err().contains(f + ":6:1: extra: unknown key 'extra'"), r.err());
        assertTrue(r.err().contains("2 problems in " + f), r.err());
        assertEquals("", r.out());
        assertFalse(r.err().contains("Exception") || r.err().contains("at dev."), r.err());
        CliRun show = run("topo", "show", "-c", f.toString());
        assertEquals(3, show.code());
        assertTrue(show.err().contains("fabric.linkSpeed"), show.err());
    }

    /**
     * Connectivity checks: the default passes; 2 hosts without a fabric cannot reach each other, refused when the YAML is
     * read (line 4, column 8: the value of "count: 2"), by every command, with exit 3 as every other YAML problem.
     */
    @Test
    void checkConnectivity(@TempDir Path dir) throws Exception {
        CliRun ok = run("topo", "check");
        assertEquals(0, ok.code(), ok.out());
        assertTrue(ok.out().startsWith("OK: default-4x-dgx-h100-rail: 4 hosts, 32 GPUs"), ok.out());
        Path f = dir.resolve("nofabric.yaml");
        Files.writeString(f, "schema: collsim/v1\nname: x\nhosts: dgx-h100\ncount: 2\n");
        CliRun bad = run("topo", "check", "-c", f.toString());
        assertEquals(3, bad.code(), bad.err());
        assertTrue(bad.err().contains(f + ":4:8: count: found 2 hosts of dgx-h100 and no 'fabric' section"), bad.err());
        assertTrue(bad.err().contains("allowed: a 'fabric:' section over the hosts' compute NICs (kind: single-switch,"
                + " fat-tree, rail-optimized), or count: 1"), bad.err());
        assertEquals("", bad.out());
        CliRun predict = run("predict", "-c", f.toString(), "allreduce");
        assertEquals(3, predict.code(), predict.out());
        assertTrue(predict.err().contains(f + ":4:8: count: "), predict.err());
        assertFalse(predict.err().contains("Exception") || predict.err().contains("at dev."), predict.err());
    }

    /** Exports: GraphML to a file atomically; an unknown format is a usage error; nccl-xml for a catalog host. */
    @Test
    void export(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("a100.graphml");
        CliRun r = run("topo", "export", "-c", "dgx-a100", "--format", "graphml", "-o", f.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.readString(f).contains("<graphml"));
        CliRun dot = run("topo", "export", "-c", "dgx-h100");
        assertTrue(dot.out().startsWith("strict digraph") || dot.out().startsWith("digraph"), dot.out());
        assertEquals(2, run("topo", "export", "--format", "svg").code());
        CliRun xml = run("topo", "export", "-c", "dgx-a100", "--format", "nccl-xml");
        assertEquals(0, xml.code(), xml.err());
        assertTrue(xml.out().startsWith("<system version=\"1\">"), xml.out());
    }

    /** An unknown cluster name lists the shipped configs and catalog names; a usage error, exit 2. */
    @Test
    void unknownCluster() {
        CliRun r = run("topo", "show", "-c", "dgx-z9000");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("dgx-h100-32x-rail") && r.err().contains("pcie-8x-rtx4090"), r.err());
    }
}
