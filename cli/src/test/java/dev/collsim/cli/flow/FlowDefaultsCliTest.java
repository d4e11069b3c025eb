package dev.collsim.cli.flow;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The flow backend's defaults in {@code collsim predict}: --fabric rebuilds whatever cluster -c gives (the default
 * cluster too, as a report variant's fabric does), and the channels simulated are NCCL's choice, the nch the
 * analytical backend prints for the same point (both from {@code simulator.FlowChoice}), not a fixed 8.
 */
class FlowDefaultsCliTest {

    private static List<String[]> rows(String out) {
        return out.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).map(l -> l.trim().split("\\s+")).toList();
    }

    /**
     * The default cluster is 4 DGX H100 on a rail-optimized 400 Gb/s fabric (configs/default.yaml): --fabric fat-tree
     * rebuilds those 4 hosts (32 GPUs) on a fat-tree, named after the host type, count and kind.
     */
    @Test
    void fabricRebuildsTheDefaultCluster() {
        CliRun r = run("predict", "allreduce", "--backend", "links", "--fabric", "fat-tree", "-b", "1G", "-e", "1G");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("# Fabric: dgx-h100x4-fat-tree (4 hosts, 32 GPUs"), r.out());
        CliRun file = run("predict", "allreduce", "-c", "../cli/src/test/resources/machines/B-topo-dgx-a100.txt",
                "--backend", "links", "--fabric", "fat-tree");
        assertEquals(2, file.code(), file.out());
        assertTrue(file.err().contains("--fabric rebuilds the hosts of -c from their host type; -c "), file.err());
        assertTrue(file.err().contains("is a machine file read as it is; use -c ../cli/src/test/resources/machines/"
                + "B-topo-dgx-a100.txt:N (N copies of its host)"), file.err());
    }

    /**
     * {@code -c FILE:N --fabric KIND}: the fabric is named after the file's base name without its extension, then
     * {@code -x} and the count; it read {@code B-topo-dgx-a100.txtx2-fat-tree} before.
     */
    @Test
    void aMachineFilesCopiesAreNamedAfterItsBaseName() {
        CliRun r = run("predict", "allreduce", "-c", "../cli/src/test/resources/machines/B-topo-dgx-a100.txt:2",
                "--backend", "links", "--fabric", "fat-tree", "-b", "1G", "-e", "1G");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("# Fabric: B-topo-dgx-a100-x2-fat-tree (2 hosts, 16 GPUs"), r.out());
    }

    /** At 64 MiB and 1 GiB on 2 DGX H100 the flow backend simulates exactly the channels NCCL's choice has. */
    @Test
    void flowChannelsAreNcclsChoice() {
        String[] sweep = {"predict", "allreduce", "-c", "dgx-h100x2", "-b", "64M", "-e", "1G", "-f", "16"};
        CliRun analytical = run(sweep);
        String[] flowArgs = Arrays.copyOf(sweep, sweep.length + 2);
        flowArgs[sweep.length] = "--backend";
        flowArgs[sweep.length + 1] = "links";
        CliRun links = run(flowArgs);
        assertEquals(0, links.code(), links.err());
        List<String[]> a = rows(analytical.out());
        List<String[]> f = rows(links.out());
        assertEquals(a.size(), f.size());
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.get(i)[11], f.get(i)[11], "nch at " + a.get(i)[0]);
        }
    }
}
