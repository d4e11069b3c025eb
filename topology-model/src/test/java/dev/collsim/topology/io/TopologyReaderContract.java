package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.io.TopologyReader;
import dev.collsim.topology.Device;
import dev.collsim.topology.Link;
import dev.collsim.topology.Topology;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The contract of every {@link TopologyReader}: whatever the bytes, {@code read} returns a topology or throws an
 * {@link InputException} whose problems name the file, never another exception; it is deterministic and keeps no
 * state between reads. A new reader extends this class, names itself and one valid real file, and gets the
 * invariants.
 */
abstract class TopologyReaderContract {

    /** The file name given to the reader; every problem must cite it. */
    static final String FILE = "contract-input";

    /** @return a fresh reader */
    abstract TopologyReader reader();

    /** @return the text of a real, valid file of the reader's format */
    abstract String validFile();

    /** @return the text of a valid file of another format (the reader must refuse it or read it, not crash) */
    abstract String otherFormatFile();

    /**
     * Reads and checks the outcome is a topology or an InputException naming {@link #FILE}.
     *
     * @return the topology, or empty when the input was refused
     */
    final Optional<Topology> readSafely(String content, String what) {
        try {
            return Optional.of(reader().read(FILE, content));
        } catch (InputException e) {
            assertFalse(e.problems().isEmpty(), what);
            for (InputProblem p : e.problems()) {
                assertEquals(FILE, p.file(), what + ": every problem names the file: " + p);
            }
            assertTrue(e.getMessage().contains(FILE), what + ": the message names the file: " + e.getMessage());
            return Optional.empty();
        } catch (RuntimeException | Error e) {
            return fail(reader().format() + " reader threw " + e + " on " + what + " (expected a topology or an"
                    + " InputException)", e);
        }
    }

    /** @return devices and links in a canonical order, to compare two reads */
    static String canonical(Topology t) {
        String devices = t.graph().vertexSet().stream().map(Device::toString).sorted()
                .collect(Collectors.joining("\n"));
        String links = t.graph().edgeSet().stream()
                .map(l -> t.source(l).id() + " -> " + t.target(l).id() + " " + l)
                .sorted(Comparator.naturalOrder()).collect(Collectors.joining("\n"));
        return t.name() + "\n" + t.hostCount() + "\n" + devices + "\n" + links;
    }

    @Test
    void validFileGivesTopologyWithGpus() throws InputException {
        assertTrue(reader().accepts(validFile()), "accepts its own format");
        Topology t = reader().read(FILE, validFile());
        assertFalse(t.gpus().isEmpty(), "a real file has GPUs");
        for (Link l : t.graph().edgeSet()) {
            assertTrue(l.count() >= 1, "link count >= 1: " + l);
        }
    }

    @Test
    void emptyFileIsRefusedNamingTheFile() {
        assertTrue(readSafely("", "an empty file").isEmpty(), "an empty file describes no cluster");
        assertTrue(readSafely(" \n\t\n", "a blank file").isEmpty(), "a blank file describes no cluster");
    }

    /** Cut after every 1/16 of the file: each prefix reads or is refused, never crashes. */
    @Test
    void truncatedFileReadsOrIsRefused() {
        String text = validFile();
        for (int i = 1; i < 16; i++) {
            int cut = text.length() * i / 16;
            readSafely(text.substring(0, cut), "the first " + cut + " of " + text.length() + " characters");
        }
    }

    /** Random bytes (fixed seeds), as text and as a valid file with garbage spliced in. */
    @Test
    void garbageIsRefusedNamingTheFile() {
        Random random = new Random(12);
        for (int trial = 0; trial < 8; trial++) {
            byte[] bytes = new byte[64 + random.nextInt(2048)];
            random.nextBytes(bytes);
            String garbage = new String(bytes, StandardCharsets.ISO_8859_1);
            readSafely(garbage, "garbage bytes (trial " + trial + ")");
            String text = validFile();
            int at = random.nextInt(text.length());
            readSafely(text.substring(0, at) + garbage + text.substring(at), "a valid file with garbage at " + at);
        }
    }

    @Test
    void otherFormatReadsOrIsRefused() {
        readSafely(otherFormatFile(), "a file of another format");
    }

    /** Two reads of the same text are equal, and a read in between of another text leaves no trace. */
    @Test
    void readsAreDeterministicAndStateless() throws InputException {
        TopologyReader r = reader();
        String first = canonical(r.read(FILE, validFile()));
        readSafely("garbage\n", "garbage between two reads");
        assertEquals(first, canonical(r.read(FILE, validFile())), "same reader, second read");
        assertEquals(first, canonical(reader().read(FILE, validFile())), "another reader");
    }
}
