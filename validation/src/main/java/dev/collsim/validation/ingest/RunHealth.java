package dev.collsim.validation.ingest;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a header's {@code health} text for one run of a file that holds several runs, e.g.
 * {@code run1 ok (...), run2 problem (...)}, {@code bare metal ok (...); VM problem (...)} or
 * {@code 1-node ok; 2-node (a2) PROBLEM-like ... vs (b2) ok ...}.
 *
 * <p>The text is cut into parts: at ';' and ',' outside parentheses, at " vs ", and before every run marker
 * ({@code run2}, {@code runs 2/3}, {@code (a2)}). A part names the run when it holds the run's marker (the
 * {@code run N} or {@code (a2)} of its title, as {@link RunEnv} reads it); when no part holds it, when it
 * holds one of the title's distinctive words ({@code stock}, {@code VM}, singular and plural alike) or count phrases
 * ({@code 1 node} = {@code 1-node}). A part's verdict is its first verdict word, the title's own words not counted
 * ({@code GOOD build ok}: ok): problem, problem-like, problem-ish, bad, degraded, broken, fail... or ok, ok-ish,
 * good, fine, healthy. A run is a problem when a part naming it says so, fine when the parts naming it say ok; when
 * no part names it, or none that does gives a verdict, the whole-file rule holds: the text starts with "problem".
 */
public final class RunHealth {

    private static final Pattern MARKER = Pattern.compile(
            "\\bruns?\\s*\\d+(?:\\s*[/-]\\s*(?:run\\s*)?\\d+)*|\\([a-z]\\d\\)");
    private static final Pattern VERDICT = Pattern.compile(
            "\\b(problem\\w*|bad|degraded|broken|fail\\w*|ok|good|fine|healthy)\\b");
    private static final Pattern WORD = Pattern.compile("[a-z][a-z0-9]+");
    private static final Pattern COUNT = Pattern.compile("\\b(\\d+)[ -]?(node|host|pod|gpu|vm|nic)s?\\b");
    /** Words too common in titles and health texts to name one run (units, counting nouns, NCCL's own name). */
    private static final Set<String> STOP = Set.of("nccl", "gpu", "node", "host", "pod", "nic", "rank", "process",
            "with", "and", "the", "of", "per", "on", "in", "at", "to", "for", "by", "one", "two", "three", "four",
            "run", "table", "line", "default", "algo", "algorithm", "gb", "busbw", "algbw", "result", "only", "that",
            "this", "before", "after", "from", "via", "vs", "not", "no");

    private RunHealth() {
    }

    /**
     * @param health the header's health text (may be empty)
     * @param title  the run's title, {@link Dataset#label()}
     * @return true when the text calls this run a problem (per run where the text names it, else per file)
     */
    public static boolean problem(String health, String title) {
        String h = (health == null ? "" : health).trim().toLowerCase(Locale.ROOT);
        boolean perFile = h.startsWith("problem");
        return verdict(h, title == null ? "" : title.toLowerCase(Locale.ROOT)).orElse(perFile);
    }

    /** @return true for problem, false for ok; empty when no part naming the run gives a verdict */
    private static Optional<Boolean> verdict(String h, String title) {
        String key = runKey(title);
        Set<String> words = words(title);
        Set<String> counts = counts(title);
        List<String> parts = parts(h);
        boolean keyed = key != null && parts.stream().anyMatch(p -> markerNames(p, key));
        boolean ok = false;
        for (String part : parts) {
            boolean names = keyed ? markerNames(part, key) : namesByWords(part, words, counts);
            if (!names) {
                continue;
            }
            Matcher v = VERDICT.matcher(part);
            while (v.find()) {
                if (words.contains(v.group(1))) {
                    continue;
                }
                if (isOk(v.group(1))) {
                    ok = true;
                    break;
                }
                return Optional.of(true);
            }
        }
        return ok ? Optional.of(false) : Optional.empty();
    }

    private static boolean isOk(String w) {
        return "ok".equals(w) || "good".equals(w) || "fine".equals(w) || "healthy".equals(w);
    }

    /** @return the health text cut at ';', ',' outside parentheses, at " vs ", and before each run marker */
    static List<String> parts(String h) {
        List<String> out = new ArrayList<>();
        Set<Integer> markerStarts = new HashSet<>();
        Matcher m = MARKER.matcher(h);
        while (m.find()) {
            markerStarts.add(m.start());
        }
        int depth = 0;
        int start = 0;
        for (int i = 0; i < h.length(); i++) {
            char c = h.charAt(i);
            depth += c == '(' && !markerStarts.contains(i) ? 1 : c == ')' && depth > 0 ? -1 : 0;
            boolean cut = depth == 0 && (c == ';' || c == ',' || h.startsWith(" vs ", i));
            if (markerStarts.contains(i) && i > start || cut) {
                out.add(h.substring(start, i));
                start = c == ';' || c == ',' ? i + 1 : i;
            }
        }
        out.add(h.substring(start));
        return out;
    }

    private static boolean markerNames(String part, String key) {
        Matcher m = MARKER.matcher(part);
        while (m.find()) {
            String mk = m.group();
            if (mk.startsWith("(")) {
                if (mk.substring(1, 3).equals(key)) {
                    return true;
                }
            } else if (Character.isDigit(key.charAt(0)) && inRange(mk.replaceAll("[^0-9/-]", ""), Integer.parseInt(key))) {
                return true;
            }
        }
        return false;
    }

    /** @return true when n is one of "2", "2/3" or in "2-6" */
    private static boolean inRange(String nums, int n) {
        for (String s : nums.split("/")) {
            String[] r = s.split("-");
            if (!r[0].isEmpty() && n >= Integer.parseInt(r[0]) && n <= Integer.parseInt(r[r.length - 1])) {
                return true;
            }
        }
        return false;
    }

    private static boolean namesByWords(String part, Set<String> words, Set<String> counts) {
        if (words.stream().anyMatch(w -> words(part).contains(w))) {
            return true;
        }
        Set<String> partCounts = counts(part);
        return counts.stream().anyMatch(partCounts::contains);
    }

    /** @return the distinctive words of a text, singular (trailing 's' dropped), stop words left out */
    private static Set<String> words(String text) {
        Set<String> out = new HashSet<>();
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            String w = m.group();
            w = w.length() > 2 && w.endsWith("s") ? w.substring(0, w.length() - 1) : w;
            if (!STOP.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }

    /** @return count phrases like "1 node", "8 gpu" (from "1-node", "8 GPUs") */
    private static Set<String> counts(String text) {
        Set<String> out = new HashSet<>();
        Matcher m = COUNT.matcher(text);
        while (m.find()) {
            out.add(m.group(1) + " " + m.group(2));
        }
        return out;
    }

    private static String runKey(String title) {
        Matcher m = Pattern.compile("\\brun\\s*(\\d+)|\\(([a-z]\\d)\\)").matcher(title);
        if (!m.find()) {
            return null;
        }
        return m.group(1) != null ? m.group(1) : m.group(2);
    }
}
