package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.simulator.perf.PerformanceParameters;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one reader of --params / calibration: files: located problems, partial files over the defaults. */
class ParametersFileTest {

    @TempDir
    Path dir;

    @Test
    void unknownFieldIsNamedAtItsLineAndColumn() throws Exception {
        Path f = Files.writeString(dir.resolve("p.yaml"), "latencyScale: 1.2\n  \nFOO: 1\n");
        InputProblem p = assertThrows(InputException.class, () -> ParametersFile.read(f)).problems().get(0);
        assertEquals(3, p.line());
        assertEquals(1, p.column());
        assertEquals("FOO", p.field());
        assertEquals(true, p.message().startsWith("unknown key 'FOO'; allowed: launchOverheadUs, latencyScale"),
                p.message());
    }

    /**
     * A profile whose schema line was lost (copied in part, or written by hand from the README's mention of
     * generatedBy) is read as bare parameters; its first key is then unknown, and the message says why: without
     * calibrate's "schema: collsim-calibration/v1" line (configs/calibration/h200x2-nv18-nccl2.28.yaml line 1) a file
     * is not a profile. The key is at line 1, column 1.
     */
    /** A value that is no number is named at its key, as found and allowed, not in Jackson's Java words. */
    @Test
    void aValueOfTheWrongKindIsNamedAtItsKey() throws Exception {
        Path f = Files.writeString(dir.resolve("p.yaml"), "launchOverheadUs: 1.5\nbwEfficiencySimple: 2x\n");
        InputProblem p = assertThrows(InputException.class, () -> ParametersFile.read(f)).problems().get(0);
        assertEquals(2, p.line());
        assertEquals(1, p.column());
        assertEquals("bwEfficiencySimple", p.field());
        assertEquals("found '2x'; allowed: a number", p.message());
    }

    @Test
    void aProfileWithoutItsSchemaLineSaysWhyItsKeysAreUnknown() throws Exception {
        Path f = Files.writeString(dir.resolve("p.yaml"), "generatedBy: by hand\nparameters:\n  latencyScale: 1.2\n");
        InputProblem p = assertThrows(InputException.class, () -> ParametersFile.read(f)).problems().get(0);
        assertEquals(f + ":1:1: generatedBy", p.toString().substring(0, f.toString().length() + 17));
        assertEquals(true, p.message().endsWith("(a file without calibrate's line 'schema: collsim-calibration/v1' is"
                + " read as bare parameters, not as a profile)"), p.message());
    }

    @Test
    void givenFieldsOverrideAndTheRestKeepTheDefaults() throws Exception {
        Path f = Files.writeString(dir.resolve("p.json"), "{\"latencyScale\": 1.5, \"launchOverheadUs\": 4}");
        PerformanceParameters p = ParametersFile.read(f);
        assertEquals(1.5, p.latencyScale(), 0);
        assertEquals(4.0, p.launchOverheadUs(), 0);
        assertEquals(PerformanceParameters.DEFAULTS.bwEfficiencySimple(), p.bwEfficiencySimple(), 0);
    }

    @Test
    void outOfRangeValueIsLocatedAtItsField() throws Exception {
        Path f = Files.writeString(dir.resolve("p.json"), "{\n  \"latencyScale\": 0\n}\n");
        InputProblem p = assertThrows(InputException.class, () -> ParametersFile.read(f)).problems().get(0);
        assertEquals("latencyScale", p.field());
        assertEquals(2, p.line());
    }

    /** A file that names the profile schema only in passing is read as a profile and refused at its schema. */
    @Test
    void aProfileWithoutItsSchemaSaysWhatWasFound() throws Exception {
        Path f = Files.writeString(dir.resolve("p.yaml"), "schema: v0\nnote: not a collsim-calibration/v1 file\n");
        InputProblem p = assertThrows(InputException.class, () -> ParametersFile.read(f)).problems().get(0);
        assertEquals(f + ":1: schema: found 'v0'; allowed: collsim-calibration/v1", p.toString());
    }

    @Test
    void aListIsNotParameters() throws Exception {
        Path f = Files.writeString(dir.resolve("p.yaml"), "- 1\n- 2\n");
        InputProblem p = assertThrows(InputException.class, () -> ParametersFile.read(f)).problems().get(0);
        assertEquals(1, p.line());
        assertEquals(1, p.column());
        assertEquals("parameters", p.field());
        assertEquals(true, p.message().startsWith("found a list; allowed: a mapping of launchOverheadUs,"),
                p.message());
    }
}
