package dev.collsim.validation.ingest;

import dev.collsim.io.InputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Test helper: reads the copied corpus of ../shared/data (validation/src/test/resources/data). */
public final class Corpus {

    /** Folder of the corpus, relative to the module. */
    public static final Path DIR = Path.of("src/test/resources/data");

    private Corpus() {
    }

    /** @return the datasets of one corpus file */
    public static List<Dataset> read(String name) throws InputException {
        return MeasurementReader.read(DIR.resolve(name));
    }

    /** @return the text of one corpus file */
    public static String text(String name) {
        try {
            return Files.readString(DIR.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
