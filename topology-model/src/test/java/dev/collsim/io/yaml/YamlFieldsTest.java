package dev.collsim.io.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one typed-field layer of located YAML: every refusal reads {@code file:line:col: field: found X; allowed: Y},
 * at the value (an unknown key at the key, a missing key at the mapping). Columns are counted by hand in the
 * documents below (1-based).
 */
class YamlFieldsTest {

    private final List<InputProblem> problems = new ArrayList<>();
    private final YamlFields f = new YamlFields("t.yaml", problems::add);

    private YamlNode parse(String yaml) throws InputException {
        return YamlTree.parse("t.yaml", yaml, problems::add);
    }

    private List<String> messages() {
        return problems.stream().map(InputProblem::toString).toList();
    }

    @Test
    void valuesInRangeAreReadQuotedOrNot() throws InputException {
        YamlNode m = parse("n: 4\nq: \"5\"\nx: 0.25\ne: 1e6\nb: false\nB: \"TRUE\"\nempty:\n");
        assertEquals(4, f.integer(m, "n", true, 1, 8));
        assertEquals(5, f.integer(m, "q", true, 1, 8), "a quoted whole number is a whole number");
        assertEquals(0.25, f.number(m, "x", true, 0, 1));
        assertEquals(1e6, f.number(m, "e", true, 0, 1e9));
        assertEquals(Boolean.FALSE, f.bool(m, "b"));
        assertEquals(Boolean.TRUE, f.bool(m, "B"));
        YamlNode words = parse("y: yes\nn: NO\non: On\noff: \"off\"\n");
        assertEquals(Boolean.TRUE, f.bool(words, "y"), "YAML 1.1: yes is true (the node's text is 'yes')");
        assertEquals(Boolean.FALSE, f.bool(words, "n"));
        assertEquals(Boolean.TRUE, f.bool(words, "on"));
        assertEquals(Boolean.FALSE, f.bool(words, "off"));
        assertNull(f.text(m, "empty", false), "an empty value counts as absent");
        assertNull(f.integer(m, "absent", false, 0, 1));
        assertTrue(problems.isEmpty(), messages().toString());
    }

    @Test
    void refusedValuesNameFoundAndAllowedAtTheValue() throws InputException {
        YamlNode m = parse(String.join("\n",
                "n: 9",
                "w: 2.5",
                "big: 99999999999",
                "x: NaN",
                "y: 1.5",
                "b: maybe",
                "t: [1, 2]",
                "l: 3",
                "m: text",
                "s: {A: 1, B: [2]}",
                ""));
        assertNull(f.integer(m, "n", true, 1, 8));
        assertNull(f.integer(m, "w", true, 0, Integer.MAX_VALUE));
        assertNull(f.integer(m, "big", true, 0, Integer.MAX_VALUE));
        assertNull(f.number(m, "x", true, 0, 1));
        assertNull(f.number(m, "y", true, 0, 1));
        assertNull(f.bool(m, "b"));
        assertNull(f.text(m, "t", true));
        assertEquals(List.of(), f.list(m, "l"));
        assertNull(f.map(m, "m", true));
        assertEquals(Map.of("A", "1"), f.stringMap(m, "s"));
        assertEquals(List.of(
                "t.yaml:1:4: n: found 9; allowed: a whole number from 1 to 8",
                "t.yaml:2:4: w: found '2.5'; allowed: a whole number >= 0",
                // 99999999999 is a whole number >= 0: refused for its size, the int's top (2^31 - 1) is named
                "t.yaml:3:6: big: found 99999999999; allowed: a whole number from 0 to 2147483647",
                "t.yaml:4:4: x: found 'NaN'; allowed: a number from 0 to 1",
                "t.yaml:5:4: y: found 1.5; allowed: a number from 0 to 1",
                "t.yaml:6:4: b: found 'maybe'; allowed: true, false",
                "t.yaml:7:4: t: found a list; allowed: a text value",
                "t.yaml:8:4: l: found the bare number 3; allowed: a list (items starting with '- ', or [a, b])",
                "t.yaml:9:4: m: found 'text'; allowed: a mapping of keys to values",
                "t.yaml:10:14: s.B: found a list; allowed: a text value"), messages());
    }

    @Test
    void unknownKeysAtTheKeyMissingKeysAtTheMapping() throws InputException {
        YamlNode root = parse("top:\n  inner: {a: 1, zz: 2}\n");
        YamlNode inner = f.map(root.get("top"), "inner", true);
        assertTrue(f.mapping(inner, List.of("a", "b")));
        assertNull(f.text(inner, "b", true));
        assertFalse(f.mapping(parse("- 1\n"), List.of("a", "b")));
        assertEquals(List.of(
                "t.yaml:2:17: top.inner.zz: unknown key 'zz'; allowed: a, b",
                "t.yaml:2:10: top.inner.b: missing required key 'b'",
                "t.yaml:1:1: found a list; allowed: a mapping of a, b"), messages());
    }

    /**
     * A misspelt key gets the allowed key nearest to it when at most a third of its characters differ: "clster" is
     * "cluster" less one letter (1 of 7), "global-bach" is "global-batch" less one (1 of 12), while "colour" is 4
     * edits from "count" (4 of 6) and gets none; a bare allowed list stays as it was.
     */
    @Test
    void aMisspeltKeySaysWhichKeyItIsNear() throws InputException {
        YamlNode m = parse("clster: a\nglobal-bach: 1\ncolour: b\n");
        assertTrue(f.mapping(m, List.of("cluster", "global-batch", "count")));
        assertEquals(List.of(
                "t.yaml:1:1: clster: unknown key 'clster'; allowed: cluster, global-batch, count; did you mean"
                        + " 'cluster'?",
                "t.yaml:2:1: global-bach: unknown key 'global-bach'; allowed: cluster, global-batch, count; did you"
                        + " mean 'global-batch'?",
                "t.yaml:3:1: colour: unknown key 'colour'; allowed: cluster, global-batch, count"), messages());
    }

    /** A mistyped key gets the nearest allowed one: {@code fabrik} is one replacement from {@code fabric}. */
    @Test
    void aMistypedKeyGetsItsNearMiss() throws InputException {
        f.checkKeys(parse("fabrik: x\n"), List.of("hosts", "fabric"));
        assertEquals(List.of("t.yaml:1:1: fabrik: unknown key 'fabrik'; allowed: hosts, fabric; did you mean"
                + " 'fabric'?"), messages());
    }

    @Test
    void unitsAreRequiredAndBandwidthsPositive() throws InputException {
        YamlNode m = parse("bw: 400\nneg: -1 GB/s\nok: 400 Gb/s\nlat: 5\nmem: 80\n");
        assertNull(f.bandwidth(m, "bw", true));
        assertNull(f.bandwidth(m, "neg", true));
        assertEquals(50.0, f.bandwidth(m, "ok", true).gbps(), 1e-12, "400 Gb/s / 8 bit per byte = 50 GB/s");
        assertNull(f.latency(m, "lat"));
        assertNull(f.size(m, "mem"));
        assertEquals(List.of(
                "t.yaml:1:5: bw: found the bare number 400 without a unit; write the unit, one of GB/s, Gb/s, MB/s,"
                        + " Mb/s, TB/s, Tb/s (GB = 1e9 B, Gb = 1e9 bit), e.g. '400 Gb/s' or '25 GB/s'",
                "t.yaml:2:6: neg: found '-1 GB/s'; allowed: a number > 0 and at most 1000 TB/s with one of GB/s, Gb/s, MB/s, Mb/s, TB/s,"
                        + " Tb/s (GB = 1e9 B, Gb = 1e9 bit)",
                "t.yaml:4:6: lat: found the bare number 5 without a unit; write the unit, one of ns, us, ms, s, e.g."
                        + " '0.6 us'",
                "t.yaml:5:6: mem: found the bare number 80; allowed: a size with its unit, e.g. '80 GB', '141 GiB'"),
                messages());
    }

    /**
     * The 1 PB/s cap: 1000 TB/s = 1e6 GB/s is taken; 8001 Tb/s = 8001e3 / 8 = 1,000,125 GB/s and 1e9 Tb/s = 1.25e11
     * GB/s are refused at their column; 1.8 TB/s (an NVLink5 GPU, the largest shipped figure) = 1800 GB/s is taken.
     */
    @Test
    void bandwidthsAboveOnePetabytePerSecondAreRefused() throws InputException {
        YamlNode m = parse("cap: 1000 TB/s\nover: 8001 Tb/s\ntypo: 1e9 Tb/s\nnvl: 1.8 TB/s\n");
        assertEquals(1e6, f.bandwidth(m, "cap", true).gbps(), 1e-6);
        assertNull(f.bandwidth(m, "over", true));
        assertNull(f.bandwidth(m, "typo", true));
        assertEquals(1800.0, f.bandwidth(m, "nvl", true).gbps(), 1e-9);
        String allowed = "; allowed: a number > 0 and at most 1000 TB/s with one of GB/s, Gb/s, MB/s, Mb/s, TB/s, Tb/s"
                + " (GB = 1e9 B, Gb = 1e9 bit)";
        assertEquals(List.of("t.yaml:2:7: over: found '8001 Tb/s'" + allowed, "t.yaml:3:7: typo: found '1e9 Tb/s'" + allowed),
                messages());
    }
}
