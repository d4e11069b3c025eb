package dev.collsim.reports.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A cluster file or an nccl-tests log given to {@code collsim report} is named for what it is, in one problem,
 * instead of one problem per cluster key or the whole table quoted as a YAML scalar.
 */
class NotASpecTest {

    private static InputProblem only(String name, String text) {
        InputException e = assertThrows(InputException.class, () -> ReportSpecReader.read(name, text, Path.of(".")));
        assertEquals(1, e.problems().size(), e::getMessage);
        return e.problems().get(0);
    }

    /** The README's own cluster YAML (schema collsim/v1, a catalog host type, a count). */
    @Test
    void aClusterYamlIsNamedAsOne() {
        InputProblem p = only("my-cluster.yaml", "schema: collsim/v1\nname: my-cluster\nhosts: dgx-h100\ncount: 2\n");
        assertEquals(1, p.line());
        assertTrue(p.message().startsWith("found a cluster description (yaml), not a report spec; allowed:"),
                p.message());
    }

    /** nvidia-smi topo -m text: its header row "GPU0 ... CPU Affinity" (driver 535 layout). */
    @Test
    void anSmiMatrixIsNamedAsACluster() {
        InputProblem p = only("m.txt", "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\nGPU0\t X \tNV12\t0-63\t0\n"
                + "GPU1\tNV12\t X \t0-63\t0\n");
        assertTrue(p.message().startsWith("found a cluster description (nvidia-smi)"), p.message());
    }

    /** An nccl-tests log: the table header is its 4th line (after the preamble and one rank line). */
    @Test
    void anNcclTestsLogIsNamedAsAMeasurement() {
        InputProblem p = only("ar.txt", """
                # nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
                #  Rank  0 Group  0 Pid 1 on h device  0 [0x01] NVIDIA A100-SXM4-80GB
                #
                #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
                           8             2     float     sum      -1     4.10    0.00    0.00       0     4.05    0.00    0.00       0
                """);
        assertEquals(4, p.line());
        assertTrue(p.message().startsWith("found an nccl-tests table header, a measurement, not a report spec"),
                p.message());
    }
}
