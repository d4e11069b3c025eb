package dev.collsim.reports.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import dev.collsim.reports.spec.VariantSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A report variant's edits can leave the fabric's oversubscription with nothing to act on, as a cluster file can
 * ({@code FabricWarnings}): a DGX H100 has 8 compute NICs (DGX H100 User Guide) and a leaf takes 32 by default, so a
 * 2:1 fat-tree of 5 hosts (40 NICs) needs two leaves and a spine, while 4 hosts (32 NICs) fit under one leaf, as do 5
 * hosts under a 64-port leaf; 8 hosts (64 NICs) need spines again. The base's own warnings are not repeated per
 * variant.
 */
class FabricVariantWarningsTest {

    @TempDir
    Path dir;

    private List<String> warnings(int baseHosts, String variants) throws Exception {
        Files.writeString(dir.resolve("c.yaml"), """
                schema: collsim/v1
                name: dgx-h100-fat-tree
                hosts: dgx-h100
                count: %d
                fabric:
                  kind: fat-tree
                  oversubscription: "2:1"
                """.formatted(baseHosts));
        ReportSpec spec = ReportSpecReader.read(dir.resolve("w.yaml").toString(), "cluster: c.yaml\nvariants:\n"
                + variants + "sweeps: [{collective: allreduce, min: 1M, max: 1M}]\n", dir);
        SimulatorResolver r = new SimulatorResolver();
        for (VariantSpec v : spec.variants()) {
            r.resolve(spec, v);
        }
        return r.fabricWarnings();
    }

    @Test
    void variantsThatFitOneLeafAreWarned() throws Exception {
        List<String> w = warnings(5, """
                  - name: four hosts
                    hosts: 4
                  - name: wide leaves
                    leaf-radix: 64
                  - name: eight hosts
                    hosts: 8
                  - name: four hosts 1:1
                    hosts: 4
                    oversubscription: 1
                """);
        assertEquals(List.of("variant four hosts: oversubscription 2:1 has no effect: every NIC of the 4 hosts sits"
                + " under one leaf switch (fat-tree, at most 32 NICs per leaf), so no traffic crosses a spine; the"
                + " fabric behaves as non-blocking", "variant wide leaves: oversubscription 2:1 has no effect: every NIC"
                + " of the 5 hosts sits under one leaf switch (fat-tree, at most 64 NICs per leaf), so no traffic"
                + " crosses a spine; the fabric behaves as non-blocking"), w);
    }

    @Test
    void theBasesOwnWarningIsNotRepeated() throws Exception {
        // 2 hosts, 16 NICs: the base itself is under one leaf (report prints that once, for the base)
        assertEquals(List.of(), warnings(2, "  - name: slower NICs\n    nic-speed: 200 Gb/s\n"));
    }
}
