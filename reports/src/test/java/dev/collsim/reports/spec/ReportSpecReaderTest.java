package dev.collsim.reports.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.nccl.Collective;
import dev.collsim.topology.fabric.FabricKind;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Spec parsing: the fields, and bad input reported as file:line:col: field: found / allowed. */
class ReportSpecReaderTest {

    private static final Path HERE = Path.of(".");

    private static List<InputProblem> problems(String yaml) {
        InputException e = assertThrows(InputException.class, () -> ReportSpecReader.read("w.yaml", yaml, HERE));
        return e.problems();
    }

    /** A variant's fabric is spelled as in cluster YAML and --fabric; the older spelling {@code rail} still reads. */
    /**
     * A plan without {@code dp} fills the base cluster as {@code collsim plan} does (it ran on one GPU and read "does
     * not fit" before). By hand: dgx-h100x2 is 2 DGX H100 of 8 GPUs each (DGX H100 User Guide), 16 GPUs; with tp 2,
     * dp = 16 / 2 = 8; a plan that names dp keeps it.
     */
    @Test
    void aPlanWithoutDpFillsTheBaseCluster() throws InputException {
        ReportSpec s = ReportSpecReader.read("w.yaml", """
                cluster: dgx-h100x2
                plans:
                  - {name: filled, model: llama3-8b, tp: 2, zero: 3, global-batch: 64}
                  - {name: named, model: llama3-8b, tp: 2, dp: 1, global-batch: 64}
                """, HERE);
        assertEquals(8, s.plans().get(0).job().dp());
        assertEquals(16, s.plans().get(0).job().nGpus());
        assertEquals(1, s.plans().get(1).job().dp());
    }

    @Test
    void fabricIsSpelledAsInClusterYaml() throws InputException {
        ReportSpec s = ReportSpecReader.read("w.yaml", """
                variants:
                  - name: rails
                    fabric: rail-optimized
                  - name: old spelling
                    fabric: rail
                  - name: one switch
                    fabric: single-switch
                sweeps: [{collective: allreduce}]
                """, HERE);
        assertEquals(FabricKind.RAIL_OPTIMIZED, s.variants().get(1).edits().fabric());
        assertEquals(FabricKind.RAIL_OPTIMIZED, s.variants().get(2).edits().fabric());
        assertEquals(FabricKind.SINGLE_SWITCH, s.variants().get(3).edits().fabric());
        InputProblem p = problems("variants:\n  - name: a\n    fabric: rails\nsweeps: [{collective: allreduce}]\n")
                .get(0);
        // the value 'rails' starts in column 13 of "    fabric: rails"
        assertEquals("w.yaml:3:13: variants[0].fabric: unknown fabric 'rails'; allowed: single-switch, fat-tree,"
                + " rail-optimized", p.toString());
    }

    /**
     * A variant's oversubscription is also written down:up, as in cluster YAML ({@code oversubscription: "2:1"}) and
     * {@code --oversubscription 2:1}; it used to take only a number and refused "2:1". 3:2 is 1.5 by definition
     * (down/up); 1:2 (up above down) is refused at its first character: column 23 of
     * {@code "    oversubscription: "1:2""} is the opening quote (4 + 17 + 1 spaces and colon before it).
     */
    @Test
    void oversubscriptionIsWrittenAsInClusterYaml() throws InputException {
        ReportSpec s = ReportSpecReader.read("w.yaml", """
                variants:
                  - name: ratio
                    fabric: fat-tree
                    oversubscription: "2:1"
                  - name: three to two
                    fabric: fat-tree
                    oversubscription: "3:2"
                  - name: number
                    fabric: fat-tree
                    oversubscription: 2
                sweeps: [{collective: allreduce}]
                """, HERE);
        assertEquals(2.0, s.variants().get(1).edits().oversubscription());
        assertEquals(1.5, s.variants().get(2).edits().oversubscription());
        assertEquals(2.0, s.variants().get(3).edits().oversubscription());
        InputProblem p = problems("variants:\n  - name: a\n    fabric: fat-tree\n    oversubscription: \"1:2\"\n"
                + "sweeps: [{collective: allreduce}]\n").get(0);
        assertEquals(4, p.line());
        assertEquals(23, p.column());
        // the same refusal as cluster YAML's (YamlErrorsTest), word for word after the field
        assertEquals("w.yaml:4:23: variants[0].oversubscription: found '1:2'; allowed: down/up from 1 to 64 as a"
                + " number (2) or as down:up with down >= up > 0, e.g. 1:1 or 2:1", p.toString());
    }

    @Test
    void readsEveryPart() throws InputException {
        ReportSpec s = ReportSpecReader.read("w.yaml", """
                title: t
                cluster: dgx-h100-x4
                variants:
                  - name: slow NIC
                    nic-speed: 200 Gb/s
                    fabric: fat-tree
                    oversubscription: 2
                    env: {NCCL_ALGO: Ring}
                  - name: A100-class NVLink
                    nvlink: NVLink3
                sweeps:
                  - collective: all_reduce
                    min: 1K
                    max: 1G
                    factor: 4
                    gpus: 16
                plans:
                  - name: 70B
                    params: 70B
                    tp: 8
                    dp: 4
                    global-batch: 64
                    zero: 1
                algorithm-map: {collective: allgather, min: 1K, max: 1M}
                """, HERE);
        assertEquals(3, s.variants().size());
        assertEquals(300.0, s.variants().get(2).edits().nvlinkGBps(), 1e-9, "NVLink3: 12 x 25 GB/s (A100 datasheet)");
        assertEquals("base", s.variants().get(0).name());
        VariantSpec v = s.variants().get(1);
        assertEquals(25.0, v.edits().nicSpeed().gbps(), 1e-12);
        assertEquals(FabricKind.FAT_TREE, v.edits().fabric());
        assertEquals(2.0, v.edits().oversubscription());
        assertEquals("Ring", v.ncclSettings().asMap().get("NCCL_ALGO"));
        assertEquals(4, v.line());
        assertEquals(Collective.ALL_REDUCE, s.sweeps().get(0).collective());
        assertEquals(1L << 30, s.sweeps().get(0).sizes().maxBytes());
        assertEquals(16, s.sweeps().get(0).gpus());
        assertEquals(80, s.plans().get(0).job().shape().layers());
        assertEquals(1, s.plans().get(0).job().zero());
        assertEquals(Collective.ALL_GATHER, s.algorithmMap().collective());
        assertNull(s.sweeps().get(0).measured());
    }

    @Test
    void everyProblemIsLocatedAndNamesWhatIsAllowed() {
        List<InputProblem> ps = problems("""
                title: t
                variants:
                  - name: a
                    nic-speed: 200
                    fabric: torus
                    colour: red
                  - hosts: 0
                sweeps:
                  - collective: allsum
                    max: 1X
                """);
        // Columns counted by hand: a bad value at its first character, the unknown key at the key, the missing
        // name at the list item ("  - " is 4 characters); sorted by line, then column.
        assertEquals(List.of(
                "w.yaml:4:16: variants[0].nic-speed: found the bare number 200 without a unit; write the unit, one of"
                        + " GB/s, Gb/s, MB/s, Mb/s, TB/s, Tb/s (GB = 1e9 B, Gb = 1e9 bit), e.g. '400 Gb/s' or '25 GB/s'",
                "w.yaml:5:13: variants[0].fabric: unknown fabric 'torus'; allowed: single-switch, fat-tree,"
                        + " rail-optimized",
                "w.yaml:6:5: variants[0].colour: unknown key 'colour'; allowed: name, hosts, trays-per-domain,"
                        + " host-type, nic-speed, nics-per-host, fabric, oversubscription, leaf-radix, nvlink, network,"
                        + " env, calibration, backend, routing, seed",
                "w.yaml:7:5: variants[1]: missing 'name'; every variant needs a name for tables and legends",
                "w.yaml:7:12: variants[1].hosts: found 0; allowed: a whole number from 1 to 1000000",
                "w.yaml:9:17: sweeps[0].collective: unknown collective 'allsum'; allowed: all_reduce, all_gather,"
                        + " reduce_scatter, broadcast, reduce, alltoall, sendrecv, gather, scatter (any case, with or"
                        + " without '_' or '-': allreduce, AllReduce, all_reduce_perf)",
                "w.yaml:10:10: sweeps[0].max: max '1X' is not a size; allowed: a number of bytes with an optional K,"
                        + " M or G (powers of 1024, as nccl-tests reads them), e.g. 8, 1K, 32M, 8G, 1.5M"),
                ps.stream().map(InputProblem::toString).toList());
    }

    @Test
    void badPlanNamesTheFieldAndTheRule() {
        List<InputProblem> ps = problems("""
                plans:
                  - name: moe
                    params: 7B
                    ep: 4
                    dp: 6
                    zero: 4
                """);
        // "    zero: 4": the value in column 11; ZeRO stages are 0 to 3
        assertEquals(List.of("w.yaml:6:11: plans[0].zero: found 4; allowed: a whole number from 0 to 3"),
                ps.stream().map(InputProblem::toString).toList());
        List<InputProblem> rule = problems("""
                plans:
                  - name: moe
                    params: 7B
                    ep: 4
                    dp: 6
                """);
        assertTrue(rule.get(0).message().contains("ep 4 needs experts > 0"), rule.toString());
        assertTrue(rule.get(0).message().contains("ep 4 must divide dp 6"), rule.toString());
        // placed at the key the rule names first ("    ep: 4": line 4, value in column 9), as a bad value is
        assertEquals(4, rule.get(0).line());
        assertEquals(9, rule.get(0).column());
        assertEquals("plans[0].ep", rule.get(0).field());
    }

    /**
     * By hand: dgx-h100x2 has 16 GPUs, tp 8 leaves dp = 2 and micro-batch 1, so global-batch 7 is no multiple of 2;
     * "    global-batch: 7" puts the value in column 19 of line 5. A preset name that does not exist is placed at
     * 'model' (line 4, column 12) without repeating the key.
     */
    @Test
    void aBrokenPlanRuleIsPlacedAtItsKey() {
        List<String> ps = problems("cluster: dgx-h100x2\nplans:\n  - name: a\n    model: llama3-8b\n"
                + "    global-batch: 7\n    tp: 8\n").stream().map(InputProblem::toString).toList();
        assertEquals(List.of("w.yaml:5:19: plans[0].global-batch: global-batch 7 must be a multiple of micro-batch x"
                + " dp = 2"), ps);
        List<String> model = problems("plans:\n  - name: a\n    tp: 8\n    model: llama3-8\n").stream()
                .map(InputProblem::toString).toList();
        assertEquals(1, model.size(), model.toString());
        assertTrue(model.get(0).startsWith("w.yaml:4:12: plans[0].model: 'llama3-8' is not a preset; allowed: "),
                model.get(0));
    }

    @Test
    void malformedYamlAndDuplicatesAndEmptySpecs() {
        InputProblem p = problems("sweeps:\n  - collective: allreduce\n    min: [1\n").get(0);
        assertTrue(p.message().startsWith("not valid YAML"), p.toString());
        assertTrue(p.line() >= 3, p.toString());
        InputProblem dup = problems("title: a\ntitle: b\nsweeps: [{collective: allreduce}]\n").get(0);
        assertEquals(2, dup.line());
        assertTrue(dup.message().contains("duplicate key 'title'"), dup.toString());
        assertTrue(problems("title: nothing\n").get(0).message().contains("nothing to predict"));
        assertTrue(problems("variants:\n  - name: x\n    calibration: nope.yaml\nsweeps: [{collective: allreduce}]\n")
                .get(0).message().contains("calibration profile 'nope.yaml': no such file (looked in "));
    }

    /**
     * Sweep sizes as nccl-tests 2.19.6 reads -b/-e ({@code src/common.cu parsesize}: first letter only, so 2GB is
     * 2 GiB); min 0 with a factor would repeat 0 for ever. Variant env problems sit on the variable's line.
     */
    @Test
    void sweepSizesAndEnvAreCheckedWhereTheyAreWritten() throws InputException {
        ReportSpec s = ReportSpecReader.read("w.yaml", "sweeps: [{collective: allreduce, min: 1GB, max: 2GB}]\n",
                HERE);
        assertEquals(List.of(1L << 30, 2L << 30), s.sweeps().get(0).sizes().sizes());
        InputProblem zero = problems("sweeps: [{collective: allreduce, min: 0, max: 16}]\n").get(0);
        assertTrue(zero.message().contains("min > 0"), zero.toString());
        List<InputProblem> env = problems("variants:\n  - name: x\n    env:\n      NCCL_ALGO: Ring\n"
                + "      NCCL_ALOG: Tree\nsweeps: [{collective: allreduce}]\n");
        assertEquals(5, env.get(0).line(), env.toString());
        assertTrue(env.get(0).message().startsWith("unknown NCCL variable 'NCCL_ALOG'"), env.toString());
    }

    /**
     * A variant key written at the top ({@code network: roce} beside {@code cluster:}) is refused at the key (line 2,
     * column 1) and says where it belongs: under a variant, or for the base in a cluster YAML; a key that is no
     * variant's gets no such hint.
     */
    @Test
    void aVariantKeyAtTheTopSaysWhereItBelongs() {
        List<InputProblem> ps = problems("cluster: hgx-b200:2\nnetwork: roce\ncolour: red\n"
                + "sweeps: [{collective: allreduce}]\n");
        assertEquals(2, ps.size(), ps.toString());
        assertEquals("w.yaml:2:1: network: unknown key 'network'; allowed: title, cluster, base-name, backend,"
                + " routing, seed, variants, sweeps, plans, algorithm-map ('network' changes a variant: write it under"
                + " variants:; the base is the cluster as cluster: names it, so for a base with another network point"
                + " cluster: at a cluster YAML, e.g. fabric.network for the network (docs/topology.md))",
                ps.get(0).toString());
        assertTrue(ps.get(1).toString().endsWith("plans, algorithm-map"), ps.get(1).toString());
    }
}
