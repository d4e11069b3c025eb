package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.collsim.io.InputException;
import dev.collsim.io.InputLimits;
import dev.collsim.simulator.perf.PerformanceParameters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Calibration profiles that crashed when fuzzed: without {@code parameters:} (a NullPointerException in compare
 * --calibration, predict --params and a report variant) and with a fitted value NaN (refused by compare, taken by
 * predict --params). Both readers now refuse both, at the field.
 */
class ProfileFuzzFindingsTest {

    private static final Path DIR = Path.of("src/test/resources/fuzz");

    /**
     * The file is two lines ("schema: ...", "generation: HOPPER"): the key is missing from the mapping that starts at
     * line 1, column 1, where the refusal points (as YamlFields places a missing required key: at its mapping).
     */
    @Test
    void profileWithoutParametersIsRefused() {
        Path f = DIR.resolve("c11-calib-no-parameters.yaml");
        InputException e = assertThrows(InputException.class, () -> ParametersFile.read(f));
        assertTrue(e.problems().get(0).toString().startsWith(f + ":1:1: parameters: missing required key 'parameters';"
                + " allowed: a mapping of every performance parameter (launchOverheadUs,"), e.problems().toString());
    }

    /**
     * A shipped profile (configs/calibration/auto/blackwell-1host-pcie.yaml) with "latencyScale: 1.O" (a letter O
     * typed for a zero) was refused with Jackson's Java text and no line; both readers now name the key's line and
     * column (the line found in the file here, the key indented by 2: column 3), the field and what is allowed.
     */
    @Test
    void aValueThatIsNoNumberIsRefusedAtItsKeyByBothReaders(@TempDir Path dir) throws Exception {
        String text = Files.readString(Path.of("../configs/calibration/auto/blackwell-1host-pcie.yaml"));
        Path f = Files.writeString(dir.resolve("typo.yaml"), text.replace("  latencyScale: 1.0\n",
                "  latencyScale: 1.O\n"));
        int line = text.substring(0, text.indexOf("  latencyScale: 1.0\n")).split("\n", -1).length;
        InputException viaParams = assertThrows(InputException.class, () -> ParametersFile.read(f));
        InputException viaProfile = assertThrows(InputException.class, () -> CalibrationProfile.read(f));
        for (InputException e : new InputException[] {viaParams, viaProfile}) {
            assertEquals(f + ":" + line + ":3: parameters.latencyScale: found '1.O'; allowed: a number",
                    e.problems().get(0).toString());
        }
    }

    @Test
    void fittedValueNanIsRefusedAtItsLineByBothReaders() {
        // line 41 of the file is "  value: NaN" under the first "- name:" of fitted; the value starts at column 10
        Path f = DIR.resolve("c13-calib-fitted-value-nan.yaml");
        InputException viaParams = assertThrows(InputException.class, () -> ParametersFile.read(f));
        InputException viaProfile = assertThrows(InputException.class, () -> CalibrationProfile.read(f));
        for (InputException e : new InputException[] {viaParams, viaProfile}) {
            assertEquals(f + ":41:10: fitted[0].value: found 'NaN'; allowed: a finite number",
                    e.problems().get(0).toString());
        }
    }

    /**
     * c20 (the text of the fuzz-findings generator c20-calib-4MB-line-gen.py): a profile whose third line is
     * 4,000,000 digits was refused only after 9 s and 0.9 GB in the YAML parser. Both readers now refuse it at that
     * line before parsing; the bound of 5 s is loose (the check is one pass over 4 MB) but far below the 9 s seen.
     */
    @Test
    void fourMegabyteLineIsRefusedBeforeParsing(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("c20-calib-4MB-line.yaml");
        Files.writeString(f, "schema: collsim-calibration/v1\ngeneration: HOPPER\n" + "9".repeat(4_000_000)
                + "\nparameters: {}\n");
        String expected = f + ":3:65537: line of 4000000 characters; allowed: at most 65536 per line in a YAML file";
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            InputException viaParams = assertThrows(InputException.class, () -> ParametersFile.read(f));
            InputException viaProfile = assertThrows(InputException.class, () -> CalibrationProfile.read(f));
            for (InputException e : new InputException[] {viaParams, viaProfile}) {
                assertTrue(e.problems().get(0).toString().startsWith(expected), e.problems().toString());
                assertTrue(e.problems().get(0).message().contains(InputLimits.MAX_LINE_CHARS_VARIABLE));
            }
        });
    }

    /**
     * A profile written before perChannelCapNvls, netStepUs and nvlsBwScale existed (the 2x H200 profile as it was
     * shipped before its refit, kept as a test resource) still reads, with those at their defaults and its own
     * values kept: its file says launchOverheadUs 11.005645598034027 and perChannelCapSimple[3] 70.0.
     */
    @Test
    void profileWrittenBeforeNewParametersKeepsTheirDefaults() throws Exception {
        Path old = Path.of("src/test/resources/calibration/h200x2-profile-before-nvls-parameters.yaml");
        assertTrue(!Files.readString(old).contains("netStepUs"), "the file predates netStepUs");
        var c = CalibrationProfile.read(old);
        var d = PerformanceParameters.DEFAULTS;
        assertEquals(d.perChannelCapNvls(), c.parameters().perChannelCapNvls());
        assertEquals(d.netStepUs(), c.parameters().netStepUs());
        assertEquals(d.nvlsBwScale(), c.parameters().nvlsBwScale());
        assertEquals(11.005645598034027, c.parameters().launchOverheadUs());
        assertEquals(70.0, c.parameters().perChannelCapSimple().get(3));
    }
}
