package dev.collsim.io.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import org.junit.jupiter.api.Test;

/** A YAML syntax error keeps what the parser expected and where the broken construct began. */
class YamlSyntaxMessageTest {

    /** The '[' of line 5 ("    count: [2") is column 12; the next line's ':' is where the parser gives up. */
    @Test
    void unclosedFlowSequenceSaysWhatWasExpectedAndWhereItOpened() {
        String text = "schema: collsim/v1\nname: x\nhosts:\n  - type: dgx-h100\n    count: [2\n  fabric: x\n";
        InputProblem p = assertThrows(InputException.class, () -> YamlTree.parse("c.yaml", text, q -> { }))
                .problems().get(0);
        assertEquals(6, p.line());
        assertEquals("not valid YAML: while parsing a flow sequence (from 5:12); expected ',' or ']', but got :",
                p.message());
    }
}
