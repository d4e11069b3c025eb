package dev.collsim.nccl.env;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;

/**
 * The names of every environment variable NCCL 2.30.7 reads, from the resource {@code nccl-2.30.7-variables.txt}
 * next to this class (its header says how the list was taken from NCCL's source and {@code env.rst}).
 */
final class NcclNames {

    private static final String RESOURCE = "nccl-2.30.7-variables.txt";
    private static final Set<String> NAMES = load();

    private NcclNames() {
    }

    /** @return true when NCCL 2.30.7 reads a variable of this name */
    static boolean contains(String name) {
        return NAMES.contains(name);
    }

    private static Set<String> load() {
        Set<String> out = new TreeSet<>();
        try (InputStream in = NcclNames.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " missing from the build");
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String name = line.strip();
                if (!name.isEmpty() && !name.startsWith("#")) {
                    out.add(name);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Set.copyOf(out);
    }
}
