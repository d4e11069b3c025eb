package dev.collsim.sweep.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sweep spec reader: the grid, workloads, cost and targets; problems located at line, column and field. */
class DesignSpaceReaderTest {

    private static final String PLANS = """
            sweeps:
              - {collective: allreduce, min: 1M, max: 4M, factor: 2}
            plans:
              - name: 13B tp8 dp2
                params: 13B
                tp: 8
                dp: 2
                mfu: 0.4
                target-tokens-per-s: 1e5
            """;

    private static DesignSpace read(String text) {
        return DesignSpaceReader.read("s.yaml", text, Path.of("."));
    }

    @Test
    void gridIsTheProductOfItsAxesLastAxisFastest() {
        DesignSpace s = read("cluster: default\ngrid:\n  hosts: [1, 2, 4]\n  fabric: [fat-tree, single-switch]\n"
                + "  env: [{}, {NCCL_ALGO: Ring}]\n" + PLANS);
        assertEquals(12, s.gridDesigns());
        // 3 sizes (1M, 2M, 4M) + 1 plan
        assertEquals(List.of("allreduce 1M", "allreduce 2M", "allreduce 4M", "13B tp8 dp2"),
                s.workloads().stream().map(Workload::name).toList());
        assertEquals(48, s.points());
        // design 7 = hosts index 7 / 4 = 1, fabric (7 / 2) % 2 = 1, env 7 % 2 = 1
        assertEquals("hosts=2 fabric=single-switch env=NCCL_ALGO=Ring", s.label(7));
        // the plan's target-tokens-per-s becomes a target
        assertEquals(1e5, s.targets().get(0).minTokensPerS());
    }

    @Test
    void badGridValueIsLocatedAtTheValue() {
        InputException e = assertThrows(InputException.class, () -> read("cluster: default\ngrid:\n"
                + "  fabric: [fat-tree, fat-tre]\n" + PLANS));
        InputProblem p = e.problems().get(0);
        assertEquals(3, p.line());
        assertEquals(22, p.column());
        assertEquals("grid.fabric", p.field());
        assertTrue(p.message().contains("fat-tre"), p.message());
    }

    @Test
    void everyProblemAtOnce() {
        InputException e = assertThrows(InputException.class, () -> read("cluster: default\n"
                + "grid:\n  colour: [red]\n"
                + "cost:\n  gpu: 30000 USD\n  cable: 300 EUR\n  hours: 720\n"
                + "targets:\n  - name: t\n    workload: nope\n    busbw: 100 GB/s\n" + PLANS));
        List<String> fields = e.problems().stream().map(InputProblem::field).toList();
        assertEquals(List.of("grid.colour", "cost.cable", "cost.hours", "targets[0].workload"), fields);
        assertTrue(e.problems().get(1).message().contains("currency EUR differs from USD"));
    }

    /** A bound written without its unit is one problem, at that bound; not also "no bound" at the target. */
    @Test
    void anUnreadableBoundIsNotAlsoAMissingOne() {
        InputException e = assertThrows(InputException.class, () -> read("cluster: default\n"
                + "targets:\n  - name: t\n    workload: allreduce 1M\n    busbw: 300\n" + PLANS));
        List<String> fields = e.problems().stream().map(InputProblem::field).toList();
        assertEquals(List.of("targets[0].busbw"), fields);
    }

    @Test
    void scalingCurveIsRefused() {
        InputException e = assertThrows(InputException.class, () -> read("cluster: default\n" + PLANS
                + "    scaling-max-gpus: 64\n"));
        assertTrue(e.problems().get(0).message().contains("vary 'hosts' under 'grid'"));
    }

    /**
     * A mistyped grid key gets the nearest key (the catalog's rule, NearestName: Levenshtein distance at most a third of
     * the longer name): {@code nic-sped} is one letter from {@code nic-speed}; {@code colour} is near no key.
     */
    @Test
    void aMistypedGridKeyGetsItsNearMiss() {
        InputException e = assertThrows(InputException.class, () -> read("cluster: default\ngrid:\n"
                + "  nic-sped: [400 Gb/s]\n  colour: [red]\n" + PLANS));
        assertEquals(List.of("grid.nic-sped", "grid.colour"), e.problems().stream().map(InputProblem::field).toList());
        assertTrue(e.problems().get(0).message().endsWith("; did you mean 'nic-speed'?"), e.problems().get(0).message());
        assertTrue(!e.problems().get(1).message().contains("did you mean"), e.problems().get(1).message());
    }
}
