package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A JSON result file that ends in its middle (a job killed while writing): the complete results are read and a note
 * says where it stopped. The input is a real run of the project's data, cut here at chosen places.
 */
class JsonCutShortTest {

    /** collsim run on two H200 hosts, one rank each: 28 results, 8 B doubling to 1 GiB, then metadata. */
    private static final Path RUN = Path.of("..", "data", "device", "h200x2-2proc-2026-11-29", "run3",
            "b-2proc-all_reduce.rank0.json");

    private static String run() throws Exception {
        return Files.readString(RUN);
    }

    /** @return the text up to (not including) the n-th occurrence (1-based) of what */
    private static String upTo(String text, String what, int n) {
        int at = -1;
        for (int i = 0; i < n; i++) {
            at = text.indexOf(what, at + 1);
        }
        assertTrue(at > 0, what + " #" + n);
        return text.substring(0, at);
    }

    @Test
    void aFileCutInsideAResultKeepsTheResultsBeforeIt() throws Exception {
        // cut in the 11th result, after its out_of_place half: "in_place" : { "time" : 1
        String cut = upTo(run(), "\"in_place\"", 11) + "\"in_place\" : {\n      \"time\" : 1";
        Dataset d = MeasurementReader.read("cut.json", cut).get(0);
        // results[0..9] are whole: sizes 8 B doubling (config minimum_bytes 8, step_factor 2), the 10th 8*2^9 B
        assertEquals(10, d.points().size());
        assertEquals(4096, d.points().get(9).sizeBytes());
        assertEquals(2, d.nRanks());
        String note = d.notes().stream().map(Note::text).filter(t -> t.startsWith("output cut short"))
                .findFirst().orElseThrow();
        assertTrue(note.contains("inside results[10].in_place"), note);
        assertTrue(note.contains("the 10 complete results"), note);
        // config.maximum_bytes of the file: 1073741824 = 1 GiB
        assertTrue(note.contains("the last complete result is 4096 B, the run asked for sizes up to 1073741824 B"),
                note);
    }

    @Test
    void aFileCutBetweenResultsAndAfterThem() throws Exception {
        // cut right after the comma that follows results[4]
        String between = upTo(run(), "{\n    \"collective\"", 6);
        Dataset d = MeasurementReader.read("cut.json", between).get(0);
        assertEquals(5, d.points().size());
        // cut inside metadata, after all 28 results (8 B .. 1 GiB doubling is 28 sizes: 2^3 .. 2^30)
        String late = upTo(run(), "\"hostnames\"", 1);
        Dataset all = MeasurementReader.read("cut.json", late).get(0);
        assertEquals(28, all.points().size());
        assertTrue(all.notes().stream().anyMatch(n -> n.text().contains("inside metadata")), all.notes().toString());
    }

    @Test
    void aFileCutBeforeItsFirstResultOrBrokenInItsMiddleIsNotRead() throws Exception {
        String early = upTo(run(), "\"in_place\"", 1);
        InputException e = assertThrows(InputException.class, () -> MeasurementReader.read("cut.json", early));
        assertTrue(e.getMessage().contains("not valid JSON: it ends before its first complete result"), e.getMessage());
        // a broken middle is no cut: still "not valid JSON"
        String broken = run().replaceFirst("\"size\" : 64,", "\"size\" : 64,,");
        InputException b = assertThrows(InputException.class, () -> MeasurementReader.read("bad.json", broken));
        assertTrue(b.getMessage().contains("not valid JSON"), b.getMessage());
    }

    /**
     * The message says what is wrong in the file, in one line, without the JSON parser's name for its own input
     * ("(start marker at [Source: REDACTED ...") that users saw: an object opened at line 1 and never closed ends at
     * line 1, column 21 (the 20 characters of {@code {"version": "2.19.6"} and one past them).
     */
    @Test
    void aCutJsonNamesWhereAndWhyWithoutTheParsersInternals() {
        InputException e = assertThrows(InputException.class,
                () -> MeasurementReader.read("cut.json", "{\"version\": \"2.19.6\""));
        String m = e.problems().get(0).toString();
        assertTrue(m.startsWith("cut.json:1:21: not valid JSON: it ends before its first complete result (cut short?):"
                + " Unexpected end-of-input"), m);
        assertTrue(!m.contains("Source") && !m.contains("start marker") && !m.contains("\n"), m);
    }
}
