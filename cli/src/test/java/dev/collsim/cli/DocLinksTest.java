package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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
 * Every relative link of the README and the pages in docs/ leads somewhere: the file exists (relative to the page, as
 * GitHub resolves it), and a {@code #fragment} into a markdown page names one of its headings (GitHub's anchor: lower
 * case, punctuation but {@code -} and {@code _} dropped, spaces as {@code -}). Three links pointed nowhere: docs pages
 * linking {@code docs/accuracy.md}, {@code docs/validation.md}, {@code docs/predict.md} and
 * {@code docs/device-runs.md} from inside docs/ (so to docs/docs/...), copied with the README's text.
 */
class DocLinksTest {

    /** A markdown link's target, without a title; images too. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    @Test
    void relativeLinksLeadToFilesAndHeadings() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("..", "README.md")));
        try (Stream<Path> docs = Files.list(Path.of("..", "docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : pages) {
            Matcher m = LINK.matcher(withoutCode(Files.readString(page)));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("^[a-z]+:.*")) {
                    continue; // https:, mailto:
                }
                checked++;
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(page.getFileName() + ": " + target + " (no " + resolved + ")");
                } else if (hash >= 0 && resolved.toString().endsWith(".md")
                        && !anchors(Files.readString(resolved)).contains(target.substring(hash + 1))) {
                    broken.add(page.getFileName() + ": " + target + " (no such heading in " + resolved + ")");
                }
            }
        }
        assertEquals(List.of(), broken);
        // the README alone links over a dozen pages
        assertTrue(checked > 30, "only " + checked + " relative links found");
    }

    /** GitHub's heading anchors of a markdown page (headings outside fenced code). */
    static Set<String> anchors(String markdown) {
        Set<String> out = new HashSet<>();
        for (String line : withoutCode(markdown).split("\n")) {
            if (line.matches("#{1,6} .*")) {
                String text = line.replaceFirst("^#+ ", "").trim().toLowerCase(Locale.ROOT);
                out.add(text.replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
            }
        }
        return out;
    }

    /** The page without its fenced code blocks (a {@code #} there is a shell comment, a link there is text). */
    private static String withoutCode(String markdown) {
        return markdown.replaceAll("(?ms)^```.*?^```", "");
    }
}
