package dev.collsim.sweep.run;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

/**
 * The jars a cluster's executors need beyond Spark's own: the entries of a class path file (written at build time by
 * the sweep module's pom, {@code ship-classpath.txt}). A class folder (a module of this build compiled but not
 * packaged) is packed into a jar first, since {@code spark.jars} takes jars. Stateless.
 */
public final class ShipJars {

    private ShipJars() {
    }

    /**
     * @param entries class path entries: jars and class folders
     * @param work    folder for the jars packed from class folders
     * @return one jar per entry (missing entries left out)
     * @throws IOException when a folder cannot be packed
     */
    public static List<String> of(List<String> entries, Path work) throws IOException {
        List<String> out = new ArrayList<>();
        for (String e : entries) {
            Path p = Path.of(e);
            if (Files.isDirectory(p)) {
                out.add(pack(p, work.resolve(out.size() + "-" + p.getParent().getParent().getFileName() + ".jar"))
                        .toString());
            } else if (Files.isRegularFile(p)) {
                out.add(e);
            }
        }
        return out;
    }

    /** @return the entries of a class path file */
    public static List<String> read(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        for (String s : Files.readString(file).trim().split(File.pathSeparator)) {
            if (!s.isBlank()) {
                out.add(s);
            }
        }
        return out;
    }

    private static Path pack(Path classes, Path jar) throws IOException {
        Files.createDirectories(jar.getParent());
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out);
                Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                j.putNextEntry(new ZipEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                j.write(Files.readAllBytes(f));
                j.closeEntry();
            }
        }
        return jar;
    }
}
