package dev.collsim.validation.compare;

import dev.collsim.validation.ingest.Dataset;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a data file says its hosts sit in different NVLink domains (trays of different NVL72 racks, or pods placed
 * across NVLink domains): the run's label, else the header's {@code nodes_x_gpus}, {@code interconnect} or
 * {@code hardware} line, holding {@code distinct}, {@code different}, {@code separate}, {@code cross(es)} or
 * {@code across} right before {@code NVL} / {@code NVLink} / {@code NVL72} and {@code domain(s)} (spaces or hyphens
 * between the words, case ignored): "pods in distinct NVLink domains", "crosses NVLink domains", "cross-NVL-domain".
 * Such hosts share no NVLink, so NCCL makes one node of each and joins them over the network. Stateless.
 */
final class HeaderNvlDomains {

    /** The phrase: a word of separation, then an NVLink domain. */
    static final Pattern APART = Pattern.compile("(?i)\\b(?:distinct|different|separate|cross(?:es|ed|ing)?|across)"
            + "[\\s-]+(?:the[\\s-]+|two[\\s-]+)?nvl(?:ink)?\\d*[\\s-]+domains?\\b");

    private HeaderNvlDomains() {
    }

    /** A run number: "run 1", "Run 2:". */
    private static final Pattern RUN = Pattern.compile("(?i)\\brun\\s*(\\d+)");

    /**
     * @param d the dataset
     * @return where the file says its hosts are in different NVLink domains, with the words quoted: {@code the run's
     *         label}, or {@code the header's nodes_x_gpus line ("run 1: pods in distinct NVLink domains")}; when those
     *         words are said of another run than this one (a header line naming run 1 read for the file's run 2), the
     *         text says so; empty when the file does not say it
     */
    static Optional<String> apart(Dataset d) {
        if (APART.matcher(d.label()).find()) {
            return Optional.of("the run's label");
        }
        for (String key : List.of("nodes_x_gpus", "interconnect", "hardware")) {
            String text = d.header().text(key);
            Matcher m = APART.matcher(text);
            if (m.find()) {
                return Optional.of("the header's " + key + " line (\"" + phrase(text, m) + "\")" + otherRun(d, text, m));
            }
        }
        return Optional.empty();
    }

    /** @return the words from the start of the phrase's clause (after "(", ";" or ",") to its end */
    private static String phrase(String text, Matcher m) {
        int from = Math.max(text.lastIndexOf('(', m.start()), Math.max(text.lastIndexOf(';', m.start()),
                text.lastIndexOf(',', m.start()))) + 1;
        return text.substring(from, m.end()).trim();
    }

    /**
     * @return {@code , said there of run 1, not of this run (Run 2): nothing in the file places this run's hosts,
     *         so they are taken to sit as run 1's did} when the phrase's clause names a run other than the one the
     *         dataset's label names; empty otherwise
     */
    private static String otherRun(Dataset d, String text, Matcher m) {
        Matcher said = RUN.matcher(phrase(text, m));
        Matcher mine = RUN.matcher(d.label());
        if (!said.find() || !mine.find() || said.group(1).equals(mine.group(1))) {
            return "";
        }
        return ", said there of run " + said.group(1) + ", not of this run (run " + mine.group(1) + "): nothing in"
                + " the file places this run's hosts, so they are taken to sit as run " + said.group(1) + "'s did";
    }
}
