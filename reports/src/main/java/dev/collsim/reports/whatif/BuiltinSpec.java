package dev.collsim.reports.whatif;

import dev.collsim.io.InputException;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.ReportSpecReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The built-in what-if spec (the resource {@code builtin-whatif.yaml}, a copy of {@code examples/whatif-default.yaml}):
 * the default cluster and variants changing NIC speed, fabric, NCCL_ALGO and host count, with collective sweeps, two
 * training plans and an algorithm map.
 */
public final class BuiltinSpec {

    /** The name problems cite for the built-in spec. */
    public static final String NAME = "<built-in what-if spec>";

    private BuiltinSpec() {
    }

    /** @return the spec's YAML text */
    public static String text() {
        try (InputStream in = BuiltinSpec.class.getResourceAsStream("builtin-whatif.yaml")) {
            if (in == null) {
                throw new IllegalStateException("builtin-whatif.yaml missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @return the parsed spec (relative files resolve against the working directory)
     * @throws InputException never for the shipped text (a test reads it); declared for the reader's contract
     */
    public static ReportSpec read() throws InputException {
        return ReportSpecReader.read(NAME, text(), Path.of("").toAbsolutePath());
    }
}
