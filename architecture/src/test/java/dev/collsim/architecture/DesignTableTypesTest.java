package dev.collsim.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/DESIGN.md's table of where each concept lives names types that exist: every code name in it ({@code
 * `pkg.Type.member`}, {@code `Type`}) whose first capitalised part is a type must name a class, record, enum or
 * interface of the project's sources (main or test, top-level or nested), its dotted prefix matching the end of the
 * type's package path ({@code channel.HostModel} is {@code dev.collsim.simulator.channel.HostModel}); a bare name
 * needs only its simple name, or a {@code java.lang} type. A move that leaves the table behind fails here.
 */
class DesignTableTypesTest {

    private static final Path ROOT = Path.of("..");
    private static final Pattern CODE = Pattern.compile("`([A-Za-z0-9_.]+)");
    private static final Pattern DECLARED = Pattern.compile("\\b(?:class|record|enum|interface)\\s+([A-Z]\\w*)");

    @Test
    void everyTypeTheTableNamesExists() throws IOException {
        List<String> missing = missing(table(Files.readString(ROOT.resolve("docs/DESIGN.md"))), projectTypes());
        assertEquals(List.of(), missing, "names in docs/DESIGN.md's table with no such type in the sources");
    }

    /** The check itself: a made-up row's names are reported, a real one's not. */
    @Test
    void aNameWithNoTypeIsReported() {
        Set<String> types = Set.of("dev.collsim.topology.fabric.FabricCut",
                "dev.collsim.topology.fabric.FabricCut.Group");
        String row = "| cut | topology-model/`topology.fabric.FabricCut.of`, `fabric.FabricCut.Group`, `FabricCut`,"
                + " `topology.fabric.NoSuchCut`, `NoSuchType`, `String.format`, `MAX_PARTIAL_HOSTS`, `configs/x` |";
        assertEquals(List.of("topology.fabric.NoSuchCut", "NoSuchType"), missing(row, types));
        assertTrue(missing("| a | `topology.fabric.FabricCut` |", types).isEmpty());
    }

    /** @return the table rows of the section "Where things live" */
    private static String table(String design) {
        int start = design.indexOf("### Where things live");
        assertTrue(start >= 0, "docs/DESIGN.md has no section 'Where things live'");
        int end = design.indexOf("\n#", start + 1);
        return design.substring(start, end < 0 ? design.length() : end);
    }

    /**
     * @param table the table's text
     * @param types fully qualified names of the project's types (nested ones as {@code Outer.Inner})
     * @return the code names of the table that name no type, in table order
     */
    static List<String> missing(String table, Set<String> types) {
        Set<String> simple = new HashSet<>();
        types.forEach(t -> simple.add(t.substring(t.lastIndexOf('.') + 1)));
        List<String> out = new ArrayList<>();
        Matcher m = CODE.matcher(table);
        while (m.find()) {
            String[] parts = m.group(1).split("\\.");
            int i = 0;
            while (i < parts.length && (parts[i].isEmpty() || !Character.isUpperCase(parts[i].charAt(0)))) {
                i++;
            }
            boolean path = m.end() < table.length() && table.charAt(m.end()) == '/';
            if (i == parts.length || parts[i].equals(parts[i].toUpperCase(Locale.ROOT)) || path) {
                continue; // no type (a package, a file path, a constant)
            }
            String name = String.join(".", List.of(parts).subList(0, i + 1));
            boolean found = i == 0 ? simple.contains(name) || javaLang(name)
                    : types.stream().anyMatch(t -> t.equals(name) || t.endsWith("." + name));
            if (!found) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    private static boolean javaLang(String name) {
        try {
            Class.forName("java.lang." + name);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** @return every type declared in the modules' main and test sources, fully qualified */
    private static Set<String> projectTypes() throws IOException {
        Set<String> out = new HashSet<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            files.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/")
                    && !p.toString().contains("/target/")).forEach(p -> add(p, out));
        }
        return out;
    }

    private static void add(Path file, Set<String> out) {
        String path = file.toString().replace('\\', '/');
        int java = path.indexOf("/java/");
        if (java < 0) {
            return;
        }
        String type = path.substring(java + "/java/".length(), path.length() - ".java".length()).replace('/', '.');
        out.add(type);
        try {
            Matcher m = DECLARED.matcher(Files.readString(file));
            while (m.find()) {
                out.add(type + "." + m.group(1));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
