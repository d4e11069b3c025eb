package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.io.TopologyReader;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.smi.NvidiaSmiTopoReader;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** The reader contract can fail: a reader that crashes, or cites another file, breaks it. */
class TopologyReaderContractSelfTest {

    /** A contract over a reader that reads its valid file and otherwise fails as {@code bad} does. */
    private static TopologyReaderContract over(TopologyReader bad) {
        return new TopologyReaderContract() {
            @Override
            TopologyReader reader() {
                return bad;
            }

            @Override
            String validFile() {
                return TestFiles.text("B-topo-dgx-a100.txt");
            }

            @Override
            String otherFormatFile() {
                return "";
            }
        };
    }

    private static TopologyReader failingWith(RuntimeException crash, String citedFile) {
        NvidiaSmiTopoReader real = new NvidiaSmiTopoReader();
        return new TopologyReader() {
            @Override
            public String format() {
                return "broken";
            }

            @Override
            public boolean accepts(String content) {
                return true;
            }

            @Override
            public Topology read(String fileName, String content) throws InputException {
                if (content.equals(TestFiles.text("B-topo-dgx-a100.txt"))) {
                    return real.read(fileName, content);
                }
                if (crash != null) {
                    throw crash;
                }
                throw new InputException(new InputProblem(citedFile, 1, 1, "", "bad"));
            }
        };
    }

    @Test
    void crashingReaderBreaksTheContract() {
        TopologyReaderContract c = over(failingWith(new IllegalArgumentException("index 3"), null));
        assertThrows(AssertionFailedError.class, c::garbageIsRefusedNamingTheFile);
        assertThrows(AssertionFailedError.class, c::emptyFileIsRefusedNamingTheFile);
    }

    @Test
    void readerCitingAnotherFileBreaksTheContract() {
        TopologyReaderContract c = over(failingWith(null, "somewhere-else.txt"));
        assertThrows(AssertionFailedError.class, c::truncatedFileReadsOrIsRefused);
    }
}
