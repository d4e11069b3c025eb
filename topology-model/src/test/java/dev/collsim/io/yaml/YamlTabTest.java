package dev.collsim.io.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A tab where YAML allows only spaces is refused at the tab itself, not at the end of the line before it (where
 * Jackson's location points: the last token it read). Lines and columns counted by hand in each text.
 */
class YamlTabTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // the tab opens line 7 (column 1); the line before ends at 6:17
        "schema: collsim/v1\\nname: x\\nhosts: dgx-h100\\ncount: 2\\nfabric:\\n  kind: fat-tree\\n\\tlinkSpeed: 1|7|1",
        // the tab opens line 4
        "schema: collsim/v1\\nname: x\\nhosts: dgx-h100\\n\\tcount: 2\\n|4|1",
        // two spaces then a tab on line 3: the tab is column 3
        "schema: collsim/v1\\nfabric:\\n  \\tkind: x\\n|3|3",
    })
    void tabIsLocatedAtTheTab(String escaped, int line, int column) {
        String text = escaped.replace("\\n", "\n").replace("\\t", "\t");
        InputProblem p = assertThrows(InputException.class, () -> YamlTree.parse("t.yaml", text, q -> { }))
                .problems().get(0);
        assertEquals(line, p.line(), p.toString());
        assertEquals(column, p.column(), p.toString());
        assertEquals("not valid YAML: while scanning for the next token; found character '\\t(TAB)' that cannot"
                + " start any token. (Do not use \\t(TAB) for indentation)", p.message());
    }
}
