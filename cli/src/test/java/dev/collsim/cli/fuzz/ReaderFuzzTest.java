package dev.collsim.cli.fuzz;

import dev.collsim.io.UserInputException;
import dev.collsim.topology.io.ClusterLoader;
import dev.collsim.validation.calibration.CalibrationProfile;
import dev.collsim.validation.diagnose.Diagnoser;
import dev.collsim.validation.ingest.MeasurementReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Fuzz targets, one per reader: mutants of the project's public files (configs/, the measured and machine files
 * under the modules' test resources, the fuzz-finding reproducers) go through the reader, which must either accept
 * the text or refuse it with a {@link UserInputException}; any other exception or error (NumberFormatException,
 * StackOverflowError, ...) fails the property, and jqwik prints the seed that reproduces it. Each target runs
 * jqwik's default number of tries (1,000) in {@code mvn verify}; a longer run sets
 * {@code -Djqwik.tries.default=N} (docs/input-limits.md).
 */
class ReaderFuzzTest {

    private static final Path ROOT = Path.of("..");
    private static final String[] TOKENS = {"99999999999", "9999999999G", "NaN", "Infinity", "-", "1e-320", "1e309",
        "-1", "0", "", "~", "null", "67.92.17", "\t", "\r\n", "GPUx", "NV99999999999", "<pci>", "</system>", ":", "{",
        "[", "&a", "*a", "\u0000", "\uFFFD", "nan", "-nan", "inf", "-207.5", "\r", "\nnode1:1:1 [0] NCCL WARN Cuda failure\n",
        "LnkSta: Speed 99999999999GT/s, Width x99999999999", "Algo 99999999999 proto 99999999999"};
    private static Path work;

    @BeforeContainer
    static void temp() throws IOException {
        work = Files.createTempDirectory("collsim-fuzz");
    }

    @AfterContainer
    static void clean() throws IOException {
        try (Stream<Path> s = Files.list(work)) {
            for (Path p : s.toList()) {
                Files.deleteIfExists(p);
            }
        }
        Files.deleteIfExists(work);
    }

    @Property
    void clusterFiles(@ForAll("clusterSeeds") String seed, @ForAll long random) throws IOException {
        Path f = write(seed, random);
        expectUserErrorOnly(() -> ClusterLoader.load(f.toString()));
    }

    /** Read, then diagnosed: the diagnose checks read the file's lines too (lspci link lines, header NIC counts). */
    @Property
    void measurementFiles(@ForAll("measurementSeeds") String seed, @ForAll long random) {
        String text = Mutator.mutate(read(Path.of(seed)), new Random(random), TOKENS);
        expectUserErrorOnly(() -> new Diagnoser().diagnose(MeasurementReader.read("m.txt", text),
                List.of(text.split("\r\n|\r|\n", -1))));
    }

    /**
     * Bytes that are not text (1 to 4 bytes of the file set to 0x80..0xFF, which cannot all be UTF-8): every file
     * reader refuses them with a located problem ("not UTF-8 text", the byte offset), or reads the file when the
     * bytes happen to form UTF-8 characters.
     */
    @Property
    void bytesThatAreNotText(@ForAll("allSeeds") String seed, @ForAll long random) throws IOException {
        byte[] b = Files.readAllBytes(Path.of(seed));
        Random r = new Random(random);
        for (int k = 1 + r.nextInt(4); k > 0 && b.length > 0; k--) {
            b[r.nextInt(b.length)] = (byte) (0x80 + r.nextInt(0x80));
        }
        Path f = work.resolve(Path.of(seed).getFileName());
        Files.write(f, b);
        expectUserErrorOnly(() -> ClusterLoader.load(f.toString()));
        expectUserErrorOnly(() -> MeasurementReader.read(f));
    }

    @Provide
    Arbitrary<String> allSeeds() {
        return Arbitraries.oneOf(clusterSeeds(), measurementSeeds());
    }

    @Property
    void calibrationProfiles(@ForAll("profileSeeds") String seed, @ForAll long random) throws IOException {
        Path f = write(seed, random);
        expectUserErrorOnly(() -> CalibrationProfile.read(f));
    }

    @Provide
    Arbitrary<String> clusterSeeds() {
        return seeds(ROOT.resolve("configs"), ROOT.resolve("topology-model/src/test/resources/dev/collsim/topology/io"),
                ROOT.resolve("topology-model/src/test/resources/dev/collsim/topology/io/infragraph"),
                ROOT.resolve("topology-model/src/test/resources/fuzz"));
    }

    @Provide
    Arbitrary<String> measurementSeeds() {
        return seeds(ROOT.resolve("validation/src/test/resources/data"),
                ROOT.resolve("validation/src/test/resources/fuzz"));
    }

    @Provide
    Arbitrary<String> profileSeeds() {
        return seeds(ROOT.resolve("configs/calibration"), ROOT.resolve("validation/src/test/resources/fuzz"));
    }

    private static Arbitrary<String> seeds(Path... dirs) {
        List<String> files = new ArrayList<>();
        for (Path d : dirs) {
            try (Stream<Path> s = Files.list(d)) {
                s.filter(Files::isRegularFile).map(Path::toString).sorted().forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return Arbitraries.of(files);
    }

    private static Path write(String seed, long random) throws IOException {
        String text = Mutator.mutate(read(Path.of(seed)), new Random(random), TOKENS);
        String name = Path.of(seed).getFileName().toString();
        Path f = work.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    private static String read(Path p) {
        try {
            return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void expectUserErrorOnly(Runnable reader) {
        try {
            reader.run();
        } catch (UserInputException expected) {
            // a refusal with a located message: what a reader should do with a bad file
        }
    }
}
