package dev.collsim.reports.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.simulator.network.Multipath;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The backend fields of a report spec: {@code backend}, {@code routing}, {@code seed} at the top (every variant's
 * default) and per variant; bad values reported with file, line, column, field and the allowed values.
 */
class BackendFieldsTest {

    private static final Path HERE = Path.of(".");
    private static final String SWEEP = "sweeps: [{collective: allreduce}]\n";

    private static List<InputProblem> problems(String yaml) {
        InputException e = assertThrows(InputException.class, () -> ReportSpecReader.read("w.yaml", yaml, HERE));
        return e.problems();
    }

    @Test
    void defaultsToAnalyticalEverywhere() throws InputException {
        ReportSpec s = ReportSpecReader.read("w.yaml", "variants: [{name: a, hosts: 2}]\n" + SWEEP, HERE);
        assertTrue(s.variants().stream().allMatch(v -> v.backend().equals(BackendSpec.ANALYTICAL)));
        assertEquals("analytical", s.variants().get(1).backend().label());
    }

    @Test
    void topLevelIsTheDefaultAndVariantsOverrideIt() throws InputException {
        ReportSpec s = ReportSpecReader.read("w.yaml", """
                backend: flow
                routing: spray
                seed: 7
                variants:
                  - name: inherits
                    hosts: 2
                  - name: own routing
                    routing: ECMP
                  - name: analytical
                    backend: Analytical
                """ + SWEEP, HERE);
        assertEquals(new BackendSpec(BackendSpec.Backend.FLOW, Multipath.SPRAY, 7), s.variants().get(0).backend());
        assertEquals(new BackendSpec(BackendSpec.Backend.FLOW, Multipath.SPRAY, 7), s.variants().get(1).backend());
        assertEquals(new BackendSpec(BackendSpec.Backend.FLOW, Multipath.ECMP, 7), s.variants().get(2).backend());
        assertEquals("flow (ecmp, seed 7)", s.variants().get(2).backend().label());
        assertEquals("flow (spray)", s.variants().get(1).backend().label());
        assertEquals(BackendSpec.Backend.ANALYTICAL, s.variants().get(3).backend().backend());
        ReportSpec one = ReportSpecReader.read("w.yaml", "variants: [{name: f, backend: flow, seed: 3}]\n" + SWEEP,
                HERE);
        assertEquals(BackendSpec.ANALYTICAL, one.variants().get(0).backend(), "the base stays analytical");
        assertEquals(new BackendSpec(BackendSpec.Backend.FLOW, Multipath.ECMP, 3), one.variants().get(1).backend());
    }

    @Test
    void badValuesNameFileLineFieldAndAllowedValues() {
        List<InputProblem> ps = problems("""
                backend: packet
                variants:
                  - name: a
                    backend: flow
                    routing: adaptive
                  - name: b
                    backend: flow
                    seed: -1
                """ + SWEEP);
        String all = ps.toString();
        assertEquals(3, ps.size(), all);
        InputProblem top = ps.get(0);
        // Columns counted by hand: each problem at the value's first character.
        assertEquals("w.yaml:1:10: backend: unknown backend 'packet'; allowed: analytical, flow", top.toString());
        assertEquals("w.yaml:5:14: variants[0].routing: 'adaptive' is not a routing mode; allowed: ecmp, spray",
                ps.get(1).toString());
        assertEquals("w.yaml:8:11: variants[1].seed: found -1; allowed: a whole number >= 0", ps.get(2).toString());
    }

    @Test
    void flowOptionsWithoutTheFlowBackendAreReported() {
        List<InputProblem> ps = problems("""
                variants:
                  - name: a
                    routing: spray
                """ + SWEEP);
        assertEquals(1, ps.size(), ps.toString());
        assertEquals(3, ps.get(0).line());
        assertEquals(14, ps.get(0).column(), "the value of \"    routing: spray\"");
        assertEquals("variants[0].routing", ps.get(0).field());
        assertTrue(ps.get(0).message().contains("applies only to the flow backend")
                && ps.get(0).message().contains("allowed backends: analytical, flow"), ps.toString());
        List<InputProblem> top = problems("seed: 4\nvariants: [{name: a, hosts: 2}]\n" + SWEEP);
        assertEquals(1, top.size(), top.toString());
        assertEquals("seed", top.get(0).field());
        assertEquals(1, top.get(0).line());
        assertEquals(7, top.get(0).column(), "the value of \"seed: 4\"");
    }
}
