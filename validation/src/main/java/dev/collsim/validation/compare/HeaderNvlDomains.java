package dev.collsim.validation.compare;

import dev.collsim.validation.ingest.Dataset;
import java.util.List;
import java.util.Optional;
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

    /**
     * @param d the dataset
     * @return where the file says its hosts are in different NVLink domains (e.g. {@code the run's label}), empty when
     *         it does not
     */
    static Optional<String> apart(Dataset d) {
        if (APART.matcher(d.label()).find()) {
            return Optional.of("the run's label");
        }
        for (String key : List.of("nodes_x_gpus", "interconnect", "hardware")) {
            if (APART.matcher(d.header().text(key)).find()) {
                return Optional.of("the header's " + key + " line");
            }
        }
        return Optional.empty();
    }
}
