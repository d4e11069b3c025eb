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
 * The README's my-cluster.yaml with its two errors fixed: 2 DGX H100 (8 NICs each, 16 in all) under a 2:1 fat-tree
 * with 32 NICs per leaf: one leaf, no spine, so the oversubscription cannot act; topo check passes (exit 0) and warns.
 * The shipped 32-host 2:1 config (256 NICs, 8 leaves) gets no warning.
 */
class TopoCheckWarningsTest {

    @Test
    void oneLeafFatTreeIsWarned(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("my-cluster.yaml");
        Files.writeString(f, "schema: collsim/v1\nname: my-cluster\nhosts: dgx-h100\ncount: 2\nfabric:\n  kind: fat-tree\n"
                + "  linkSpeed: 400 Gb/s\n  oversubscription: 2:1\n");
        CliRun r = run("topo", "check", "-c", f.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("collsim: warning: oversubscription 2:1 has no effect: every NIC of the 2 hosts sits under"
                + " one leaf switch"), r.err());
    }

    @Test
    void manyLeavesAreNotWarned() {
        CliRun r = run("topo", "check", "-c", "dgx-h100-32x-fattree-2to1");
        assertEquals(0, r.code(), r.err());
        assertFalse(r.err().contains("warning"), r.err());
    }

    /**
     * HGX B200 hosts have 8 compute NICs of 400 Gb/s (the catalog, from the DGX B200 datasheet); a linkSpeed of 800 Gb/s
     * cannot make them faster: topo show still prints 8x 400 Gb/s and topo check warns. 400 Gb/s, the NICs' own speed,
     * is not warned.
     */
    @Test
    void aLinkSpeedAboveTheNicsIsWarned(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("b200.yaml");
        String spec = "schema: collsim/v1\nname: b200\nhosts: hgx-b200\ncount: 2\nfabric:\n  kind: rail-optimized\n"
                + "  network: roce\n  linkSpeed: %s\n";
        Files.writeString(f, String.format(spec, "800 Gb/s"));
        CliRun r = run("topo", "check", "-c", f.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("collsim: warning: fabric.linkSpeed 800 Gb/s has no effect: the hosts' compute NICs"
                + " run at 400 Gb/s"), r.err());
        assertTrue(run("topo", "show", "-c", f.toString()).out().contains("8 compute (8x 400 Gb/s)"));
        Files.writeString(f, String.format(spec, "400 Gb/s"));
        CliRun same = run("topo", "check", "-c", f.toString());
        assertEquals(0, same.code(), same.err());
        assertFalse(same.err().contains("warning"), same.err());
    }

    /**
     * The same 800 Gb/s linkSpeed on HGX B200 hosts is warned, once on stderr, by every command that takes the
     * cluster, not only topo check: predict, plan, compare -c and a report whose spec names it.
     */
    @Test
    void everyCommandWarnsOnce(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("b200.yaml");
        Files.writeString(f, "schema: collsim/v1\nname: b200\nhosts: hgx-b200\ncount: 2\nfabric:\n"
                + "  kind: rail-optimized\n  network: roce\n  linkSpeed: 800 Gb/s\n");
        Path spec = Files.writeString(dir.resolve("spec.yaml"), "title: t\ncluster: b200.yaml\nsweeps:\n"
                + "  - collective: allreduce\n    min: 1M\n    max: 1M\n    factor: 2\n");
        String warning = "collsim: warning: fabric.linkSpeed 800 Gb/s has no effect";
        for (CliRun r : new CliRun[] {
            run("predict", "allreduce", "-c", f.toString(), "-b", "1M", "-e", "1M"),
            run("plan", "--model", "llama3-70b", "--tp", "8", "-c", f.toString()),
            run("compare", "-c", f.toString(), "--calibration", "none", "-m",
                    "../validation/src/test/resources/data/A-allreduce-2x2xH100-dgx-ib.txt"),
            run("report", spec.toString(), "-o", dir.resolve("out").toString(), "--no-progress")}) {
            assertEquals(0, r.code(), r.err());
            assertEquals(1, r.err().split(warning, -1).length - 1, r.err());
        }
    }
}
