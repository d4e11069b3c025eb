package dev.collsim.validation.ingest;

import dev.collsim.io.InputException;
import dev.collsim.io.InputLimits;
import dev.collsim.io.InputProblem;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads any supported measurement file, choosing the reader by content: JSON (starts with '{', or '[' then '{')
 * goes to {@link JsonMeasurementReader}, everything else to {@link NcclTestsTextReader} (which also handles reduced
 * markdown tables and NCCL_DEBUG=INFO lines).
 */
public final class MeasurementReader {

    private MeasurementReader() {
    }

    /**
     * @param file the file, as the user gave it
     * @return its datasets, in file order; each dataset's {@link Dataset#file()} (part of its id) is the file's base
     *         name
     * @throws InputException when the file cannot be read or holds no measurement (problems name lines, and the
     *                        file as the user gave it)
     */
    public static List<Dataset> read(Path file) throws InputException {
        String content = InputLimits.readText(file, file.toString());
        String base = file.getFileName() == null ? file.toString() : file.getFileName().toString();
        try {
            return read(base, content);
        } catch (InputException e) {
            throw new InputException(e.problems().stream().map(p -> p.file().equals(base) ? new InputProblem(
                    file.toString(), p.line(), p.column(), p.field(), p.message()) : p).toList());
        }
    }

    /**
     * @param name    name to cite in messages
     * @param content the file's text
     * @return its datasets
     * @throws InputException see {@link #read(Path)}
     */
    public static List<Dataset> read(String name, String content) throws InputException {
        if (isJson(content)) {
            return JsonMeasurementReader.read(name, content);
        }
        return NcclTestsTextReader.read(name, content);
    }

    /**
     * Whether {@link #read(String, String)} reads the text as JSON: it opens with '{', or with '[' then '{' (a JSON
     * array of runs) or ']' (an empty one). A text line may open with '[' too: mpirun --tag-output's
     * {@code [1,0]<stdout>:}, a bracketed time stamp; such a file is text, with lines to cite.
     *
     * @param content a measurement file's text
     * @return true when it is read as JSON
     */
    public static boolean isJson(String content) {
        String t = content.stripLeading();
        return t.startsWith("{") || t.startsWith("[") && t.substring(1).stripLeading().matches("(?s)[{\\]].*");
    }
}
