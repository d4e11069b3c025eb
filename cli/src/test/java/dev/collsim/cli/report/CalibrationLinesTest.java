package dev.collsim.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CalibrationLinesTest {

    @Test
    void variantsOfOneProfileShareOneLine() {
        List<String> in = List.of("base: 4x DGX H100: calibration: a.yaml (x)", "NIC 200 Gb/s: calibration: a.yaml (x)",
                "GB200: calibration: b.yaml (y)", "32 hosts: calibration: a.yaml (x)");
        assertEquals(List.of("calibration of \"base: 4x DGX H100\", \"NIC 200 Gb/s\", \"32 hosts\": a.yaml (x)",
                "calibration of \"GB200\": b.yaml (y)"), CalibrationLines.group(in));
    }

    /** Names holding the list's own marks (',', ':', ';', quotes) stay apart: each is quoted, quotes escaped. */
    @Test
    void namesWithSeparatorsStayApart() {
        List<String> in = List.of("2:1 fat-tree, 8 ports/leaf: calibration: a.yaml",
                "say \"hi\"; bye: calibration: a.yaml", "x: calibration: b.yaml");
        assertEquals(List.of("calibration of \"2:1 fat-tree, 8 ports/leaf\", \"say \\\"hi\\\"; bye\": a.yaml",
                "calibration of \"x\": b.yaml"), CalibrationLines.group(in));
    }

    /** One calibration for every variant is the single line predict, compare, plan and tune print. */
    @Test
    void oneCalibrationForEveryVariantIsTheCommandsLine() {
        List<String> in = List.of("base: calibration: none (bare model)", "1 host: calibration: none (bare model)");
        assertEquals(List.of("calibration: none (bare model)"), CalibrationLines.group(in));
    }

    @Test
    void aLineWithoutTheMarkIsKept() {
        assertEquals(List.of("calibration of odd"), CalibrationLines.group(List.of("odd")));
    }

    /**
     * The report's network notes are grouped as the calibration lines are: two EFA variants of a p5 cluster printed
     * the same "network of ..." note twice.
     */
    @Test
    void networkNotesOfSeveralVariantsShareOneLine() {
        Map<String, List<String>> in = new LinkedHashMap<>();
        in.put("EFA note", List.of("base", "4 hosts"));
        in.put("RoCE note", List.of("RoCE instead"));
        assertEquals(List.of("network of \"base\", \"4 hosts\": EFA note", "network of \"RoCE instead\": RoCE note"),
                CalibrationLines.grouped("network", in));
    }
}
